"""Refusing bad arrays before they reach C: the dtype, rank, shape,
memory layout, finiteness, tile values and (for outputs) writability are
checked here, and no array is copied (a copy would hide a caller's mistake
and cost time at batch 1024)."""

import numpy as np

from ._check import INT_MAX
from ._lib import HeurnetValueError, ARG


def _describe(a):
    return "dtype %s, shape %s" % (a.dtype, a.shape)


def as_array(x, name):
    """x as a numpy array: an ndarray as it is; a tensor or any object with
    __dlpack__ (PyTorch, JAX, CuPy on the CPU) or __array__ as the array
    over its memory (numpy.from_dlpack: no copy where the producer allows);
    anything else (a list included) is refused."""
    if not isinstance(x, np.ndarray):
        conv = _foreign(x)
        if conv is None:
            raise TypeError("%s: expected a numpy.ndarray (or a tensor: __dlpack__, __array__), "
                            "not %s" % (name, type(x).__name__))
        x = conv
    if isinstance(x, np.ma.MaskedArray):
        # C reads the data under the mask as well: the mask would be ignored
        raise TypeError("%s: a masked array; pass numpy.ma.filled(%s, value) or its .data"
                        % (name, name))
    return x


def _foreign(x):
    """An object's array through DLPack or __array__, else None."""
    if hasattr(x, "__dlpack__") and hasattr(np, "from_dlpack"):
        try:
            return np.from_dlpack(x)
        except (TypeError, RuntimeError, BufferError, ValueError):
            pass  # a device or dtype numpy cannot view: try __array__
    if hasattr(x, "__array__"):
        try:
            a = np.asarray(x)
        except (TypeError, RuntimeError, ValueError):
            return None
        return a if isinstance(a, np.ndarray) and a.dtype != object else None
    return None


def c_contiguous(a, name):
    if not a.flags.c_contiguous or not a.flags.aligned:
        raise ValueError("%s: the array is not C-contiguous and aligned (strides %s); pass "
                         "numpy.ascontiguousarray(%s)" % (name, a.strides, name))


def float_rows(x, width, name="x"):
    """x as [n, width] float32, C-contiguous, finite; 1 <= n <= INT_MAX."""
    a = as_array(x, name)
    if a.dtype != np.float32:
        raise TypeError("%s: expected dtype float32, got %s (use %s.astype(numpy.float32))"
                        % (name, a.dtype, name))
    if a.ndim != 2 or a.shape[1] != width:
        raise ValueError("%s: expected shape (n, %d), got %s" % (name, width, a.shape))
    if a.shape[0] < 1:
        raise ValueError("%s: no rows (shape %s)" % (name, a.shape))
    if a.shape[0] > INT_MAX:  # the row count is a C int
        raise ValueError("%s: %d rows, at most %d in one call" % (name, a.shape[0], INT_MAX))
    c_contiguous(a, name)
    # min and max propagate NaN and show an infinity, in two passes that
    # allocate nothing (isfinite would build an n x width mask each call)
    if not (np.isfinite(a.min()) and np.isfinite(a.max())):
        row = int(np.argwhere(~np.isfinite(a))[0][0])
        raise ValueError("%s: row %d holds NaN or infinity" % (name, row))
    return a


def out_rows(out, shape, src, name="out"):
    """out as a float32 array of `shape` C writes into: writable (a
    read-only array may be an immutable bytes object or a read-only
    mapping of a file), C-contiguous, aligned, not overlapping `src`."""
    a = as_array(out, name)
    if a.dtype != np.float32:
        raise TypeError("%s: expected dtype float32, got %s" % (name, a.dtype))
    if a.shape != shape:
        raise ValueError("%s: expected shape %s, got %s" % (name, shape, a.shape))
    if not a.flags.writeable:
        raise ValueError("%s: the array is read-only (writeable=False: a read-only buffer, "
                         "memmap or view); pass a writable float32 array" % name)
    c_contiguous(a, name)
    if np.may_share_memory(a, src):
        raise ValueError("%s: shares memory with the input; pass a separate array" % name)
    return a


def _first_bad(a, cells):
    """Index of the first row that is not a permutation of 0..cells-1, and
    why, or None."""
    bad = (np.sort(a, axis=1) != np.arange(cells, dtype=a.dtype)).any(axis=1)
    if not bad.any():
        return None
    i = int(np.argmax(bad))
    row = a[i]
    if int(row.max()) >= cells:
        return i, "tile %d is out of range 0..%d" % (int(row.max()), cells - 1)
    counts = np.bincount(row, minlength=cells)
    return i, "tile %d appears %d times" % (int(np.argmax(counts > 1)), int(counts.max()))


def boards(states, cells, name="states"):
    """states as [n, cells] uint8 tiles, C-contiguous (a single board of
    `cells` tiles becomes one row, as a view), each board a permutation of
    0..cells-1 (the encoders index by tile: a tile out of range would write
    past the board's inputs). Integer arrays of another dtype are refused;
    lists of integers are converted (they are not arrays yet)."""
    if isinstance(states, (list, tuple)):
        conv = np.array(states)
        if conv.size and conv.dtype.kind not in "iu":
            raise TypeError("%s: expected integer tiles, got %s values" % (name, conv.dtype))
        if conv.size and (conv.min() < 0 or conv.max() > 255):  # beyond uint8
            t = conv.min() if conv.min() < 0 else conv.max()
            raise ValueError("%s: tile %d is out of range 0..%d" % (name, t, cells - 1))
        states = conv.astype(np.uint8)
    a = as_array(states, name)
    if a.dtype != np.uint8:
        raise TypeError("%s: expected dtype uint8 tiles, got %s (%s)" % (name, a.dtype, _describe(a)))
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim != 2 or a.shape[1] != cells:
        raise ValueError("%s: expected shape (n, %d) for %d-cell boards, got %s"
                         % (name, cells, cells, states.shape))
    c_contiguous(a, name)
    if a.shape[0]:
        bad = _first_bad(a, cells)
        if bad:
            # HeurnetValueError (a ValueError), as the library's own board
            # checks raise it for an unsolvable board
            raise HeurnetValueError("%s: board %d is not a permutation of 0..%d: %s"
                                    % (name, bad[0], cells - 1, bad[1]), ARG)
    return a
