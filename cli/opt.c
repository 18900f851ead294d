/* Option tables: parsing, checking and help for every subcommand that
 * declares its options in a struct cli_opt table (cli/opt.h). */
#include "cli/opt.h"

#include <stdint.h>
#include <string.h>

#include "cli/cli.h"
#include "common/hn.h"

#define HELP_COL 21 /* where the help text of an option starts */
#define HELP_WIDTH 80

/* An entry found by name, with the offset of its table within the base,
 * and how many entries matched. */
struct found {
    const struct cli_opt *o;
    size_t base;
    int n;
};

/* Look name[0..len) (or the letter) up in t and its sub-tables. A name
 * that is the beginning of one option only stands for it, as it did under
 * getopt_long, so `--thread 2` keeps working. */
static void lookup(const struct cli_opt *t, size_t base, const char *name, size_t len, char letter,
                   struct found *exact, struct found *prefix)
{
    for (; t->kind != CLI_OPT_END; t++) {
        struct found *f = NULL;
        if (t->kind == CLI_OPT_TABLE)
            lookup(t->sub, base + t->off, name, len, letter, exact, prefix);
        else if (letter)
            f = t->letter == letter ? exact : NULL;
        else if (t->name && !strncmp(t->name, name, len))
            f = t->name[len] ? prefix : exact;
        if (f) {
            f->o = t;
            f->base = base;
            f->n++;
        }
    }
}

/* The index of word w among the '|'-separated words, or -1. */
static int word_index(const char *words, const char *w)
{
    size_t len = strlen(w);
    for (int i = 0; *words; i++) {
        size_t n = strcspn(words, "|");
        if (n == len && !strncmp(words, w, n))
            return i;
        words += n + (words[n] == '|');
    }
    return -1;
}

/* CLI_OPT_INT and CLI_OPT_LONG */
static int parse_int(const struct cli_opt *o, void *p, const char *v, char *why, size_t cap)
{
    long x;
    if (!cli_parse_long(v, (long)o->lo, (long)o->hi, &x)) {
        if (o->kind == CLI_OPT_LONG)
            *(long *)p = x;
        else
            *(int *)p = (int)x;
        return 0;
    }
    snprintf(why, cap, "is not an integer in %ld..%ld", (long)o->lo, (long)o->hi);
    return -1;
}

static int parse_u64(const struct cli_opt *o, void *p, const char *v, char *why, size_t cap)
{
    uint64_t x, lo = (uint64_t)o->lo, hi = o->hi ? (uint64_t)o->hi : UINT64_MAX;
    if (!cli_parse_u64(v, &x) && x >= lo && x <= hi) {
        *(uint64_t *)p = x;
        return 0;
    }
    if (o->hi)
        snprintf(why, cap, "is not an integer in %llu..%llu", (unsigned long long)lo,
                 (unsigned long long)hi);
    else
        snprintf(why, cap, "is not a%s integer", lo ? " positive" : " non-negative");
    return -1;
}

static int parse_real(const struct cli_opt *o, void *p, const char *v, char *why, size_t cap)
{
    double x;
    int open = o->flags & CLI_OPT_OPEN, below = o->flags & CLI_OPT_BELOW;
    if (!cli_parse_double(v, &x) && (open ? x > o->lo : x >= o->lo) &&
        (below ? x < o->hi : x <= o->hi)) {
        if (o->flags & CLI_OPT_FLOAT)
            *(float *)p = (float)x;
        else
            *(double *)p = x;
        return 0;
    }
    snprintf(why, cap, "is not a number in %s%g, %g%s", open ? "(" : "[", o->lo, o->hi,
             below ? ")" : "]");
    return -1;
}

static int parse_enum(const struct cli_opt *o, void *p, const char *v, char *why, size_t cap)
{
    int i = word_index(o->arg, v);
    if (i >= 0) {
        *(int *)p = i;
        return 0;
    }
    size_t n = (size_t)snprintf(why, cap, "is not one of ");
    for (const char *w = o->arg; *w && n + 3 < cap; w++)
        n += (size_t)snprintf(why + n, cap - n, *w == '|' ? ", " : "%c", *w);
    return -1;
}

/* A file that cannot be read or memory that runs out is a failure (exit
 * 1), any other refusal misuse (exit 2). */
static int fn_value(const char *cmd, const struct cli_opt *o, void *p, const char *v)
{
    int st = o->fn(p, v);
    if (!st)
        return 0;
    if (st != HN_ERR_IO && st != HN_ERR_NOMEM)
        return cli_usage(cmd, "--%s: %s", o->name, hn_errmsg());
    fprintf(stderr, "heurnet %s: --%s: %s\n", cmd, o->name, hn_errmsg());
    return CLI_EXIT_FAIL;
}

typedef int (*parse_fn)(const struct cli_opt *o, void *p, const char *v, char *why, size_t cap);
static const parse_fn parsers[] = {[CLI_OPT_INT] = parse_int,
                                   [CLI_OPT_LONG] = parse_int,
                                   [CLI_OPT_U64] = parse_u64,
                                   [CLI_OPT_REAL] = parse_real,
                                   [CLI_OPT_ENUM] = parse_enum};

/* Apply one option's value to the fields at base: 0, or CLI_EXIT_USAGE with
 * the option, the value and the reason printed. */
static int set_value(const char *cmd, const struct cli_opt *o, char *base, const char *v)
{
    void *p = base + o->off;
    char why[256];
    int *n = (int *)(base + o->count);
    switch (o->kind) {
    case CLI_OPT_FLAG:
        *(int *)p = o->set;
        return 0;
    case CLI_OPT_STR:
        *(const char **)p = v;
        return 0;
    case CLI_OPT_LIST:
        if (*n >= (int)o->hi)
            return cli_usage(cmd, "--%s: at most %d of them", o->name, (int)o->hi);
        ((const char **)p)[(*n)++] = v;
        return 0;
    case CLI_OPT_FN:
        return fn_value(cmd, o, p, v);
    default:
        return parsers[o->kind](o, p, v, why, sizeof why)
                   ? cli_usage(cmd, "--%s: '%s' %s", o->name, v, why)
                   : 0;
    }
}

/* The option at argv[*i] (--name, --name=value, -x, -xvalue); steps *i past
 * a value given as the next argument. */
static int one_option(const struct cli_opt_cmd *c, void *base, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *val = NULL;
    struct found ex = {0}, pre = {0};
    if (a[1] == '-') {
        const char *eq = strchr(a + 2, '=');
        size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        lookup(c->opts, 0, a + 2, len, 0, &ex, &pre);
        if (!ex.n && pre.n > 1)
            return cli_usage(c->cmd, "option '%.*s' is ambiguous", (int)len + 2, a);
        if (!ex.n)
            ex = pre;
        val = eq ? eq + 1 : NULL;
    } else {
        lookup(c->opts, 0, NULL, 0, a[1], &ex, &pre);
        val = a[2] ? a + 2 : NULL;
    }
    if (!ex.n)
        return cli_usage(c->cmd, "unknown option '%s'", a);
    const struct cli_opt *o = ex.o;
    if (o->kind == CLI_OPT_FLAG && val)
        return cli_usage(c->cmd, "--%s takes no value", o->name);
    if (o->kind != CLI_OPT_FLAG && !val) {
        if (*i + 1 >= argc)
            return cli_usage(c->cmd, "--%s needs a value", o->name);
        val = argv[++*i];
    }
    int rc = set_value(c->cmd, o, (char *)base + ex.base, val);
    if (!rc && c->seen)
        c->seen(base, o, val);
    return rc;
}

static int is_help(const char *a)
{
    return !strcmp(a, "-h") || !strcmp(a, "--help");
}

int cli_opt_parse(const struct cli_opt_cmd *c, void *base, int argc, char **argv, int *nargs)
{
    int n = 0, rc;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (!strcmp(a, "--")) {
            while (++i < argc)
                argv[1 + n++] = argv[i];
        } else if (a[0] != '-' || !a[1]) {
            argv[1 + n++] = a; /* n < i: only arguments already read are overwritten */
        } else if (is_help(a)) {
            cli_opt_help(stdout, c, base);
            return -1;
        } else if ((rc = one_option(c, base, argc, argv, &i))) {
            return rc;
        }
    }
    if (n > c->max_args)
        return cli_usage(c->cmd, "unexpected argument '%s'", argv[1 + c->max_args]);
    *nargs = n;
    return 0;
}

int cli_opt_apply(const char *cmd, const struct cli_opt *t, void *base, const char *name,
                  const char *value)
{
    struct found ex = {0}, pre = {0};
    lookup(t, 0, name, strlen(name), 0, &ex, &pre);
    return ex.n ? set_value(cmd, ex.o, (char *)base + ex.base, value) : CLI_EXIT_USAGE;
}

/* ---- help ---------------------------------------------------------------- */

/* Print text from column col (the cursor is there), wrapping words at
 * HELP_WIDTH and continuing at col; '\n' breaks a line, and the blanks
 * that follow it are kept (for indented lines). */
static void wrap(FILE *out, int col, const char *s)
{
    int x = col, fresh = 1;
    while (*s) {
        if (*s == '\n') {
            fprintf(out, "\n%*s", col, "");
            x = col;
            fresh = 1;
            for (s++; *s == ' '; s++, x++)
                fputc(' ', out);
            continue;
        }
        size_t w = strcspn(s, " \n");
        if (!fresh && x + 1 + (int)w >= HELP_WIDTH) {
            fprintf(out, "\n%*s", col, "");
            x = col;
        } else if (!fresh) {
            fputc(' ', out);
            x++;
        }
        fwrite(s, 1, w, out);
        x += (int)w;
        fresh = 0;
        for (s += w; *s == ' '; s++)
            ;
    }
    fputc('\n', out);
}

/* The field's value as the default shown in the help, or "" for none. */
static const char *default_text(const struct cli_opt *o, const char *base, char *buf, size_t cap)
{
    const void *p = base + o->off;
    const char *w;
    buf[0] = 0;
    if (o->flags & CLI_OPT_NODEF)
        return buf;
    switch (o->kind) {
    case CLI_OPT_FLAG:
        snprintf(buf, cap, "%s", *(const int *)p == o->set ? "default" : "");
        break;
    case CLI_OPT_INT:
        snprintf(buf, cap, "%d", *(const int *)p);
        break;
    case CLI_OPT_LONG:
        snprintf(buf, cap, "%ld", *(const long *)p);
        break;
    case CLI_OPT_U64:
        snprintf(buf, cap, "%llu", (unsigned long long)*(const uint64_t *)p);
        break;
    case CLI_OPT_REAL:
        snprintf(buf, cap, "%g",
                 o->flags & CLI_OPT_FLOAT ? (double)*(const float *)p : *(const double *)p);
        break;
    case CLI_OPT_STR:
        snprintf(buf, cap, "%s", *(const char *const *)p ? *(const char *const *)p : "");
        break;
    case CLI_OPT_ENUM:
        w = o->arg;
        for (int i = *(const int *)p; i > 0 && *w; i--)
            w += strcspn(w, "|") + (w[strcspn(w, "|")] == '|');
        snprintf(buf, cap, "%.*s", (int)strcspn(w, "|"), w);
        break;
    default:
        break;
    }
    return buf;
}

static void help_line(FILE *out, const struct cli_opt *o, const char *base)
{
    char letter[8] = "", def[64], text[4096];
    const char *h = o->help ? o->help : "";
    size_t hl = strlen(h);
    if (o->letter)
        snprintf(letter, sizeof letter, "-%c, ", o->letter);
    int n = fprintf(out, "  %s--%s%s%s", letter, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    /* a help text that ends in ']' states its own default */
    if (default_text(o, base, def, sizeof def)[0] && !(hl && h[hl - 1] == ']'))
        snprintf(text, sizeof text, "%s%s[%s]", h, hl ? " " : "", def);
    else
        snprintf(text, sizeof text, "%s", h);
    if (n + 2 > HELP_COL)
        fprintf(out, "\n%*s", HELP_COL, "");
    else
        fprintf(out, "%*s", HELP_COL - n, "");
    wrap(out, HELP_COL, text);
}

static void help_table(FILE *out, const struct cli_opt *t, const char *base)
{
    for (; t->kind != CLI_OPT_END; t++) {
        if (t->kind == CLI_OPT_TABLE)
            help_table(out, t->sub, base + t->off);
        else if (t->kind == CLI_OPT_TEXT)
            fprintf(out, "%s\n", t->help);
        else
            help_line(out, t, base);
    }
}

void cli_opt_help_table(FILE *out, const struct cli_opt *t, const void *base)
{
    help_table(out, t, base);
}

void cli_opt_help(FILE *out, const struct cli_opt_cmd *c, const void *base)
{
    fprintf(out, "usage: heurnet %s", c->usage);
    help_table(out, c->opts, base);
    fprintf(out, "  -h, --help         this help\n");
    if (c->epilog)
        fputs(c->epilog, out);
}
