"""Refusing bad scalars and strings before they reach C. ctypes converts
without a word: an int is wrapped to the field's width (2**64+5 becomes
5, -1 becomes "no limit"), a float NaN passes every comparison, and a
char * argument ends at its first NUL byte ("a\\0/x" names "a"). Every
public function of the package sends its scalars through here, so a bad
one is a TypeError (wrong kind) or ValueError (out of range) naming the
argument, before anything runs."""

import math
import numbers
import operator
import os

import numpy as np

UINT64_MAX = 2**64 - 1
INT_MAX = 2**31 - 1

# The most threads solve, train, avi, gen and blas_threads accept: the
# command line's limit for solve, train and avi (cli/cmd_solve.c), and
# HEURNET_MAX_THREADS of the C facade (solve/api.h).
MAX_THREADS = 256


def integer(v, name, lo, hi):
    """v as a Python int in lo..hi. Integers only (int, numpy integers):
    a float, a str and a bool are refused, as numpy refuses them as
    indices (True is 1 to Python, never a count a caller meant)."""
    if isinstance(v, (bool, np.bool_)):
        raise TypeError("%s: expected an integer, not a bool (%r)" % (name, v))
    try:
        i = operator.index(v)
    except TypeError:
        raise TypeError("%s: expected an integer, not %s (%r)"
                        % (name, type(v).__name__, v)) from None
    if i < lo or i > hi:
        raise ValueError("%s=%d is out of range: expected %d..%d" % (name, i, lo, hi))
    return i


def count(v, name):
    """An unsigned 64-bit count (seeds, limits): 0..2**64-1."""
    return integer(v, name, 0, UINT64_MAX)


def threads(v, name="threads", hi=MAX_THREADS):
    return integer(v, name, 1, hi)


def real(v, name, lo=-math.inf, hi=math.inf, lo_open=False, hi_open=False):
    """v as a finite float in the range (lo_open / hi_open exclude the
    end). NaN and infinity are refused: in C they would pass or fail
    comparisons silently (a NaN time limit means no limit)."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
        raise TypeError("%s: expected a number, not %s (%r)" % (name, type(v).__name__, v))
    try:
        f = float(v)
    except OverflowError:
        raise ValueError("%s=%r is too large for a float" % (name, v)) from None
    if not math.isfinite(f):
        raise ValueError("%s=%r: expected a finite number" % (name, f))
    if f < lo or f > hi or (lo_open and f == lo) or (hi_open and f == hi):
        raise ValueError("%s=%r is out of range: expected %s" % (name, f, _span(lo, hi, lo_open,
                                                                                  hi_open)))
    return f


def _span(lo, hi, lo_open, hi_open):
    if hi == math.inf:
        return "a number %s %g" % (">" if lo_open else ">=", lo)
    return "a number in %s%g, %g%s" % ("(" if lo_open else "[", lo, hi, ")" if hi_open else "]")


def _no_nul(b, name, shown):
    if b"\0" in b:
        raise ValueError("%s: %r holds a NUL byte (C would read only %r)"
                         % (name, shown, b.split(b"\0", 1)[0].decode(errors="replace")))
    return b


def path(v, name="path", none_ok=True):
    """A file name (str, bytes or os.PathLike) as bytes for C; None stays
    NULL when none_ok."""
    if v is None:
        if none_ok:
            return None
        raise TypeError("%s: expected a file name, not None" % name)
    if not isinstance(v, (str, bytes, os.PathLike)):
        raise TypeError("%s: expected a file name (str, bytes or os.PathLike), not %s"
                        % (name, type(v).__name__))
    return _no_nul(os.fsencode(v), name, v)


def text(v, name, none_ok=True):
    """A name (heuristic, algorithm, spec, encoder ...) as bytes for C."""
    if v is None:
        if none_ok:
            return None
        raise TypeError("%s: expected a str, not None" % name)
    if not isinstance(v, str):
        raise TypeError("%s: expected a str, not %s (%r)" % (name, type(v).__name__, v))
    return _no_nul(v.encode(), name, v)


def callback(fn, name):
    if fn is not None and not callable(fn):
        raise TypeError("%s: expected a callable or None, not %s" % (name, type(fn).__name__))
    return fn
