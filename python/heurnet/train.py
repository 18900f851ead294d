"""Long runs from Python: data generation (`heurnet gen`), training
(`heurnet train`) and value iteration (`heurnet avi`), writing the same
files as the command line, with progress callbacks, checkpoints and resume.
Ctrl-C stops the run the way it stops the command line (the dataset keeps
its committed rows, the checkpoint is written) and raises KeyboardInterrupt."""

import ctypes as C
import os

from . import _check, _progress
from ._check import MAX_THREADS
from ._lib import lib, check, stop_hook, PROGRESS_FN, INTERRUPTED
from .model import Model
from .search import domain_spec


class _GenArgs(C.Structure):
    _fields_ = [("domain", C.c_char_p), ("label", C.c_char_p),
                ("count", C.c_uint64), ("seed", C.c_uint64), ("max_expanded", C.c_uint64),
                ("threads", C.c_int), ("walk_min", C.c_int), ("walk_max", C.c_int),
                ("uniform", C.c_int), ("all", C.c_int),
                ("path_states", C.c_int), ("overwrite", C.c_int), ("quiet", C.c_int),
                ("progress", PROGRESS_FN), ("user", C.c_void_p)]


class _GenStats(C.Structure):
    _fields_ = [("resumed_from", C.c_uint64), ("boards", C.c_uint64), ("rows", C.c_uint64),
                ("expanded", C.c_uint64), ("seconds", C.c_double), ("complete", C.c_int)]


class Epoch(C.Structure):
    """struct trn_epoch: what one training epoch measured."""
    _fields_ = [("epoch", C.c_int), ("train_loss", C.c_double), ("val_loss", C.c_double),
                ("val_mae", C.c_double), ("val_exact", C.c_double), ("val_over", C.c_double),
                ("samples_per_s", C.c_double), ("seconds", C.c_double), ("lr", C.c_double),
                ("best", C.c_int)]

    def as_dict(self):
        return {k: getattr(self, k) for k, _ in self._fields_}


class _TrainResult(C.Structure):
    _fields_ = [("epochs_run", C.c_int), ("stopped_early", C.c_int), ("best", Epoch),
                ("seconds", C.c_double), ("samples_per_s", C.c_double),
                ("cpu_samples_per_s", C.c_double), ("params", C.c_size_t)]


_EPOCH_FN = C.CFUNCTYPE(None, C.POINTER(Epoch), C.c_void_p)


class _TrainArgs(C.Structure):
    _fields_ = [("arch", C.c_char_p), ("checkpoint", C.c_char_p), ("resume", C.c_char_p),
                ("init", C.c_char_p), ("domain", C.c_char_p), ("epochs", C.c_int), ("batch", C.c_int),
                ("threads", C.c_int), ("patience", C.c_int), ("allow_incomplete", C.c_int),
                ("lr", C.c_double), ("val_fraction", C.c_double), ("dropout", C.c_double),
                ("seed", C.c_uint64), ("on_epoch", _EPOCH_FN), ("progress", PROGRESS_FN),
                ("user", C.c_void_p)]


class Round(C.Structure):
    """struct trn_avi_round: what one value-iteration round measured."""
    _fields_ = [("round", C.c_int), ("steps", C.c_uint64), ("samples", C.c_uint64),
                ("loss", C.c_double), ("target_mean", C.c_double), ("target_max", C.c_double),
                ("floor_share", C.c_double), ("updated", C.c_int), ("updates", C.c_int),
                ("solved", C.c_int), ("boards", C.c_int), ("budget", C.c_uint64),
                ("walk", C.c_int), ("buffer", C.c_uint64), ("target_seconds", C.c_double),
                ("seconds", C.c_double), ("total_seconds", C.c_double), ("model", C.c_void_p)]

    def as_dict(self):
        return {k: getattr(self, k) for k, _ in self._fields_ if k != "model"}


_ROUND_FN = C.CFUNCTYPE(None, C.POINTER(Round), C.c_void_p)


class _AviArgs(C.Structure):
    _fields_ = [("domain", C.c_char_p), ("arch", C.c_char_p),
                ("checkpoint", C.c_char_p), ("resume", C.c_char_p), ("init", C.c_char_p),
                ("floor", C.c_char_p), ("rounds", C.c_int), ("steps_per_round", C.c_int),
                ("batch", C.c_int), ("walk_max", C.c_int), ("threads", C.c_int),
                ("lookahead", C.c_int), ("quiet", C.c_int), ("lr", C.c_double),
                ("lr_decay", C.c_double), ("update_loss", C.c_double), ("seed", C.c_uint64),
                ("on_round", _ROUND_FN), ("progress", PROGRESS_FN), ("user", C.c_void_p)]


class _Callbacks:
    """User callbacks called from C. An exception in one cannot cross the C
    frames: it is kept, the run is asked to stop, and it is raised after."""

    def __init__(self):
        self.error = None

    def wrap(self, fn):
        def call(*args):
            if self.error is not None:
                return
            try:
                fn(*args)
            except BaseException as e:  # noqa: B902 - re-raised after the call
                self.error = e
                lib.hn_stop_set(1)
        return call

    def progress(self, fn):
        if fn is None:
            return PROGRESS_FN()
        return PROGRESS_FN(self.wrap(lambda done, total, extra, user: fn(
            done, total, extra.decode() if extra else "")))

    def finish(self, st, what):
        """Raise the callback's exception, a stop, or heurnet's error."""
        if self.error is not None:
            lib.hn_stop_set(0)
            raise self.error
        if st == INTERRUPTED:
            raise KeyboardInterrupt("%s: stopped by a signal" % what)
        check(st, what)


def _walks(walk):
    """walk= as (min, max): an int K is (K, K), 0 none."""
    if isinstance(walk, (tuple, list)):
        if len(walk) != 2:
            raise ValueError("walk: expected an int or (min, max), not %r" % (walk,))
        lo = _check.integer(walk[0], "walk min", 0, MAX_WALK)
        return lo, _check.integer(walk[1], "walk max", lo, MAX_WALK)
    k = _check.integer(walk, "walk", 0, MAX_WALK)
    return k, k


MAX_WALK = 65535  # DG_DOM_MAX_WALK


def gen(path, count=0, domain=None, puzzle=None, goal="blank-first", label=None, seed=1,
        threads=None, walk=0, uniform=False, all_states=False, path_states=False,
        max_expanded=0, overwrite=False, progress=None, quiet=True) -> dict:
    """Label states with their optimal cost into the dataset `path`, the
    file `heurnet gen --domain D -n COUNT --seed S ...` writes with the
    same options, on any domain (domain= a spec or a heurnet.Domain;
    puzzle=8/15/24 for the n-puzzle). States: walks of `walk` moves (an
    int, or (min, max) as --walk A-B), uniform=True, or all_states=True;
    none of them: heurnet gen's default (uniform boards for the n-puzzle up
    to 5x5, else walks of 1..30). label: the solver's admissible heuristic
    (None: gen's default). An existing matching file is continued
    (resume) unless overwrite. progress(done, total, extra) is called as
    states are committed. Returns a dict: resumed_from, boards, rows,
    expanded, seconds, complete.

    count, seed and max_expanded are 0..2**64-1, walk 0..65535, threads
    1..MAX_THREADS (256; None: the CPUs, at most that); anything else
    raises TypeError or ValueError before a file is touched."""
    p = _check.path(path, "gen: path", none_ok=False)
    spec = domain_spec(domain, puzzle, goal)
    n = _check.count(count, "count")
    if not all_states and n == 0:
        raise ValueError("gen: count must be a positive number of states (or all_states=True)")
    lo, hi = _walks(walk)
    if threads is None:
        threads = min(os.cpu_count() or 1, MAX_THREADS)
    cb = _Callbacks()
    a = _GenArgs(domain=_check.text(spec, "domain"), label=_check.text(label, "label"),
                 count=n, seed=_check.count(seed, "seed"),
                 max_expanded=_check.count(max_expanded, "max_expanded"),
                 threads=_check.threads(threads), walk_min=lo, walk_max=hi,
                 uniform=1 if uniform else 0, all=1 if all_states else 0,
                 path_states=1 if path_states else 0,
                 overwrite=1 if overwrite else 0, quiet=1 if quiet else 0,
                 progress=cb.progress(_progress.choose(_callback(progress), "gen")))
    st = _GenStats()
    with stop_hook():
        rc = lib.heurnet_gen(p, C.byref(a), C.byref(st))
    cb.finish(rc, "gen %s" % os.fspath(path))
    return {k: getattr(st, k) for k, _ in st._fields_}


def _callback(progress):
    """progress= checked: a callable, None (the default line), True or False."""
    if isinstance(progress, bool):
        return progress
    return _check.callback(progress, "progress")


def _csv(path, header, resume):
    if not path:
        return None
    fresh = not resume or not os.path.exists(path) or os.path.getsize(path) == 0
    f = open(path, "w" if fresh else "a")
    if fresh:
        f.write(header)
    return f


_TRAIN_HEADER = "epoch,train_loss,val_loss,val_mae,val_exact,val_over,samples_per_s,seconds\n"


def _epoch_line(e):
    return "%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.1f,%.2f\n" % (
        e.epoch, e.train_loss, e.val_loss, e.val_mae, e.val_exact, e.val_over, e.samples_per_s,
        e.seconds)


def train(data, output=None, arch=None, epochs=10, batch=512, lr=1e-3, seed=1, threads=1,
          val_fraction=0.05, dropout=0.1, patience=0, checkpoint=None, resume=None, init=None,
          log=None, allow_incomplete=False, on_epoch=None, progress=None, domain=None):
    """Train on dataset files as `heurnet train --data ... --arch ... -o
    OUTPUT` does (same defaults, same model file; `log` gets the same CSV
    as --log), on any domain's datasets (domain=: a spec or a
    heurnet.Domain, for a plug-in whose path the files do not record;
    None: the domain the files record). on_epoch(dict) is called after each epoch, progress(done,
    total, extra) during it. Returns (Model, history list of dicts).

    Scalars take heurnet train's ranges: epochs 1..1000000, batch
    2..65536, lr in (0, 10], threads 1..MAX_THREADS (256), patience
    0..1000000, val_fraction and dropout in [0, 1), seed 0..2**64-1;
    anything else raises TypeError or ValueError before a file is read."""
    if isinstance(data, (str, bytes, os.PathLike)):
        files = [data]
    else:
        try:
            files = list(data)
        except TypeError:
            raise TypeError("train: data: expected a file name or a list of them, not %s"
                            % type(data).__name__) from None
    if not files:
        raise ValueError("train: data: no files given")
    enc_files = [_check.path(f, "train: data[%d]" % i, none_ok=False) for i, f in enumerate(files)]
    a = _TrainArgs()
    lib.heurnet_train_defaults(C.byref(a))
    a.arch = _check.text(arch, "arch")
    a.checkpoint = _check.path(checkpoint, "checkpoint")
    a.resume = _check.path(resume, "resume")
    a.init = _check.path(init, "init")
    a.domain = None if domain is None else _check.text(domain_spec(domain), "domain")
    a.epochs = _check.integer(epochs, "epochs", 1, 1000000)
    a.batch = _check.integer(batch, "batch", 2, 65536)
    a.threads = _check.threads(threads)
    a.patience = _check.integer(patience, "patience", 0, 1000000)
    a.allow_incomplete = 1 if allow_incomplete else 0
    a.lr = _check.real(lr, "lr", 0.0, 10.0, lo_open=True)
    a.val_fraction = _check.real(val_fraction, "val_fraction", 0.0, 1.0, hi_open=True)
    a.dropout = _check.real(dropout, "dropout", 0.0, 1.0, hi_open=True)
    a.seed = _check.count(seed, "seed")
    _check.path(output, "output")
    _check.path(log, "log")
    _check.callback(on_epoch, "on_epoch")
    progress = _progress.choose(_callback(progress), "train")
    paths = (C.c_char_p * len(files))(*enc_files)
    history = []
    logf = _csv(log, _TRAIN_HEADER, resume)
    cb = _Callbacks()

    def epoch_fn(ep, user):
        e = ep.contents
        history.append(e.as_dict())
        if logf:
            logf.write(_epoch_line(e))
            logf.flush()
        if on_epoch:
            on_epoch(e.as_dict())

    a.on_epoch = _EPOCH_FN(cb.wrap(epoch_fn))
    a.progress = cb.progress(progress)
    out, res = C.c_void_p(), _TrainResult()
    try:
        with stop_hook():
            rc = lib.heurnet_train(paths, len(files), C.byref(a), C.byref(out), C.byref(res))
    finally:
        if logf:
            logf.close()
    if out.value and (cb.error is not None or rc):
        lib.nn_model_free(out)
    cb.finish(rc, "train")
    m = Model(out.value)
    if output is not None:
        m.save(output)
    return m, history


_AVI_HEADER = ("round,steps,samples,loss,target_mean,target_max,floor_share,updated,updates,"
               "solved,boards,budget,walk,buffer,target_seconds,seconds,total_seconds,eval_mae,"
               "eval_exact\n")


def _round_line(r):
    return ("%d,%d,%d,%.6g,%.4f,%.2f,%.4f,%d,%d,%d,%d,%d,%d,%d,%.2f,%.2f,%.1f,nan,nan\n" % (
        r.round, r.steps, r.samples, r.loss, r.target_mean, r.target_max, r.floor_share,
        r.updated, r.updates, r.solved, r.boards, r.budget, r.walk, r.buffer, r.target_seconds,
        r.seconds, r.total_seconds))


def _avi_scalars(rounds, steps_per_round, batch, walk_max, threads, lookahead, lr, lr_decay,
                 update_loss, seed):
    """(field, value) of each scalar avi() was given, checked; None ones
    keep the default."""
    ints = (("rounds", rounds, 0, 100000000), ("steps_per_round", steps_per_round, 1, 10000000),
            ("batch", batch, 2, 1000000), ("walk_max", walk_max, 0, 100000),
            ("threads", threads, 1, MAX_THREADS), ("lookahead", lookahead, 1, 4),
            ("seed", seed, 0, _check.UINT64_MAX))
    reals = (("lr", lr, 0.0, 10.0, True), ("lr_decay", lr_decay, 0.0, 1.0, True),
             ("update_loss", update_loss, 0.0, 1e12, False))
    out = [(k, _check.integer(v, k, lo, hi)) for k, v, lo, hi in ints if v is not None]
    out += [(k, _check.real(v, k, lo, hi, lo_open=op)) for k, v, lo, hi, op in reals
            if v is not None]
    return out


def avi(output=None, arch=None, domain=None, puzzle=None, goal="blank-first", rounds=None,
        steps_per_round=None, batch=None, lr=None, lr_decay=None, walk_max=None,
        update_loss=None, lookahead=None, threads=None, seed=None, floor=None, checkpoint=None,
        resume=None, init=None, log=None, on_round=None, progress=None, quiet=True):
    """Value iteration (DAVI) as `heurnet avi --domain D --arch ... -o
    OUTPUT` runs it, on any domain (domain=: a spec or a heurnet.Domain;
    puzzle=8/15/24 for the n-puzzle); None takes the command line's default. on_round(dict)
    after each round. Returns (Model, history list of dicts).

    Scalars take heurnet avi's ranges (rounds 0..1e8, steps_per_round
    1..1e7, batch 2..1e6, walk_max 0..100000, threads 1..MAX_THREADS (256),
    lookahead 1..4, lr in (0, 10], lr_decay in (0, 1], update_loss in
    [0, 1e12], seed 0..2**64-1); anything else raises TypeError or
    ValueError before anything runs."""
    spec = _check.text(domain_spec(domain, puzzle, goal), "domain")
    a = _AviArgs()
    lib.heurnet_avi_defaults(C.byref(a))
    a.domain = spec
    a.arch = _check.text(arch, "arch")
    a.checkpoint = _check.path(checkpoint, "checkpoint")
    a.resume = _check.path(resume, "resume")
    a.init = _check.path(init, "init")
    a.floor, a.quiet = _check.text(floor, "floor"), 1 if quiet else 0
    for k, v in _avi_scalars(rounds, steps_per_round, batch, walk_max, threads, lookahead, lr,
                             lr_decay, update_loss, seed):
        setattr(a, k, v)
    _check.path(output, "output")
    _check.path(log, "log")
    _check.callback(on_round, "on_round")
    progress = _progress.choose(_callback(progress), "avi")
    history = []
    logf = _csv(log, _AVI_HEADER, resume)
    cb = _Callbacks()

    def round_fn(rp, user):
        r = rp.contents
        history.append(r.as_dict())
        if logf:
            logf.write(_round_line(r))
            logf.flush()
        if on_round:
            on_round(r.as_dict())

    a.on_round = _ROUND_FN(cb.wrap(round_fn))
    a.progress = cb.progress(progress)
    out = C.c_void_p()
    try:
        with stop_hook():
            rc = lib.heurnet_avi(C.byref(a), C.byref(out))
    finally:
        if logf:
            logf.close()
    if out.value and (cb.error is not None or rc):
        lib.nn_model_free(out)
    cb.finish(rc, "avi")
    m = Model(out.value)
    if output is not None:
        m.save(output)
    return m, history
