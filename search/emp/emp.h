/* search/emp: edge-matching puzzles (Eternity II style) after Salassa et al.,
 * "MILP and Max-Clique based heuristics for the Eternity II puzzle": the
 * instance and its file formats, a board with incremental scoring, the
 * paper's neighbourhoods (TA, BW, TSR, BO, RO), constructive starts, the
 * multi-neighbourhood local search, and the MILP and max-clique models. */
#ifndef SRCH_EMP_H
#define SRCH_EMP_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"

HEURNET_API_BEGIN

/* The learned order of the backtracker's candidates (srch_em_place.h). */
typedef struct srch_em_place_scorer srch_em_place_scorer;
typedef struct srch_em_break_gate srch_em_break_gate;

/* Sides in the internal order (clockwise from the top). A rotation r turns a
 * piece r quarter turns clockwise: the colour on side s moves to (s+1)%4. */
enum srch_em_side { SRCH_EM_N = 0, SRCH_EM_E = 1, SRCH_EM_S = 2, SRCH_EM_W = 3 };

/* Piece (and cell) classes under the frame rule. */
enum srch_em_class { SRCH_EM_INNER = 0, SRCH_EM_EDGE = 1, SRCH_EM_CORNER = 2 };

enum srch_em_format {
    SRCH_EM_FORMAT_META = 0, /* "W H" then "bottom left top right", pieces 0-based */
    SRCH_EM_FORMAT_E2 = 1    /* "top right bottom left", pieces 1-based, see README */
};

/* ---- instance ---------------------------------------------------------- */

typedef struct srch_em_inst srch_em_inst;

/* Read an instance file. Returns NULL and fills *status (HN_ERR_IO,
 * HN_ERR_FORMAT, HN_ERR_NOMEM) with a message naming the file and line. */
srch_em_inst *srch_em_inst_read(const char *path, int format, int *status);
/* Build an instance from colours in internal order (N E S W per piece,
 * `n = w*h` pieces). `what` names the source in messages. */
srch_em_inst *srch_em_inst_from_colours(int w, int h, const int *nesw, const char *what,
                                        int *status);
/* A solvable random instance: colours drawn per join (frame joins from
 * 1..frame_colours, the others from frame_colours+1..frame_colours+inner_colours),
 * then pieces shuffled and rotated. If `solution` is non-NULL the planted
 * solution is written there (piece[cell], rot[cell], 2*w*h ints). */
srch_em_inst *srch_em_inst_gen(int w, int h, int frame_colours, int inner_colours, uint64_t seed,
                               int *solution, int *status);
void srch_em_inst_free(srch_em_inst *inst);
/* Nonzero when `path` is a benchmark instance, which stays out of
 * training: the benchmark folder (the repository's instances/, or a copy
 * of it) is marked by a SOURCES.md one or two levels above the file. 0
 * for a path that does not resolve. */
int srch_em_inst_is_benchmark(const char *path);
/* Write in META format to `path` (via path.part). */
int srch_em_inst_write(const srch_em_inst *inst, const char *path);

int srch_em_inst_width(const srch_em_inst *inst);
int srch_em_inst_height(const srch_em_inst *inst);
int srch_em_inst_colours(const srch_em_inst *inst); /* largest colour + 1 */
/* Number of joins, 2WH - W - H: the best possible score. */
int srch_em_inst_joins(const srch_em_inst *inst);
int srch_em_piece_class(const srch_em_inst *inst, int piece);
int srch_em_cell_class(const srch_em_inst *inst, int cell);
/* Colour on side `side` of `piece` turned `rot` quarter turns clockwise. */
int srch_em_colour(const srch_em_inst *inst, int piece, int rot, int side);
/* The only rotation of a frame piece on a frame cell of the same class that
 * puts its grey sides outside, or -1 (different classes or an inner cell). */
int srch_em_frame_rot(const srch_em_inst *inst, int piece, int cell);

/* Fix `piece` (0-based) at (row, col) with rotation `rot`. Fails with
 * HN_ERR_ARG when out of range, already used, or breaking the frame rule. */
int srch_em_inst_add_clue(srch_em_inst *inst, int piece, int row, int col, int rot);
int srch_em_inst_nclues(const srch_em_inst *inst);
/* Clue k: piece, cell, rotation. */
void srch_em_inst_clue(const srch_em_inst *inst, int k, int *piece, int *cell, int *rot);
/* Clues given inside an e2pieces file (hint lines) are added on reading. */

/* ---- solutions ---------------------------------------------------------- */

/* Read a solution file (`piece rotation` per line, W*H lines, row-major).
 * Fills piece[cell], rot[cell]. Format errors name the file and line. */
int srch_em_sol_read(const srch_em_inst *inst, const char *path, int *piece, int *rot);
/* Write a solution via path.part. */
int srch_em_sol_write(const srch_em_inst *inst, const char *path, const int *piece, const int *rot);
/* Recount a complete assignment: returns the matched joins; the number of
 * violations (duplicate pieces, frame rule, clues) goes to *violations and
 * the first few are described in msg (may be NULL). */
int srch_em_sol_check(const srch_em_inst *inst, const int *piece, const int *rot, int *violations,
                      char *msg, size_t cap);

/* ---- board (incremental scoring) --------------------------------------- */

typedef struct srch_em_board srch_em_board;

/* A board owns scratch memory for the neighbourhoods; NULL on failure. */
srch_em_board *srch_em_board_new(const srch_em_inst *inst, int *status);
void srch_em_board_free(srch_em_board *b);
const srch_em_inst *srch_em_board_inst(const srch_em_board *b);
/* Load an assignment that respects the frame rule and the clues
 * (HN_ERR_ARG otherwise, with the cell named). */
int srch_em_board_set(srch_em_board *b, const int *piece, const int *rot);
/* Copy the assignment out (empty cells read piece -1). */
void srch_em_board_get(const srch_em_board *b, int *piece, int *rot);
void srch_em_board_copy(srch_em_board *dst, const srch_em_board *src);
/* Random assignment under the frame rule, clues in place. */
void srch_em_board_random(srch_em_board *b, hn_rng *rng);
int srch_em_board_score(const srch_em_board *b);   /* maintained incrementally */
int srch_em_board_recount(const srch_em_board *b); /* full recount, for checks */
int srch_em_board_piece(const srch_em_board *b, int cell);
int srch_em_board_rot(const srch_em_board *b, int cell);
int srch_em_board_fixed(const srch_em_board *b, int cell);
/* Matched joins around one cell (0..4). */
int srch_em_board_cell_matches(const srch_em_board *b, int cell);

/* A move: swap the pieces of cells a and b and give them rotations ra (new
 * rotation of the piece arriving at a) and rb; a == b rotates one piece. */
typedef struct {
    int a, b;
    int ra, rb;
    int delta; /* score change, filled by srch_em_move_delta / enumeration */
} srch_em_move;

/* Score change of a move without applying it (the board is unchanged). */
int srch_em_move_delta(srch_em_board *b, const srch_em_move *m);
void srch_em_move_apply(srch_em_board *b, const srch_em_move *m);

/* Candidate moves for a move scorer: every swap of the non-fixed cell `cell`
 * with another cell of its class (best rotations) plus its re-rotations, with
 * their immediate delta. Writes at most `cap` moves, returns how many. This
 * is the seam the learned move scorer plugs into (see README). */
int srch_em_moves_enum(srch_em_board *b, int cell, srch_em_move *buf, int cap);

/* ---- neighbourhoods (each returns the score gain, >= 0) ---------------- */

/* Min-cost assignment of an n x n cost matrix (row-major): fills assign[row]
 * with the column and returns the total cost. work must hold
 * srch_em_hungarian_work(n) ints. */
size_t srch_em_hungarian_work(int n);
long srch_em_hungarian(int n, const int *cost, int *assign, int *work);

/* TA: remove up to k pieces of one class at pairwise non-adjacent cells chosen
 * with probability rising with their mismatches, reinsert optimally. */
int srch_em_ta(srch_em_board *b, int k, hn_rng *rng);
/* BW: checkerboard assignment, black then white, until no gain. */
int srch_em_bw(srch_em_board *b, hn_rng *rng);
/* TSR: steepest descent over swap+rotate moves to a local optimum. */
int srch_em_tsr(srch_em_board *b);
/* BO: re-place the frame given the inner part (branch and bound with a node
 * limit; *proven set to 1 when the search completed). */
int srch_em_bo(srch_em_board *b, long node_limit, int *proven);
/* RO: re-optimise the region of rh x rw cells at (r0, c0) given the rest,
 * by branch and bound (node limit; *proven as above). */
int srch_em_ro(srch_em_board *b, int r0, int c0, int rh, int rw, long node_limit, int *proven);

/* ---- constructive starts ----------------------------------------------- */

enum srch_em_start {
    SRCH_EM_START_RANDOM = 0,
    SRCH_EM_START_GREEDY = 1,
    SRCH_EM_START_BACKTRACK = 2
};
/* Greedy: rows solved one after the other by branch and bound given what is
 * placed (band = rows per region, node limit per region). */
int srch_em_greedy(srch_em_board *b, int band, long node_limit, hn_rng *rng);
/* Backtracking with a break budget (after Verhaard's eii solver for Eternity
 * II): the free cells are filled in scan-row order, each by a piece that
 * matches its west and north neighbours (and any clue to its east or south)
 * or, within the budget, leaves one or two of those joins unmatched (a
 * break). The budget is 0 until `break_from` of the cells are placed, then
 * rises linearly to `breaks` at the last cell; each complete board found
 * that beats the best sets it to one break less than that board. The search
 * restarts with reshuffled candidate orders every `restart_nodes`
 * placements; it ends at `seconds`, at `max_nodes` placements if set, or when
 * a restart exhausts its tree. */
typedef struct {
    int complete; /* 1: a complete board within the budget was found */
    int breaks;   /* its unmatched joins */
    long boards;  /* complete boards found (each within the budget of its time) */
    long nodes;   /* placements */
    long restarts;
    long pruned;      /* placements refused by the colour bound */
    int deepest;      /* most cells placed at once */
    double time_best; /* seconds until the best board (on the chosen clock) */
    double seconds;   /* seconds run */
} srch_em_scan_result;

typedef struct {
    double seconds;     /* time limit */
    int cpu_clock;      /* 1: seconds of this process's CPU time, not wall time */
    double break_from;  /* fraction of the free cells placed before the first break */
    int breaks;         /* budget at the last cell until a board is found */
    long restart_nodes; /* placements per restart */
    long max_nodes;     /* placements in all, 0: no limit (a result that does
                         * not depend on the machine's speed) */
    long fill_nodes;    /* node limit per row of the greedy completion */
    /* optional: called with the figures so far at each better complete board */
    void (*on_board)(const srch_em_scan_result *res, void *user);
    void *user;
    /* optional: a learned order of each cell's perfect-match candidates
     * (srch_em_place_scorer_new); NULL: the shuffled order */
    srch_em_place_scorer *order;
    /* optional: a learned gate on the break phases (srch_em_break_gate_new):
     * at a cell whose perfect matches are exhausted and whose budget allows a
     * break, it decides whether the break candidates are tried; NULL: always */
    srch_em_break_gate *gate;
    int bound; /* enum srch_em_scan_bound: prune a placement when the breaks so far
                * plus a lower bound on the breaks still to come exceed the budget
                * at the last cell [SRCH_EM_SCAN_BOUND_NONE] */
} srch_em_scan_opts;

/* Lower bounds on the breaks the empty cells must still add, from colour
 * counts of the unplaced pieces' sides and of the open demands (sides that
 * placed cells and clues show to empty cells): DEAD counts demands no
 * unplaced side of their colour is left for; PARITY adds that a colour with
 * an odd number of sides left over after its demands leaves one unmatched
 * side inside the empty region (breaks >= (dead + odd colours) / 2). */
enum srch_em_scan_bound {
    SRCH_EM_SCAN_BOUND_NONE,
    SRCH_EM_SCAN_BOUND_DEAD,
    SRCH_EM_SCAN_BOUND_PARITY
};

/* The default budget, shared with srch_em_opts: breaks from cell 200 of
 * Eternity II's 255, the best of the settings measured (README). */
#define SRCH_EM_SCAN_BREAK_FROM 0.78
#define SRCH_EM_SCAN_BREAKS 30
/* The defaults of srch_em_scan_opts (the fields' comments give them in brackets). */
extern const srch_em_scan_opts SRCH_EM_SCAN_OPTS_DEFAULTS;

/* Runs the search and leaves on `b` the best complete board found, or else
 * the deepest partial board completed greedily (always a legal board). The
 * shuffles draw from `rng`. Returns HN_ERR_ARG for invalid options,
 * HN_ERR_NOMEM; `res` may be NULL. Stops early on hn_stop_requested(). */
int srch_em_scan(srch_em_board *b, const srch_em_scan_opts *opts, hn_rng *rng,
                 srch_em_scan_result *res);

/* ---- the local search -------------------------------------------------- */

/* Board features of a restart point (srch_em_stage_features; names in
 * SRCH_EM_STAGE_NAMES, see docs/edge-matching.md). */
#define SRCH_EM_STAGE_DIM 8
extern const char *const SRCH_EM_STAGE_NAMES[SRCH_EM_STAGE_DIM];

typedef struct {
    double time_limit; /* seconds */
    int cpu_clock;     /* 1: time_limit counts this process's CPU time, not wall time */
    uint64_t seed;
    int start;             /* enum srch_em_start */
    int ta_k, ta_n;        /* TA sample size and iterations per cycle (16, 1000) */
    int ro_w, ro_h, ro_n;  /* RO region size and samples per cycle (6, 6, 10) */
    long ro_nodes;         /* node limit per RO/BO branch and bound */
    long start_nodes;      /* node limit per row of the greedy / backtracking start */
    int perturb;           /* swaps per perturbation (0: automatic) */
    long walk;             /* plateau-walk tries per cycle (sideways swaps kept) */
    double walk_temp;      /* > 0: the walk also keeps a move losing d joins with
                            * probability exp(-d / walk_temp) (Metropolis) */
    int slack;             /* a walk more than `slack` joins below the best restarts from it */
    int escalate;          /* 0: off; else every `escalate` kicks without a new best double
                            * the kick (up to cells/4, then back to the start) and widen the
                            * slack by as much, so the walk can leave the best board's basin */
    double backtrack_time; /* seconds of the backtracking start (0: time/10) */
    double break_from;     /* the backtracking start's budget (srch_em_scan_opts) */
    int breaks;
    int scan_bound;     /* the backtracking start's bound (enum srch_em_scan_bound) */
    double restart;     /* > 0: after this many seconds (on the run's clock) without a
                         * new best in the current descent, go back to the start board
                         * (built once; or reheat the best, see reheat_temp) for a new
                         * descent, whose own best is where `slack` sends the walk back
                         * to; the run's best is kept; 0: never */
    double reheat_temp; /* > 0 (with restart): a new descent starts instead from the
                         * run's best board after `reheat_tries` walk tries at this
                         * temperature, an annealing reheat that keeps part of its
                         * structure; 0: from the start board */
    long reheat_tries;  /* walk tries of one reheat (30,000,000) */
    /* Optional perturbation-move chooser (learned move scorer, see
     * srch_em_scorer_choose): index into the n candidates, or < 0 to fall
     * back to the random pick. NULL: the search is unchanged. */
    int (*choose)(void *user, srch_em_board *b, const srch_em_move *cand, int n, hn_rng *rng);
    void *choose_user;
    /* > 0 (with choose): the chooser picks instead among this many sideways
     * moves gathered by the plateau walk (--walk), and the perturbation step
     * keeps its random pick; 0: the chooser serves the perturbation step */
    int walk_choose;
    /* STAGE-like restart points (with restart > 0, instead of the start
     * board or a reheat): stage_k > 0 kicked copies of the run's best (each
     * by stage_kick/2 .. 3*stage_kick/2 random perturbation moves) are made,
     * and the new descent starts from the one of highest value
     * stage_w[0] + sum stage_w[1 + k] * feature k (srch_em_stage_features;
     * all weights 0: the first copy); 0: off */
    int stage_k, stage_kick;
    float stage_w[SRCH_EM_STAGE_DIM + 1];
    /* optional, with stage_k: when each such descent ends by a restart (not
     * by the clock), its start's features, the run's best when it began and
     * the best it reached (the data a value is fitted to) */
    void (*on_descent)(const float *f, int best_before, int reached, void *user);
    void *descent_user;
    /* Optional learned order of the backtracking start's candidates
     * (srch_em_place_scorer_new); NULL: the shuffled order. */
    srch_em_place_scorer *order;
    /* Optional learned gate of the backtracking start's break phases
     * (srch_em_break_gate_new); NULL: breaks wherever the budget allows. */
    srch_em_break_gate *gate;
} srch_em_opts;

/* The defaults of srch_em_opts. */
extern const srch_em_opts SRCH_EM_OPTS_DEFAULTS;

/* Metropolis acceptance of the annealed walk: keep[d] is the chance, in
 * units of 2^-32, that a move losing d = 1..7 joins is kept at the walk's
 * temperature (exp(-d / temp)); a move losing 8 or more is never kept, and at
 * temperature 0 (`on` 0) no losing move is. */
typedef struct {
    uint32_t keep[8];
    int on;
} srch_em_metropolis;

void srch_em_metropolis_init(srch_em_metropolis *m, double temp);

/* 1 if a move with score change `delta` is kept: always when it loses
 * nothing; otherwise by one uniform 32-bit draw, `draw`, which is evaluated
 * only when it decides (temperature > 0 and a loss of 1..7 joins), so the
 * caller's random stream does not move otherwise. A macro so that the walk's
 * inlined generator and a test's hn_rng share one rule; `m` and `delta` are
 * evaluated more than once. */
#define SRCH_EM_METROPOLIS_KEEP(m, delta, draw)                                                    \
    ((delta) >= 0 || ((m)->on && (delta) > -8 && (uint32_t)(draw) < (m)->keep[-(delta)]))

/* Kick size (perturbation moves) after `stall` kicks without a new best:
 * `base` while escalate == 0; otherwise base doubles every `escalate` kicks
 * and, past cells/4, starts again at base (base, 2 base, 4 base, ..., base). */
int srch_em_kick_strength(int base, int cells, int escalate, long stall);

typedef struct {
    int best;         /* best score found */
    int start_score;  /* score of the constructive start */
    double time_best; /* seconds until the best was found */
    double seconds;   /* total run time (on the clock chosen by cpu_clock) */
    double wall_seconds, cpu_seconds;
    long cycles;              /* neighbourhood cycles */
    long moves;               /* moves evaluated (all neighbourhoods) */
    long restarts;            /* new descents (opts.restart): from the start board, or
                               * reheats of the best board (opts.reheat_temp) */
    int stopped;              /* 1 when interrupted */
    srch_em_scan_result scan; /* the backtracking start's figures (start backtrack) */
} srch_em_result;

/* Progress callback: current and best score, moves evaluated, seconds. */
typedef void (*srch_em_progress_fn)(int current, int best, long moves, double seconds, void *user);

/* CPU seconds used by this process (the clock of `cpu_clock` and of the
 * MILP time limit): on a shared machine it measures what the search got. */
double srch_em_cpu_seconds(void);

/* Run the multi-neighbourhood local search until the time limit or a
 * perfect score; the best assignment goes to piece/rot. Returns 0 or a status
 * (HN_ERR_INTERRUPTED keeps the best so far in piece/rot). */
int srch_em_solve(const srch_em_inst *inst, const srch_em_opts *opts, int *piece, int *rot,
                  srch_em_result *res, srch_em_progress_fn fn, void *user);
/* srch_em_solve, then the best board (also after a stop: res->stopped)
 * recounted and written to the solution file out; with stage_log (may be
 * NULL) one TSV line per STAGE descent: its start's features, the run's
 * best before it and the best it reached (opts' on_descent is used for
 * that). 0 or a status; nothing is written under out on an error. */
int srch_em_solve_file(const srch_em_inst *inst, srch_em_opts *opts, const char *out,
                       const char *stage_log, srch_em_result *res, srch_em_progress_fn fn,
                       void *user);

/* ---- MILP (1)-(14) and the max-clique model ---------------------------- */

typedef struct {
    long variables, constraints;
} srch_em_milp_stats;

/* Write the MILP in CPLEX LP format (minimise unmatched joins) to `path`
 * (NULL: only count); the sizes go to *st. */
int srch_em_milp_write(const srch_em_inst *inst, const char *path, srch_em_milp_stats *st);
/* Solve the MILP with GLPK within `seconds` of CPU time (and 10x that in wall
 * time, as the root relaxation cannot be interrupted); the incumbent goes to piece/rot
 * and its matched joins to *score. HN_ERR_UNSUPPORTED if built without GLPK,
 * HN_ERR_LIMIT if no integer solution was found in time. *optimal is 1 when
 * proven optimal. */
int srch_em_milp_solve(const srch_em_inst *inst, double seconds, int *piece, int *rot, int *score,
                       int *optimal);

typedef struct srch_em_graph srch_em_graph;
/* The compatibility graph of Section 2.2: one node per feasible (piece, cell,
 * rotation) under the frame rule and the clues, one corner piece fixed in the
 * top-left cell (when there are no clues) to break the symmetry. */
srch_em_graph *srch_em_graph_new(const srch_em_inst *inst, int *status);
void srch_em_graph_free(srch_em_graph *g);
long srch_em_graph_nodes(const srch_em_graph *g);
long srch_em_graph_edges(const srch_em_graph *g);
int srch_em_graph_write(const srch_em_graph *g, const char *path); /* DIMACS */
/* Max-clique local search (Grosso, Locatelli & Pullan style: greedy add,
 * plateau swaps with tabu, restarts) for `selections` steps. Returns the best
 * clique size; the clique becomes piece/rot (cells left empty hold -1). */
long srch_em_clique_search(const srch_em_graph *g, long selections, uint64_t seed, int *piece,
                           int *rot);
/* Complete a partial board (empty cells hold -1), e.g. a clique, by the row
 * branch and bound; 0 or a status. */
int srch_em_clique_complete(const srch_em_inst *inst, int *piece, int *rot);

HEURNET_API_END

#endif
