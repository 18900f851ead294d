/* heurnet nn set-search: check a search string and record it in a model
 * file's `search` attribute (solve/dom_record.c reads it back for solve
 * and eval), in the words of heurnet solve on every domain. */
#include <stdio.h>
#include <string.h>

#include "solve/dom_search.h"

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "common/hn_h5.h"
#include "nn/nn.h"

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
            "heurnet solve on every domain: --algo (astar wastar bwas beam idastar anytime\n"
            "focal), --heuristic ann:SELF[,...] (SELF = the model file), and the search\n"
            "options of heurnet solve --help but --domain, --model and the limits. `heurnet\n"
            "solve --model M.h5` and `heurnet eval --model M.h5` run it when neither --algo\n"
            "nor --heuristic is given (other explicit options still win). The settings are\n"
            "checked by loading the model and opening the heuristics on its domain (its\n"
            "'domain' attribute or its encoder's; a plug-in's: give --domain PATH.so[:ARGS])\n"
            "before the file is rewritten, and marked as these words (attribute '%s').\n"
            "A square n-puzzle model's record without the mark is in the words of the\n"
            "n-puzzle command before issue 62 and is translated when read (docs/formats.md).\n"
            "An empty SETTINGS string clears the recommendation.\n\n"
            "  -h, --help   this help\n",
            HEURNET_DOM_RECORD_ATTR, HEURNET_DOM_RECORD_WORDS_ATTR);
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
    return only_model(argv[1]) ? CLI_EXIT_FAIL : cli_dom_set_search(argv[1], domain, argv[2]);
}
