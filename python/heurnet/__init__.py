"""heurnet from Python: models, search, data generation, training and value
iteration over libheurnet (ctypes, numpy arrays in and out).

    import heurnet
    m = heurnet.Model.load("models/8puzzle-annd.h5")
    sol = heurnet.solve(boards, model=m, domain="npuzzle:3x3")
"""

from ._lib import (HeurnetError, HeurnetValueError, HeurnetIOError, HeurnetMemoryError,
                   VERSION as __version__, lib as _clib)
from ._check import MAX_THREADS
from . import _check
from .model import Model
from .search import solve, Solutions, Heuristic, PDB, domain_width, walk_boards
from .train import gen, train, avi
from ._progress import set_progress
from .domain import (Domain, DomainHeuristic, CallbackHeuristic, Expansion, Instances,
                     domains)
from .pydomain import PythonDomain


def revision():
    """The git revision libheurnet was built from."""
    return _clib.hn_revision().decode()


def blas_threads(n):
    """Threads OpenBLAS may use in this process (predict, train):
    1..MAX_THREADS (256)."""
    _clib.nn_blas_threads(_check.threads(n, "blas_threads"))


__all__ = ["Model", "solve", "Solutions", "Heuristic", "PDB", "gen", "train", "avi",
           "HeurnetError", "HeurnetValueError", "HeurnetIOError", "HeurnetMemoryError",
           "domain_width", "walk_boards", "revision", "blas_threads", "MAX_THREADS",
           "__version__", "Domain", "DomainHeuristic", "Expansion", "Instances", "domains", "set_progress",
           "CallbackHeuristic", "PythonDomain"]
