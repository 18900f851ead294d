/* The MILP (1)-(14) of the seed paper as a sparse model: written in CPLEX LP
 * format by hand (always available) and loaded into GLPK when the build has
 * it. Placement variables that break the frame rule are left out: (8)-(11)
 * would force them to zero anyway, and GLPK's presolve would do the same. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HEURNET_GLPK
#include <glpk.h>
#endif

#include "search/emp/srch_em_int.h"

typedef struct {
    int nx, nh, nv;     /* placement, horizontal and vertical mismatch variables */
    int *xp, *xc, *xr;  /* placement variable k: piece, cell, rotation */
    int *hcell, *vcell; /* h_k: join (cell, cell+1); v_k: join (cell, cell+w) */
    /* rows: sense 'E' or 'L', rhs, entries [start[i], start[i+1]) */
    int nrows, rcap;
    char *sense;
    int *rhs, *start;
    int ne, ecap;
    int *ecol, *eval;
} em_model;

static void model_free(em_model *m)
{
    free(m->xp);
    free(m->xc);
    free(m->xr);
    free(m->hcell);
    free(m->vcell);
    free(m->sense);
    free(m->rhs);
    free(m->start);
    free(m->ecol);
    free(m->eval);
}

static int add_entry(em_model *m, int col, int val)
{
    if (m->ne == m->ecap) {
        int cap = m->ecap ? 2 * m->ecap : 4096;
        int *c = realloc(m->ecol, sizeof(int) * (size_t)cap);
        if (c)
            m->ecol = c;
        int *v = realloc(m->eval, sizeof(int) * (size_t)cap);
        if (v)
            m->eval = v;
        if (!c || !v)
            return hn_fail(HN_ERR_NOMEM, "out of memory building the MILP");
        m->ecap = cap;
    }
    m->ecol[m->ne] = col;
    m->eval[m->ne++] = val;
    return HN_OK;
}

static int begin_row(em_model *m, char sense, int rhs)
{
    if (m->nrows + 1 >= m->rcap) {
        int cap = m->rcap ? 2 * m->rcap : 1024;
        char *s = realloc(m->sense, (size_t)cap);
        if (s)
            m->sense = s;
        int *r = realloc(m->rhs, sizeof(int) * (size_t)cap);
        if (r)
            m->rhs = r;
        int *st = realloc(m->start, sizeof(int) * (size_t)(cap + 1));
        if (st)
            m->start = st;
        if (!s || !r || !st)
            return hn_fail(HN_ERR_NOMEM, "out of memory building the MILP");
        m->rcap = cap;
    }
    m->sense[m->nrows] = sense;
    m->rhs[m->nrows] = rhs;
    m->start[m->nrows] = m->ne;
    m->nrows++;
    m->start[m->nrows] = m->ne;
    return HN_OK;
}

static int end_row(em_model *m)
{
    m->start[m->nrows] = m->ne;
    return HN_OK;
}

/* Columns: x variables 0..nx-1, then h, then v. */
static int build_vars(const srch_em_inst *in, em_model *m)
{
    size_t cap = (size_t)in->n * (size_t)in->n * 4;
    m->xp = malloc(sizeof(int) * cap);
    m->xc = malloc(sizeof(int) * cap);
    m->xr = malloc(sizeof(int) * cap);
    m->hcell = malloc(sizeof(int) * (size_t)in->n);
    m->vcell = malloc(sizeof(int) * (size_t)in->n);
    if (!m->xp || !m->xc || !m->xr || !m->hcell || !m->vcell)
        return hn_fail(HN_ERR_NOMEM, "out of memory building the MILP");
    for (int p = 0; p < in->n; p++)
        for (int c = 0; c < in->n; c++)
            for (int r = 0; r < 4; r++)
                if (srch_em_triple_ok(in, p, c, r)) {
                    m->xp[m->nx] = p;
                    m->xc[m->nx] = c;
                    m->xr[m->nx++] = r;
                }
    for (int c = 0; c < in->n; c++) {
        if (c % in->w < in->w - 1)
            m->hcell[m->nh++] = c;
        if (c / in->w < in->h - 1)
            m->vcell[m->nv++] = c;
    }
    return HN_OK;
}

/* (4)-(7): for each join and colour l, |sum side colour l at a - at b| <= mismatch. */
static int join_rows(const srch_em_inst *in, em_model *m, int a, int bcell, int side, int mcol)
{
    for (int l = 1; l < in->ncol; l++)
        for (int sign = 1; sign >= -1; sign -= 2) {
            int st = begin_row(m, 'L', 0), any = 0;
            for (int k = 0; k < m->nx && st == HN_OK; k++) {
                int c = m->xc[k];
                if (c == a && srch_em_pc(in, m->xp[k], m->xr[k])[side] == l)
                    st = add_entry(m, k, sign), any = 1;
                else if (c == bcell && srch_em_pc(in, m->xp[k], m->xr[k])[(side + 2) & 3] == l)
                    st = add_entry(m, k, -sign), any = 1;
            }
            if (st == HN_OK)
                st = add_entry(m, mcol, -1);
            if (st != HN_OK)
                return st;
            end_row(m);
            if (!any) { /* colour absent on both sides: drop the empty row */
                m->nrows--;
                m->ne = m->start[m->nrows];
            }
        }
    return HN_OK;
}

static int build_model(const srch_em_inst *in, em_model *m)
{
    int st = build_vars(in, m);
    for (int p = 0; p < in->n && st == HN_OK; p++) { /* (2) */
        st = begin_row(m, 'E', 1);
        for (int k = 0; k < m->nx && st == HN_OK; k++)
            if (m->xp[k] == p)
                st = add_entry(m, k, 1);
        end_row(m);
    }
    for (int c = 0; c < in->n && st == HN_OK; c++) { /* (3) */
        st = begin_row(m, 'E', 1);
        for (int k = 0; k < m->nx && st == HN_OK; k++)
            if (m->xc[k] == c)
                st = add_entry(m, k, 1);
        end_row(m);
    }
    for (int i = 0; i < m->nh && st == HN_OK; i++)
        st = join_rows(in, m, m->hcell[i], m->hcell[i] + 1, SRCH_EM_E, m->nx + i);
    for (int i = 0; i < m->nv && st == HN_OK; i++)
        st = join_rows(in, m, m->vcell[i], m->vcell[i] + in->w, SRCH_EM_S, m->nx + m->nh + i);
    /* (8)-(11): each border cell shows grey outside */
    for (int c = 0; c < in->n && st == HN_OK; c++)
        for (int s = 0; s < 4 && st == HN_OK; s++) {
            if (in->nb[c * 4 + s] != in->n)
                continue;
            st = begin_row(m, 'E', 1);
            for (int k = 0; k < m->nx && st == HN_OK; k++)
                if (m->xc[k] == c && srch_em_pc(in, m->xp[k], m->xr[k])[s] == 0)
                    st = add_entry(m, k, 1);
            end_row(m);
        }
    return st;
}

static void col_name(const srch_em_inst *in, const em_model *m, int k, char *buf, size_t cap)
{
    if (k < m->nx)
        snprintf(buf, cap, "x_%d_%d_%d_%d", m->xp[k], m->xc[k] / in->w, m->xc[k] % in->w, m->xr[k]);
    else if (k < m->nx + m->nh)
        snprintf(buf, cap, "h_%d_%d", m->hcell[k - m->nx] / in->w, m->hcell[k - m->nx] % in->w);
    else
        snprintf(buf, cap, "v_%d_%d", m->vcell[k - m->nx - m->nh] / in->w,
                 m->vcell[k - m->nx - m->nh] % in->w);
}

typedef struct {
    const srch_em_inst *in;
    const em_model *m;
} em_lp_ctx;

static void lp_body(FILE *f, const void *ctx)
{
    const srch_em_inst *in = ((const em_lp_ctx *)ctx)->in;
    const em_model *m = ((const em_lp_ctx *)ctx)->m;
    char name[64];
    fprintf(f, "\\ Edge matching MILP (Salassa et al. (1)-(14)), %dx%d board\n", in->w, in->h);
    fprintf(f, "\\ x_piece_row_col_rot: placement; h_r_c / v_r_c: unmatched join right / below\n");
    fprintf(f, "Minimize\n obj:");
    for (int k = m->nx; k < m->nx + m->nh + m->nv; k++) {
        col_name(in, m, k, name, sizeof name);
        fprintf(f, " + %s%s", name, (k - m->nx) % 8 == 7 ? "\n" : "");
    }
    fprintf(f, "\nSubject To\n");
    for (int i = 0; i < m->nrows; i++) {
        fprintf(f, " c%d:", i + 1);
        for (int e = m->start[i]; e < m->start[i + 1]; e++) {
            col_name(in, m, m->ecol[e], name, sizeof name);
            fprintf(f, " %c %s%s", m->eval[e] < 0 ? '-' : '+', name,
                    (e - m->start[i]) % 8 == 7 ? "\n   " : "");
        }
        fprintf(f, " %s %d\n", m->sense[i] == 'E' ? "=" : "<=", m->rhs[i]);
    }
    fprintf(f, "Bounds\n");
    for (int k = m->nx; k < m->nx + m->nh + m->nv; k++) {
        col_name(in, m, k, name, sizeof name);
        fprintf(f, " 0 <= %s <= 1\n", name);
    }
    fprintf(f, "Binary\n");
    for (int k = 0; k < m->nx; k++) {
        col_name(in, m, k, name, sizeof name);
        fprintf(f, " %s\n", name);
    }
    fprintf(f, "End\n");
}

int srch_em_milp_write(const srch_em_inst *in, const char *path, srch_em_milp_stats *stats)
{
    em_model m = {0};
    int st = build_model(in, &m);
    if (st == HN_OK && stats) {
        stats->variables = m.nx + m.nh + m.nv;
        stats->constraints = m.nrows;
    }
    if (st == HN_OK && path) {
        em_lp_ctx c = {.in = in, .m = &m};
        st = srch_em_write_file(path, lp_body, &c);
    }
    model_free(&m);
    return st;
}

#ifdef HEURNET_GLPK
static int glpk_quiet(void *info, const char *s)
{
    (void)info;
    (void)s;
    return 1; /* libraries never print */
}

/* GLPK's own limit is wall time; a shared machine needs a CPU-time limit. */
static void glpk_callback(glp_tree *tree, void *info)
{
    if (srch_em_cpu_seconds() > *(const double *)info || hn_stop_requested())
        glp_ios_terminate(tree);
}

static int glpk_run(const srch_em_inst *in, const em_model *m, double seconds, int *piece, int *rot,
                    int *optimal)
{
    glp_term_hook(glpk_quiet, NULL);
    glp_prob *lp = glp_create_prob();
    int ncols = m->nx + m->nh + m->nv;
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, ncols);
    for (int k = 1; k <= ncols; k++) {
        if (k <= m->nx) {
            glp_set_col_kind(lp, k, GLP_BV);
        } else {
            glp_set_col_bnds(lp, k, GLP_DB, 0.0, 1.0);
            glp_set_obj_coef(lp, k, 1.0);
        }
    }
    glp_add_rows(lp, m->nrows);
    for (int i = 0; i < m->nrows; i++)
        glp_set_row_bnds(lp, i + 1, m->sense[i] == 'E' ? GLP_FX : GLP_UP, m->rhs[i], m->rhs[i]);
    int *ia = malloc(sizeof(int) * ((size_t)m->ne + 1)),
        *ja = malloc(sizeof(int) * ((size_t)m->ne + 1));
    double *ar = malloc(sizeof(double) * ((size_t)m->ne + 1));
    int st = HN_OK;
    if (!ia || !ja || !ar) {
        st = hn_fail(HN_ERR_NOMEM, "out of memory loading the MILP into GLPK");
        goto out;
    }
    for (int i = 0; i < m->nrows; i++)
        for (int e = m->start[i]; e < m->start[i + 1]; e++) {
            ia[e + 1] = i + 1;
            ja[e + 1] = m->ecol[e] + 1;
            ar[e + 1] = m->eval[e];
        }
    glp_load_matrix(lp, m->ne, ia, ja, ar);
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    double deadline = srch_em_cpu_seconds() + seconds;
    /* the callback is not reached while GLPK solves the root relaxation: a
     * wall-clock limit of ten times the CPU limit is the safety net */
    double wall = 10 * seconds * 1000;
    parm.tm_lim = wall > 2e9 ? 2000000000 : (int)wall;
    parm.cb_func = glpk_callback;
    parm.cb_info = &deadline;
    glp_intopt(lp, &parm);
    int status = glp_mip_status(lp);
    if (status != GLP_OPT && status != GLP_FEAS) {
        st = hn_fail(HN_ERR_LIMIT, "GLPK found no integer solution within %g s", seconds);
        goto out;
    }
    *optimal = status == GLP_OPT;
    for (int k = 0; k < m->nx; k++)
        if (glp_mip_col_val(lp, k + 1) > 0.5) {
            piece[m->xc[k]] = m->xp[k];
            rot[m->xc[k]] = m->xr[k];
        }
out:
    (void)in;
    free(ia);
    free(ja);
    free(ar);
    glp_delete_prob(lp);
    glp_term_hook(NULL, NULL);
    return st;
}
#endif

int srch_em_milp_solve(const srch_em_inst *in, double seconds, int *piece, int *rot, int *score,
                       int *optimal)
{
#ifdef HEURNET_GLPK
    em_model m = {0};
    *optimal = 0;
    *score = -1;
    int st = build_model(in, &m);
    if (st == HN_OK)
        st = glpk_run(in, &m, seconds, piece, rot, optimal);
    if (st == HN_OK) {
        int v;
        *score = srch_em_sol_check(in, piece, rot, &v, NULL, 0);
        if (v)
            st = hn_fail(HN_ERR_LIMIT, "GLPK's solution breaks %d rule(s)", v);
    }
    model_free(&m);
    return st;
#else
    (void)in;
    (void)seconds;
    (void)piece;
    (void)rot;
    (void)score;
    (void)optimal;
    return hn_fail(HN_ERR_UNSUPPORTED, "built without GLPK (install libglpk-dev and rebuild)");
#endif
}
