"""Every domain heurnet knows, from Python: the n-puzzle of any size, the
Rubik's cube and plug-ins, opened by name, with their facts as properties
and their calls on numpy batches of states (solve/dom_batch.h).

    import heurnet
    cube = heurnet.Domain("cube3")
    s = cube.random_walks(1000, (10, 20), seed=1)
    kids = cube.expand(s)                # children [n, nmoves, state_bytes]
    x = cube.encode(s)                   # float32 one-hot rows [n, inputs]
    h = cube.heuristic(cube.heuristics[0]).values(s)
    sol = cube.solve(s[:5], algo="beam", model="models/cube3.h5")

States are uint8 arrays [n, state_bytes] (one state of state_bytes bytes is
one row), C-contiguous; every call checks each state with the domain's
own check (its text format reads it back unchanged), so a state out of
range is a HeurnetValueError naming its index, never a crash.
"""

import ctypes as C
import itertools
import os
import threading
from typing import TYPE_CHECKING, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _arrays, _check
from ._lib import lib, check, error, stop_hook, ARG, INTERRUPTED, LIMIT, NOMEM, UNSOLVABLE

if TYPE_CHECKING:
    from .pydomain import PythonDomain

StateArray = np.ndarray
_USERS_LOCK = threading.Lock()
WalkLengths = Union[int, Tuple[int, int]]


class _Info(C.Structure):
    _fields_ = [("state_bytes", C.c_int32), ("nmoves", C.c_int32), ("inputs", C.c_int32),
                ("max_active", C.c_int32), ("has_uniform", C.c_int32),
                ("typical_depth", C.c_int32), ("unit_cost", C.c_int32),
                ("reversible", C.c_int32), ("symmetries", C.c_int32),
                ("spec", C.c_char_p), ("canonical", C.c_char_p), ("encoding", C.c_char_p),
                ("heuristics", C.c_char_p), ("patterns", C.c_char_p), ("move_sep", C.c_char_p)]


class _InstanceRec(C.Structure):
    # dom_instance_rec (domains/dom.h); DOM_MAX_STATE_BYTES is 256
    _fields_ = [("id", C.c_char * 32), ("length", C.c_int), ("line", C.c_int),
                ("state", C.c_uint8 * 256)]


# heurnet_dom_row (solve/dom_search.h) as a numpy record
ROW = np.dtype([("status", np.int32), ("length", np.int32), ("nmoves", np.int32),
                ("h0", np.int32), ("proven", np.int32), ("cost", np.int64),
                ("expanded", np.uint64), ("generated", np.uint64), ("stored", np.uint64),
                ("seconds", np.float64)], align=True)
_STATUS = {0: "solved", LIMIT: "limit", INTERRUPTED: "interrupted", NOMEM: "nomem",
           UNSOLVABLE: "unsolvable"}


def domains() -> List[dict]:
    """The built-in domains: dicts of name, summary and args (what may
    follow "name:"), as `heurnet domain list` shows them."""
    out = []
    name, summary, args = C.c_char_p(), C.c_char_p(), C.c_char_p()
    i = 0
    while lib.heurnet_dom_builtin_info(i, C.byref(name), C.byref(summary), C.byref(args)):
        out.append({"name": name.value.decode(), "summary": summary.value.decode(),
                    "args": args.value.decode()})
        i += 1
    return out


class Expansion(NamedTuple):
    """Domain.expand's result: children uint8 [n, nmoves, state_bytes],
    moves uint8 [n, nmoves] (255 past count), costs int32 [n, nmoves] (-1
    past count), count int32 [n]; the first count[i] slots of row i hold
    state i's children in move order."""
    children: np.ndarray
    moves: np.ndarray
    costs: np.ndarray
    count: np.ndarray


class Instances(NamedTuple):
    """Domain.read_instances's result: ids (list of str), lengths (int32
    [n], -1 where the file gives none), states (uint8 [n, state_bytes])."""
    ids: List[str]
    lengths: np.ndarray
    states: np.ndarray


class Domain:
    """An open domain: Domain("npuzzle:7x7:blank-last"), Domain("cube3"),
    Domain("./libmine.so:12") (a plug-in: a path with a '/'), or
    Domain(obj) of a heurnet.PythonDomain (a domain written in Python,
    registered under its canonical spec for this process). Read-only:
    one Domain may be used from several threads at once. Pickles by its
    spec (a plug-in's path must exist where it is unpickled)."""

    def __init__(self, spec: Union[str, "PythonDomain"]):
        from .pydomain import PythonDomain, register
        self._py = None
        if isinstance(spec, PythonDomain):
            self._py = spec
            spec = register(spec)  # then opened by its canonical spec
        key = _check.text(spec, "Domain: spec", none_ok=False)
        st = C.c_int(0)
        h = lib.dom_open(key, C.byref(st))
        if not h:
            raise error(st.value)
        self._d = C.c_void_p(h)
        self._given = spec
        info = _Info()
        check(lib.heurnet_dom_info_get(self._d, C.byref(info)))
        self._info = info
        self.state_bytes: int = info.state_bytes
        self.nmoves: int = info.nmoves
        self.inputs: int = info.inputs
        self.max_active: int = info.max_active
        self.has_uniform: bool = bool(info.has_uniform)
        self.typical_depth: int = info.typical_depth
        self.unit_cost: bool = bool(info.unit_cost)
        self.reversible: bool = bool(info.reversible)
        self.symmetries: int = info.symmetries
        self.spec: str = info.spec.decode()
        self.canonical: str = info.canonical.decode()
        self.encoding: str = info.encoding.decode()
        self.heuristics: List[str] = [x for x in info.heuristics.decode().split(",") if x]
        self.patterns: List[str] = [x for x in info.patterns.decode().split(",") if x]
        self.move_sep: str = info.move_sep.decode()
        names, inv, cost = [], [], []
        nm, iv, co = C.c_char_p(), C.c_int(), C.c_int()
        for m in range(self.nmoves):
            check(lib.heurnet_dom_move_info(self._d, m, C.byref(nm), C.byref(iv), C.byref(co)))
            names.append(nm.value.decode())
            inv.append(iv.value)
            cost.append(co.value)
        self.moves: List[str] = names
        self.inverse: np.ndarray = np.array(inv, np.int32)
        self.costs: np.ndarray = np.array(cost, np.int32)

    # A heuristic's C object reads its domain's until it is freed, and the
    # garbage collector finalizes a cycle's objects in any order: the
    # domain is freed by the last of itself and its users.
    def _retain(self):
        with _USERS_LOCK:
            self._users = getattr(self, "_users", 0) + 1

    def _release(self):
        with _USERS_LOCK:
            self._users -= 1
            last = self._users == 0 and getattr(self, "_dead", False)
        if last:
            self._free()

    def _free(self):
        if lib is not None and getattr(self, "_d", None):
            lib.dom_free(self._d)
            self._d = None

    def __del__(self):
        with _USERS_LOCK:
            self._dead = True
            users = getattr(self, "_users", 0)
        if not users:
            self._free()

    def __reduce__(self):
        return (Domain, (self._py if self._py is not None else self._given,))

    def __repr__(self):
        return "<heurnet.Domain %s: %d-byte states, %d moves, %d inputs>" % (
            self.spec, self.state_bytes, self.nmoves, self.inputs)

    # ---- states in and out --------------------------------------------------

    def states(self, states, name: str = "states") -> np.ndarray:
        """states as a checked uint8 [n, state_bytes] array (no copy of an
        array; a list of lists is converted); HeurnetValueError naming the
        first state that is not one of this domain's."""
        a = self._rows(states, name)
        check(lib.heurnet_dom_states_check(self._d, a.ctypes.data, a.shape[0], self.state_bytes),
              name)
        return a

    def _rows(self, states, name):
        """uint8 [n, state_bytes], C-contiguous (the C call checks contents)."""
        if isinstance(states, (list, tuple)):
            conv = np.array(states)
            if conv.size and conv.dtype.kind not in "iu":
                raise TypeError("%s: expected integer bytes, got %s values" % (name, conv.dtype))
            if conv.size and (conv.min() < 0 or conv.max() > 255):
                raise ValueError("%s: value %d is out of range 0..255"
                                 % (name, conv.min() if conv.min() < 0 else conv.max()))
            states = conv.astype(np.uint8)
        a = _arrays.as_array(states, name)
        if a.dtype != np.uint8:
            raise TypeError("%s: expected dtype uint8 states, got %s (shape %s)"
                            % (name, a.dtype, a.shape))
        if a.ndim == 1:
            a = a.reshape(1, -1)
        if a.ndim != 2 or a.shape[1] != self.state_bytes:
            raise ValueError("%s: expected shape (n, %d) for %s states, got %s"
                             % (name, self.state_bytes, self.spec, states.shape))
        _arrays.c_contiguous(a, name)
        return a

    def _out(self, out, shape, dtype, src, name="out"):
        """A fresh output array, or `out` checked: writable, C-contiguous,
        of the shape and dtype, apart from the input."""
        if out is None:
            return np.empty(shape, dtype)
        a = _arrays.as_array(out, name)
        if a.dtype != dtype or a.shape != tuple(shape):
            raise ValueError("%s: expected dtype %s, shape %s; got %s, %s"
                             % (name, np.dtype(dtype), tuple(shape), a.dtype, a.shape))
        if not a.flags.writeable:
            raise ValueError("%s: the array is read-only; pass a writable one" % name)
        _arrays.c_contiguous(a, name)
        if src is not None and np.may_share_memory(a, src):
            raise ValueError("%s: shares memory with the input; pass a separate array" % name)
        return a

    def goal(self) -> np.ndarray:
        """The goal state (uint8 [state_bytes])."""
        g = np.zeros(self.state_bytes, np.uint8)
        lib.dom_goal(self._d, g.ctypes.data)
        return g

    # ---- the batched calls --------------------------------------------------

    def expand(self, states) -> Expansion:
        """Every child of each state by every legal move (no pruning), in
        move order: an Expansion (children, moves, costs, count)."""
        a = self._rows(states, "expand: states")
        n, b, sb = a.shape[0], self.nmoves, self.state_bytes
        kids = np.empty((n, b, sb), np.uint8)
        moves = np.empty((n, b), np.uint8)
        costs = np.empty((n, b), np.int32)
        count = np.empty(n, np.int32)
        check(lib.heurnet_dom_expand_states(self._d, a.ctypes.data, n, sb, kids.ctypes.data,
                                            moves.ctypes.data, costs.ctypes.data,
                                            count.ctypes.data), "expand")
        return Expansion(kids, moves, costs, count)

    def apply(self, states, moves, out=None) -> Tuple[np.ndarray, np.ndarray]:
        """(after, legal): states[i] after moves[i] (move indices, an int
        array of n or one int for all), legal[i] False where the move is
        illegal (that state copied unchanged). out= may be given (uint8
        [n, state_bytes], writable; it may be `states` itself: in place)."""
        a = self._rows(states, "apply: states")
        n = a.shape[0]
        m = np.asarray(moves)
        if m.dtype.kind not in "iu":
            raise TypeError("apply: moves: expected integer move indices, got %s" % m.dtype)
        if m.ndim == 0:
            m = np.full(n, int(m))
        if m.shape != (n,):
            raise ValueError("apply: moves: expected %d moves, got shape %s" % (n, m.shape))
        if n and (m.min() < 0 or m.max() >= self.nmoves):
            i = int(np.argmax((m < 0) | (m >= self.nmoves)))
            raise ValueError("apply: move %d is %d: expected 0..%d" % (i, int(m[i]),
                                                                        self.nmoves - 1))
        m = np.ascontiguousarray(m, np.int32)
        if out is not None and out is a:
            o = self._out(out, a.shape, np.uint8, None)
        else:
            o = self._out(out, a.shape, np.uint8, a)
        legal = np.empty(n, np.uint8)
        check(lib.heurnet_dom_apply_states(self._d, a.ctypes.data, n, self.state_bytes,
                                           m.ctypes.data, o.ctypes.data, legal.ctypes.data),
              "apply")
        return o, legal.astype(bool)

    def is_goal(self, states) -> np.ndarray:
        """bool [n]: True where the state is a goal."""
        a = self._rows(states, "is_goal: states")
        g = np.empty(a.shape[0], np.uint8)
        check(lib.heurnet_dom_goal_states(self._d, a.ctypes.data, a.shape[0], self.state_bytes,
                                          g.ctypes.data), "is_goal")
        return g.astype(bool)

    def encode(self, states, dense: bool = True, out=None):
        """The network inputs of each state: dense 0/1 rows, float32 [n,
        inputs] (written into out= when given), or with dense=False the
        active inputs' indices (int32 [n, max_active], -1 padded) and their
        counts (int32 [n]), as a pair."""
        a = self._rows(states, "encode: states")
        n = a.shape[0]
        if dense:
            x = self._out(out, (n, self.inputs), np.float32, a)
            check(lib.heurnet_dom_encode_states(self._d, a.ctypes.data, n, self.state_bytes,
                                                x.ctypes.data, None, None), "encode")
            return x
        act = np.empty((n, self.max_active), np.int32)
        cnt = np.empty(n, np.int32)
        check(lib.heurnet_dom_encode_states(self._d, a.ctypes.data, n, self.state_bytes, None,
                                            act.ctypes.data, cnt.ctypes.data), "encode")
        return act, cnt

    def _sample(self, n, seed, uniform, lo, hi):
        n = _check.integer(n, "n", 0, 2**40)
        seed = _check.count(seed, "seed")
        out = np.empty((n, self.state_bytes), np.uint8)
        walked = np.empty(n, np.int32)
        check(lib.heurnet_dom_sample_states(self._d, n, seed, 1 if uniform else 0, lo, hi,
                                            out.ctypes.data, walked.ctypes.data))
        return out, walked

    def random_walks(self, n: int, lengths: WalkLengths, seed: int = 1,
                     return_lengths: bool = False):
        """n states by random walks from the goal (moves the pruning
        automaton allows, so a walk never undoes its last move) of
        `lengths` moves: an int, or (min, max) for a length drawn uniformly
        in min..max per state. The states heurnet gen --walk-min/--walk-max
        (or --walk) --seed draws, in its order. With return_lengths also
        the moves each walk made (int32 [n])."""
        if isinstance(lengths, (tuple, list)):
            if len(lengths) != 2:
                raise ValueError("lengths: expected an int or (min, max), not %r" % (lengths,))
            lo = _check.integer(lengths[0], "lengths min", 0, 100000)
            hi = _check.integer(lengths[1], "lengths max", lo, 100000)
        else:
            lo = hi = _check.integer(lengths, "lengths", 0, 100000)
        out, walked = self._sample(n, seed, False, lo, hi)
        return (out, walked) if return_lengths else out

    def uniform(self, n: int, seed: int = 1) -> np.ndarray:
        """n uniformly random states (as heurnet gen --uniform --seed draws
        them); HeurnetValueError for a domain that cannot draw them."""
        return self._sample(n, seed, True, 0, 0)[0]

    # ---- text ---------------------------------------------------------------

    def parse(self, lines: Union[str, Sequence[str]]) -> np.ndarray:
        """States from their text (one line each; a str holds one state or
        several lines): uint8 [n, state_bytes]."""
        if isinstance(lines, str):
            lines = [x for x in lines.split("\n") if x.strip()]
        lines = [_check.text(x, "parse: line").decode() for x in lines]
        for i, x in enumerate(lines):
            if "\n" in x:
                raise ValueError("parse: line %d holds a newline" % i)
        out = np.empty((len(lines), self.state_bytes), np.uint8)
        check(lib.heurnet_dom_parse_states(self._d, "\n".join(lines).encode(), len(lines),
                                           out.ctypes.data), "parse")
        return out

    def format(self, states) -> List[str]:
        """Each state as the line heurnet's instance files hold."""
        a = self._rows(states, "format: states")
        n = a.shape[0]
        need = check(lib.heurnet_dom_format_states(self._d, a.ctypes.data, n, self.state_bytes,
                                                   None, 0), "format")
        buf = C.create_string_buffer(need + 1)
        check(lib.heurnet_dom_format_states(self._d, a.ctypes.data, n, self.state_bytes, buf,
                                            need + 1), "format")
        return buf.value.decode().split("\n")[:n]

    def parse_moves(self, text: str) -> np.ndarray:
        """Move indices (uint8) of a move sequence in the domain's text."""
        t = _check.text(text, "parse_moves: text", none_ok=False)
        cap = max(len(t) + 1, 16) * 4
        buf = np.empty(cap, np.uint8)
        k = check(lib.dom_parse_moves(self._d, t, buf.ctypes.data, cap), "parse_moves")
        return buf[:k].copy()

    def format_moves(self, moves) -> str:
        """Move indices as the domain's move text."""
        m = np.asarray(moves)
        if m.size and m.dtype.kind not in "iu":
            raise TypeError("format_moves: expected integer moves, got %s" % m.dtype)
        m = m.reshape(-1)
        if m.size and (m.min() < 0 or m.max() >= self.nmoves):
            raise ValueError("format_moves: a move out of 0..%d" % (self.nmoves - 1))
        m = np.ascontiguousarray(m, np.uint8)
        need = lib.dom_format_moves(self._d, m.ctypes.data, m.size, None, 0)
        buf = C.create_string_buffer(need + 1)
        lib.dom_format_moves(self._d, m.ctypes.data, m.size, buf, need + 1)
        return buf.value.decode()

    def replay(self, start, moves) -> bool:
        """True when the moves lead `start` to a goal, False when they are
        legal but end elsewhere; HeurnetValueError at an illegal move."""
        a = self.states(start, "replay: start")
        if a.shape[0] != 1:
            raise ValueError("replay: expected one start state, got %d" % a.shape[0])
        m = np.ascontiguousarray(np.asarray(moves).reshape(-1), np.uint8)
        if m.size and int(m.max()) >= self.nmoves:
            raise ValueError("replay: a move out of 0..%d" % (self.nmoves - 1))
        return bool(check(lib.dom_replay(self._d, a.ctypes.data, m.ctypes.data, m.size),
                          "replay"))

    def read_instances(self, path) -> Instances:
        """An instance file of this domain (`[id [length]] STATE` lines):
        Instances(ids, lengths, states). A bad line raises
        HeurnetValueError naming the file and line."""
        p = _check.path(path, "read_instances: path", none_ok=False)
        recs, n = C.c_void_p(), C.c_size_t()
        check(lib.heurnet_dom_instances_read(self._d, p, C.byref(recs), C.byref(n)))
        try:
            arr = C.cast(recs, C.POINTER(_InstanceRec))
            ids, lens = [], np.empty(n.value, np.int32)
            states = np.empty((n.value, self.state_bytes), np.uint8)
            for i in range(n.value):
                r = arr[i]
                ids.append(r.id.decode(errors="replace"))
                lens[i] = r.length
                states[i] = np.frombuffer(bytes(r.state)[:self.state_bytes], np.uint8)
        finally:
            lib.heurnet_dom_instances_free(recs)
        return Instances(ids, lens, states)

    # ---- heuristics and search ----------------------------------------------

    def heuristic(self, name: Optional[str] = None) -> "DomainHeuristic":
        """A heuristic of this domain by the names of heurnet solve
        --heuristic (None: the domain's first): "manhattan", "pdb:P",
        "max:A,B", "ann:MODEL.h5" (with the residual base it records)."""
        return DomainHeuristic(self, name if name is not None else self.heuristics[0])

    def solve(self, states, algo: Optional[str] = None, heuristic: Optional[str] = None,
              model=None, threads: int = 1, max_moves: int = 4096, **settings) -> "Solutions":
        """Solve each state as heurnet solve --domain does: algo ("astar",
        "wastar", "bwas", "beam", "idastar", "anytime", "focal"; None: the
        default, IDA* for an admissible heuristic, the model's recorded
        search for a model that records one), heuristic (None: the model's
        network, else the domain's first), model (a path or a Model) and
        any setting of heurnet solve by its name with '_' for '-'
        (weight=2, batch=100, width=1000, weights="5,3,1", time_limit=5,
        max_expanded=10**6, bound=1.5, admissible="pdb:..", floor=..,
        shortcut=.., ball=2, variants=.., engine="float"); a value is given
        as the command line takes it (a str, or a number). Rows as
        Solutions; each solution's moves (indices, at most max_moves kept)
        in .moves. Ctrl-C stops between states (KeyboardInterrupt)."""
        from .search import model_path  # a Model without a file is saved to one
        a = self.states(states, "solve: states")
        threads = _check.threads(threads)
        max_moves = _check.integer(max_moves, "max_moves", 1, 1 << 20)
        pairs = []
        for key, val in (("algo", algo), ("heuristic", heuristic)):
            if val is not None:
                pairs.append((key, _check.text(val, key).decode()))
        tmp = None
        if model is not None:
            path, tmp = model_path(model)
            pairs.append(("model", path))
        for key, val in settings.items():
            if val is None:
                continue
            if isinstance(val, (bool, np.bool_)):
                raise TypeError("%s: expected a number or a str, not a bool" % key)
            if isinstance(val, float):
                val = _check.real(val, key)
                val = repr(val)
            elif not isinstance(val, str):
                val = str(_check.integer(val, key, -(2**63), 2**64 - 1))
            pairs.append((key.replace("_", "-"), _check.text(val, key).decode()))
        try:
            rows, paths, desc = self._solve_pairs(a, pairs, threads, max_moves)
        finally:
            if tmp:
                os.unlink(tmp)
        return Solutions(self, rows, paths, desc)

    def _solve_pairs(self, a, pairs, threads, max_moves):
        """heurnet_dom_solve_pairs on checked states a with settings
        [(name, value)]: (rows, move index arrays, the search in words)."""
        names = (C.c_char_p * max(len(pairs), 1))(*[k.encode() for k, _ in pairs])
        values = (C.c_char_p * max(len(pairs), 1))(*[v.encode() for _, v in pairs])
        n = a.shape[0]
        rows = np.zeros(n, ROW)
        moves = np.zeros((n, max_moves), np.uint8)
        desc = C.create_string_buffer(1024)
        _callback_error(pairs)  # one left from an earlier call is dropped
        with stop_hook() as hook:
            st = lib.heurnet_dom_solve_pairs(self._d, a.ctypes.data, n, self.state_bytes, names,
                                             values, len(pairs), threads, rows.ctypes.data,
                                             moves.ctypes.data, max_moves, desc, len(desc))
        e = _callback_error(pairs)
        if e is not None:
            raise e
        if hook.stopped or st == INTERRUPTED:
            raise KeyboardInterrupt("solve: stopped by a signal")
        check(st, "solve")
        paths = [moves[i, :rows["nmoves"][i]].copy() for i in range(n)]
        return rows, paths, desc.value.decode()


class DomainHeuristic:
    """A heuristic of a Domain (Domain.heuristic(name)); values(states)
    evaluates it. A network holds a workspace: values() holds the object's
    lock around its C call, so threads sharing one take turns."""

    def __init__(self, domain: Domain, name: str):
        key = _check.text(name, "heuristic: name", none_ok=False)
        self.domain = domain
        self.name = name
        self._lock = threading.Lock()
        st = C.c_int(0)
        with stop_hook():
            h = lib.heurnet_dom_heur_open(domain._d, key, C.byref(st))
        if not h:
            raise error(st.value)
        self._h = C.c_void_p(h)
        domain._retain()
        self.admissible: bool = bool(lib.heurnet_dom_heur_admissible(self._h))

    def __del__(self):
        if lib is not None and getattr(self, "_h", None):
            lib.heurnet_dom_heur_free(self._h)
            self._h = None
            self.domain._release()

    def __repr__(self):
        return "<heurnet.DomainHeuristic %s on %s>" % (self.name, self.domain.spec)

    def values(self, states, out=None) -> np.ndarray:
        """The estimate of each state (float64 [n], cost units; what heurnet
        predict prints), written into out= when given."""
        a = self.domain._rows(states, "values: states")
        est = self.domain._out(out, (a.shape[0],), np.float64, a)
        with self._lock:
            check(lib.heurnet_dom_heur_values(self._h, a.ctypes.data, a.shape[0],
                                              self.domain.state_bytes, est.ctypes.data),
                  "values")
        return est

    def search_values(self, states, out=None) -> np.ndarray:
        """The values the searches order by (int32 [n]: integers in the
        heuristic's scale, a network's estimate rounded, never below its
        floor, 0 at the goal), written into out= when given."""
        a = self.domain._rows(states, "search_values: states")
        v = self.domain._out(out, (a.shape[0],), np.int32, a)
        with self._lock:
            check(lib.heurnet_dom_heur_ints(self._h, a.ctypes.data, a.shape[0],
                                            self.domain.state_bytes, v.ctypes.data),
                  "search_values")
        return v


# srch_dom_heur_fn (search/generic/srch_dom.h)
_HEUR_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_void_p, C.c_size_t, C.c_void_p)
_CALLBACKS = {}  # name -> CallbackHeuristic, registered in the library
_CALLBACKS_LOCK = threading.Lock()
_NAMES = itertools.count(1)


class CallbackHeuristic:
    """A heuristic computed in Python for heurnet's searches:
    fn(states) gets a batch of the domain's states (uint8 [n, state_bytes],
    a read-only view valid during the call) and returns their n estimates
    in cost units (anything numpy.asarray takes: a list, an array, a CPU
    torch tensor). A search takes it by .spec ("cb:NAME"), with a floor as
    spec + ",H":

        h = heurnet.CallbackHeuristic(dom, lambda s: my_net(dom.encode(s)))
        dom.solve(states, algo="astar", heuristic=h.spec)

    The searches call it in batches, as they call a network (the children
    of an expansion, a beam's layer), on each of their threads; the GIL is
    held only inside fn. An exception in fn stops the search, and solve
    raises it. It stays registered until close() (or the end of a with
    block): the library keeps only its function pointer."""

    def __init__(self, domain: "Domain", fn, name: Optional[str] = None):
        if not callable(fn):
            raise TypeError("CallbackHeuristic: fn must be callable, not %s" % type(fn).__name__)
        self.domain = domain
        self.fn = fn
        self.name = name if name is not None else "py%d" % next(_NAMES)
        key = _check.text(self.name, "CallbackHeuristic: name", none_ok=False)
        self.spec = "cb:" + self.name
        self.calls = 0
        self.rows = 0
        self._error = None
        self._cb = _HEUR_FN(self._call)
        with _CALLBACKS_LOCK:
            if self.name in _CALLBACKS:
                raise ValueError("CallbackHeuristic: the name %r is taken" % self.name)
            check(lib.srch_dom_heur_register(key, C.cast(self._cb, C.c_void_p), None),
                  "CallbackHeuristic")
            _CALLBACKS[self.name] = self

    def _call(self, user, states, n, est):
        """The library's call: 0, or a negative status after an exception."""
        try:
            if n == 0:
                return 0
            sb = self.domain.state_bytes
            a = np.frombuffer((C.c_uint8 * (n * sb)).from_address(states), np.uint8)
            a = a.reshape(n, sb)
            a.flags.writeable = False
            v = np.asarray(self.fn(a), dtype=np.float64).reshape(-1)
            if v.shape != (n,):
                raise ValueError("%s: fn gave %d values for %d states" % (self.spec, v.size, n))
            if not np.isfinite(v).all():
                raise ValueError("%s: fn gave NaN or infinity for state %d"
                                 % (self.spec, int(np.argmax(~np.isfinite(v)))))
            np.frombuffer((C.c_double * n).from_address(est), np.float64)[:] = v
            self.calls += 1
            self.rows += n
            return 0
        except BaseException as e:  # noqa: B036 - carried to solve, which raises it
            if self._error is None:
                self._error = e
            return INTERRUPTED if isinstance(e, KeyboardInterrupt) else ARG

    def values(self, states) -> np.ndarray:
        """fn's estimates of checked states (float64 [n])."""
        a = self.domain.states(states, "values: states")
        return np.asarray(self.fn(a), dtype=np.float64).reshape(-1)

    def close(self):
        """Unregister it (searches can no longer open its spec)."""
        with _CALLBACKS_LOCK:
            if _CALLBACKS.get(self.name) is self:
                lib.srch_dom_heur_register(self.name.encode(), None, None)
                del _CALLBACKS[self.name]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return "<heurnet.CallbackHeuristic %s on %s: %d calls, %d rows>" % (
            self.spec, self.domain.spec, self.calls, self.rows)


def _callback_error(pairs):
    """The exception a callback heuristic of these settings stored during
    a search (taken: it is given once), else None."""
    for _, value in pairs:
        if value.startswith("cb:"):
            cb = _CALLBACKS.get(value[3:].split(",", 1)[0])
            if cb is not None and cb._error is not None:
                e, cb._error = cb._error, None
                return e
    return None


class Solutions:
    """Per-state results of Domain.solve: numpy arrays status (words as
    heurnet solve prints them), length, cost, expanded, generated, stored,
    seconds, h0, proven; moves (a list of uint8 index arrays) and
    move_text (the domain's move text); search (the search in words, as
    heurnet eval reports it). table() gives a dict of columns a
    pandas.DataFrame takes."""

    def __init__(self, domain, rows, moves, search=""):
        self.domain = domain
        self.rows = rows
        for k in ("length", "cost", "expanded", "generated", "stored", "seconds", "h0"):
            setattr(self, k, rows[k])
        self.proven = rows["proven"].astype(bool)
        self.status = np.array([_STATUS.get(int(s), "error") for s in rows["status"]])
        self.moves = moves
        self.search = search

    @property
    def move_text(self) -> List[str]:
        return [self.domain.format_moves(m) if len(m) else "" for m in self.moves]

    def table(self) -> dict:
        """Columns: status, length, cost, expanded, generated, stored,
        seconds, h0, proven, moves (text)."""
        cols = {k: getattr(self, k) for k in ("status", "length", "cost", "expanded",
                                               "generated", "stored", "seconds", "h0",
                                               "proven")}
        cols["moves"] = self.move_text
        return cols

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        t = self.table()
        return {k: (v[i].item() if isinstance(v, np.ndarray) else v[i]) for k, v in t.items()}

    def __repr__(self):
        return "<heurnet.Solutions %d states, %d solved: %s>" % (
            len(self), (self.status == "solved").sum(), self.search)
