"""heurnet models from Python: load, create, inspect, predict, save."""

import ctypes as C
import numbers
import os
import re
import shutil
import tempfile
import threading
import weakref
from typing import Optional

import numpy as np

from . import _arrays, _check
from ._lib import lib, check, error, HeurnetValueError, ARG


class Model:
    """An nn_model owned by this object (freed with it). Inference runs on a
    workspace folded from the weights at the first predict; set_target and
    other changes refresh it.

    Threads: one Model may be used from several threads. predict and
    predict_boards share the model's one workspace, so each holds the
    model's lock around its C call: calls on one model run one after the
    other (the GIL is released meanwhile) and give exactly the values of a
    single thread. For inference in parallel, give each thread its own
    Model.copy(). Changing a model (target, encoder, writing params) while
    another thread predicts on it is not supported."""

    def __init__(self, handle, path=None):
        if not handle:
            raise ValueError("Model: NULL handle")
        self._h = C.c_void_p(handle)
        self._lock = threading.Lock()
        self._infer = None
        self._infer_rows = 0
        self._views = []  # weakrefs to params views a caller may write
        self.path = os.fspath(path) if path is not None else None

    # ---- construction -----------------------------------------------------

    @classmethod
    def load(cls, path):
        """Read a model file (heurnet nn, train, avi). Damaged files raise
        HeurnetValueError naming the file and dataset; an unverifiable file
        is first read in a forked child, so libhdf5 cannot crash Python."""
        st = C.c_int(0)
        h = lib.nn_model_load(_check.path(path, "Model.load: path", none_ok=False), C.byref(st))
        if not h:
            raise error(st.value)
        return cls(h, path)

    @classmethod
    def from_spec(cls, arch, seed=1, dropout=0.1, encoder="", target=(0.0, 1.0)):
        """A fresh model from a spec string such as "81-64-1:linear", as
        `heurnet nn init --arch ARCH --seed S` makes it (hidden layers: ELU,
        batch norm, dropout 0.1 unless the spec overrides them)."""
        a = _check.text(arch, "from_spec: arch", none_ok=False)
        seed = _check.count(seed, "from_spec: seed")
        dropout = _check.real(dropout, "from_spec: dropout", 0.0, 1.0, hi_open=True)
        _check.text(encoder, "from_spec: encoder")
        mean, std = _target_pair(target)
        st = C.c_int(0)
        h = lib.heurnet_model_create(a, C.c_float(dropout), seed, C.byref(st))
        if not h:
            raise error(st.value)
        m = cls(h)
        if encoder:
            m.encoder = encoder
        m.target = (mean, std)
        return m

    def copy(self):
        """An independent Model with the same weights and record (its own
        workspace: one per thread runs predict in parallel)."""
        st = C.c_int(0)
        h = lib.nn_model_clone(self._h, C.byref(st))
        if not h:
            raise error(st.value)
        return Model(h, self.path)

    def __del__(self):
        if lib is None:  # interpreter shutdown: the process frees everything
            return
        self._drop_infer()
        if getattr(self, "_h", None):
            lib.nn_model_free(self._h)
            self._h = None

    def _drop_infer(self):
        """Free the workspace (the caller holds the lock, or is __del__)."""
        if getattr(self, "_infer", None):
            lib.nn_infer_free(self._infer)
        self._infer = None
        self._infer_rows = 0

    def _changed(self):
        with self._lock:
            self._drop_infer()

    # ---- information ------------------------------------------------------

    @property
    def inputs(self):
        return lib.nn_model_inputs(self._h)

    @property
    def outputs(self):
        return lib.nn_model_outputs(self._h)

    @property
    def layers(self):
        return lib.nn_model_layers(self._h)

    @property
    def param_count(self):
        return lib.nn_model_param_count(self._h)

    @property
    def spec(self):
        buf = C.create_string_buffer(8192)
        check(lib.heurnet_model_spec_string(self._h, buf, len(buf)))
        return buf.value.decode()

    @property
    def encoder(self):
        return lib.nn_model_encoder(self._h).decode()

    @encoder.setter
    def encoder(self, name):
        check(lib.nn_model_set_encoder(self._h, _check.text(name, "encoder", none_ok=False)))

    @property
    def target(self):
        """(mean, std) of the target scaling: outputs are raw * std + mean."""
        mean, std = C.c_double(), C.c_double()
        lib.nn_model_target(self._h, C.byref(mean), C.byref(std))
        return mean.value, std.value

    @target.setter
    def target(self, ms):
        mean, std = _target_pair(ms)
        check(lib.nn_model_set_target(self._h, mean, std))
        self._changed()

    @property
    def attrs(self):
        """The training record (root attributes) as a dict of str / float."""
        out = {}
        key, s, isnum, num = C.c_char_p(), C.c_char_p(), C.c_int(), C.c_double()
        for i in range(lib.nn_model_meta_count(self._h)):
            check(lib.nn_model_meta_at(self._h, i, C.byref(key), C.byref(isnum), C.byref(s),
                                       C.byref(num)))
            out[key.value.decode()] = num.value if isnum.value else s.value.decode()
        return out

    def set_attr(self, key, value):
        """Set a root attribute (a str or a number) saved with the model."""
        k = _check.text(key, "set_attr: key", none_ok=False)
        if isinstance(value, str):
            check(lib.nn_model_set_meta_str(self._h, k, _check.text(value, "set_attr: value")))
        else:
            # any real, NaN included: a record may hold one (no validation split)
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
                raise TypeError("set_attr: value: expected a str or a real number, not %s"
                                % type(value).__name__)
            check(lib.nn_model_set_meta_double(self._h, k, float(value)))

    @property
    def params(self):
        """The flat trainable buffer as a float32 numpy view (no copy; it
        lives as long as the model). Writing it changes the model."""
        n = C.c_size_t()
        p = lib.nn_model_params(self._h, C.byref(n))
        arr = np.ctypeslib.as_array(C.cast(p, C.POINTER(C.c_float)), shape=(n.value,))
        view = _Keep(arr, self).view
        # the caller may write the weights: while a view lives, predict
        # re-folds its workspace from them first
        with self._lock:
            self._views.append(weakref.ref(view))
        return view

    def _params_live(self):
        """Whether a params view may still be written (caller holds the lock)."""
        self._views = [r for r in self._views if r() is not None]
        return bool(self._views)

    @property
    def domain(self) -> Optional[str]:
        """The domain the model is for: its "domain" attribute (as heurnet
        train and avi record it: "cube3", "npuzzle:7x7", "pancake:12"), else
        "npuzzle:NxN" for a model with an npuzzle-onehot encoder, else None."""
        rec = self.attrs.get("domain")
        if isinstance(rec, str) and rec:
            return rec
        np_ = _np_encoder(self.encoder)
        if np_ is None:
            return None
        return "npuzzle:%dx%d%s" % (np_[0], np_[0], ":blank-last" if np_[1] else "")

    # ---- PyTorch (heurnet.torch; needs torch) ----------------------------

    @classmethod
    def from_torch(cls, module, domain, name: str = "torch") -> "Model":
        """A model from a torch.nn.Module over domain's encoding (a Domain
        or its spec): exported to ONNX in memory and read by heurnet's own
        importer, recording the domain's encoder and spec (see
        heurnet.torch.model_from_torch)."""
        from .torch import model_from_torch
        return model_from_torch(module, domain, name)

    def to_torch(self):
        """This model as a torch.nn.Sequential in eval mode (see
        heurnet.torch.model_to_torch)."""
        from .torch import model_to_torch
        return model_to_torch(self)

    # ---- pickling: the model file's bytes -----------------------------------

    def to_bytes(self) -> bytes:
        """The model file (as save writes it) as bytes."""
        d = tempfile.mkdtemp(prefix="heurnet-model-")
        p = os.path.join(d, "m.h5")
        try:
            check(lib.nn_model_save(self._h, p.encode()))
            with open(p, "rb") as f:
                return f.read()
        finally:
            shutil.rmtree(d, ignore_errors=True)

    @classmethod
    def from_bytes(cls, data: bytes, path: Optional[str] = None) -> "Model":
        """A Model from to_bytes' bytes (checked as a file is: a damaged
        one raises HeurnetValueError). path is remembered as its file."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("from_bytes: expected bytes, not %s" % type(data).__name__)
        d = tempfile.mkdtemp(prefix="heurnet-model-")
        p = os.path.join(d, "m.h5")
        try:
            with open(p, "wb") as f:
                f.write(data)
            st = C.c_int(0)
            h = lib.nn_model_load(p.encode(), C.byref(st))
            if not h:
                raise error(st.value, "from_bytes")
        finally:
            shutil.rmtree(d, ignore_errors=True)
        return cls(h, path)

    def __reduce__(self):
        return (_from_bytes, (self.to_bytes(), self.path))

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __repr__(self):
        return "<heurnet.Model %s encoder=%r params=%d>" % (self.spec, self.encoder,
                                                            self.param_count)

    # ---- use --------------------------------------------------------------

    def save(self, path):
        """Write the model file (as PATH.part, renamed when complete)."""
        check(lib.nn_model_save(self._h, _check.path(path, "save: path", none_ok=False)))
        self.path = os.fspath(path)

    def _workspace(self, n):
        """The workspace for n rows (the caller holds the lock)."""
        if self._infer and self._infer_rows >= n:
            if self._params_live():
                check(lib.nn_infer_refresh(self._infer, self._h))
            return self._infer
        self._drop_infer()
        st = C.c_int(0)
        h = lib.nn_infer_new(self._h, max(n, 1024), C.byref(st))
        if not h:
            raise error(st.value)
        self._infer, self._infer_rows = C.c_void_p(h), max(n, 1024)
        return self._infer

    def predict(self, x, out=None):
        """Outputs for x, a C-contiguous float32 array [n, inputs] (target
        scaling applied), as float32 [n, outputs]; `out` may be given to
        write into: float32, that shape, C-contiguous, writable and apart
        from x (a read-only array, e.g. over bytes or a read-only memmap, is
        refused). Nothing is copied. Safe from several threads (see the
        class)."""
        x = _arrays.float_rows(x, self.inputs)
        n = x.shape[0]
        shape = (n, self.outputs)
        if out is None:
            out = np.empty(shape, dtype=np.float32)
        else:
            _arrays.out_rows(out, shape, x)
        with self._lock:
            ws = self._workspace(n)
            check(lib.nn_infer_run(ws, x.ctypes.data, n, out.ctypes.data))
        return out

    def predict_boards(self, states):
        """The estimate for each n-puzzle board (uint8 tiles [n, cells], in
        the model's goal layout), as `heurnet predict --instances` gives it.
        Each board must hold every tile 0..cells-1 once and be solvable for
        that goal (as the instance reader checks): ValueError naming the
        first bad board otherwise."""
        from .search import np_domain, np_states
        np_ = _np_encoder(self.encoder)
        if np_ is None:
            raise HeurnetValueError("predict_boards: the model's encoder %r is not "
                                    "npuzzle-onehot" % self.encoder, ARG)
        d = np_domain(*np_)
        if d.encoding != self.encoder or d.inputs != self.inputs:
            raise HeurnetValueError("predict_boards: the model's encoder %r has %d inputs, the "
                                    "domain %s's %d" % (self.encoder, self.inputs, d.spec,
                                                        d.inputs), ARG)
        s = np_states(d, states, np_[0], np_[1], "predict_boards")
        return self.predict(d.encode(s))[:, 0]


_NP_ENCODER = re.compile(r"npuzzle-onehot n=(\d+) goal=(blank-first|blank-last)")


def _np_encoder(name):
    """(width, goal code) of an n-puzzle encoder's name
    ("npuzzle-onehot n=4 goal=blank-first"), else None."""
    m = _NP_ENCODER.fullmatch(name or "")
    return (int(m.group(1)), int(m.group(2) == "blank-last")) if m else None


def _from_bytes(data, path):
    return Model.from_bytes(data, path)


def _target_pair(ms):
    """(mean, std) as two finite floats; the library checks their range."""
    try:
        mean, std = ms
    except (TypeError, ValueError):
        raise TypeError("target: expected (mean, std), not %r" % (ms,)) from None
    return _check.real(mean, "target mean"), _check.real(std, "target std")


class _Keep:
    """A numpy view that keeps its model alive."""

    def __init__(self, arr, owner):
        self.view = arr.view(_OwnedArray)
        self.view._heurnet_owner = owner


class _OwnedArray(np.ndarray):
    pass
