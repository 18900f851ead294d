/* The command line's side of solve/: the library returns a status and a
 * message, the command line prints it and picks the exit code (a bad name
 * or spec is misuse, anything else a failure). */
#include <stdio.h>

#include "cli/cli.h"
#include "common/hn.h"
#include "solve/pdb_cache.h"
#include "solve/search.h"

static int exit_code(int st)
{
    if (!st)
        return CLI_EXIT_OK;
    fprintf(stderr, "heurnet: %s\n", hn_errmsg());
    return st == HN_ERR_ARG || st == HN_ERR_FORMAT || st == HN_ERR_SHAPE || st == HN_ERR_UNSUPPORTED
               ? CLI_EXIT_USAGE
               : CLI_EXIT_FAIL;
}

int cli_pdb_dir(char *buf, size_t cap)
{
    return heurnet_pdb_dir(buf, cap) ? (void)exit_code(HN_ERR_IO), -1 : 0;
}

int cli_pdb_get(int width, const char *partition, int goal, int quiet, struct srch_np_pdb **out)
{
    return exit_code(heurnet_pdb_get(width, partition, goal, quiet, out));
}

int cli_pdb_build(const struct srch_np_partition *part, int threads, int quiet,
                  struct srch_np_pdb **out)
{
    return heurnet_pdb_build(part, threads, quiet, out) ? cli_fail("pdb build") : 0;
}

int cli_heur_get(const char *spec, int width, int goal, int quiet, struct srch_np_heur **out)
{
    return exit_code(heurnet_heur_new(spec, width, goal, quiet, out));
}

int cli_ann_spec_check(const char *spec, char *floor, size_t cap)
{
    return exit_code(heurnet_ann_spec_check(spec, floor, cap));
}

int cli_ann_settings_parse(const char *settings, srch_np_ann_opts *o, char *floor, size_t cap)
{
    return exit_code(heurnet_ann_settings_parse(settings, o, floor, cap));
}

int cli_search_setup(struct heurnet_search *s, const char *spec, const char *adm_spec, int width,
                     int goal, int quiet)
{
    return exit_code(heurnet_search_setup(s, spec, adm_spec, width, goal, quiet));
}
