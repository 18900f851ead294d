"""Search from Python: solve boards as `heurnet solve` does, heuristic
values and pattern databases for the n-puzzle."""

import ctypes as C
import os
import re
import tempfile
import threading

import numpy as np

from . import _arrays, _check
from ._lib import (lib, check, error, stop_hook, HeurnetValueError, MAX_PATH, ARG, INTERRUPTED,
                   LIMIT, NOMEM, UNSOLVABLE)
from .model import Model

_DOMAINS = {"npuzzle:3x3": 3, "npuzzle:4x4": 4, "npuzzle:5x5": 5}
_PUZZLE = {8: 3, 15: 4, 24: 5}
_GOALS = {"blank-first": 0, "blank-last": 1}


def domain_width(domain=None, puzzle=None):
    """Board width of "npuzzle:4x4" or puzzle=15. Other domains are refused."""
    if puzzle is not None:
        if domain is not None:
            raise ValueError("give domain or puzzle, not both")
        puzzle = _check.integer(puzzle, "puzzle", 8, 24)
        if puzzle not in _PUZZLE:
            raise ValueError("puzzle=%r: expected 8, 15 or 24" % (puzzle,))
        return _PUZZLE[puzzle]
    if domain is None:
        domain = "npuzzle:4x4"
    _check.text(domain, "domain")
    if domain not in _DOMAINS:
        raise ValueError("domain %r is not supported: expected one of %s (or puzzle=8/15/24)"
                         % (domain, ", ".join(sorted(_DOMAINS))))
    return _DOMAINS[domain]


def domain_spec(domain=None, puzzle=None, goal="blank-first"):
    """The dom_open spec of domain= (a spec str or a heurnet.Domain) or
    puzzle= (8, 15, 24), the goal layout added to an n-puzzle's: any
    domain, "npuzzle:7x7:blank-last", "cube3", "./libmine.so:12"."""
    from .domain import Domain
    g = goal_code(goal)
    if isinstance(domain, Domain):
        if puzzle is not None:
            raise ValueError("give domain or puzzle, not both")
        return domain._given
    if puzzle is not None or domain is None or domain in _DOMAINS:
        w = domain_width(domain, puzzle)
        return "npuzzle:%dx%d%s" % (w, w, ":blank-last" if g else "")
    _check.text(domain, "domain")
    if g and not domain.endswith(":blank-last"):
        if not domain.startswith("npuzzle:"):
            raise ValueError("goal=%r: only an n-puzzle has a goal layout, not %r"
                             % (goal, domain))
        domain += ":blank-last"
    return domain


def goal_code(goal):
    if not isinstance(goal, str) or goal not in _GOALS:
        raise ValueError("goal %r: expected 'blank-first' or 'blank-last'" % (goal,))
    return _GOALS[goal]


# Solutions' rows: heurnet solve's numbers per board, as one numpy record.
ROW = np.dtype([("status", np.int32), ("length", np.int32), ("h0", np.int32),
                ("nmoves", np.int32), ("expanded", np.uint64), ("generated", np.uint64),
                ("seconds", np.float64)], align=True)
_STATUS = {0: "solved", LIMIT: "limit", INTERRUPTED: "interrupted", NOMEM: "nomem",
           UNSOLVABLE: "unsolvable"}

# ---- boards of the square n-puzzles as states of their Domain ---------------

_NP_DOMAINS = {}
_NP_LOCK = threading.Lock()
_NOT_STATE = re.compile(r"state (\d+) is not a state of ")


def np_domain(width, goal):
    """The Domain of the width x width puzzle with goal code `goal`, opened
    once per process (a Domain is read-only, so threads share it)."""
    from .domain import Domain
    with _NP_LOCK:
        d = _NP_DOMAINS.get((width, goal))
        if d is None:
            d = Domain("npuzzle:%dx%d%s" % (width, width, ":blank-last" if goal else ""))
            _NP_DOMAINS[(width, goal)] = d
    return d


def np_states(d, states, width, goal, name="states"):
    """Boards (uint8 tiles [n, cells], each a permutation) as states of d:
    the tiles and the blank's cell, checked by the domain (a board that
    cannot reach the goal is a HeurnetValueError naming it)."""
    cells = width * width
    b = _arrays.boards(states, cells, name)
    s = np.empty((b.shape[0], cells + 1), np.uint8)
    s[:, :cells] = b
    s[:, cells] = np.argmin(b, axis=1)  # tile 0, the blank: each board is a permutation
    try:
        return d.states(s, name)
    except HeurnetValueError as e:
        m = _NOT_STATE.search(str(e))
        if not m:
            raise
        where = "" if name == "states" else name + ": "
        raise HeurnetValueError("%sboard %s cannot reach the %s goal" % (
            where, m.group(1), ("blank-first", "blank-last")[goal]), e.status) from None


def _old_words(algo, heuristic, admissible, width, lim):
    """solve()'s settings as the domain search's (name, value) pairs: the
    old n-puzzle words translated (batch-astar is bwas, whose weight W
    orders by g + W*h; the old bwas' lambda orders by lambda*g + h, the
    same order as g + h/lambda), the width's PDB the default heuristic and
    focal's default bound heuristic, as heurnet solve --puzzle has them."""
    pdb = "pdb:" + _PDB_DEFAULT[width]
    heuristic = heuristic.decode() if heuristic else pdb
    weight, batch = lim["weight"], lim["batch"]
    if weight and (weight > 1 if algo == "bwas" else weight < 1):
        raise HeurnetValueError("weight %g out of range for %s" % (weight, algo), ARG)
    if algo == "wastar" and batch > 1:
        raise HeurnetValueError("wastar expands one node at a time; use batch-astar for batch",
                                ARG)
    if algo in ("batch-astar", "bwas"):
        weight = (weight or 1.0) if algo == "batch-astar" else 1.0 / (weight or 0.8)
        batch, algo = batch or 16, "bwas"
    elif algo != "wastar":
        weight = batch = 0  # as heurnet solve: only these take them
    if algo == "focal" and admissible is None and "," not in heuristic:
        admissible = pdb.encode()
    pairs = [("heuristic", heuristic), ("algo", algo)]
    for key, val in (("weight", weight), ("batch", batch),
                     ("bound", lim["bound"] if algo == "focal" else 0),
                     ("time-limit", lim["time_limit"]), ("max-expanded", lim["max_expanded"]),
                     ("max-nodes", lim["max_nodes"])):
        if val:
            pairs.append((key, repr(val) if isinstance(val, float) else str(val)))
    if admissible:
        pairs.append(("admissible", admissible.decode()))
    return pairs


# the width's default PDB (heurnet solve --puzzle N without --heuristic)
_PDB_DEFAULT = {3: "8", 4: "7-8", 5: "6-6-6-6"}


class Solutions:
    """Per-board results of solve(): numpy arrays status (words as
    `heurnet solve` prints them), length, expanded, generated, seconds, h0
    and moves (a list of "UDLR" strings; "" when not solved)."""

    def __init__(self, rows, moves):
        self.rows = rows
        self.length = rows["length"]
        self.expanded = rows["expanded"]
        self.generated = rows["generated"]
        self.seconds = rows["seconds"]
        self.h0 = rows["h0"]
        self.status = np.array([_STATUS.get(int(s), "error") for s in rows["status"]])
        self.moves = moves

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return {"status": str(self.status[i]), "length": int(self.length[i]),
                "expanded": int(self.expanded[i]), "generated": int(self.generated[i]),
                "seconds": float(self.seconds[i]), "h0": int(self.h0[i]),
                "moves": self.moves[i]}

    def __repr__(self):
        return "<heurnet.Solutions %d boards, %d solved>" % (len(self), (self.status == "solved").sum())


def model_path(model):
    """(path, tmp) of model= (a Model or a path): a Model without a file is
    saved to a temporary one, tmp, which the caller removes."""
    if isinstance(model, Model):
        if model.path is not None:
            return model.path, None
        fd, tmp = tempfile.mkstemp(suffix=".h5")
        os.close(fd)
        model.save(tmp)
        model.path = None
        return tmp, tmp
    _check.path(model, "model", none_ok=False)
    return os.fsdecode(model), None


def _model_spec(model, heuristic):
    """The heuristic name for model=: "ann:PATH", or the heuristic with
    SELF replaced."""
    path, tmp = model_path(model)
    spec = heuristic.replace("SELF", path) if heuristic else "ann:" + path
    return spec, tmp


def _solve_scalars(time_limit, batch, weight, bound, max_expanded, max_nodes, threads):
    """solve()'s scalars, checked, as _SolveArgs fields."""
    bound = _check.real(bound, "bound", 0.0, 100.0)
    if 0 < bound < 1:
        raise ValueError("bound=%r is out of range: expected 1..100 (0: the default 1.05)" % bound)
    return {"time_limit": _check.real(time_limit, "time_limit", 0.0),
            "batch": _check.integer(batch, "batch", 0, 65536),
            "weight": _check.real(weight, "weight", 0.0),
            "bound": bound,
            "max_expanded": _check.count(max_expanded, "max_expanded"),
            "max_nodes": _check.count(max_nodes, "max_nodes"),
            "threads": _check.threads(threads)}


def solve(states, model=None, algo=None, heuristic=None, time_limit=0.0, domain=None,
          puzzle=None, goal="blank-first", batch=0, weight=0.0, bound=0.0, admissible=None,
          max_expanded=0, max_nodes=0, threads=1, quiet=True):
    """Solve each board of `states` (uint8 tiles [n, cells] or a list of
    lists) and return Solutions with the numbers `heurnet solve` prints.

    Without model= the search is idastar on the width's PDB, as `heurnet
    solve`; with model= (a Model or a path) astar on "ann:MODEL" unless algo
    or heuristic say otherwise (SELF in heuristic stands for the model).
    The search recorded in a model file (heurnet nn set-search) is not
    read here: give algo and heuristic explicitly. Any other domain
    (domain="cube3", "npuzzle:7x7", "./libmine.so:12" or a heurnet.Domain)
    runs through Domain.solve, as heurnet solve --domain runs it (there a
    model's recorded search is taken), and returns its Solutions. Ctrl-C
    stops between boards and raises KeyboardInterrupt.

    Scalars as heurnet solve takes them: time_limit finite seconds >= 0
    (0: none), max_expanded and max_nodes 0..2**64-1 (0: none), threads
    1..MAX_THREADS (256), batch 0..65536 and weight >= 0 (0: the
    algorithm's default), bound 0 or 1..100; anything else (NaN, -1,
    2**64+5, a float count, a str with a NUL byte) raises TypeError or
    ValueError before anything runs."""
    if _other_domain(domain) and puzzle is None:
        return _solve_domain(states, domain, goal, model, algo, heuristic, time_limit, batch,
                             weight, bound, admissible, max_expanded, max_nodes, threads)
    lim = _solve_scalars(time_limit, batch, weight, bound, max_expanded, max_nodes, threads)
    names = {k: _check.text(v, k) for k, v in (("algo", algo), ("heuristic", heuristic),
                                              ("admissible", admissible))}
    if model is not None and not isinstance(model, Model):
        _check.path(model, "model", none_ok=False)
    if model is not None and domain is None and puzzle is None:
        # as heurnet solve --model: the puzzle is the model's
        m = model if isinstance(model, Model) else Model.load(model)
        domain = m.domain
        if domain is None:
            raise ValueError("solve: the model's encoder %r is not npuzzle-onehot; give "
                             "domain= or puzzle=" % m.encoder)
        if domain.endswith(":blank-last") and domain[:-11] in _DOMAINS:
            domain, goal = domain[:-11], "blank-last"
        elif _other_domain(domain):
            return _solve_domain(states, domain, goal, model, algo, heuristic, time_limit,
                                 batch, weight, bound, admissible, max_expanded, max_nodes,
                                 threads)
    width = domain_width(domain, puzzle)
    gcode = goal_code(goal)
    d = np_domain(width, gcode)
    s = np_states(d, states, width, gcode)
    tmp = None
    if model is not None:
        heuristic, tmp = _model_spec(model, heuristic)
        names["heuristic"] = _check.text(heuristic, "heuristic")
        algo = algo or "astar"
    algo = _check.text(algo or "idastar", "algo").decode()
    try:
        pairs = _old_words(algo, names["heuristic"], names["admissible"], width, lim)
        rows, paths, _ = d._solve_pairs(s, pairs, lim["threads"], MAX_PATH)
    finally:
        if tmp:
            os.unlink(tmp)
    out = np.zeros(len(rows), ROW)
    for k in ("status", "length", "h0", "nmoves", "expanded", "generated", "seconds"):
        out[k] = rows[k]
    return Solutions(out, [d.format_moves(p) if len(p) else "" for p in paths])


def _other_domain(domain):
    """True for a domain beyond the square n-puzzles of 3x3..5x5 (or a
    heurnet.Domain): solve runs it through Domain.solve."""
    from .domain import Domain
    return isinstance(domain, Domain) or (isinstance(domain, str) and domain not in _DOMAINS)


def _solve_domain(states, domain, goal, model, algo, heuristic, time_limit, batch, weight, bound,
                  admissible, max_expanded, max_nodes, threads):
    """solve() on any domain: Domain.solve with the same settings (0 and
    None keep the search's defaults)."""
    from .domain import Domain
    d = domain if isinstance(domain, Domain) else Domain(domain_spec(domain, None, goal))
    lim = _solve_scalars(time_limit, batch, weight, bound, max_expanded, max_nodes, threads)
    kw = {k: v for k, v in (("time_limit", lim["time_limit"]), ("batch", lim["batch"]),
                            ("weight", lim["weight"]), ("bound", lim["bound"]),
                            ("max_expanded", lim["max_expanded"]),
                            ("max_nodes", lim["max_nodes"])) if v}
    if admissible is not None:
        kw["admissible"] = admissible
    return d.solve(states, algo=algo, heuristic=heuristic, model=model, threads=lim["threads"],
                   **kw)


class Heuristic:
    """A heuristic by name ("manhattan", "lc", "pdb:5-5-5", "ann:M.h5", ...)
    for boards of one width; values(states) evaluates it: the integers the
    searches order by, on the square n-puzzle's Domain. Safe from several
    threads: an "ann:" heuristic has one workspace, so values() holds the
    object's lock around its C call (calls run one after the other).
    quiet is accepted for old callers: the library prints nothing."""

    def __init__(self, name, domain=None, puzzle=None, goal="blank-first", quiet=True):
        from .domain import DomainHeuristic
        _check.text(name, "name", none_ok=False)
        self.width = domain_width(domain, puzzle)
        self.goal = goal_code(goal)
        self._d = np_domain(self.width, self.goal)
        self._h = DomainHeuristic(self._d, name)
        self.name = name

    def values(self, states):
        """The value of each board (int32 [n])."""
        s = np_states(self._d, states, self.width, self.goal)
        return self._h.search_values(s)


class _PdbTable(C.Structure):
    # dom_pdb_table (domains/dom.h)
    _fields_ = [("table", C.c_void_p), ("entries", C.c_uint64), ("domain", C.c_char * 128),
                ("name", C.c_char * 64), ("file", C.c_char * 192), ("what", C.c_char * 200)]


_MAX_TABLES = 64


class PDB:
    """An additive pattern database of the n-puzzle, e.g. PDB("5-5-5",
    domain="npuzzle:4x4"): the domain's "pdb:5-5-5:noreflect" heuristic,
    its tables loaded from heurnet's cache ($HEURNET_DATA, else
    ~/.cache/heurnet), or built there on first use (Ctrl-C stops a build).
    quiet is accepted for old callers: the library prints nothing."""

    def __init__(self, partition, domain=None, puzzle=None, goal="blank-first", quiet=True):
        part = _check.text(partition, "partition", none_ok=False)
        self.width = domain_width(domain, puzzle)
        self.goal = goal_code(goal)
        self.partition = partition
        self._d = np_domain(self.width, self.goal)
        st = C.c_int(0)
        with stop_hook():
            h = lib.dom_heur_open(self._d._d, b"pdb:" + part + b":noreflect", C.byref(st))
        if not h:
            raise error(st.value)
        self._h = C.c_void_p(h)
        self._d._retain()

    def __del__(self):
        if lib is not None and getattr(self, "_h", None):
            lib.dom_heur_free(self._h)
            self._h = None
            self._d._release()

    def lookup(self, states):
        """The additive PDB value of each board (int32 [n])."""
        s = np_states(self._d, states, self.width, self.goal)
        out = np.empty(s.shape[0], dtype=np.int32)
        lib.dom_heur_eval_many(self._h, s.ctypes.data, s.shape[0], s.shape[1], out.ctypes.data)
        return out

    @property
    def tables(self):
        """One dict per tile group: name, file (its name in the cache
        folder), what ("tiles=1,2,3"), domain, entries and table, a
        read-only uint8 view of the table (255: unreached) that keeps this
        PDB alive."""
        t = (_PdbTable * _MAX_TABLES)()
        n = lib.dom_heur_pdb_tables(self._h, t, _MAX_TABLES)
        out = []
        for i in range(n):
            buf = (C.c_uint8 * t[i].entries).from_address(t[i].table)
            buf._heurnet_owner = self
            view = np.frombuffer(buf, np.uint8)
            view.flags.writeable = False
            out.append({"name": t[i].name.decode(), "file": t[i].file.decode(),
                        "what": t[i].what.decode(), "domain": t[i].domain.decode(),
                        "entries": int(t[i].entries), "table": view})
        return out

    def save(self, folder):
        """Copies of the tables, in the cache's file format, into `folder`
        (created when missing) under their cache names: a folder a later
        process reads as its cache ($HEURNET_DATA=folder)."""
        check(lib.dom_heur_pdb_save(self._h, _check.path(folder, "save: folder", none_ok=False)))


_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def walk_boards(n, steps, domain=None, puzzle=None, seed=1):
    """n boards made by `steps` random blank moves from the blank-first goal
    (uint8 [n, cells]); every one is solvable. numpy's generator, seeded:
    not the boards heurnet gen --walk draws. n, steps and seed are
    integers >= 0."""
    n = _check.integer(n, "n", 0, _check.INT_MAX)
    steps = _check.integer(steps, "steps", 0, _check.INT_MAX)
    seed = _check.count(seed, "seed")
    width = domain_width(domain, puzzle)
    rng = np.random.default_rng(seed)
    out = np.empty((n, width * width), dtype=np.uint8)
    for i in range(n):
        b = np.arange(width * width, dtype=np.uint8)
        r = c = 0
        for k in rng.integers(4, size=steps):
            dr, dc = _STEPS[k]
            if 0 <= r + dr < width and 0 <= c + dc < width:
                b[r * width + c], b[(r + dr) * width + c + dc] = b[(r + dr) * width + c + dc], 0
                r, c = r + dr, c + dc
        out[i] = b
    return out
