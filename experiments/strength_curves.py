"""Strength against compute, per search family: each bot plays the one-ply `heuristic` player in paired
2-player base games (`meeple match`: every tile order from both seats), and its win rate with a Wilson
95% interval is plotted against its evaluator calls per decision (MCTS: one per simulation; expectimax:
measured by `meeple_ai_bench`, given here as the family's x value).

    .venv/bin/python experiments/strength_curves.py --out docs/strength
    .venv/bin/python experiments/strength_curves.py --games 20 --out runs/curves   # a quick look

Budgets are iterations or fixed depths, never time, so results do not depend on the machine's load.
Finished rows are kept in OUT/curves.csv and not played again: rerun to resume or to add bots.
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys

# (family, bot spec, evaluator calls per decision). MCTS: one call per simulation (finish=1 makes a few
# more per simulation: a placement's deploys; x is still the simulations). Expectimax's calls are the means measured by BM_Expectimax
# (bench/ai_bench.cpp) over placement positions of the base game.
OLD = "puct=0,chance=full,fpu=-1,finish=0"  # MCTS as it searched before issue 12
UCT = "MCTS UCT (puct=0: finish=1,chance=sample,fpu=0.1)"  # the default of issue 12's first step
GUIDED = "MCTS default: PUCT with the shipped policy networks"
BOTS = [
    ("MCTS before issue 12 (puct=0,chance=full,fpu=-1,finish=0)", f"mcts:iterations=1000,{OLD}", 1000),
    ("MCTS before issue 12 (puct=0,chance=full,fpu=-1,finish=0)", f"mcts:iterations=4000,{OLD}", 4000),
    ("MCTS before issue 12 (puct=0,chance=full,fpu=-1,finish=0)", f"mcts:iterations=16000,{OLD}", 16000),
    ("MCTS UCT chance=sample,fpu=0.1 (puct=0,finish=0)", "mcts:iterations=1000,puct=0,finish=0", 1000),
    ("MCTS UCT chance=sample,fpu=0.1 (puct=0,finish=0)", "mcts:iterations=4000,puct=0,finish=0", 4000),
    ("MCTS UCT chance=sample,fpu=0.1 (puct=0,finish=0)", "mcts:iterations=16000,puct=0,finish=0", 16000),
    (UCT, "mcts:iterations=1000,puct=0", 1000),
    (UCT, "mcts:iterations=4000,puct=0", 4000),
    (UCT, "mcts:iterations=16000,puct=0", 16000),
    (GUIDED, "mcts:iterations=1000", 1000),
    (GUIDED, "mcts:iterations=4000", 4000),
    (GUIDED, "mcts:iterations=16000", 16000),
    ("expectimax (Star2)", "expectimax:depth=1", 40),
    ("expectimax (Star2)", "expectimax:depth=2", 7760),
]
FIELDS = ["family", "bot", "evaluations", "games", "wins", "win", "low", "high", "margin"]


def play(meeple: str, bot: str, games: int, seed: int, jobs: int) -> dict:
    """One paired match against the heuristic player; the first bot's line of the table."""
    out = subprocess.run([meeple, "match", "--bots", bot, "heuristic", "--games", str(games), "--seed", str(seed),
                          "--jobs", str(jobs)], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith(bot + " "):
            numbers = re.findall(r"[-+]?\d+(?:\.\d+)?", line[len(bot):])
            games_, wins, win, low, high, _score, margin = numbers[:7]
            return {"games": int(games_), "wins": float(wins), "win": float(win), "low": float(low),
                    "high": float(high), "margin": float(margin)}
    raise RuntimeError(f"no result line for {bot} in:\n{out}")


def plot(rows: list[dict], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for k, family in enumerate(dict.fromkeys(r["family"] for r in rows)):
        own = sorted((r for r in rows if r["family"] == family), key=lambda r: float(r["evaluations"]))
        x = [float(r["evaluations"]) * 1.05 ** k for r in own]  # nudged apart so the intervals do not hide each other
        y = [float(r["win"]) for r in own]
        err = [[v - float(r["low"]) for v, r in zip(y, own)], [float(r["high"]) - v for v, r in zip(y, own)]]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=4, label=family)
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel("evaluator calls per decision (MCTS: simulations)")
    ax.set_ylabel("win % against heuristic (95% interval)")
    ax.set_title(f"2-player base game, {rows[0]['games']} paired games a point")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--meeple", default="build/bin/meeple", help="the meeple command line (Release build)")
    parser.add_argument("--games", type=int, default=100, help="games per point (even: seats are swapped)")
    parser.add_argument("--seed", type=int, default=500, help="seed of the first tile order")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", default="", help="play only bots whose spec contains this text")
    parser.add_argument("--out", default="runs/curves", help="folder for curves.csv and curves.png")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    table = os.path.join(args.out, "curves.csv")
    rows = list(csv.DictReader(open(table))) if os.path.exists(table) else []
    done = {(r["bot"], int(r["games"])) for r in rows}
    try:
        from tqdm import tqdm
    except ImportError:  # progress bars are a nicety
        def tqdm(items, **_):
            return items
    todo = [b for b in BOTS if args.only in b[1] and (b[1], args.games) not in done]
    for family, bot, evaluations in tqdm(todo, desc="matches", unit="match"):
        row = {"family": family, "bot": bot, "evaluations": evaluations, **play(args.meeple, bot, args.games, args.seed, args.jobs)}
        rows.append({k: str(v) for k, v in row.items()})
        with open(table + ".tmp", "w", newline="") as f:  # written whole, then renamed: never half a table
            writer = csv.DictWriter(f, fieldnames=FIELDS)
            writer.writeheader()
            writer.writerows(rows)
        os.replace(table + ".tmp", table)
    rank = {bot: i for i, (_, bot, _) in enumerate(BOTS)}
    shown = sorted((r for r in rows if int(r["games"]) == args.games), key=lambda r: rank.get(r["bot"], len(rank)))
    if not shown:
        print("no results yet", file=sys.stderr)
        return 1
    print("| family | bot | evaluator calls / decision | games | win % | 95% interval | mean margin |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in shown:
        print(f"| {r['family']} | `{r['bot']}` | {r['evaluations']} | {r['games']} | {float(r['win']):.1f}% | "
              f"{float(r['low']):.1f} - {float(r['high']):.1f}% | {float(r['margin']):+.2f} |")
    plot(shown, os.path.join(args.out, "curves.png"))
    print(f"plot: {os.path.join(args.out, 'curves.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
