/* heurnet domain: list the built-in domains, describe one, or check any
 * domain (built-in or a plug-in) for conformance to the interface. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "common/hn.h"
#include "domains/dom.h"

_Static_assert(sizeof(size_t) == sizeof(uint64_t), "--bfs-states is parsed as a uint64_t");
#define CO(f) offsetof(dom_check_opts, f)
static const struct cli_opt check_opts[] = {
    CLI_TEXT("check:"),
    CLI_INT("walks", CO(walks), 1, 10000000, "N", "random walks"),
    CLI_INT("max-len", CO(max_len), 1, 255, "N", "moves per walk, at most"),
    CLI_INT("bfs-depth", CO(bfs_depth), 0, 250, "N",
            "heuristics checked on states up to N moves away"),
    CLI_OPT_(CLI_OPT_U64, "bfs-states", CO(bfs_states), .hi = 100000000, .arg = "N",
             .help = "at most N states in that search (0: skip)"),
    CLI_STR("heuristics", CO(heuristics), "LIST",
            "the heuristics to check, comma-separated (max:A,B counts as one only when written "
            "alone) [the domain's own list]"),
    CLI_U64("seed", CO(seed), 0, "S", ""),
    CLI_END};
static const struct cli_opt_cmd check_cmd = {
    .cmd = "domain",
    .usage = "domain list\n"
             "       heurnet domain info DOMAIN\n"
             "       heurnet domain check DOMAIN [--walks N] [--max-len N] [--bfs-depth N]\n"
             "                                   [--bfs-states N] [--heuristics LIST] [--seed S]\n"
             "       heurnet domain sample DOMAIN [-n N] --walk A[-B] | --uniform [--seed S]\n\n"
             "DOMAIN is NAME[:ARGS] for a built-in domain (npuzzle:4x4, npuzzle:6x6:blank-last,\n"
             "cube3) or PATH[@NAME][:ARGS] for a plug-in compiled against <heurnet/domain.h>\n"
             "(PATH: the first prefix before an '@' or ':' that names a file).\n"
             "check: over random walks from the goal, a move then its inverse restores the state,\n"
             "expand agrees with apply, the encoding delta agrees with re-encoding, states and\n"
             "moves parse back from their text, the domain's heuristics never exceed\n"
             "breadth-first distances and the pruning automaton keeps them, and each\n"
             "heuristic's incremental update (heur_delta), where the domain has one, equals\n"
             "the child's value for every move along the walks. Exit 0 when every\n"
             "check passes, 1 when one fails or could not run (skipped=1, e.g. no memory for\n"
             "the breadth-first search).\n"
             "sample: N states (default 100) as `id STATE` lines on stdout, each a random walk\n"
             "of A..B moves from the goal (uniform length, never undoing the last move) or\n"
             "drawn uniformly among all states (--uniform, where the domain can).\n",
    .opts = check_opts,
    .max_args = 1 << 20}; /* counted below */

static int open_or_usage(const char *spec, dom **d)
{
    int st;
    if (!(*d = dom_open(spec, &st))) {
        fprintf(stderr, "heurnet domain: %s\n", hn_errmsg());
        return st == HN_ERR_IO || st == HN_ERR_FORMAT ? CLI_EXIT_USAGE : CLI_EXIT_USAGE;
    }
    return 0;
}

static int list(void)
{
    printf("name\tsummary\targuments\n");
    for (int i = 0; dom_builtin(i); i++) {
        const dom_def *def = dom_builtin(i);
        printf("%s\t%s\t%s\n", def->name, def->summary ? def->summary : "",
               def->args_help ? def->args_help : "");
    }
    return CLI_EXIT_OK;
}

static int info(const char *spec)
{
    dom *d;
    int rc = open_or_usage(spec, &d);
    if (rc)
        return rc;
    const dom_facts *f = dom_facts_of(d);
    char moves[1024] = "";
    for (uint32_t m = 0; m < f->nmoves; m++) {
        size_t u = strlen(moves);
        snprintf(moves + u, sizeof moves - u, "%s%s", m ? " " : "", f->move_name[m]);
    }
    printf("domain=%s\nname=%s\nstate_bytes=%u\nmoves=%u\nmove_names=%s\nunit_cost=%d\n"
           "prune_states=%u\ninputs=%u\nmax_active=%u\nmax_delta=%u\nencoding=%s\n"
           "heuristics=%s\npatterns=%s\nuniform_states=%u\ntypical_depth=%u\n",
           dom_spec(d), dom_def_of(d)->name, f->state_bytes, f->nmoves, moves, dom_unit_cost(d),
           f->prune_states, f->inputs, f->max_active, f->max_delta, f->encoding,
           f->heuristics && f->heuristics[0] ? f->heuristics : "none",
           f->patterns && f->patterns[0] ? f->patterns : "none", f->has_uniform, f->typical_depth);
    /* what the optional entries offer searches: --variants K up to
     * symmetries with paths, IDA* windows by between or relative */
    printf("symmetries=%d\nsymmetric_paths=%d\nbetween=%d\nrelative=%d\n", dom_symmetries(d),
           dom_has_symmetric_path(d), dom_has_between(d), dom_has_relative(d));
    dom_free(d);
    return CLI_EXIT_OK;
}

static int check(int argc, char **argv)
{
    dom_check_opts o = DOM_CHECK_OPTS_DEFAULTS;
    int nargs, rc = cli_opt_parse(&check_cmd, &o, argc, argv, &nargs);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (nargs != 1)
        return cli_usage("domain", "check needs exactly one DOMAIN");
    cli_log_init(0);
    dom *d;
    if ((rc = open_or_usage(argv[1], &d)))
        return rc;
    dom_check_report r;
    hn_stop_install();
    int st = dom_check(d, &o, &r);
    printf("domain=%s states=%llu moves=%llu heuristic_checks=%llu bfs_states=%llu "
           "failures=%llu skipped=%d delta_checks=%llu\n",
           dom_spec(d), (unsigned long long)r.states, (unsigned long long)r.moves,
           (unsigned long long)r.heur_checks, (unsigned long long)r.bfs_states,
           (unsigned long long)r.failures, r.skipped[0] != '\0',
           (unsigned long long)r.delta_checks);
    if (r.failures)
        fprintf(stderr, "heurnet domain check: %s: %llu failure(s); the first: %s\n", dom_spec(d),
                (unsigned long long)r.failures, r.first);
    /* a check that could not run is no pass */
    if (r.skipped[0])
        fprintf(stderr, "heurnet domain check: %s: not checked: %s\n", dom_spec(d), r.skipped);
    dom_free(d);
    if (st)
        return cli_fail("domain check");
    return r.failures || r.skipped[0] ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* Options of `domain sample`: walks of walk_lo..walk_hi moves from the goal,
 * or uniformly drawn states when uniform is set. */
typedef struct {
    long count, walk_lo, walk_hi;
    int uniform;
    uint64_t seed;
} sample_opts;

/* --walk K | A-B */
static int walk_parse(void *field, const char *v)
{
    sample_opts *o = field;
    char lo[32], *dash;
    snprintf(lo, sizeof lo, "%s", v);
    const char *hi = lo;
    if ((dash = strchr(lo, '-'))) {
        *dash = '\0';
        hi = dash + 1;
    }
    if (strlen(v) >= sizeof lo || cli_parse_long(lo, 0, 100000000, &o->walk_lo) ||
        cli_parse_long(hi, 0, 100000000, &o->walk_hi) || o->walk_hi < o->walk_lo)
        return hn_fail(HN_ERR_ARG, "'%s' is not K or A-B with 0 <= A <= B <= 10^8", v);
    return 0;
}

#define SA(f) offsetof(sample_opts, f)
static const struct cli_opt sample_opts_table[] = {
    CLI_OPT_(CLI_OPT_LONG, "count", SA(count), .letter = 'n', .lo = 1, .hi = 100000000, .arg = "N",
             .help = "states to write"),
    CLI_FN("walk", 0, walk_parse, "A[-B]", "random walks of A..B moves from the goal"),
    CLI_FLAG("uniform", SA(uniform), 1, "states drawn uniformly (where the domain can)"),
    CLI_U64("seed", SA(seed), 0, "S", ""), CLI_END};
static const struct cli_opt_cmd sample_cmd = {
    .cmd = "domain",
    .usage = "domain sample DOMAIN [-n N] --walk A[-B] | --uniform [--seed S]\n\n",
    .opts = sample_opts_table,
    .max_args = 1 << 20}; /* counted below */

/* One sampled state per line, `id STATE`, to stdout; no length (a walk's is
 * only an upper bound). */
static int sample_write(const dom *d, const sample_opts *o)
{
    hn_rng *rng = hn_rng_new(o->seed);
    void *s = malloc(dom_state_bytes(d));
    char *buf = malloc(1 << 16);
    int rc = CLI_EXIT_OK;
    if (!rng || !s || !buf) {
        fprintf(stderr, "heurnet domain sample: out of memory\n");
        rc = CLI_EXIT_FAIL;
    }
    for (long i = 0; !rc && i < o->count; i++) {
        if (o->uniform) {
            dom_random_state(d, s, rng);
        } else {
            long k = o->walk_lo + (long)hn_rng_below(rng, (uint32_t)(o->walk_hi - o->walk_lo + 1));
            dom_goal(d, s);
            dom_walk(d, s, (int)k, rng);
        }
        if (dom_format_state(d, s, buf, 1 << 16) < 0 || printf("%ld %s\n", i + 1, buf) < 0)
            rc = CLI_EXIT_FAIL;
    }
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "heurnet domain sample: writing the states failed\n");
        rc = CLI_EXIT_FAIL;
    }
    free(buf);
    free(s);
    hn_rng_free(rng);
    return rc;
}

static int sample(int argc, char **argv)
{
    sample_opts o = {.count = 100, .walk_lo = -1, .seed = 1};
    int nargs, rc = cli_opt_parse(&sample_cmd, &o, argc, argv, &nargs);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (nargs != 1)
        return cli_usage("domain", "sample needs exactly one DOMAIN");
    if (o.uniform == (o.walk_lo >= 0))
        return cli_usage("domain", "sample needs one of --walk A-B and --uniform");
    dom *d;
    if ((rc = open_or_usage(argv[1], &d)))
        return rc;
    if (o.uniform && !dom_facts_of(d)->has_uniform) {
        fprintf(stderr, "heurnet domain sample: %s cannot draw uniform states; use --walk\n",
                dom_spec(d));
        dom_free(d);
        return CLI_EXIT_USAGE;
    }
    if (o.walk_hi > INT32_MAX - 1)
        o.walk_hi = INT32_MAX - 1;
    rc = sample_write(d, &o);
    dom_free(d);
    return rc;
}

int cmd_domain(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        FILE *out = argc < 2 ? stderr : stdout;
        sample_opts so = {.count = 100, .seed = 1};
        cli_opt_help(out, &check_cmd, &DOM_CHECK_OPTS_DEFAULTS);
        fprintf(out, "sample:\n");
        cli_opt_help_table(out, sample_opts_table, &so);
        return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    }
    if (!strcmp(argv[1], "list"))
        return argc == 2 ? list() : cli_usage("domain", "list takes no argument");
    if (!strcmp(argv[1], "info"))
        return argc == 3 ? info(argv[2]) : cli_usage("domain", "info needs exactly one DOMAIN");
    if (!strcmp(argv[1], "check"))
        return check(argc - 1, argv + 1);
    if (!strcmp(argv[1], "sample"))
        return sample(argc - 1, argv + 1);
    return cli_usage("domain", "unknown subcommand '%s' (list, info, check, sample)", argv[1]);
}
