/* Opening domains (built-in or plug-in) and the calls every domain shares:
 * the pruning automaton, hashing, walks, encoding deltas and move text. */
#define _GNU_SOURCE /* RTLD_LOCAL in dlfcn.h is POSIX; this is for strndup */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "domains/dom_private.h"

/* ---- the host table a domain gets ---- */

/* Calls of host->fail on this thread: a domain that returns an error (or
 * NULL) without one is then told apart from one that gave its reason, as
 * hn_errmsg() after hn_error_clear() reads "success". */
static _Thread_local unsigned long host_fails;

static int host_fail(int status, const char *msg)
{
    host_fails++;
    return hn_fail(status, "%s", msg ? msg : "domain error");
}

unsigned long dom_host_fail_mark(void)
{
    return host_fails;
}

int dom_no_reason_since(unsigned long mark)
{
    /* a built-in domain may also fail through libheurnet's own calls */
    return host_fails == mark && !strcmp(hn_errmsg(), hn_strerror(HN_OK));
}

static void host_log(int level, const char *msg)
{
    hn_log(level, "%s", msg ? msg : "");
}

static const char *host_cache_dir(void)
{
    static _Thread_local char buf[4096];
    return dom_cache_dir(buf, sizeof buf) == 0 ? buf : NULL;
}

static const dom_host HOST = {
    .abi_version = DOM_ABI_VERSION,
    .struct_size = sizeof(dom_host),
    .fail = host_fail,
    .log = host_log,
    .stop_requested = hn_stop_requested,
    .cache_dir = host_cache_dir,
    .build_threads = dom_build_threads,
};

const dom_host *dom_host_table(void)
{
    return &HOST;
}

/* ---- checks of a definition and of the facts it reports ---- */

/* The size of version 1's dom_def: anything smaller lacks entries. */
#define DOM_DEF_V1_SIZE (offsetof(dom_def, pattern_open) + sizeof(void *))

/* A name goes into key=value lines and @NAME: [a-z0-9_]+. */
static int plain_name(const char *s)
{
    if (!s[0])
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

/* What text for key=value lines, model files and datasets may not hold:
 * TEXT_LINE a control character (a newline would split the line),
 * TEXT_WORD also be empty or hold a blank (a value is read up to the next
 * blank), TEXT_KEY also hold '=' (canonical strings are compared as keys). */
enum { TEXT_LINE, TEXT_WORD, TEXT_KEY };

static const char *bad_text(const char *s, int kind)
{
    if (kind >= TEXT_WORD && !s[0])
        return "is empty";
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            return "holds a control character (a newline or a tab)";
        if (kind >= TEXT_WORD && c == ' ')
            return "holds a blank";
        if (kind >= TEXT_KEY && c == '=')
            return "holds '='";
    }
    return NULL;
}

/* s for a message: at most 40 characters, a control character as '?'. */
static const char *shown(const char *s, char *buf, size_t cap)
{
    size_t n = 0;
    for (; *s && n + 1 < cap && n < 40; s++)
        buf[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    buf[n] = '\0';
    return buf;
}

static int check_def(const dom_def *def, const char *spec)
{
    if (def->abi_version != DOM_ABI_VERSION)
        return hn_fail(HN_ERR_FORMAT, "domain %s: ABI version %u, this heurnet has %u", spec,
                       def->abi_version, DOM_ABI_VERSION);
    if (def->struct_size < DOM_DEF_V1_SIZE)
        return hn_fail(HN_ERR_FORMAT, "domain %s: definition of %u bytes, version 1 has %zu", spec,
                       def->struct_size, (size_t)DOM_DEF_V1_SIZE);
    const char *missing = !def->name           ? "name"
                          : !def->create       ? "create"
                          : !def->destroy      ? "destroy"
                          : !def->expand       ? "expand"
                          : !def->apply        ? "apply"
                          : !def->goal         ? "goal"
                          : !def->encode       ? "encode"
                          : !def->parse_state  ? "parse_state"
                          : !def->format_state ? "format_state"
                                               : NULL;
    if (missing)
        return hn_fail(HN_ERR_FORMAT, "domain %s: the definition has no %s", spec, missing);
    char buf[48];
    if (!plain_name(def->name))
        return hn_fail(HN_ERR_FORMAT, "domain %s: the definition's name '%s' is not [a-z0-9_]+",
                       spec, shown(def->name, buf, sizeof buf));
    if (def->heur_open && (!def->heur_eval || !def->heur_free))
        return hn_fail(HN_ERR_FORMAT, "domain %s: heur_open without heur_eval or heur_free", spec);
    return 0;
}

static int check_prune(const dom_facts *f, const char *spec)
{
    if (f->prune_states == 0)
        return 0;
    if (!f->prune_next || f->prune_states > 255)
        return hn_fail(HN_ERR_FORMAT, "domain %s: pruning automaton of %u states without a table",
                       spec, f->prune_states);
    for (size_t i = 0; i < (size_t)f->prune_states * f->nmoves; i++)
        if (f->prune_next[i] != DOM_PRUNED && f->prune_next[i] >= f->prune_states)
            return hn_fail(HN_ERR_FORMAT, "domain %s: pruning automaton entry %zu goes to state %u",
                           spec, i, f->prune_next[i]);
    return 0;
}

static int check_facts(const dom_def *def, const dom_facts *f, const char *spec)
{
    const char *null = !f->canonical   ? "canonical"
                       : !f->encoding  ? "encoding"
                       : !f->move_name ? "move_name"
                       : !f->move_sep  ? "move_sep (\"\" when every move name is one character)"
                                       : NULL;
    if (null)
        return hn_fail(HN_ERR_FORMAT, "domain %s: create left facts->%s NULL", spec, null);
    const char *why = bad_text(f->canonical, TEXT_KEY);
    char buf[48];
    if (why)
        return hn_fail(HN_ERR_FORMAT, "domain %s: the canonical string '%s' %s", spec,
                       shown(f->canonical, buf, sizeof buf), why);
    if ((why = bad_text(f->encoding, TEXT_LINE)) || (why = bad_text(f->move_sep, TEXT_LINE)))
        return hn_fail(HN_ERR_FORMAT, "domain %s: the %s %s", spec,
                       bad_text(f->encoding, TEXT_LINE) ? "encoding name" : "move separator", why);
    if (f->state_bytes < 1 || f->state_bytes > DOM_MAX_STATE_BYTES)
        return hn_fail(HN_ERR_FORMAT, "domain %s: state of %u bytes (1..%d)", spec, f->state_bytes,
                       DOM_MAX_STATE_BYTES);
    if (f->nmoves < 1 || f->nmoves > DOM_MAX_MOVES)
        return hn_fail(HN_ERR_FORMAT, "domain %s: %u moves (1..%d)", spec, f->nmoves,
                       DOM_MAX_MOVES);
    if (f->inputs < 1 || f->max_active < 1 || f->max_active > DOM_MAX_ACTIVE ||
        f->max_active > f->inputs)
        return hn_fail(HN_ERR_FORMAT, "domain %s: %u inputs with at most %u active (1..%d)", spec,
                       f->inputs, f->max_active, DOM_MAX_ACTIVE);
    if (def->encode_delta && (f->max_delta < 1 || f->max_delta > DOM_MAX_DELTA))
        return hn_fail(HN_ERR_FORMAT, "domain %s: encode_delta with max_delta %u (1..%d)", spec,
                       f->max_delta, DOM_MAX_DELTA);
    for (uint32_t m = 0; m < f->nmoves; m++) {
        if (!f->move_name[m] || bad_text(f->move_name[m], TEXT_WORD))
            return hn_fail(HN_ERR_FORMAT,
                           "domain %s: move %u has no name, or a blank or control character in it",
                           spec, m);
        if (f->inverse && (f->inverse[m] < -1 || f->inverse[m] >= (int)f->nmoves))
            return hn_fail(HN_ERR_FORMAT, "domain %s: inverse of move %u is %d", spec, m,
                           f->inverse[m]);
        if (f->cost && f->cost[m] < 1)
            return hn_fail(HN_ERR_FORMAT, "domain %s: move %u costs 0", spec, m);
    }
    if (f->has_uniform && !def->random_state)
        return hn_fail(HN_ERR_FORMAT, "domain %s: has_uniform without random_state", spec);
    if (f->symmetries > DOM_MAX_SYMMETRIES)
        return hn_fail(HN_ERR_FORMAT, "domain %s: %u symmetries (at most %d)", spec, f->symmetries,
                       DOM_MAX_SYMMETRIES);
    return check_prune(f, spec);
}

/* ---- opening ---- */

static const dom_def *find_builtin(const char *name, size_t len)
{
    for (int i = 0; dom_builtin(i); i++) {
        const dom_def *def = dom_builtin(i);
        if (strlen(def->name) == len && !memcmp(def->name, name, len))
            return def;
    }
    return NULL;
}

/* Definitions a program registered (dom_register_def): opened by name
 * like the built-in ones, which they may not shadow. */
#define MAX_REGISTERED 16
static const dom_def *registered[MAX_REGISTERED];
static pthread_mutex_t registered_lock = PTHREAD_MUTEX_INITIALIZER;

static const dom_def *find_registered(const char *name, size_t len)
{
    const dom_def *def = NULL;
    pthread_mutex_lock(&registered_lock);
    for (int i = 0; i < MAX_REGISTERED && !def; i++)
        if (registered[i] && strlen(registered[i]->name) == len &&
            !strncmp(registered[i]->name, name, len))
            def = registered[i];
    pthread_mutex_unlock(&registered_lock);
    return def;
}

int dom_register_def(const dom_def *def)
{
    if (!def || !def->name || !def->name[0])
        return hn_fail(HN_ERR_ARG, "dom_register_def: no definition");
    size_t len = strlen(def->name);
    if (find_builtin(def->name, len))
        return hn_fail(HN_ERR_ARG, "domain %s is built in: register another name", def->name);
    int st = HN_ERR_ARG;
    pthread_mutex_lock(&registered_lock);
    for (int i = 0; i < MAX_REGISTERED && st; i++)
        if (registered[i] && !strcmp(registered[i]->name, def->name))
            registered[i] = def, st = 0;
    for (int i = 0; i < MAX_REGISTERED && st; i++)
        if (!registered[i])
            registered[i] = def, st = 0;
    pthread_mutex_unlock(&registered_lock);
    return st ? hn_fail(st, "%d domains are registered already", MAX_REGISTERED) : 0;
}

void dom_unregister_def(const dom_def *def)
{
    pthread_mutex_lock(&registered_lock);
    for (int i = 0; i < MAX_REGISTERED; i++)
        if (registered[i] == def)
            registered[i] = NULL;
    pthread_mutex_unlock(&registered_lock);
}

static int unknown_name(const char *spec)
{
    char names[512] = "";
    for (int i = 0; dom_builtin(i); i++) {
        size_t u = strlen(names);
        snprintf(names + u, sizeof names - u, "%s%s", i ? ", " : "", dom_builtin(i)->name);
    }
    return hn_fail(HN_ERR_ARG, "unknown domain '%s' (built in: %s; or a plug-in PATH.so)", spec,
                   names);
}

static int is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The length of PATH in a plug-in spec "PATH[@NAME][:ARGS]": the whole spec
 * when it names a file, else the first prefix ending before an '@' or ':'
 * that names a file (so "my.sources/lib.so", "x.solib/lib.so:7",
 * "lib.so.1@name" and a folder "a:b/" all work), else (nothing there) the
 * prefix before the first '@' or ':', for the message. */
static size_t plugin_path_len(const char *spec)
{
    size_t n = strlen(spec);
    if (n < 4096 && is_file(spec))
        return n;
    char buf[4096];
    for (size_t i = 0; i < n && i < sizeof buf; i++) {
        if (spec[i] != '@' && spec[i] != ':')
            continue;
        memcpy(buf, spec, i);
        buf[i] = '\0';
        if (is_file(buf))
            return i;
    }
    return strcspn(spec, "@:");
}

/* Load a plug-in: "PATH[@NAME][:ARGS]"; *args points into spec. */
static const dom_def *load_plugin(const char *spec, void **handle, const char **args, int *st)
{
    size_t plen = plugin_path_len(spec);
    char path[4096], want[64] = "";
    if (plen >= sizeof path) {
        *st = hn_fail(HN_ERR_ARG, "domain plug-in path too long: %.60s...", spec);
        return NULL;
    }
    memcpy(path, spec, plen);
    path[plen] = '\0';
    const char *rest = spec + plen;
    if (*rest == '@') {
        size_t n = strcspn(rest + 1, ":");
        if (n == 0 || n >= sizeof want) {
            *st = hn_fail(HN_ERR_ARG, "domain %s: bad name after '@'", spec);
            return NULL;
        }
        memcpy(want, rest + 1, n);
        want[n] = '\0';
        rest += 1 + n;
    }
    *args = *rest == ':' ? rest + 1 : "";
    if (*rest && *rest != ':') {
        *st = hn_fail(HN_ERR_ARG, "domain %s: expected PATH[@NAME][:ARGS]", spec);
        return NULL;
    }
    /* dlopen searches the library path for a name without '/': a file of
     * that name here is the one meant */
    char here[4200];
    snprintf(here, sizeof here, "%s%s", !strchr(path, '/') && is_file(path) ? "./" : "", path);
    *handle = dlopen(here, RTLD_NOW | RTLD_LOCAL);
    if (!*handle) {
        const char *why = dlerror();
        *st = hn_fail(HN_ERR_IO, "cannot load domain plug-in %s: %s", path, why ? why : "?");
        return NULL;
    }
    dom_entry_fn entry;
    void *sym = dlsym(*handle, DOM_ENTRY_SYMBOL);
    memcpy(&entry, &sym, sizeof entry); /* object pointer to function pointer */
    if (!sym) {
        *st = hn_fail(HN_ERR_FORMAT, "domain plug-in %s exports no %s()", path, DOM_ENTRY_SYMBOL);
        return NULL;
    }
    for (uint32_t i = 0; i < 256; i++) {
        const dom_def *def = entry(i);
        if (!def)
            break;
        if (!want[0] || (def->name && !strcmp(def->name, want)))
            return def;
    }
    *st = hn_fail(HN_ERR_FORMAT, "domain plug-in %s exports no domain%s%s", path,
                  want[0] ? " named " : "", want);
    return NULL;
}

static int is_plugin_spec(const char *spec)
{
    return strchr(spec, '/') != NULL || strstr(spec, ".so") != NULL;
}

static const dom_def *resolve(const char *spec, void **handle, const char **args, int *st)
{
    if (is_plugin_spec(spec))
        return load_plugin(spec, handle, args, st);
    size_t n = strcspn(spec, ":");
    const dom_def *def = find_builtin(spec, n);
    if (!def)
        def = find_registered(spec, n);
    if (!def) {
        *st = unknown_name(spec);
        return NULL;
    }
    *args = spec[n] == ':' ? spec + n + 1 : "";
    return def;
}

static int finish_open(dom *d, const char *spec)
{
    /* NULL lists mean none (as ""): every reader of the facts may then
     * take them as strings */
    if (!d->facts.heuristics)
        d->facts.heuristics = "";
    if (!d->facts.patterns)
        d->facts.patterns = "";
    int st = check_facts(d->def, &d->facts, spec);
    if (st)
        return st;
    d->goal = malloc(d->facts.state_bytes);
    if (!d->goal)
        return hn_fail(HN_ERR_NOMEM, "domain %s: out of memory", spec);
    memset(d->goal, 0, d->facts.state_bytes);
    d->def->goal(d->inst, d->goal);
    d->unit = 1;
    d->reversible = d->facts.inverse != NULL;
    for (uint32_t m = 0; m < d->facts.nmoves; m++) {
        d->allowed[0] |= 1ull << m;
        if (d->facts.cost && d->facts.cost[m] != 1)
            d->unit = 0;
        if (d->facts.inverse && d->facts.inverse[m] < 0)
            d->reversible = 0;
    }
    for (uint32_t q = 0; q < d->facts.prune_states && q < 256; q++) {
        d->allowed[q] = 0;
        for (uint32_t m = 0; m < d->facts.nmoves; m++)
            if (d->facts.prune_next[q * d->facts.nmoves + m] != DOM_PRUNED)
                d->allowed[q] |= 1ull << m;
    }
    /* models and datasets record the canonical string alone, so a plug-in
     * moved to another folder still matches its models */
    if (!(d->spec = strdup(d->facts.canonical)))
        return hn_fail(HN_ERR_NOMEM, "domain %s: out of memory", spec);
    return 0;
}

/* Check d->def, create its instance for args and finish the object. */
static int create_instance(dom *d, const char *spec, const char *args)
{
    int st = check_def(d->def, spec);
    if (st)
        return st;
    d->facts.struct_size = sizeof d->facts;
    /* entries grown after version 1 exist only in a definition that long */
    if (d->def->struct_size >= offsetof(dom_def, between) + sizeof d->def->between)
        d->between = d->def->between;
    if (d->def->struct_size >= offsetof(dom_def, symmetric) + sizeof d->def->symmetric)
        d->symmetric = d->def->symmetric;
    if (d->def->struct_size >= offsetof(dom_def, relative) + sizeof d->def->relative)
        d->relative = d->def->relative;
    if (d->def->struct_size >= offsetof(dom_def, symmetric_path) + sizeof d->def->symmetric_path)
        d->symmetric_path = d->def->symmetric_path;
    if (d->def->struct_size >= offsetof(dom_def, heur_delta) + sizeof d->def->heur_delta)
        d->heur_delta = d->def->heur_delta;
    if (d->def->struct_size >= offsetof(dom_def, encode_as) + sizeof d->def->encode_as)
        d->encode_as = d->def->encode_as;
    if (d->def->struct_size >= offsetof(dom_def, between_open) + sizeof d->def->between_open &&
        d->between)
        d->between_open = d->def->between_open;
    hn_error_clear();
    unsigned long mark = dom_host_fail_mark();
    d->inst = d->def->create(args, &HOST, &d->facts);
    if (!d->inst) {
        if (dom_no_reason_since(mark))
            return hn_fail(HN_ERR_ARG,
                           "domain %s: create returned no instance and gave no reason (the "
                           "plug-in should call host->fail)",
                           spec);
        return hn_fail(HN_ERR_ARG, "domain %s: %s", spec, hn_errmsg());
    }
    return finish_open(d, spec);
}

dom *dom_open(const char *spec, int *status)
{
    int st = 0, dummy;
    if (!status)
        status = &dummy;
    if (!spec || !spec[0]) {
        *status = hn_fail(HN_ERR_ARG, "empty domain name");
        return NULL;
    }
    dom *d = calloc(1, sizeof *d);
    if (!d) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory opening domain %s", spec);
        return NULL;
    }
    const char *args = "";
    d->def = resolve(spec, &d->handle, &args, &st);
    if (d->def)
        st = create_instance(d, spec, args);
    if (!d->def && !st)
        st = HN_ERR_ARG;
    if (st) {
        dom_free(d);
        *status = st;
        return NULL;
    }
    *status = 0;
    return d;
}

dom *dom_open_def(const dom_def *def, const char *args, int *status)
{
    int dummy;
    if (!status)
        status = &dummy;
    if (!def || !def->name) {
        *status = hn_fail(HN_ERR_ARG, "dom_open_def: no definition");
        return NULL;
    }
    dom *d = calloc(1, sizeof *d);
    if (!d) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory opening domain %s", def->name);
        return NULL;
    }
    d->def = def;
    *status = create_instance(d, def->name, args ? args : "");
    if (*status) {
        dom_free(d);
        return NULL;
    }
    return d;
}

void dom_free(dom *d)
{
    if (!d)
        return;
    if (d->inst)
        d->def->destroy(d->inst);
    free(d->goal);
    free(d->spec);
    if (d->handle)
        dlclose(d->handle);
    free(d);
}

/* ---- facts ---- */

const dom_facts *dom_facts_of(const dom *d)
{
    return &d->facts;
}

const dom_def *dom_def_of(const dom *d)
{
    return d->def;
}

const void *dom_instance(const dom *d)
{
    return d->inst;
}

const char *dom_spec(const dom *d)
{
    return d->spec;
}

const char *dom_canonical(const dom *d)
{
    return d->facts.canonical;
}

size_t dom_state_bytes(const dom *d)
{
    return d->facts.state_bytes;
}

int dom_nmoves(const dom *d)
{
    return (int)d->facts.nmoves;
}

int dom_move_cost(const dom *d, int m)
{
    return d->facts.cost ? d->facts.cost[m] : 1;
}

int dom_unit_cost(const dom *d)
{
    return d->unit;
}

int dom_reversible(const dom *d)
{
    return d->reversible;
}

/* ---- moves ---- */

int dom_prune_next(const dom *d, int q, int m)
{
    if (d->facts.prune_states == 0)
        return 0;
    return d->facts.prune_next[(size_t)q * d->facts.nmoves + (size_t)m];
}

uint64_t dom_allowed(const dom *d, int q)
{
    return d->facts.prune_states ? d->allowed[q] : d->allowed[0];
}

int dom_expand(const dom *d, const void *state, int q, void *children, uint8_t *moves, uint8_t *cq)
{
    int n = d->def->expand(d->inst, state, dom_allowed(d, q), children, moves);
    if (cq)
        for (int i = 0; i < n; i++)
            cq[i] = (uint8_t)dom_prune_next(d, q, moves[i]);
    return n;
}

int dom_apply(const dom *d, void *state, int m)
{
    if (m < 0 || m >= (int)d->facts.nmoves)
        return 0;
    return d->def->apply(d->inst, state, m);
}

int dom_inverse(const dom *d, int m)
{
    return d->facts.inverse ? d->facts.inverse[m] : -1;
}

/* ---- states ---- */

void dom_goal(const dom *d, void *state)
{
    memcpy(state, d->goal, d->facts.state_bytes);
}

int dom_is_goal(const dom *d, const void *state)
{
    if (d->def->is_goal)
        return d->def->is_goal(d->inst, state);
    return memcmp(state, d->goal, d->facts.state_bytes) == 0;
}

int dom_has_between(const dom *d)
{
    return d->between != NULL;
}

int dom_between(const dom *d, const void *a, const void *b)
{
    /* as dom_heur_eval reads a domain's heuristic: a negative estimate (a
     * defect) is 0, one above DOM_HEUR_MAX is DOM_HEUR_MAX */
    int v = d->between ? d->between(d->inst, a, b) : 0;
    return v < 0 ? 0 : v > DOM_HEUR_MAX ? DOM_HEUR_MAX : v;
}

int dom_has_relative(const dom *d)
{
    return d->relative != NULL;
}

void dom_relative(const dom *d, const void *a, const void *b, void *out)
{
    if (d->relative)
        d->relative(d->inst, a, b, out);
    else
        memcpy(out, a, d->facts.state_bytes);
}

int dom_has_symmetric_path(const dom *d)
{
    return d->symmetric_path != NULL && dom_symmetries(d) > 1;
}

void dom_symmetric_path(const dom *d, int k, uint8_t *moves, int n)
{
    if (k > 0 && k < dom_symmetries(d) && d->symmetric_path)
        d->symmetric_path(d->inst, (uint32_t)k, moves, n);
}

int dom_symmetries(const dom *d)
{
    /* check_facts refused more than DOM_MAX_SYMMETRIES at open */
    return d->symmetric && d->facts.symmetries > 1 ? (int)d->facts.symmetries : 1;
}

void dom_symmetric(const dom *d, const void *state, int k, void *out)
{
    if (k > 0 && k < dom_symmetries(d))
        d->symmetric(d->inst, state, (uint32_t)k, out);
    else
        memcpy(out, state, d->facts.state_bytes);
}

uint64_t dom_hash(const dom *d, const void *state)
{
    /* FNV-1a over 8-byte words, then a final mix: cheap and well spread
     * for the short blobs states are. */
    const uint8_t *p = state;
    size_t n = d->facts.state_bytes;
    uint64_t h = 0xcbf29ce484222325ull;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; n; n--, p++)
        h = (h ^ *p) * 0x100000001b3ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

int dom_walk(const dom *d, void *state, int steps, hn_rng *rng)
{
    uint8_t buf[DOM_MAX_MOVES];
    int q = DOM_PRUNE_ROOT, done = 0;
    for (; done < steps; done++) {
        uint64_t allowed = dom_allowed(d, q);
        int n = 0;
        for (int m = 0; m < (int)d->facts.nmoves; m++)
            if (allowed >> m & 1)
                buf[n++] = (uint8_t)m;
        /* try the allowed moves in random order until one is legal */
        int moved = 0;
        while (n > 0 && !moved) {
            int i = (int)hn_rng_below(rng, (uint32_t)n);
            int m = buf[i];
            if (d->def->apply(d->inst, state, m)) {
                q = dom_prune_next(d, q, m);
                moved = 1;
            } else
                buf[i] = buf[--n];
        }
        if (!moved)
            break;
    }
    return done;
}

static uint64_t rng_next(void *ctx)
{
    return hn_rng_u64(ctx);
}

int dom_random_state(const dom *d, void *state, hn_rng *rng)
{
    if (!d->facts.has_uniform)
        return hn_fail(HN_ERR_UNSUPPORTED, "domain %s draws no uniformly random states",
                       d->facts.canonical);
    dom_rng r = {rng_next, rng};
    memset(state, 0, d->facts.state_bytes);
    return d->def->random_state(d->inst, state, &r);
}

/* ---- encoding ---- */

int dom_encode(const dom *d, const void *state, int32_t *active)
{
    return d->def->encode(d->inst, state, active);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The inputs on in a but not in b (both sorted) into out. */
static int sorted_minus(const int32_t *a, int na, const int32_t *b, int nb, int32_t *out)
{
    int i = 0, j = 0, n = 0;
    while (i < na) {
        if (j >= nb || a[i] < b[j])
            out[n++] = a[i++];
        else if (a[i] == b[j])
            i++, j++;
        else
            j++;
    }
    return n;
}

int dom_encode_as(const dom *d, const char *encoding, int32_t *map)
{
    return d->encode_as && encoding && d->encode_as(d->inst, encoding, map) == 0;
}

int dom_encode_delta(const dom *d, const void *state, int m, int32_t *off, int *noff, int32_t *on,
                     int *non)
{
    if (m < 0 || m >= (int)d->facts.nmoves)
        return hn_fail(HN_ERR_ARG, "move %d out of range", m);
    if (d->def->encode_delta)
        return d->def->encode_delta(d->inst, state, m, off, noff, on, non) == 0
                   ? 0
                   : hn_fail(HN_ERR_ARG, "move %s is illegal here", d->facts.move_name[m]);
    uint8_t child[DOM_MAX_STATE_BYTES];
    memcpy(child, state, d->facts.state_bytes);
    if (!d->def->apply(d->inst, child, m))
        return hn_fail(HN_ERR_ARG, "move %s is illegal here", d->facts.move_name[m]);
    int32_t a[DOM_MAX_ACTIVE], b[DOM_MAX_ACTIVE];
    int na = d->def->encode(d->inst, state, a), nb = d->def->encode(d->inst, child, b);
    qsort(a, (size_t)na, sizeof *a, cmp_i32);
    qsort(b, (size_t)nb, sizeof *b, cmp_i32);
    *noff = sorted_minus(a, na, b, nb, off);
    *non = sorted_minus(b, nb, a, na, on);
    return 0;
}
