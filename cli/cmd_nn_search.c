/* heurnet nn set-search: check a search string and record it in a model
 * file's `search` attribute (cli/search_opts.c parses it back for solve
 * and eval). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "cli/search_opts.h"
#include "common/hn.h"
#include "common/hn_h5.h"
#include "nn/nn.h"
#include "search/npuzzle/encode.h"

/* Syntax of one built-in heuristic name (what cli_heur_get accepts), without
 * loading or building anything. */
static int name_check(const char *where, const char *part, int width)
{
    if (!strcmp(part, "manhattan") || !strcmp(part, "lc"))
        return 0;
    if (strncmp(part, "pdb:", 4))
        return cli_search_usage(
            where, 0, "unknown heuristic '%s' (manhattan, lc, pdb:P[:noreflect], max:..)", part);
    char name[64];
    snprintf(name, sizeof name, "%s", part + 4);
    char *opt = strchr(name, ':');
    if (opt && strcmp(opt, ":noreflect"))
        return cli_search_usage(where, 0, "heuristic '%s': unknown option '%s' (only noreflect)",
                                part, opt + 1);
    if (opt)
        *opt = '\0';
    srch_np_partition p;
    if (srch_np_partition_get(name, width, &p))
        return cli_search_usage(where, 0, "%s", hn_errmsg());
    return 0;
}

static int admissible_check(const char *where, const char *spec, int width)
{
    if (strncmp(spec, "max:", 4))
        return name_check(where, spec, width);
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", spec + 4);
    int rc = 0, n = 0;
    for (char *s = strtok_r(buf, ",", &save); s && !rc; s = strtok_r(NULL, ",", &save), n++)
        rc = name_check(where, s, width);
    return rc  ? rc
           : n ? 0
               : cli_search_usage(where, 0, "heuristic '%s': nothing after 'max:'", spec);
}

/* The settings a model may record: a network search on the model itself. */
static int settings_check(const char *where, const cli_search_opts *given, int width)
{
    char floor[256];
    if (strncmp(given->heuristic, "ann:SELF", 8) ||
        (given->heuristic[8] && given->heuristic[8] != ','))
        return cli_search_usage(where, 0,
                                "the settings need --heuristic ann:SELF[,...] (SELF = this model)");
    if (cli_ann_spec_check(given->heuristic, floor, sizeof floor))
        return CLI_EXIT_USAGE;
    if (floor[0] && admissible_check(where, floor, width))
        return CLI_EXIT_USAGE;
    if (given->admissible[0] && admissible_check(where, given->admissible, width))
        return CLI_EXIT_USAGE;
    cli_search_opts o = *given;
    int rc = cli_search_opts_finish(where, &o, HEURNET_ALGO_ASTAR);
    if (!rc && o.algo == HEURNET_ALGO_IDASTAR && strstr(o.heuristic, ",scale:"))
        rc = cli_search_usage(where, 0,
                              "IDA* needs whole-move values: drop scale: or pick another --algo");
    return rc;
}

int cli_search_record_check(const char *where, const char *rec, int width, cli_search_opts *out)
{
    *out = (cli_search_opts)CLI_SEARCH_OPTS_INIT;
    int rc = cli_search_opts_parse(where, rec, NULL, out);
    return rc ? rc : settings_check(where, out, width);
}

/* 0 if `path` holds only a model (/layers). set-search rewrites the file
 * with nn_model_save, which would drop a checkpoint's optimizer state. */
static int only_model(const char *path)
{
    hid_t f = hn_h5_open_read(path);
    if (f < 0)
        return cli_fail(NULL);
    H5G_info_t info;
    herr_t e = H5Gget_info(f, &info);
    H5Fclose(f);
    if (e < 0) {
        fprintf(stderr, "heurnet nn set-search: %s: cannot read the root group\n", path);
        return CLI_EXIT_FAIL;
    }
    if (info.nlinks != 1) {
        fprintf(stderr,
                "heurnet nn set-search: %s holds more than a model (a checkpoint?); rewriting "
                "it would drop that: set the search on the exported model\n",
                path);
        return CLI_EXIT_FAIL;
    }
    return 0;
}

static void set_search_help(FILE *out)
{
    fprintf(out,
            "usage: heurnet nn set-search [--domain D] M.h5 \"SETTINGS\"\n\n"
            "Record a model's recommended search in its root attribute '%s', in the words of\n"
            "heurnet solve: --algo A --heuristic ann:SELF[,...] [--batch B] [--weight W]\n"
            "[--bound E] [--admissible H] [--deltas LIST] [--shortcut W[:N]] [--ida BANDS]\n"
            "[--ida-at P]; SELF stands for\n"
            "the model file. `heurnet solve --model M.h5` and `heurnet eval --model M.h5`\n"
            "use it when neither --algo nor --heuristic is given (other explicit options\n"
            "still win). The settings are\n"
            "checked (option names, values, heuristic names; nothing is loaded) before the\n"
            "file is rewritten. An empty SETTINGS string clears the recommendation.\n\n"
            "A model of another domain (root attribute 'domain', not a square n-puzzle\n"
            "up to 5x5) records options of `heurnet solve --domain` instead: --algo\n"
            "(astar wastar bwas beam idastar anytime focal), --heuristic ann:SELF[,...],\n"
            "--weight --batch --width --weights --bound --admissible --engine --offset\n"
            "--scale --floor; they are checked by loading the model and opening the\n"
            "heuristics on its domain (a plug-in's: give --domain PATH.so[:ARGS] first).\n\n"
            "  -h, --help   this help\n",
            CLI_SEARCH_ATTR);
}

int cli_nn_set_search(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        set_search_help(stdout);
        return CLI_EXIT_OK;
    }
    const char *domain = NULL;
    if (argc == 5 && !strcmp(argv[1], "--domain")) { /* a plug-in model's domain file */
        domain = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc != 3)
        return cli_usage("nn set-search", "expected [--domain D] M.h5 and one quoted SETTINGS "
                                          "string");
    const char *path = argv[1], *str = argv[2];
    int st, width, goal, rc = 0;
    if (only_model(path))
        return CLI_EXIT_FAIL;
    if (cli_dom_set_search(path, domain, str, &rc))
        return rc;
    nn_model *m = nn_model_load(path, &st);
    if (!m)
        return cli_fail(NULL);
    char where[1200];
    snprintf(where, sizeof where, "nn set-search %s", path);
    if (srch_np_encode_parse(nn_model_encoder(m), &width, &goal)) {
        fprintf(stderr, "heurnet nn set-search: %s: %s\n", path, hn_errmsg());
        rc = CLI_EXIT_FAIL;
    } else if (str[strspn(str, " \t")]) {
        cli_search_opts o;
        rc = cli_search_record_check(where, str, width, &o);
    }
    /* an empty value means no recommendation (cli_model_search_get gives "") */
    if (!rc && nn_model_set_meta_str(m, CLI_SEARCH_ATTR, str[strspn(str, " \t")] ? str : ""))
        rc = cli_fail(path);
    if (!rc && nn_model_save(m, path))
        rc = cli_fail(NULL);
    if (!rc)
        printf("file=%s %s=%s\n", path, CLI_SEARCH_ATTR, str);
    nn_model_free(m);
    return rc;
}
