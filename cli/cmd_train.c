/* heurnet train: train a model on labelled datasets. One CSV line per epoch
 * on stdout (and --log), a progress bar on stderr, checkpoints on request
 * and on Ctrl-C/SIGTERM, the best weights saved to -o (written as .part and
 * renamed, so a failure leaves no model file). Under mpirun the ranks train
 * data parallel and rank 0 alone prints and writes files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cmd_nn.h"
#include "cli/train_common.h"
#include "solve/eval_report.h"
#include "common/hn.h"
#include "domains/dom.h"
#include "train/trn_mpi.h"

struct ui {
    hn_progress *bar;
    int quiet;
    FILE *log;
    const char *log_path;
    int log_errno; /* the log could not be written: training stops */
};

static void on_progress(uint64_t done, uint64_t total, const char *extra, void *user)
{
    struct ui *u = user;
    if (!u->bar)
        u->bar = hn_progress_new("train", total, u->quiet);
    hn_progress_update(u->bar, done, extra);
}

static void on_epoch(const struct trn_epoch *e, void *user)
{
    struct ui *u = user;
    hn_progress_finish(u->bar);
    u->bar = NULL;
    cli_train_csv_line(stdout, e);
    fflush(stdout);
    if (u->log && !u->log_errno) {
        errno = 0;
        cli_train_csv_line(u->log, e);
        if (fflush(u->log) != 0 || ferror(u->log)) {
            /* a log that silently misses epochs is worse than a stop: end the
             * run the way Ctrl-C does (the checkpoint is written) */
            u->log_errno = errno ? errno : EIO;
            hn_stop_set(1);
        }
    }
}

struct train_cli {
    struct cli_train_cfg c;
    const char *out, *log;
};

#define TR(f) offsetof(struct train_cli, f)
static const struct cli_opt train_opts[] = {
    CLI_STR("arch", TR(c.o.arch), "SPEC",
            "network, input width first, e.g. 256-512-256-1 [required unless --init-from or "
            "--resume give it]"),
    CLI_STRL('o', "output", TR(out), "F", "model file to write [required]"),
    CLI_STR("log", TR(log), "FILE.csv", "also write the epoch lines there (appended on --resume)"),
    CLI_STR("checkpoint", TR(c.o.checkpoint), "F",
            "write a checkpoint after each epoch and on Ctrl-C/SIGTERM"),
    CLI_STR("resume", TR(c.o.resume), "F",
            "continue from a checkpoint (same data and settings; --epochs may be raised)"),
    CLI_STR("init-from", TR(c.o.init), "M.h5",
            "start from this model's weights and target scaling (fine-tuning with new "
            "settings; fresh optimizer)"),
    CLI_TABLE(cli_train_table, TR(c)),
    CLI_END};
static const struct cli_opt_cmd train_cmd = {
    .cmd = "train",
    .usage = "train --data FILE.h5 [--data MORE.h5 ...] --arch SPEC -o MODEL.h5 [options]\n\n"
             "Train a network on labelled rows; the best validation epoch's weights are saved.\n"
             "Prints one CSV line per epoch on stdout:\n"
             "  epoch,train_loss,val_loss,val_mae,val_exact,val_over,samples_per_s,seconds\n"
             "(losses in target units squared, val_exact / val_over = share of validation rows\n"
             "whose rounded prediction equals / exceeds the target).\n\n",
    .opts = train_opts,
#ifdef HEURNET_MPI
    .epilog = "Under mpirun -np N each rank trains on 1/N of every batch (the batch must be a\n"
              "multiple of N; --threads is per rank); the result equals one process.\n",
#endif
};

/* Fail early when the output cannot be created, not after hours of training. */
static int probe_output(const char *path)
{
    char part[4096];
    int rc;
    FILE *f = hn_part_fopen(path, part, sizeof part, &rc);
    if (!f)
        return rc;
    fclose(f);
    remove(part);
    return HN_OK;
}

/* The log could not be written: say so and where training can go on. */
static int log_failed(const struct ui *u, const struct trn_opts *o, int rc)
{
    fprintf(stderr, "heurnet train: cannot write the log %s: %s; ", u->log_path,
            strerror(u->log_errno));
    if (rc == HN_ERR_INTERRUPTED && o->checkpoint)
        fprintf(stderr, "stopped, checkpoint %s written (continue with --resume %s)\n",
                o->checkpoint, o->checkpoint);
    else if (rc == HN_ERR_INTERRUPTED)
        fprintf(stderr, "stopped, no model written\n");
    else
        fprintf(stderr, "the model was %s\n", rc ? "not written" : "written");
    return CLI_EXIT_FAIL;
}

static FILE *open_log(const char *path, int resume)
{
    struct stat st;
    int fresh = !resume || stat(path, &st) != 0 || st.st_size == 0;
    FILE *f = fopen(path, fresh ? "w" : "a");
    if (f && fresh)
        cli_train_csv_header(f);
    return f;
}

static int parse(int argc, char **argv, struct train_cli *t)
{
    struct cli_train_cfg *c = &t->c;
    int nargs, rc = cli_opt_parse(&train_cmd, t, argc, argv, &nargs);
    if (rc)
        return rc;
    if (!c->ndata)
        return cli_usage("train", "--data FILE.h5 is required");
    if (c->o.init && c->o.resume)
        return cli_usage("train", "--init-from and --resume exclude each other");
    if (!c->o.arch && !c->o.init && !c->o.resume)
        return cli_usage("train", "--arch SPEC is required (e.g. 256-1024-1024-512-128-64-1)");
    struct nn_spec sp;
    if (c->o.arch && cli_arch_parse("train", c->o.arch, &c->o.defaults, &sp))
        return CLI_EXIT_USAGE;
    if (!t->out)
        return cli_usage("train", "-o MODEL.h5 is required");
    return 0;
}

static void summary(const char *out, const nn_model *m, const struct trn_result *r)
{
    fprintf(
        stderr,
        "heurnet train: saved %s: %zu parameters, %d epochs%s, best epoch %d: val_loss %.4g "
        "val_mae %.4g val_exact %.4f val_over %.4f; %.0f samples/s (%.0f per CPU second), %.1f s\n",
        out, nn_model_param_count(m), r->epochs_run, r->stopped_early ? " (early stop)" : "",
        r->best.epoch, r->best.val_loss, r->best.val_mae, r->best.val_exact, r->best.val_over,
        r->samples_per_s, r->cpu_samples_per_s, r->seconds);
}

/* Said even with --quiet: a network far off at the goal trains and
 * validates well on far boards and is useless to a search. */
static void warn_goal(const char *out, const nn_model *m, const trn_data *d)
{
    char msg[1400], fix[320];
    uint64_t near = trn_data_rows_within(d, HEURNET_GOAL_TOL),
             all = trn_data_rows(d, TRN_TRAIN) + trn_data_rows(d, TRN_VAL);
    if (near)
        snprintf(fix, sizeof fix,
                 "its data holds %llu rows (%.2f%%) within %g moves of the goal: train longer "
                 "or on more of them (more boards with `heurnet gen --path-states`)",
                 (unsigned long long)near, 100.0 * (double)near / (double)(all ? all : 1),
                 HEURNET_GOAL_TOL);
    else
        snprintf(fix, sizeof fix,
                 "its data holds no row within %g moves of the goal: label boards with `heurnet "
                 "gen --path-states` (or --walk) and train again",
                 HEURNET_GOAL_TOL);
    if (heurnet_goal_fit_warning_fix(out, m, HEURNET_GOAL_TOL, fix, msg, sizeof msg))
        fprintf(stderr, "heurnet train: warning: %s\n", msg);
}

/* Train; rank 0 (or the only process) prints and writes the files. */
static int train(struct cli_train_cfg c, const char *out, const char *logp)
{
    int rc = 0, lead = !c.o.comm || c.o.comm->rank == 0;
    if (!lead) {
        c.quiet = 1;
        logp = NULL;
    }
    cli_log_init(c.quiet);
    nn_blas_threads(c.o.threads);
    hn_stop_install();
    if (lead && probe_output(out))
        return cli_fail("train");
    dom *dm = NULL;
    if ((rc = cli_train_open_domain("train", &c, &dm)))
        return rc;
    trn_data *d = cli_train_open_data("train", &c, dm, &rc);
    if (!d || (rc = cli_train_check_complete("train", &c, d))) {
        trn_data_free(d);
        dom_free(dm);
        return rc;
    }
    struct ui u = {.quiet = c.quiet, .log_path = logp};
    if (logp && !(u.log = open_log(logp, c.o.resume != NULL))) {
        trn_data_free(d);
        dom_free(dm);
        hn_fail(HN_ERR_IO, "%s: cannot open the log file", logp);
        return cli_fail("train");
    }
    c.o.on_epoch = lead ? on_epoch : NULL;
    c.o.epoch_user = &u;
    c.o.progress = on_progress;
    c.o.progress_user = &u;
    if (!c.quiet && c.o.comm)
        fprintf(
            stderr,
            "heurnet train: %d MPI ranks, %d rows of each batch per rank, %d BLAS thread(s) each\n",
            c.o.comm->size, c.o.batch / c.o.comm->size, c.o.threads);
    if (!c.quiet)
        fprintf(stderr, "heurnet train: %llu training rows, %llu validation rows, encoder \"%s\"\n",
                (unsigned long long)trn_data_rows(d, TRN_TRAIN),
                (unsigned long long)trn_data_rows(d, TRN_VAL), trn_data_encoder(d));
    if (lead)
        cli_train_csv_header(stdout);
    nn_model *m = NULL;
    struct trn_result res;
    rc = trn_run(d, &c.o, &m, &res);
    hn_progress_finish(u.bar);
    if (!rc && lead)
        rc = nn_model_save(m, out);
    if (!rc && !c.quiet)
        summary(out, m, &res);
    if (!rc && lead)
        warn_goal(out, m, d);
#ifdef HEURNET_MPI
    if (!rc && !c.quiet && c.o.comm)
        fprintf(stderr,
                "heurnet train: rank 0 spent %.2f s of %.2f s in MPI_Allreduce (sums and waits)\n",
                trn_mpi_seconds(), res.seconds);
#endif
    if (u.log && fclose(u.log) != 0 && !u.log_errno)
        u.log_errno = errno ? errno : EIO;
    nn_model_free(m);
    trn_data_free(d);
    dom_free(dm);
    if (u.log_errno)
        return log_failed(&u, &c.o, rc);
    if (rc == HN_ERR_INTERRUPTED && !lead)
        return CLI_EXIT_FAIL;
    if (rc == HN_ERR_INTERRUPTED) {
        if (c.o.checkpoint)
            fprintf(
                stderr,
                "heurnet train: interrupted; checkpoint %s written (continue with --resume %s)\n",
                c.o.checkpoint, c.o.checkpoint);
        else
            fprintf(stderr, "heurnet train: interrupted; no model written (use --checkpoint to "
                            "keep progress)\n");
        return CLI_EXIT_FAIL;
    }
    return rc ? cli_fail("train") : CLI_EXIT_OK;
}

int cmd_train(int argc, char **argv)
{
    struct train_cli t = {0};
    cli_train_cfg_init(&t.c);
    int rc = parse(argc, argv, &t);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (!trn_mpi_launched())
        return train(t.c, t.out, t.log);
#ifdef HEURNET_MPI
    struct trn_comm comm;
    if (trn_mpi_init(&comm))
        return cli_fail("train");
    t.c.o.comm = &comm;
    rc = train(t.c, t.out, t.log);
    trn_mpi_finalize();
    return rc;
#else
    hn_fail(HN_ERR_UNSUPPORTED, "started by mpirun, but this heurnet was built without MPI");
    return cli_fail("train");
#endif
}
