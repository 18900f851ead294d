"""Refusing bad arrays before they reach C: the dtype, rank, shape,
memory layout and finiteness are checked here, and no array is copied
(a copy would hide a caller's mistake and cost time at batch 1024)."""

import numpy as np


def _describe(a):
    return "dtype %s, shape %s" % (a.dtype, a.shape)


def as_array(x, name):
    if not isinstance(x, np.ndarray):
        raise TypeError("%s: expected a numpy.ndarray, not %s" % (name, type(x).__name__))
    return x


def c_contiguous(a, name):
    if not a.flags.c_contiguous or not a.flags.aligned:
        raise ValueError("%s: the array is not C-contiguous and aligned (strides %s); pass "
                         "numpy.ascontiguousarray(%s)" % (name, a.strides, name))


def float_rows(x, width, name="x"):
    """x as [n, width] float32, C-contiguous, finite; n >= 1."""
    a = as_array(x, name)
    if a.dtype != np.float32:
        raise TypeError("%s: expected dtype float32, got %s (use %s.astype(numpy.float32))"
                        % (name, a.dtype, name))
    if a.ndim != 2 or a.shape[1] != width:
        raise ValueError("%s: expected shape (n, %d), got %s" % (name, width, a.shape))
    if a.shape[0] < 1:
        raise ValueError("%s: no rows (shape %s)" % (name, a.shape))
    c_contiguous(a, name)
    # min and max propagate NaN and show an infinity, in two passes that
    # allocate nothing (isfinite would build an n x width mask each call)
    if not (np.isfinite(a.min()) and np.isfinite(a.max())):
        row = int(np.argwhere(~np.isfinite(a))[0][0])
        raise ValueError("%s: row %d holds NaN or infinity" % (name, row))
    return a


def boards(states, cells, name="states"):
    """states as [n, cells] uint8 tiles, C-contiguous (a single board of
    `cells` tiles becomes one row, as a view). Integer arrays of another
    dtype are refused; lists are converted (they are not arrays yet)."""
    if isinstance(states, (list, tuple)):
        states = np.array(states, dtype=np.int64)
        if states.size and (states.min() < 0 or states.max() > 255):
            raise ValueError("%s: tiles must be 0..%d" % (name, cells - 1))
        states = states.astype(np.uint8)
    a = as_array(states, name)
    if a.dtype != np.uint8:
        raise TypeError("%s: expected dtype uint8 tiles, got %s (%s)" % (name, a.dtype, _describe(a)))
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim != 2 or a.shape[1] != cells:
        raise ValueError("%s: expected shape (n, %d) for %d-cell boards, got %s"
                         % (name, cells, cells, states.shape))
    c_contiguous(a, name)
    return a
