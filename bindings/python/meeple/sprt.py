"""Is one bot stronger than another? Seat-swapped head-to-head games with a sequential probability ratio test.

Games come in pairs (one tile order, seats swapped) and are played in batches until the log-likelihood
ratio of H1 (new is elo1 stronger) against H0 (elo0) crosses a bound set by alpha and beta: the normal
approximation to the trinomial GSPRT that chess engine testing uses. Records go to `out`, so a stopped test
resumes where it was.

    result = meeple.sprt("mcts:iterations=4000", "mcts:iterations=2000", elo0=0, elo1=40, out="runs/sprt.jsonl")
    print(result.verdict)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .checks import integer, real_number
from .environment import make_rules
from ._meeple import wilson
from .tournament import bot_name, tournament


def expected_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    """The Elo difference that gives this expected score (clamped away from 0 and 1)."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of elo1 against elo0 for these results (normal approximation)."""
    n = wins + draws + losses
    if n == 0:
        return 0.0
    score = (wins + draws / 2) / n
    # One-sided results (all wins) have no spread: floor the variance at that of one draw among the games.
    var = max((wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n, 0.25 / n)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * score - s0 - s1) / (2 * var)


@dataclass
class SprtResult:
    new: str
    old: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    llr: float = 0.0
    lower: float = 0.0
    upper: float = 0.0
    accepted: str = ""  # "H1" (new is stronger by elo1), "H0" (it is not), or "" (no decision yet)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / max(self.games, 1)

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the score."""
        return wilson(self.wins + self.draws / 2, self.games)

    @property
    def elo(self) -> float:
        return elo_of(self.score)

    @property
    def verdict(self) -> str:
        return {"H1": f"H1 accepted: {self.new} is stronger than {self.old}",
                "H0": f"H0 accepted: {self.new} is not stronger than {self.old}"}.get(self.accepted, "no decision")

    def line(self) -> str:
        lo, hi = self.interval
        return (f"{self.games:6d} games  W {self.wins} D {self.draws} L {self.losses}  score {100 * self.score:5.1f}% "
                f"[{100 * lo:.1f}, {100 * hi:.1f}]  elo {self.elo:+6.1f}  LLR {self.llr:+.2f} "
                f"({self.lower:.2f}, {self.upper:.2f})")


def sprt(new, old, *, elo0: float = 0.0, elo1: float = 30.0, alpha: float = 0.05, beta: float = 0.05,
         batch_pairs: int = 20, max_pairs: int = 2000, expansions=(), options=None, seed: int = 1,
         workers: int = 1, out=None, report=None, rules=None) -> SprtResult:
    """Plays `new` against `old` (bot specs or Players, two seats) in seat-swapped pairs until the test
    decides or `max_pairs` pairs are played. report(result) is called after each batch. rules: a 2-player
    meeple.Rules or its text; expansions and options are shorthand for its words."""
    rules = make_rules(None, expansions, options, rules=rules)
    if rules.players != 2:
        raise ValueError(f"sprt plays two seats, but the rules say players={rules.players} "
                         "(environment.with_players(rules, 2) keeps the rest)")
    if not real_number("elo1", elo1) > real_number("elo0", elo0):
        raise ValueError(f"elo1 ({elo1}) must be greater than elo0 ({elo0})")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if real_number(name, value, 0, 1) in (0, 1):  # log(0) in the bounds
            raise ValueError(f"{name} must be a probability strictly between 0 and 1, got {value}")
    batch_pairs = integer("batch_pairs", batch_pairs, 1)  # 0 would never end
    max_pairs = integer("max_pairs", max_pairs, 1)
    result = SprtResult(bot_name(new), bot_name(old), lower=math.log(beta / (1 - alpha)), upper=math.log((1 - beta) / alpha))
    pairs = 0
    while pairs < max_pairs and not result.accepted:
        pairs = min(max_pairs, pairs + batch_pairs)
        games = tournament([new, old], games=2 * pairs, rules=rules, seed=seed, workers=workers, out=out, progress=False).games
        result.wins = result.draws = result.losses = 0
        for game in games:
            mine, theirs = game.scores[game.names.index(result.new)], game.scores[game.names.index(result.old)]
            result.wins += mine > theirs
            result.draws += mine == theirs
            result.losses += mine < theirs
        result.llr = llr(result.wins, result.draws, result.losses, elo0, elo1)
        result.accepted = "H1" if result.llr >= result.upper else "H0" if result.llr <= result.lower else ""
        if report:
            report(result)
    return result
