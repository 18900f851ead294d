"""Loading libheurnet and calling it safely.

Every call goes through ctypes (CDLL releases the GIL for the call). A
negative status becomes a Python exception carrying heurnet's own message;
long calls run under heurnet's Ctrl-C hook, and files that cannot be
verified are read in a forked child first, as the command line does.
"""

import ctypes as C
import ctypes.util
import os
import signal
import sys
import threading

from . import _check, _config

# enum hn_status (common/hn.h)
OK, NOMEM, IO, FORMAT, ARG, SHAPE, NAN, UNSOLVABLE, LIMIT, INTERRUPTED, HDF5, UNSUPPORTED = (
    0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11)


class HeurnetError(RuntimeError):
    """A heurnet call failed; .status is the hn_status code."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


class HeurnetValueError(HeurnetError, ValueError):
    """Bad argument, file content, shape or number (HN_ERR_ARG and kin)."""


class HeurnetIOError(HeurnetError, OSError):
    """A file could not be opened, read or written (HN_ERR_IO, HDF5)."""


class HeurnetMemoryError(HeurnetError, MemoryError):
    """Out of memory (HN_ERR_NOMEM)."""


_VALUE = {FORMAT, ARG, SHAPE, NAN, UNSOLVABLE, UNSUPPORTED}
_IO = {IO, HDF5}


def _candidates():
    env = os.environ.get("HEURNET_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    if _config.LIBDIR:  # written by cmake --install: relative to this folder
        yield os.path.normpath(os.path.join(here, _config.LIBDIR, "libheurnet.so"))
    if _config.LIBPATH:  # written by pip's build: the library it was built against
        yield _config.LIBPATH
    yield "libheurnet.so.%s" % _config.SOVERSION
    found = ctypes.util.find_library("heurnet")
    if found:
        yield found
    # an install under this interpreter's prefix that ldconfig has not seen
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix)):
        yield os.path.join(prefix, "lib", "libheurnet.so.%s" % _config.SOVERSION)
        yield os.path.join(prefix, "local", "lib", "libheurnet.so.%s" % _config.SOVERSION)


def _load():
    errors = []
    for path in _candidates():
        try:
            return C.CDLL(path)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("heurnet: libheurnet.so not found (set HEURNET_LIB to its path): "
                      + "; ".join(errors))


lib = _load()

_P = C.c_void_p
_S = C.c_char_p
_PROTOS = {
    "hn_version": (_S, []),
    "hn_revision": (_S, []),
    "hn_strerror": (_S, [C.c_int]),
    "hn_error_clear": (None, []),
    "heurnet_errmsg_copy": (C.c_size_t, [_S, C.c_size_t]),
    "hn_stop_install": (None, []),
    "hn_stop_requested": (C.c_int, []),
    "hn_stop_set": (None, [C.c_int]),
    "hn_isolate_set": (None, [_P]),
    "nn_blas_threads": (None, [C.c_int]),
    "nn_model_load": (_P, [_S, C.POINTER(C.c_int)]),
    "nn_model_save": (C.c_int, [_P, _S]),
    "nn_model_free": (None, [_P]),
    "nn_model_clone": (_P, [_P, C.POINTER(C.c_int)]),
    "nn_model_inputs": (C.c_int, [_P]),
    "nn_model_outputs": (C.c_int, [_P]),
    "nn_model_layers": (C.c_int, [_P]),
    "nn_model_param_count": (C.c_size_t, [_P]),
    "nn_model_params": (_P, [_P, C.POINTER(C.c_size_t)]),
    "nn_model_encoder": (_S, [_P]),
    "nn_model_set_encoder": (C.c_int, [_P, _S]),
    "nn_model_target": (None, [_P, C.POINTER(C.c_double), C.POINTER(C.c_double)]),
    "nn_model_set_target": (C.c_int, [_P, C.c_double, C.c_double]),
    "nn_model_set_meta_str": (C.c_int, [_P, _S, _S]),
    "nn_model_set_meta_double": (C.c_int, [_P, _S, C.c_double]),
    "nn_model_meta_count": (C.c_int, [_P]),
    "nn_model_meta_at": (C.c_int, [_P, C.c_int, C.POINTER(_S), C.POINTER(C.c_int),
                                   C.POINTER(_S), C.POINTER(C.c_double)]),
    "nn_infer_new": (_P, [_P, C.c_int, C.POINTER(C.c_int)]),
    "nn_infer_free": (None, [_P]),
    "nn_infer_run": (C.c_int, [_P, _P, C.c_int, _P]),
    "nn_infer_refresh": (C.c_int, [_P, _P]),
    "nn_infer_max_batch": (C.c_int, [_P]),
    "nn_import_onnx_mem": (_P, [C.c_char_p, C.c_size_t, _S, C.POINTER(C.c_int)]),
    "nn_export_npy": (C.c_int, [_P, _S]),
    "heurnet_model_create": (_P, [_S, C.c_float, C.c_uint64, C.POINTER(C.c_int)]),
    "heurnet_model_spec_string": (C.c_int, [_P, _S, C.c_size_t]),
    "heurnet_gen": (C.c_int, [_S, _P, _P]),
    "heurnet_train_defaults": (None, [_P]),
    "heurnet_train": (C.c_int, [_P, C.c_int, _P, C.POINTER(_P), _P]),
    "heurnet_avi_defaults": (None, [_P]),
    "heurnet_avi": (C.c_int, [_P, C.POINTER(_P)]),
    # the domain API (domains/dom.h, solve/dom_batch.h, solve/dom_search.h)
    "dom_open": (_P, [_S, C.POINTER(C.c_int)]),
    "dom_free": (None, [_P]),
    "dom_goal": (None, [_P, _P]),
    "dom_parse_moves": (C.c_int, [_P, _S, _P, C.c_int]),
    "dom_format_moves": (C.c_int, [_P, _P, C.c_int, _S, C.c_size_t]),
    "dom_replay": (C.c_int, [_P, _P, _P, C.c_int]),
    "heurnet_dom_info_get": (C.c_int, [_P, _P]),
    "heurnet_dom_move_info": (C.c_int, [_P, C.c_int, C.POINTER(_S), C.POINTER(C.c_int),
                                        C.POINTER(C.c_int)]),
    "heurnet_dom_builtin_info": (C.c_int, [C.c_int, C.POINTER(_S), C.POINTER(_S),
                                           C.POINTER(_S)]),
    "heurnet_dom_states_check": (C.c_int, [_P, _P, C.c_size_t, C.c_size_t]),
    "heurnet_dom_expand_states": (C.c_int, [_P, _P, C.c_size_t, C.c_size_t, _P, _P, _P, _P]),
    "heurnet_dom_apply_states": (C.c_int, [_P, _P, C.c_size_t, C.c_size_t, _P, _P, _P]),
    "heurnet_dom_goal_states": (C.c_int, [_P, _P, C.c_size_t, C.c_size_t, _P]),
    "heurnet_dom_encode_states": (C.c_int, [_P, _P, C.c_size_t, C.c_size_t, _P, _P, _P]),
    "heurnet_dom_sample_states": (C.c_int, [_P, C.c_size_t, C.c_uint64, C.c_int, C.c_int,
                                            C.c_int, _P, _P]),
    "heurnet_dom_parse_states": (C.c_int, [_P, _S, C.c_size_t, _P]),
    "heurnet_dom_format_states": (C.c_long, [_P, _P, C.c_size_t, C.c_size_t, _S, C.c_size_t]),
    "heurnet_dom_instances_read": (C.c_int, [_P, _S, C.POINTER(_P), C.POINTER(C.c_size_t)]),
    "heurnet_dom_instances_free": (None, [_P]),
    "heurnet_dom_heur_open": (_P, [_P, _S, C.POINTER(C.c_int)]),
    "heurnet_dom_heur_free": (None, [_P]),
    "heurnet_dom_heur_admissible": (C.c_int, [_P]),
    "heurnet_dom_heur_values": (C.c_int, [_P, _P, C.c_size_t, C.c_size_t, _P]),
    "heurnet_dom_heur_ints": (C.c_int, [_P, _P, C.c_size_t, C.c_size_t, _P]),
    "srch_dom_heur_register": (C.c_int, [_S, _P, _P]),
    "dom_open_def": (_P, [_P, _S, C.POINTER(C.c_int)]),
    "dom_register_def": (C.c_int, [_P]),
    "dom_heur_open": (_P, [_P, _S, C.POINTER(C.c_int)]),
    "dom_heur_free": (None, [_P]),
    "dom_heur_eval_many": (None, [_P, _P, C.c_size_t, C.c_size_t, _P]),
    "dom_heur_pdb_tables": (C.c_int, [_P, _P, C.c_int]),
    "dom_heur_pdb_save": (C.c_int, [_P, _S]),
    "heurnet_dom_solve_pairs": (C.c_int, [_P, _P, C.c_size_t, C.c_size_t, _P, _P, C.c_int,
                                          C.c_int, _P, _P, C.c_size_t, _S, C.c_size_t]),
    "heurnet_dom_model_domain": (C.c_int, [_S, _S, C.c_size_t]),
}
for _name, (_res, _args) in _PROTOS.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args

VERSION = lib.hn_version().decode()
MAX_PATH = 1000  # moves kept per solution of heurnet.solve (as SRCH_NP_MAX_PATH)


def errmsg():
    buf = C.create_string_buffer(1024)
    lib.heurnet_errmsg_copy(buf, len(buf))
    return buf.value.decode(errors="replace")


def error(status, what=None):
    """The exception for a negative status, with heurnet's message."""
    msg = errmsg() or lib.hn_strerror(status).decode()
    if what:
        msg = "%s: %s" % (what, msg)
    if status == INTERRUPTED:
        return KeyboardInterrupt(msg)
    if status == NOMEM:
        return HeurnetMemoryError(msg, status)
    if status in _IO:
        return HeurnetIOError(msg, status)
    if status in _VALUE:
        return HeurnetValueError(msg, status)
    return HeurnetError(msg, status)


# Exceptions raised in Python callbacks the library called (a domain
# written in Python): the callback stops the running call and leaves its
# exception here, raised by the next check() or stop_hook exit.
PENDING = []


def raise_pending():
    """Raise the first exception a Python callback left (and clear the
    stop request it made)."""
    if PENDING:
        e = PENDING[0]
        PENDING.clear()
        lib.hn_stop_set(0)
        raise e


def check(status, what=None):
    raise_pending()
    if status < 0:
        raise error(status, what)
    return status


def enc(s, name="argument"):
    """A str (or path) as bytes for a char * argument; None stays NULL. A
    NUL byte is refused (ValueError): C would read the string only up to
    it, so "a\0/x" would name the file "a"."""
    return _check.path(s, name)


class stop_hook:
    """Ctrl-C during a long call: heurnet's own SIGINT/SIGTERM handlers set
    the stop flag the library polls (a Python handler could not run while
    the call holds the main thread); afterwards Python's handlers come back
    and a stop becomes KeyboardInterrupt, after the library has left its
    files consistent (the caller raises it: see .stopped). Only the main
    thread can own signal handlers."""

    def __enter__(self):
        self.active = threading.current_thread() is threading.main_thread()
        lib.hn_stop_set(0)
        if self.active:
            self.saved = [(s, signal.getsignal(s)) for s in (signal.SIGINT, signal.SIGTERM)]
            lib.hn_stop_install()
        return self

    def __exit__(self, *exc):
        if self.active:
            for s, h in self.saved:
                signal.signal(s, h if h is not None else signal.SIG_DFL)
        self.stopped = bool(lib.hn_stop_requested())
        lib.hn_stop_set(0)
        if exc[0] is None:
            raise_pending()
        return False


# ---- isolation of unverifiable files (as cli/isolate.c) -------------------

_ISOLATE_FN = C.CFUNCTYPE(None, C.c_void_p)
_ISOLATE = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_void_p, C.c_void_p, C.c_size_t)


def _isolate(fn, arg, why, cap):
    """Run fn(arg) in a forked child so that a libhdf5 crash on a damaged
    file ends the child, not the interpreter."""
    try:
        pid = os.fork()
    except OSError as e:
        _put(why, cap, "fork: %s" % e)
        return IO
    if pid == 0:
        try:
            _ISOLATE_FN(fn)(arg)
        finally:
            os._exit(0)
    while True:
        try:
            _, ws = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    if os.WIFEXITED(ws) and os.WEXITSTATUS(ws) == 0:
        return 0
    if os.WIFSIGNALED(ws):
        _put(why, cap, "signal %d" % os.WTERMSIG(ws))
    else:
        _put(why, cap, "exit %d" % os.WEXITSTATUS(ws))
    return FORMAT


def _put(buf, cap, text):
    if buf and cap:
        data = text.encode()[:cap - 1] + b"\0"
        C.memmove(buf, data, len(data))


_isolate_cb = _ISOLATE(_isolate)  # kept alive for the library's lifetime
lib.hn_isolate_set(C.cast(_isolate_cb, C.c_void_p))

# The library's progress callback type (common/hn.h hn_progress_fn).
PROGRESS_FN = C.CFUNCTYPE(None, C.c_uint64, C.c_uint64, C.c_char_p, C.c_void_p)
