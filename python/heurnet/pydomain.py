"""A domain written in Python: a class with batched numpy callbacks that
heurnet's C core runs as any other domain (gen, train, avi, solve, the
batched calls), through a domain definition (domains/domain.h's dom_def)
whose functions are ctypes callbacks into the class. The GIL is held only
inside a callback; the core calls one state at a time (a batch of one),
so a Python domain is for prototyping: the same domain as a C plug-in
(examples/domain_pancake.c) runs many times faster (docs/python.md).

    class Pancake(heurnet.PythonDomain):
        def __init__(self, n):
            super().__init__(canonical="pancake:%d" % n, encoding="pancake-onehot n=%d" % n,
                             state_bytes=n, moves=[str(k) for k in range(2, n + 1)],
                             inverse=list(range(n - 1)), inputs=n * n, max_active=n,
                             heuristics=["gap"], has_uniform=True, typical_depth=n)
        def goal(self): ...
        def expand(self, states): ...   # children [n, nmoves, bytes], legal [n, nmoves]
        def encode(self, states): ...   # active inputs int32 [n, max_active], -1 padded
    dom = heurnet.Domain(Pancake(8))
"""

import ctypes as C
import threading
from typing import List, Optional, Sequence

import numpy as np

from . import _lib

DOM_ABI_VERSION = 1
DOM_PRUNED = 255
_ARG, _FORMAT = -4, -3

_U32, _VP, _CP = C.c_uint32, C.c_void_p, C.c_char_p


class _Rng(C.Structure):
    _fields_ = [("next", C.CFUNCTYPE(C.c_uint64, _VP)), ("ctx", _VP)]


class _Host(C.Structure):
    _fields_ = [("abi_version", _U32), ("struct_size", _U32),
                ("fail", C.CFUNCTYPE(C.c_int, C.c_int, _CP)),
                ("log", C.CFUNCTYPE(None, C.c_int, _CP)),
                ("stop_requested", C.CFUNCTYPE(C.c_int)),
                ("cache_dir", C.CFUNCTYPE(_CP)), ("build_threads", C.CFUNCTYPE(C.c_int))]


class _Facts(C.Structure):
    _fields_ = [("struct_size", _U32), ("canonical", _CP), ("encoding", _CP),
                ("state_bytes", _U32), ("nmoves", _U32), ("move_name", C.POINTER(_CP)),
                ("move_sep", _CP), ("inverse", C.POINTER(C.c_int8)),
                ("cost", C.POINTER(C.c_uint16)), ("prune_states", _U32),
                ("prune_next", C.POINTER(C.c_uint8)), ("inputs", _U32), ("max_active", _U32),
                ("max_delta", _U32), ("heuristics", _CP), ("patterns", _CP),
                ("has_uniform", _U32), ("typical_depth", _U32), ("symmetries", _U32)]


_CREATE = C.CFUNCTYPE(_VP, _CP, C.POINTER(_Host), C.POINTER(_Facts))
_DESTROY = C.CFUNCTYPE(None, _VP)
_EXPAND = C.CFUNCTYPE(C.c_int, _VP, _VP, C.c_uint64, _VP, _VP)
_APPLY = C.CFUNCTYPE(C.c_int, _VP, _VP, C.c_int)
_GOAL = C.CFUNCTYPE(None, _VP, _VP)
_IS_GOAL = C.CFUNCTYPE(C.c_int, _VP, _VP)
_ENCODE = C.CFUNCTYPE(C.c_int, _VP, _VP, _VP)
_RANDOM = C.CFUNCTYPE(C.c_int, _VP, _VP, C.POINTER(_Rng))
_PARSE = C.CFUNCTYPE(C.c_int, _VP, _CP, _VP)
_FORMAT_FN = C.CFUNCTYPE(C.c_int, _VP, _VP, _VP, C.c_size_t)
_HEUR_OPEN = C.CFUNCTYPE(_VP, _VP, _CP)
_HEUR_EVAL = C.CFUNCTYPE(C.c_int, _VP, _VP)
_HEUR_FREE = C.CFUNCTYPE(None, _VP)


class _Def(C.Structure):
    # dom_def up to pattern_open: version 1's fields (struct_size tells the
    # host that the later, optional ones are absent)
    _fields_ = [("abi_version", _U32), ("struct_size", _U32), ("name", _CP), ("summary", _CP),
                ("args_help", _CP), ("create", _CREATE), ("destroy", _DESTROY),
                ("expand", _EXPAND), ("apply", _APPLY), ("goal", _GOAL), ("is_goal", _IS_GOAL),
                ("encode", _ENCODE), ("encode_delta", _VP), ("random_state", _RANDOM),
                ("parse_state", _PARSE), ("format_state", _FORMAT_FN), ("parse_moves", _VP),
                ("heur_open", _HEUR_OPEN), ("heur_eval", _HEUR_EVAL), ("heur_free", _HEUR_FREE),
                ("pattern_open", _VP)]


class PythonDomain:
    """The base of a domain written in Python. Give the facts to
    __init__ and define the batched callbacks (states are uint8 arrays
    [n, state_bytes]):

    - goal() -> the goal state, uint8 [state_bytes]
    - expand(states) -> (children uint8 [n, nmoves, state_bytes], legal
      bool [n, nmoves]): the state after every move, and which moves are
      legal there
    - encode(states) -> the active network inputs, int32 [n, max_active]
      (-1 past a state's last; each < inputs)
    - optional: is_goal(states) -> bool [n] (default: equal to goal());
      random_state(next) -> one uniformly random state, drawing with
      next() (heurnet's generator: a uint64), when has_uniform;
      heuristic(name, states) -> int [n], admissible, for each name of
      `heuristics`; parse(text) -> state and format(state) -> str (default:
      the bytes as decimal numbers separated by blanks).

    An exception in a callback cannot cross the C core: the state reads as
    having no children (or the call fails), the running call is stopped
    and the exception is raised when it returns."""

    name = "python"
    summary = "a domain written in Python"

    def __init__(self, canonical: str, encoding: str, state_bytes: int, moves: Sequence[str],
                 inputs: int, max_active: int, inverse: Optional[Sequence[int]] = None,
                 costs: Optional[Sequence[int]] = None, move_sep: str = " ",
                 heuristics: Sequence[str] = (), has_uniform: bool = False,
                 typical_depth: int = 0, prune: Optional[np.ndarray] = None):
        self.canonical, self.encoding = canonical, encoding
        self.state_bytes, self.move_names = int(state_bytes), list(moves)
        self.nmoves = len(self.move_names)
        self.inverse = list(inverse) if inverse is not None else [-1] * self.nmoves
        self.costs = list(costs) if costs is not None else None
        self.move_sep = move_sep
        self.inputs, self.max_active = int(inputs), int(max_active)
        self.heuristic_names: List[str] = list(heuristics)
        self.has_uniform, self.typical_depth = bool(has_uniform), int(typical_depth)
        # prune: [prune_states, nmoves] of next automaton states (255: skip)
        self.prune = None if prune is None else np.ascontiguousarray(prune, np.uint8)

    def is_goal(self, states):
        return (states == self.goal()[None, :]).all(axis=1)

    def parse(self, text):
        v = [int(t) for t in text.split()]
        if len(v) != self.state_bytes or min(v) < 0 or max(v) > 255:
            raise ValueError("expected %d numbers 0..255" % self.state_bytes)
        return np.array(v, np.uint8)

    def format(self, state):
        return " ".join(str(int(b)) for b in state)


def _view(ptr, n):
    return np.frombuffer((C.c_uint8 * n).from_address(ptr), np.uint8)


class _Adapter:
    """The dom_def of one PythonDomain object, its callbacks kept alive."""

    def __init__(self, py: PythonDomain):
        self.py = py
        self.sb = py.state_bytes
        self.error = None
        self.lock = threading.Lock()
        self.host = None
        self._keep = []
        d = _Def(abi_version=DOM_ABI_VERSION, struct_size=C.sizeof(_Def),
                 name=self._bytes(type(py).name), summary=self._bytes(type(py).summary),
                 args_help=self._bytes("none"))
        d.create = _CREATE(self._create)
        d.destroy = _DESTROY(lambda inst: None)
        d.expand = _EXPAND(self._expand)
        d.apply = _APPLY(self._apply)
        d.goal = _GOAL(self._goal)
        d.is_goal = _IS_GOAL(self._is_goal)
        d.encode = _ENCODE(self._encode)
        if py.has_uniform:
            d.random_state = _RANDOM(self._random)
        d.parse_state = _PARSE(self._parse)
        d.format_state = _FORMAT_FN(self._format)
        if py.heuristic_names:
            d.heur_open = _HEUR_OPEN(self._heur_open)
            d.heur_eval = _HEUR_EVAL(self._heur_eval)
            d.heur_free = _HEUR_FREE(lambda h: None)
        self.defn = d

    def _bytes(self, s):
        b = s.encode() if isinstance(s, str) else s
        self._keep.append(b)
        return b

    def _failed(self, e, status=_ARG):
        """Keep the first exception, stop the running call, tell the host."""
        if self.error is None:
            self.error = e
            _lib.PENDING.append(e)
        _lib.lib.hn_stop_set(1)
        if self.host is not None:
            return self.host.contents.fail(status, ("%s: %s" % (type(e).__name__, e)).encode())
        return status

    # ---- the callbacks ------------------------------------------------------

    def _create(self, args, host, facts):
        try:
            py = self.py
            asked = type(py).name + (":" + args.decode() if args else "")
            if asked != py.canonical:
                raise ValueError("this Python domain is %s, not %s" % (py.canonical, asked))
            self.host = host
            names = (_CP * py.nmoves)(*[self._bytes(m) for m in py.move_names])
            inv = (C.c_int8 * py.nmoves)(*py.inverse)
            self._keep += [names, inv]
            f = facts.contents
            f.canonical, f.encoding = self._bytes(py.canonical), self._bytes(py.encoding)
            f.state_bytes, f.nmoves = py.state_bytes, py.nmoves
            f.move_name, f.move_sep = names, self._bytes(py.move_sep)
            f.inverse = inv
            if py.costs is not None:
                cost = (C.c_uint16 * py.nmoves)(*py.costs)
                self._keep.append(cost)
                f.cost = cost
            if py.prune is not None:
                table = (C.c_uint8 * py.prune.size)(*py.prune.reshape(-1).tolist())
                self._keep.append(table)
                f.prune_states, f.prune_next = py.prune.shape[0], table
            f.inputs, f.max_active, f.max_delta = py.inputs, py.max_active, 0
            f.heuristics = self._bytes(",".join(py.heuristic_names))
            f.patterns = self._bytes("")
            f.has_uniform, f.typical_depth = int(py.has_uniform), py.typical_depth
            return 1  # the instance is this object; C only passes it back
        except Exception as e:  # noqa: BLE001 - the host's message: dom_open fails
            host.contents.fail(_ARG, ("%s: %s" % (type(e).__name__, e)).encode())
            return None

    def _expand(self, inst, state, allowed, children, moves):
        try:
            kids, legal = self.py.expand(_view(state, self.sb).reshape(1, self.sb))
            kids = np.asarray(kids, np.uint8).reshape(self.py.nmoves, self.sb)
            legal = np.asarray(legal, bool).reshape(self.py.nmoves)
            ok = [m for m in range(self.py.nmoves) if allowed >> m & 1 and legal[m]]
            if ok:
                _view(children, len(ok) * self.sb)[:] = kids[ok].reshape(-1)
                _view(moves, len(ok))[:] = ok
            return len(ok)
        except Exception as e:  # noqa: BLE001
            self._failed(e)
            return 0

    def _apply(self, inst, state, move):
        try:
            s = _view(state, self.sb)
            kids, legal = self.py.expand(s.reshape(1, self.sb))
            if not 0 <= move < self.py.nmoves or not np.asarray(legal).reshape(-1)[move]:
                return 0
            s[:] = np.asarray(kids, np.uint8).reshape(self.py.nmoves, self.sb)[move]
            return 1
        except Exception as e:  # noqa: BLE001
            self._failed(e)
            return 0

    def _goal(self, inst, state):
        try:
            _view(state, self.sb)[:] = np.asarray(self.py.goal(), np.uint8).reshape(self.sb)
        except Exception as e:  # noqa: BLE001
            self._failed(e)

    def _is_goal(self, inst, state):
        try:
            return int(bool(np.asarray(self.py.is_goal(
                _view(state, self.sb).reshape(1, self.sb))).reshape(-1)[0]))
        except Exception as e:  # noqa: BLE001
            self._failed(e)
            return 0

    def _encode(self, inst, state, active):
        try:
            a = np.asarray(self.py.encode(_view(state, self.sb).reshape(1, self.sb)), np.int64)
            a = a.reshape(-1)
            a = a[a >= 0]
            if a.size > self.py.max_active or (a.size and a.max() >= self.py.inputs):
                raise ValueError("encode: %d active inputs (at most %d), each below %d"
                                 % (a.size, self.py.max_active, self.py.inputs))
            np.frombuffer((C.c_int32 * a.size).from_address(active), np.int32)[:] = a
            return int(a.size)
        except Exception as e:  # noqa: BLE001
            self._failed(e)
            return 0

    def _random(self, inst, state, rng):
        try:
            r = rng.contents
            s = self.py.random_state(lambda: r.next(r.ctx))
            _view(state, self.sb)[:] = np.asarray(s, np.uint8).reshape(self.sb)
            return 0
        except Exception as e:  # noqa: BLE001
            return self._failed(e)

    def _parse(self, inst, text, state):
        try:
            _view(state, self.sb)[:] = np.asarray(self.py.parse(text.decode()),
                                                  np.uint8).reshape(self.sb)
            return 0
        except Exception as e:  # noqa: BLE001 - a bad line: the host's message, no stop
            return self.host.contents.fail(_FORMAT, str(e).encode())

    def _format(self, inst, state, buf, cap):
        try:
            t = self.py.format(_view(state, self.sb)).encode()
            if cap:
                k = min(len(t), cap - 1)
                C.memmove(buf, t, k)
                C.memset(buf + k, 0, 1)
            return len(t)
        except Exception as e:  # noqa: BLE001
            self._failed(e)
            return 0

    def _heur_open(self, inst, name):
        n = name.decode()
        if n not in self.py.heuristic_names:
            self.host.contents.fail(_ARG, ("%s: no heuristic %s (%s)" % (
                self.py.canonical, n, ", ".join(self.py.heuristic_names))).encode())
            return None
        return 1 + self.py.heuristic_names.index(n)

    def _heur_eval(self, heur, state):
        try:
            name = self.py.heuristic_names[heur - 1]
            v = self.py.heuristic(name, _view(state, self.sb).reshape(1, self.sb))
            return int(np.asarray(v).reshape(-1)[0])
        except Exception as e:  # noqa: BLE001
            self._failed(e)
            return 0


_REGISTERED = {}  # name -> _Adapter: kept while the library may open it
_RETIRED = []  # replaced adapters: domains opened from them may still be in use
_REG_LOCK = threading.Lock()


def register(py: PythonDomain) -> str:
    """Register py's definition under its class's name (dom_register_def),
    so that dom_open(py.canonical) opens it: every call that takes a
    domain's spec (gen, train, avi, solve, model and dataset files) then
    takes it. Returns the canonical spec. A later object of the same name
    replaces it for domains opened afterwards."""
    if not isinstance(py, PythonDomain):
        raise TypeError("expected a heurnet.PythonDomain, not %s" % type(py).__name__)
    name = type(py).name
    if not isinstance(name, str) or not name or not all(c.islower() or c.isdigit() or c == "_"
                                                        for c in name):
        raise ValueError("%s.name %r: expected [a-z0-9_]+" % (type(py).__name__, name))
    if py.canonical != name and not py.canonical.startswith(name + ":"):
        raise ValueError("canonical %r must be %r or start with %r"
                         % (py.canonical, name, name + ":"))
    with _REG_LOCK:
        old = _REGISTERED.get(name)
        if old is not None and old.py is py:
            return py.canonical
        ad = _Adapter(py)
        _lib.check(_lib.lib.dom_register_def(C.byref(ad.defn)), "PythonDomain")
        _REGISTERED[name] = ad  # the old adapter stays alive for domains opened from it
        if old is not None:
            _RETIRED.append(old)
    return py.canonical

