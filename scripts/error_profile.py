#!/usr/bin/env python3
"""Error profile of n-puzzle heuristics against optimal distances.

Reads boards with known optimal distances (a `heurnet gen` dataset, e.g. with
--path-states, or an instance file `id optimal t0 .. tn`), evaluates each
heuristic spec on every board with `heurnet solve --max-expanded 1` (the start
board's value h0, in 1/100 moves for `ann:` specs) and prints, per band of
optimal distance: mean error (h - optimum), its sd, the MAE, the share of
boards over-estimated by more than 1, 2 and 3 moves, and the correlation of
the error with the error of the reference heuristic (--ref, an admissible
PDB by default). Over-estimates are what keep A* with h - delta from optimal
paths; the correlation says how much of a residual model's error is its
base's. A dataset is read in its own goal layout (its `goal` attribute); an
unfinished gen file or one whose costs are not integers (not optima) is refused.

    scripts/error_profile.py build/heurnet labelled.h5 --puzzle 24 \\
        --spec ann:models/24puzzle-annd.h5 --spec pdb:6-6-6-6
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np


def attr_str(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def load_boards(path):
    """(optimum, tiles, goal layout or None) from a gen dataset or an instance file."""
    if path.endswith('.h5'):
        import h5py
        with h5py.File(path, 'r') as f:
            key = 'states' if 'states' in f else 'boards'
            if key not in f or 'cost' not in f:
                sys.exit(f'error_profile: {path}: no /boards and /cost datasets (nor /states)')
            if 'complete' in f.attrs and not int(f.attrs['complete']):
                sys.exit(f'error_profile: {path}: an unfinished heurnet gen file (complete = 0)')
            if f['cost'].dtype.kind not in 'iu':
                sys.exit(f'error_profile: {path}: /cost is not integer, so not optimal lengths '
                         '(a distillation file?)')
            opt = f['cost'][:].astype(int)
            if key == 'states':  # an n-puzzle state: the tiles, then the blank's cell
                tiles = f['states'][:, :-1]
                blank_last = attr_str(f.attrs['domain']).endswith(':blank-last')
                goal = 'blank-last' if blank_last else 'blank-first'
            else:
                tiles = f['boards'][:]
                goal = attr_str(f.attrs['goal']) if 'goal' in f.attrs else None
        return opt, tiles, goal
    opt, tiles = [], []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            v = line.split()
            try:
                opt.append(int(v[1]))
                tiles.append([int(x) for x in v[2:]])
            except (ValueError, IndexError):
                sys.exit(f'error_profile: {path}:{n}: expected "id optimal tiles..."')
    if len({len(t) for t in tiles}) > 1:
        sys.exit(f'error_profile: {path}: boards of different sizes')
    return np.array(opt), np.array(tiles), None


def h0_values(heurnet, puzzle, goal, spec, board_file, n):
    """h0 of every board under spec, in moves."""
    scale = 100.0 if spec.startswith('ann:') else 1.0
    full = spec + ',scale:100' if spec.startswith('ann:') else spec
    cmd = [heurnet, 'solve', '--puzzle', str(puzzle), '--goal', goal, '--algo', 'astar',
           '--heuristic', full, '--max-expanded', '1', '-q', board_file]
    out = subprocess.run(cmd, capture_output=True, text=True)
    vals = [int(tok[3:]) / scale for line in out.stdout.splitlines() if line.startswith('id=')
            for tok in line.split() if tok.startswith('h0=')]
    if len(vals) != n:
        sys.exit(f'error_profile: {spec}: {len(vals)} of {n} boards evaluated\n{out.stderr}')
    return np.array(vals)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('heurnet')
    ap.add_argument('boards', help='gen dataset (.h5) or instance file with optima')
    ap.add_argument('--puzzle', type=int, default=24, choices=(8, 15, 24))
    ap.add_argument('--goal', choices=('blank-first', 'blank-last'),
                    help="the boards' goal layout [a dataset's own, else blank-first]")
    ap.add_argument('--spec', action='append', required=True, help='heuristic spec (repeat)')
    ap.add_argument('--ref', default=None, help='reference heuristic [pdb:6-6-6-6 / pdb:7-8 / lc]')
    ap.add_argument('--bands', default='0,30,40,50', help='lower ends of distance bands')
    a = ap.parse_args()
    ref = a.ref or ('pdb:6-6-6-6' if a.puzzle == 24 else 'pdb:7-8' if a.puzzle == 15 else 'lc')
    opt, tiles, file_goal = load_boards(a.boards)
    if tiles.shape[1] != a.puzzle + 1:
        sys.exit(f'error_profile: {a.boards}: boards of {tiles.shape[1]} cells, not the {a.puzzle}-puzzle')
    if a.goal and file_goal and a.goal != file_goal:
        sys.exit(f'error_profile: {a.boards}: boards for the {file_goal} goal, not {a.goal}')
    goal = a.goal or file_goal or 'blank-first'
    with tempfile.TemporaryDirectory() as tmp:
        bf = os.path.join(tmp, 'boards.txt')
        with open(bf, 'w') as f:
            for i, t in enumerate(tiles):
                f.write(f'{i} {" ".join(map(str, t))}\n')
        # the reference is evaluated once, also when it is one of the specs
        vals = {s: h0_values(a.heurnet, a.puzzle, goal, s, bf, len(opt))
                for s in dict.fromkeys(a.spec + [ref])}
    r = vals.pop(ref) if ref not in a.spec else vals[ref]
    er = r - opt
    print(f'{len(opt)} boards, optimum mean {opt.mean():.1f} (min {opt.min()}, max {opt.max()}); '
          f'reference {ref}')
    print('| heuristic | optimum >= | boards | mean error | sd | MAE | over 1 | over 2 | over 3 |'
          ' corr. with reference error |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for s, h in vals.items():
        e = h - opt
        for lo in (int(x) for x in a.bands.split(',')):
            m = opt >= lo
            if m.sum() < 2:
                continue
            c = np.corrcoef(e[m], er[m])[0, 1] if er[m].std() > 0 and e[m].std() > 0 else float('nan')
            print(f'| {s} | {lo} | {m.sum()} | {e[m].mean():+.2f} | {e[m].std():.2f} | '
                  f'{np.abs(e[m]).mean():.2f} | {(e[m] > 1).mean():.3f} | {(e[m] > 2).mean():.3f} | '
                  f'{(e[m] > 3).mean():.3f} | {c:.3f} |')


if __name__ == '__main__':
    main()
