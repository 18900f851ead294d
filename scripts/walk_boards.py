#!/usr/bin/env python3
"""Boards of the n-puzzle made by random walks of the blank from the goal, as
an instance file (`id t0 .. tn`, no optimum): tuning boards of your own for
searches whose optimal labels are out of reach (the 24-puzzle). The walk never
undoes its last move. Reproducible by seed (Python's random module).

  scripts/walk_boards.py --width 5 --moves 1000 --count 40 --seed 11 > tune24.txt
"""
import argparse
import random
import sys


def walk(width, goal_blank_first, moves, rng):
    n = width * width
    board = list(range(n)) if goal_blank_first else list(range(1, n)) + [0]
    z = board.index(0)
    prev = -1
    for _ in range(moves):
        r, c = divmod(z, width)
        nbrs = [x for x, ok in ((z - width, r > 0), (z + width, r < width - 1),
                                (z - 1, c > 0), (z + 1, c < width - 1)) if ok and x != prev]
        m = rng.choice(nbrs)
        board[z], board[m] = board[m], board[z]
        prev, z = z, m
    return board


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--width", type=int, default=5, choices=(3, 4, 5))
    ap.add_argument("--moves", type=int, default=1000)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--goal", choices=("blank-first", "blank-last"), default="blank-first")
    a = ap.parse_args()
    if a.moves < 0 or a.count < 0:
        sys.exit("walk_boards.py: --moves and --count must be >= 0")
    rng = random.Random(a.seed)
    print(f"# {a.count} random walks of {a.moves} blank moves from the {a.goal} goal, "
          f"seed {a.seed} (scripts/walk_boards.py)")
    for i in range(a.count):
        print(i, *walk(a.width, a.goal == "blank-first", a.moves, rng))


if __name__ == "__main__":
    main()
