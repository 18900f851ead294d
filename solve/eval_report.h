/* What heurnet eval's report (solve/eval_dom.h) is built with: a model's
 * estimates at its goal (a network far off there explains a search that
 * solves nothing; train and ablate warn too), and the report folder, built
 * under a private name and renamed when complete. */
#ifndef HEURNET_SOLVE_EVAL_REPORT_H
#define HEURNET_SOLVE_EVAL_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "common/hn.h"

struct nn_model;

HEURNET_API_BEGIN

/* ---- a model's estimates at the goal (solve/goal_fit.c) ---- */

/* What a model estimates at its domain's goal (distance 0) and how far it
 * is off at the states 1 and 2 moves from it (unit-cost reversible domains;
 * a residual model at the goal alone, where an admissible base is 0). */
typedef struct heurnet_goal_fit {
    char domain[128];  /* the model's domain (recorded, or its n-puzzle encoder's) */
    double at_goal;    /* the estimate at the goal */
    size_t near;       /* states 1-2 moves from it that were checked */
    double worst_near; /* the estimate minus the distance of the worst of them */
} heurnet_goal_fit;

/* Moves off at or next to the goal past which train, ablate and eval warn. */
#define HEURNET_GOAL_TOL 2.0

/* Fill *f for model m: 0, HN_ERR_UNSUPPORTED when the model names no
 * domain (an encoder-less or move-scorer model), or the status of opening
 * its domain or network. Fast: a few states through the float engine. */
int heurnet_goal_fit_of(const struct nn_model *m, heurnet_goal_fit *f);
/* 1 with a warning in msg (naming the model as `name`, the estimates and
 * the fix, gen --path-states) when the estimate at the goal or next to it
 * is more than tol moves off; 0 (msg "") when it is not or cannot be told. */
int heurnet_goal_fit_warning(const char *name, const struct nn_model *m, double tol, char *msg,
                             size_t cap);
/* The same with `fix` (NULL: the default) as the advice ending msg. */
int heurnet_goal_fit_warning_fix(const char *name, const struct nn_model *m, double tol,
                                 const char *fix, char *msg, size_t cap);
/* The same for the model file at path (0 when it cannot be read). */
int heurnet_goal_fit_file(const char *path, double tol, char *msg, size_t cap);

/* When model (a path; NULL: none) is more than HEURNET_GOAL_TOL off at or
 * next to the goal: a warning through hn_log and a paragraph to f. */
void heurnet_eval_goal_note(FILE *f, const char *model);

/* ---- the report folder (solve/eval_dir.c) ---- */

/* The files heurnet_dom_eval_report_write writes (NULL-terminated): the
 * only files the folder functions remove, so a folder holding anything
 * else is never deleted. */
extern const char *const heurnet_eval_report_files[];

/* A report is built in a private folder (`dir`.<pid>-<token>.part, its name
 * into part[cap]) that is renamed to dir only when complete. Creates that
 * folder empty. A trailing slash on dir is ignored. Fails: HN_ERR_ARG when
 * the name does not fit; HN_ERR_IO when dir exists and not `force`, when it
 * is not a folder or holds files a report does not have (checked here,
 * before any work), or the folder cannot be made. */
int heurnet_eval_dir_prepare(const char *dir, int force, const char *const *files, char *part,
                             size_t cap);
/* Put the complete report folder `part` in place as dir: a folder there
 * (only with force, and only one holding nothing but `files`) is renamed
 * aside first and removed once the new one is in, so a failure leaves the
 * old report whole. A trailing slash on dir is ignored. HN_ERR_IO. */
int heurnet_eval_dir_commit(const char *dir, int force, const char *part, const char *const *files);
/* Remove a report folder: its `files`, then the folder (a missing folder
 * is fine). HN_ERR_IO when it holds other files or cannot be removed. */
int heurnet_eval_dir_remove(const char *dir, const char *const *files);

HEURNET_API_END

#endif
