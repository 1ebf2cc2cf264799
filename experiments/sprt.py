"""Seat-swapped head-to-head with a sequential probability ratio test: is --new stronger than --old?
(meeple.sprt does the work; see its docstring.) Records go to --out/games.jsonl, so a stopped test resumes.

    .venv/bin/python experiments/sprt.py --new mcts:iterations=4000 --old mcts:iterations=2000 \
        --elo0 0 --elo1 40 --out runs/sprt
"""
import argparse
import os

import meeple


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--new", required=True)
    parser.add_argument("--old", required=True)
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=30.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--batch-pairs", type=int, default=20)
    parser.add_argument("--max-pairs", type=int, default=2000)
    parser.add_argument("--expansions", nargs="*", default=[])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", "--workers", dest="workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default="runs/sprt")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    result = meeple.sprt(args.new, args.old, elo0=args.elo0, elo1=args.elo1, alpha=args.alpha, beta=args.beta,
                         batch_pairs=args.batch_pairs, max_pairs=args.max_pairs, expansions=args.expansions,
                         seed=args.seed, workers=args.workers, out=os.path.join(args.out, "games.jsonl"),
                         report=lambda r: print(r.line(), flush=True))
    print(result.verdict)


if __name__ == "__main__":
    main()
