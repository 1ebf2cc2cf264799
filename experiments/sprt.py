"""Seat-swapped head-to-head with a sequential probability ratio test: is --new stronger than --old?

Games come in pairs (one tile order, seats swapped) and are played in batches until the log-likelihood
ratio of H1 (new is elo1 stronger) against H0 (elo0) crosses a bound set by alpha and beta (the normal
approximation to the trinomial GSPRT used by chess engine testing). Records go to --out/games.jsonl, so
a stopped test resumes where it was.

    .venv/bin/python experiments/sprt.py --new mcts:iterations=4000 --old mcts:iterations=2000 \
        --elo0 0 --elo1 40 --out runs/sprt
"""
import argparse
import math
import os

import meeple


def expected_score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def llr(wins, draws, losses, elo0, elo1):
    """Log-likelihood ratio of elo1 against elo0 for these results (normal approximation)."""
    n = wins + draws + losses
    if n == 0:
        return 0.0
    score = (wins + draws / 2) / n
    # One-sided results (all wins) have no spread: floor the variance at that of one draw among the games.
    var = max((wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n, 0.25 / n)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * score - s0 - s1) / (2 * var)


def elo_of(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


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
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default="runs/sprt")
    args = parser.parse_args()
    lower, upper = math.log(args.beta / (1 - args.alpha)), math.log((1 - args.beta) / args.alpha)
    os.makedirs(args.out, exist_ok=True)
    pairs, verdict = 0, "no decision"
    while pairs < args.max_pairs:
        pairs = min(args.max_pairs, pairs + args.batch_pairs)
        result = meeple.tournament([args.new, args.old], games=2 * pairs, players=2, expansions=args.expansions,
                                   seed=args.seed, workers=args.workers, out=os.path.join(args.out, "games.jsonl"),
                                   progress=False)
        wins = draws = losses = 0
        for game in result.games:
            mine = game.scores[game.names.index(args.new)]
            theirs = game.scores[game.names.index(args.old)]
            wins, draws, losses = wins + (mine > theirs), draws + (mine == theirs), losses + (mine < theirs)
        ratio = llr(wins, draws, losses, args.elo0, args.elo1)
        score = (wins + draws / 2) / (wins + draws + losses)
        lo, hi = meeple.wilson(wins + draws / 2, wins + draws + losses)
        print(f"{2 * pairs:6d} games  W {wins} D {draws} L {losses}  score {100 * score:5.1f}% "
              f"[{100 * lo:.1f}, {100 * hi:.1f}]  elo {elo_of(score):+6.1f}  LLR {ratio:+.2f} ({lower:.2f}, {upper:.2f})",
              flush=True)
        if ratio >= upper:
            verdict = f"H1 accepted: {args.new} is at least {args.elo1:g} elo stronger"
            break
        if ratio <= lower:
            verdict = f"H0 accepted: {args.new} is not {args.elo1:g} elo stronger (at most {args.elo0:g})"
            break
    print(verdict)


if __name__ == "__main__":
    main()
