/* emp solve's time limit holds in every phase: on a 64x64 board the greedy
 * start alone used to take about ten CPU seconds whatever the limit. With a
 * 0.2 s CPU limit the run must stop within a tenfold margin (a limit check,
 * not a speed measurement) and still return a complete, valid board that
 * scores what it claims. */
#include <stdlib.h>

#include "check.h"
#include "search/emp/emp.h"

static void run(int start)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(64, 64, 5, 17, 3, NULL, &st);
    CHECK(in != NULL);
    if (!in)
        return;
    int n = 64 * 64, *piece = malloc(sizeof(int) * (size_t)n),
        *rot = malloc(sizeof(int) * (size_t)n);
    srch_em_opts o = SRCH_EM_OPTS_DEFAULTS;
    o.time_limit = 0.2;
    o.cpu_clock = 1;
    o.start = start;
    srch_em_result res;
    st = piece && rot ? srch_em_solve(in, &o, piece, rot, &res, NULL, NULL) : HN_ERR_NOMEM;
    CHECK_MSG(st == HN_OK, "%s", hn_errmsg());
    if (st == HN_OK) {
        CHECK_MSG(res.seconds < 2.0, "start %d: %.2f CPU s for a 0.2 s limit", start, res.seconds);
        int bad, score = srch_em_sol_check(in, piece, rot, &bad, NULL, 0);
        CHECK(bad == 0);
        CHECK(score == res.best && res.best >= res.start_score);
        CHECK(res.time_best <= res.seconds);
    }
    free(piece);
    free(rot);
    srch_em_inst_free(in);
}

int main(void)
{
    run(SRCH_EM_START_GREEDY);
    run(SRCH_EM_START_BACKTRACK);
    return CHECK_DONE();
}
