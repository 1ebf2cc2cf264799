"""Round-robin rating ladder: every pair of bots plays the same number of seat-swapped games (2 players),
then openskill ratings, win rates with Wilson intervals and a head-to-head matrix are printed, and the
records, a CSV and a ratings plot are written. Rerunning with the same --out resumes.

    .venv/bin/python experiments/ladder.py --bots mcts:iterations=3000 heuristic greedy random \
        --games-per-pair 20 --out runs/ladder
"""
import argparse
import itertools
import os

import meeple
from meeple.plots import plot_tournament


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", nargs="+", required=True)
    parser.add_argument("--games-per-pair", type=int, default=20, help="even: each tile order from both seats")
    parser.add_argument("--expansions", nargs="*", default=[])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", "--workers", dest="workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default="runs/ladder")
    args = parser.parse_args()
    if args.games_per_pair % 2:
        parser.error("--games-per-pair must be even (every tile order is played from both seats)")
    pairs = len(list(itertools.combinations(args.bots, 2)))
    os.makedirs(args.out, exist_ok=True)
    result = meeple.tournament(args.bots, games=pairs * args.games_per_pair, players=2, expansions=args.expansions,
                               seed=args.seed, workers=args.workers, out=os.path.join(args.out, "games.jsonl"))
    print(result.table())
    print("\nhead to head (row's share of the games against column, ties half):")
    names = [row["bot"] for row in result.standings()]
    width = max(len(n) for n in names)
    shares = result.pairwise()
    print(" " * width + "".join(f"{i:>8}" for i in range(len(names))))
    for i, a in enumerate(names):
        cells = []
        for b in names:
            n, w = shares.get((a, b), (0, 0.0))
            cells.append(f"{100 * w / n:7.1f}%" if n else "       -")
        print(f"{a:<{width}}" + "".join(cells) + f"   ({i})")
    result.write_csv(os.path.join(args.out, "results.csv"))
    plot_tournament(result, os.path.join(args.out, "ratings.png"))
    print(f"\nwrote {args.out}/games.jsonl, results.csv, ratings.png")


if __name__ == "__main__":
    main()
