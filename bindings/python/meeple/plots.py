"""Pictures of tournament results (matplotlib, drawn off-screen)."""
from __future__ import annotations

from . import files


def plot_tournament(result, path) -> None:
    """Ratings with 95% intervals (mu +- 1.96 sigma) beside each bot's score distribution, to a PNG/SVG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result.standings()
    names = [r["bot"] for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 0.6 * len(names) + 2), sharey=True)
    y = list(range(len(names)))[::-1]
    left.errorbar([r["mu"] for r in rows], y, xerr=[1.96 * r["sigma"] for r in rows], fmt="o", capsize=4)
    left.set_xlabel("openskill rating (mu, 95% interval)")
    left.set_title(f"{len(result.games)} games")
    left.grid(axis="x", alpha=0.3)
    scores = {n: [] for n in names}
    for game in result.games:
        for name, score in zip(game.names, game.scores):
            scores[name].append(score)
    right.boxplot([scores[n] for n in names], positions=y, vert=False, widths=0.5)
    right.set_xlabel("final score")
    right.set_title("score distribution")
    right.grid(axis="x", alpha=0.3)
    left.set_yticks(y, names)  # after the boxplot, which sets its own ticks on the shared axis
    fig.tight_layout()
    files.save_figure(fig, path)
    plt.close(fig)
