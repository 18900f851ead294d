"""heurnet models from Python: load, create, inspect, predict, save."""

import ctypes as C
import os

import numpy as np

from . import _arrays
from ._lib import lib, check, enc, error, HeurnetValueError, ARG


class Model:
    """An nn_model owned by this object (freed with it). Inference runs on a
    workspace folded from the weights at the first predict; set_target and
    other changes refresh it."""

    def __init__(self, handle, path=None):
        if not handle:
            raise ValueError("Model: NULL handle")
        self._h = C.c_void_p(handle)
        self._infer = None
        self._infer_rows = 0
        self.path = os.fspath(path) if path is not None else None

    # ---- construction -----------------------------------------------------

    @classmethod
    def load(cls, path):
        """Read a model file (heurnet nn, train, avi). Damaged files raise
        HeurnetValueError naming the file and dataset; an unverifiable file
        is first read in a forked child, so libhdf5 cannot crash Python."""
        st = C.c_int(0)
        h = lib.nn_model_load(enc(path), C.byref(st))
        if not h:
            raise error(st.value)
        return cls(h, path)

    @classmethod
    def from_spec(cls, arch, seed=1, dropout=0.1, encoder="", target=(0.0, 1.0)):
        """A fresh model from a spec string such as "81-64-1:linear", as
        `heurnet nn init --arch ARCH --seed S` makes it (hidden layers: ELU,
        batch norm, dropout 0.1 unless the spec overrides them)."""
        st = C.c_int(0)
        h = lib.heurnet_model_create(enc(arch), C.c_float(dropout), seed, C.byref(st))
        if not h:
            raise error(st.value)
        m = cls(h)
        if encoder:
            m.encoder = encoder
        m.target = target
        return m

    def __del__(self):
        if lib is None:  # interpreter shutdown: the process frees everything
            return
        self._drop_infer()
        if getattr(self, "_h", None):
            lib.nn_model_free(self._h)
            self._h = None

    def _drop_infer(self):
        if getattr(self, "_infer", None):
            lib.nn_infer_free(self._infer)
        self._infer = None
        self._infer_rows = 0

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
        check(lib.nn_model_set_encoder(self._h, enc(name)))

    @property
    def target(self):
        """(mean, std) of the target scaling: outputs are raw * std + mean."""
        mean, std = C.c_double(), C.c_double()
        lib.nn_model_target(self._h, C.byref(mean), C.byref(std))
        return mean.value, std.value

    @target.setter
    def target(self, ms):
        check(lib.nn_model_set_target(self._h, float(ms[0]), float(ms[1])))
        self._drop_infer()

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
        if isinstance(value, str):
            check(lib.nn_model_set_meta_str(self._h, enc(key), enc(value)))
        else:
            check(lib.nn_model_set_meta_double(self._h, enc(key), float(value)))

    @property
    def params(self):
        """The flat trainable buffer as a float32 numpy view (no copy; it
        lives as long as the model). Writing it changes the model."""
        n = C.c_size_t()
        p = lib.nn_model_params(self._h, C.byref(n))
        arr = np.ctypeslib.as_array(C.cast(p, C.POINTER(C.c_float)), shape=(n.value,))
        arr_owner = _Keep(arr, self)
        self._drop_infer()  # the caller may write the weights
        return arr_owner.view

    @property
    def domain(self):
        """"npuzzle:NxN" for a model with an npuzzle-onehot encoder, else None."""
        w, g = C.c_int(), C.c_int()
        if lib.srch_np_encode_parse(enc(self.encoder), C.byref(w), C.byref(g)):
            return None
        return "npuzzle:%dx%d" % (w.value, w.value)

    def __repr__(self):
        return "<heurnet.Model %s encoder=%r params=%d>" % (self.spec, self.encoder,
                                                            self.param_count)

    # ---- use --------------------------------------------------------------

    def save(self, path):
        """Write the model file (as PATH.part, renamed when complete)."""
        check(lib.nn_model_save(self._h, enc(path)))
        self.path = os.fspath(path)

    def _workspace(self, n):
        if self._infer and self._infer_rows >= n:
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
        write into (float32, C-contiguous, that shape). Nothing is copied."""
        x = _arrays.float_rows(x, self.inputs)
        n = x.shape[0]
        if out is None:
            out = np.empty((n, self.outputs), dtype=np.float32)
        else:
            _arrays.as_array(out, "out")
            if out.dtype != np.float32 or out.shape != (n, self.outputs):
                raise ValueError("out: expected float32 of shape %s, got %s %s"
                                 % ((n, self.outputs), out.dtype, out.shape))
            _arrays.c_contiguous(out, "out")
        ws = self._workspace(n)
        check(lib.nn_infer_run(ws, x.ctypes.data, n, out.ctypes.data))
        return out

    def predict_boards(self, states):
        """The estimate for each n-puzzle board (uint8 tiles [n, cells], in
        the model's goal layout), as `heurnet predict --instances` gives it."""
        dom = self.domain
        if dom is None:
            raise HeurnetValueError("predict_boards: the model's encoder %r is not "
                                    "npuzzle-onehot" % self.encoder, ARG)
        width = int(dom.split("x")[-1])
        cells = width * width
        b = _arrays.boards(states, cells)
        x = np.empty((b.shape[0], cells * cells), dtype=np.float32)
        lib.srch_np_encode_onehot_rows(b.ctypes.data, b.shape[0], cells, x.ctypes.data)
        return self.predict(x)[:, 0]


class _Keep:
    """A numpy view that keeps its model alive."""

    def __init__(self, arr, owner):
        self.view = arr.view(_OwnedArray)
        self.view._heurnet_owner = owner


class _OwnedArray(np.ndarray):
    pass
