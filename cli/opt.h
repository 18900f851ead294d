/* Table-driven options for the subcommands. A command declares its options
 * once, in a static table (name, kind, range, the field it sets, a help
 * line); parsing, range checks, the messages for bad values and --help all
 * come from that table, so an option cannot be parsed one way and
 * documented another. Fields are named by their offset in the command's
 * settings struct (the "base"), so one table serves every call. */
#ifndef HN_CLI_OPT_H
#define HN_CLI_OPT_H

#include <stddef.h>
#include <stdio.h>

enum cli_opt_kind {
    CLI_OPT_END,   /* ends a table */
    CLI_OPT_FLAG,  /* no value: stores .set into an int (help: [default] if it is there) */
    CLI_OPT_INT,   /* an int in lo..hi */
    CLI_OPT_LONG,  /* a long in lo..hi */
    CLI_OPT_U64,   /* a uint64_t, at least lo (hi 0: no upper bound) */
    CLI_OPT_REAL,  /* a double in lo..hi (CLI_OPT_OPEN: lo itself refused) */
    CLI_OPT_STR,   /* the value itself, a const char * */
    CLI_OPT_ENUM,  /* one of the words of .arg ("davi|bootstrap"): its index, an int */
    CLI_OPT_LIST,  /* repeatable: appends to a const char *[hi], count an int at .count */
    CLI_OPT_FN,    /* .fn(field, value): 0, or an HN_ERR_ with hn_errmsg saying why
                      (HN_ERR_IO, _NOMEM: exit 1; others misuse, exit 2) */
    CLI_OPT_TABLE, /* the options of .sub, whose offsets are within the field at .off */
    CLI_OPT_TEXT   /* help only: a heading or a note, printed as written */
};

enum {
    CLI_OPT_OPEN = 1,  /* REAL: lo < v, not lo <= v */
    CLI_OPT_FLOAT = 2, /* REAL: the field is a float */
    CLI_OPT_NODEF = 4, /* help: do not show the field's value as the default */
    CLI_OPT_BELOW = 8  /* REAL: v < hi, not v <= hi */
};

struct cli_opt {
    const char *name; /* long name without the dashes */
    char letter;      /* a one-letter form (-o), or 0 */
    unsigned char kind, flags;
    size_t off; /* the field: its offset in the base */
    double lo, hi;
    int set;          /* FLAG: the value stored */
    const char *arg;  /* the value's name in the help ("N", "FILE"); ENUM: the words */
    const char *help; /* wrapped at 80 columns; '\n' breaks a line; a text that ends
                         in ']' states its own default, else the field's is shown */
    int (*fn)(void *field, const char *value);
    const struct cli_opt *sub;
    size_t count; /* LIST: offset of the count */
};

/* Table entries. O is the field's offset (offsetof(struct x, field)); the
 * ...L forms also take a one-letter name (-o). */
#define CLI_OPT_(KIND, N, O, ...)                                                                  \
    {                                                                                              \
        .name = N, .kind = KIND, .off = O, __VA_ARGS__                                             \
    }
#define CLI_FLAG(N, O, SET, H) CLI_OPT_(CLI_OPT_FLAG, N, O, .set = SET, .help = H)
#define CLI_FLAGL(L, N, O, SET, H) CLI_OPT_(CLI_OPT_FLAG, N, O, .letter = L, .set = SET, .help = H)
#define CLI_INT(N, O, LO, HI, A, H)                                                                \
    CLI_OPT_(CLI_OPT_INT, N, O, .lo = LO, .hi = HI, .arg = A, .help = H)
#define CLI_LONG(N, O, LO, HI, A, H)                                                               \
    CLI_OPT_(CLI_OPT_LONG, N, O, .lo = LO, .hi = HI, .arg = A, .help = H)
#define CLI_U64(N, O, LO, A, H) CLI_OPT_(CLI_OPT_U64, N, O, .lo = LO, .arg = A, .help = H)
#define CLI_REAL(N, O, LO, HI, FL, A, H)                                                           \
    CLI_OPT_(CLI_OPT_REAL, N, O, .flags = FL, .lo = LO, .hi = HI, .arg = A, .help = H)
#define CLI_STR(N, O, A, H) CLI_OPT_(CLI_OPT_STR, N, O, .arg = A, .help = H)
#define CLI_STRL(L, N, O, A, H) CLI_OPT_(CLI_OPT_STR, N, O, .letter = L, .arg = A, .help = H)
#define CLI_ENUM(N, O, WORDS, H) CLI_OPT_(CLI_OPT_ENUM, N, O, .arg = WORDS, .help = H)
#define CLI_LIST(N, O, CAP, COUNT, A, H)                                                           \
    CLI_OPT_(CLI_OPT_LIST, N, O, .hi = CAP, .count = COUNT, .arg = A, .help = H)
#define CLI_FN(N, O, F, A, H) CLI_OPT_(CLI_OPT_FN, N, O, .fn = F, .arg = A, .help = H)
#define CLI_TABLE(T, O) CLI_OPT_(CLI_OPT_TABLE, NULL, O, .sub = T)
#define CLI_TEXT(H) CLI_OPT_(CLI_OPT_TEXT, NULL, 0, .help = H)
#define CLI_END CLI_OPT_(CLI_OPT_END, NULL, 0, .help = NULL)

/* A number macro as a string, for help texts ("[n," CLI_QUOTE(DIM) "]"). */
#define CLI_QUOTE_(x) #x
#define CLI_QUOTE(x) CLI_QUOTE_(x)

/* A command: its name for messages ("avi", "emp solve"), the help's
 * opening (printed as written after "usage: heurnet "), its options, a
 * closing note (or NULL), and how many positional arguments it takes. */
struct cli_opt_cmd {
    const char *cmd;
    const char *usage;
    const struct cli_opt *opts;
    const char *epilog;
    int max_args;
    /* called after each option is applied (NULL: none) */
    void (*seen)(void *base, const struct cli_opt *o, const char *value);
};

/* Parse argv[1..argc) into base. Options and arguments may be mixed ("--"
 * ends the options); the arguments are moved to argv[1..1 + *nargs).
 * Returns 0, -1 after printing the help for -h/--help (exit 0), or
 * CLI_EXIT_USAGE after printing "heurnet CMD: --x: why". */
int cli_opt_parse(const struct cli_opt_cmd *c, void *base, int argc, char **argv, int *nargs);

/* The help of c with the defaults in base. */
void cli_opt_help(FILE *out, const struct cli_opt_cmd *c, const void *base);
/* The option lines of one table (also for a table shared by commands). */
void cli_opt_help_table(FILE *out, const struct cli_opt *t, const void *base);
/* Apply the option `name` of table t with value (NULL for a flag) to base,
 * as cli_opt_parse would: 0 or CLI_EXIT_USAGE with the message printed. */
int cli_opt_apply(const char *cmd, const struct cli_opt *t, void *base, const char *name,
                  const char *value);

#endif
