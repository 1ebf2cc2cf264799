"""Tournaments: bots play each other with seats rotated over paired tile orders; every finished game is
written at once to a JSON Lines file of meeple-game/1 records, and a rerun with the same file resumes.

    result = meeple.tournament(["mcts:iterations=2000", "heuristic", "greedy", "random"], games=80,
                               players=2, seed=1, workers=2, out="runs/ladder/games.jsonl")
    print(result.table())

Schedule (the C++ one of `meeple match`, meeple.schedule). With N bots and K seats, every set of K bots
(itertools.combinations, in order) is a group; groups take turns, and each group plays K games on one tile
order (the seed), its bots rotated through the seats. Game g therefore has a fixed group, rotation and
seed, and the same call always plays the same games: a rerun skips the ones its file already holds (matched
by seed and seat order).
"""
from __future__ import annotations

import io
import itertools
import json
import os
from dataclasses import dataclass, field

from . import _meeple, cluster, files
from .checks import MAX_SEED, integer, shown
from .environment import make_rules


@dataclass(frozen=True)
class ScheduledGame:
    index: int
    bots: tuple  # bot per seat: a spec string, or a Player object
    seed: int

    def names(self) -> tuple:
        return tuple(bot_name(b) for b in self.bots)


MAX_GAMES = 1_000_000  # per call: the plan and the results are Python objects
MAX_WORKERS = 1024     # C++ threads


def check_bots(bots, what: str = "bots") -> list:
    """`bots` as a list, each a bot spec (made once here, so that a bad spec fails before anything is
    played or written) or a meeple.Player; TypeError or ValueError naming the bad one otherwise."""
    if isinstance(bots, (str, bytes)) or not hasattr(bots, "__iter__"):
        raise TypeError(f"{what} must be a list of bot specs or meeple.Player objects, got {shown(bots)}")
    bots = list(bots)
    for i, bot in enumerate(bots):
        if isinstance(bot, str):
            _meeple.make_player(bot, 0)  # ValueError naming the spec and what is wrong with it
        elif not isinstance(bot, _meeple.Player):
            raise TypeError(f"{what}[{i}] must be a bot spec (a string) or a meeple.Player, got {shown(bot)}")
    return bots


def bot_name(bot) -> str:
    return bot if isinstance(bot, str) else bot.name() if bot.name() != "python" else type(bot).__name__


def schedule(bots, games: int, players: int, seed: int) -> list[ScheduledGame]:
    names = [bot_name(b) for b in bots]
    if len(set(names)) != len(names):
        raise ValueError(f"bot names must differ (they name the players in records): {names}")
    return [ScheduledGame(g, tuple(bots[i] for i in seats), game_seed)
            for g, (seats, game_seed) in enumerate(_meeple.schedule(len(bots), games, players, seed))]


@dataclass
class GameResult:
    names: tuple
    scores: list
    seed: int


@dataclass
class TournamentResult:
    bots: list
    games: list = field(default_factory=list)  # GameResult, in schedule order

    def standings(self) -> list[dict]:
        """Per bot, best rated first: meeple.Standings' columns (games, wins with ties shared, win_rate and its
        Wilson interval, mean_score, mean_margin) and an openskill rating (mu, sigma, ordinal)."""
        return self._rated()[0]

    def _rated(self) -> tuple[list[dict], _meeple.Standings]:
        """(standings(), the meeple.Standings they come from, rows in the same order): the games counted once."""
        ratings = self.ratings()
        standings = _meeple.Standings(sorted(self.bots, key=lambda name: -ratings[name].ordinal()))
        for game in self.games:
            standings.add(list(game.names), list(game.scores))
        rows = [row | {"mu": ratings[row["bot"]].mu, "sigma": ratings[row["bot"]].sigma,
                       "ordinal": ratings[row["bot"]].ordinal()} for row in standings.rows()]
        return rows, standings

    def ratings(self) -> dict:
        """Bot name -> openskill (Plackett-Luce) rating over the games in order, ranks from scores (ties share a
        rank), one team per seat."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        ratings = {name: model.rating(name=name) for name in self.bots}
        for game in self.games:
            teams = [[ratings[n]] for n in game.names]
            ranks = [sorted(game.scores, reverse=True).index(s) + 1 for s in game.scores]
            for name, team in zip(game.names, model.rate(teams, ranks=ranks)):
                ratings[name] = team[0]
        return ratings

    def pairwise(self) -> dict:
        """(a, b) -> (games where both played, a's share of the head-to-heads: higher score wins, ties half)."""
        out = {}
        for game in self.games:
            for (na, sa), (nb, sb) in itertools.permutations(zip(game.names, game.scores), 2):
                n, w = out.get((na, nb), (0, 0.0))
                out[(na, nb)] = (n + 1, w + (1.0 if sa > sb else 0.5 if sa == sb else 0.0))
        return out

    def table(self) -> str:
        """meeple match's table (meeple.Standings), best rated first, with the rating (mu +- sigma) added."""
        rows, standings = self._rated()
        lines = standings.table().splitlines()
        lines[0] += f" {'rating':>7} {'+-':>5}"
        for i, row in enumerate(rows):
            lines[i + 1] += f" {row['mu']:>7.2f} {row['sigma']:>5.2f}"
        return "\n".join([f"{len(self.games)} games"] + lines)

    def write_csv(self, path) -> None:
        import csv

        rows = self.standings()
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
        files.write_atomic(path, text.getvalue(), newline="")


def read_finished(path, rules=None, bots=None) -> dict:
    """Finished games of a record file, by (seed, seat names), each checked before it is trusted: its
    actions must replay under the rules to the scores it states, and its draws must be the tile order of
    its seed (meeple.Dealer(seed)), so an edited score, action, seed or line is an error naming the line
    (see check_record). A game may appear once. A torn last line, left by a run killed while writing, is
    cut off so that appending starts on a fresh line. With `rules` and `bots` (names), a game played under
    other rules or by another bot is an error saying what differs: the file belongs to another tournament.
    (Games of other seeds are kept but not reported: a rerun may ask for fewer games.)"""
    done, lines = {}, {}
    if not path or not os.path.exists(path):
        return done
    expected = record_rules(rules) if rules is not None else None
    names = set(bots) if bots is not None else None
    complete = 0
    for number, line in files.read_lines(path, "record file (.jsonl)"):
        if not line.endswith(b"\n"):
            break
        complete += len(line)
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        record = files.loads(line, where)
        scores = check_record(line.decode(), record, where)
        key = (record["seed"], tuple(record["names"]))
        played = {"players": record["players"], "rules": record["rules"]}
        if expected is not None and played != expected:
            raise ValueError(f"{where} was played with rules {json.dumps(played)}, not this "
                             f"tournament's {json.dumps(expected)}; use another out file")
        if names is not None and not set(key[1]) <= names:
            raise ValueError(f"{where} is a game of {list(key[1])}, not of this tournament's bots "
                             f"{sorted(names)}; use another out file")
        if key in lines:
            raise ValueError(f"{where} is the game of line {lines[key]} again (seed {key[0]}, seats {list(key[1])}); "
                             "one of them was edited or written twice: remove one")
        lines[key] = number
        done[key] = scores
    if complete < os.path.getsize(path):
        os.truncate(path, complete)
    return done


def check_record(line: str, record, where: str) -> list:
    """The final scores of a finished tournament game's record (its text and its JSON), once its actions
    replay legally to the result it states and every draw is the one meeple.Dealer(seed) deals there, as
    in the tournament's own games; ValueError starting with `where` otherwise. (The seats' names cannot be
    checked this way: a game whose names were permuted into another seating of the same seed is caught only
    when that seating's own game is in the file too, as a repeat.)"""
    def refuse(why):
        raise ValueError(f"{where} {why}; use a new file or remove the line") from None

    if not isinstance(record, dict) or not isinstance(record.get("result"), dict) or "seed" not in record \
            or not isinstance(record.get("names"), list):
        refuse("is not a finished tournament record (meeple-game/1 with names, seed and result)")
    try:
        final = _meeple.replay(line)
    except ValueError as e:
        refuse(f"does not replay: {e}")
    if record["seed"] < 0:
        refuse(f"has seed {record['seed']}; a tournament's seeds are 0 or more")
    if not final.is_terminal:
        refuse("is not a finished game: its actions end before the game does")
    state, dealer = _meeple.State(final.rules), _meeple.Dealer(record["seed"])
    for i, recorded in enumerate(record["actions"]):
        if "draw" in recorded and not state.is_chance:
            state.apply(_meeple.Action.pass_())  # at the turn's start a draw stands for declining the abbey
        if state.is_chance:
            dealt = dealer.deal(state)
            if dealt.tile != recorded["draw"]:
                refuse(f"draws {recorded['draw']} at action {i}, where the tile order of its seed "
                       f"{record['seed']} deals {dealt.tile}")
            state.apply(dealt)
            continue
        action = recorded_action(state, recorded)
        if action is None:
            refuse(f"has action {i} {json.dumps(recorded)} in a form the tournament does not write")
        state.apply(action)
    return final.scores


def recorded_action(state, recorded: dict):
    """The legal action of `state` whose record form (meeple.action_json, without the seat) is `recorded`, or
    None. A placement is found from its cell and rotation; other decisions have few legal actions."""
    wanted = {k: v for k, v in recorded.items() if k != "p"}
    try:
        candidates = [_meeple.Action.place(*wanted["place"])] if "place" in wanted else state.legal_actions()
    except (TypeError, ValueError):
        return None
    for action in candidates:
        try:
            form = _meeple.action_json(state, action)
        except _meeple.RulesError:
            continue
        if form is not None and {k: v for k, v in form.items() if k != "p"} == wanted:
            return action
    return None


def record_rules(rules) -> dict:
    """The players and rules as a meeple-game/1 record writes them."""
    record = json.loads(_meeple.RecordBuilder(rules, [], 0).finish(_meeple.State(rules)))
    return {"players": record["players"], "rules": record["rules"]}


def tournament(bots, games: int = 100, players: int | None = None, expansions=(), options=None, seed: int = 1,
               workers: int = 1, out=None, progress: bool = True, backend: str = "local", address: str | None = None,
               batch: int = 4, rules=None) -> TournamentResult:
    """Plays the scheduled games not yet in `out` and returns the results of all of them.

    bots: bot specs ("mcts:iterations=2000", "greedy", ...) or meeple.Player objects (played in this
    process, one game at a time). rules: the game, a meeple.Rules or its text ("players=3 expansions=river2");
    players, expansions and options are shorthand for its words (environment.make_rules); seats per game
    default to one per bot unless the rules name them (a Rules always does). The standings (standings(),
    table(), write_csv's columns) are meeple.Standings' (as meeple match prints them) with an openskill rating.
    out: a .jsonl file that every finished game is appended to at once. workers: games played at once, in C++ threads.
    backend: "local", or "ray" to send batches of `batch` games as Ray tasks to the cluster at `address`
    (None: the one this process is connected to, or a new local one); each task plays its games in C++, and
    the same seeds give the same records as the local backend.
    """
    # Everything is checked before any file is made: a bad argument leaves nothing behind.
    cluster.check_backend(backend)
    bots = check_bots(bots)
    games = integer("games", games, 1, MAX_GAMES)
    rules = make_rules(players, expansions, options, rules=rules, default_players=len(bots))
    players = rules.players
    seed = integer("seed", seed, 0, MAX_SEED)
    workers = integer("workers", workers, 1, MAX_WORKERS)
    batch = integer("batch", batch, 1)
    out = None if out is None else os.fspath(out)
    plan = schedule(bots, games, players, seed)
    finished = read_finished(out, rules, [bot_name(b) for b in bots])
    todo = [g for g in plan if (g.seed, g.names()) not in finished]
    scores = {g.index: finished[(g.seed, g.names())] for g in plan if (g.seed, g.names()) in finished}

    if out and os.path.dirname(out):
        files.make_folder(os.path.dirname(out))
    sink = open(out, "a") if out else None
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(plan), initial=len(plan) - len(todo), unit="game", desc="tournament")

    def finish(game: ScheduledGame, game_scores, record):
        scores[game.index] = list(game_scores)
        if sink:
            sink.write(record + "\n")
            sink.flush()
        if bar:
            bar.update(1)

    try:
        native = [g for g in todo if all(isinstance(b, str) for b in g.bots)]
        if native and backend == "ray":
            play_on_ray(rules, native, batch, address, finish)
        elif native:
            _meeple.play_games(rules, [(list(g.bots), g.seed) for g in native], jobs=workers, records=True,
                               on_finished=lambda i, s, r: finish(native[i], s, r))
        for game in (g for g in todo if not all(isinstance(b, str) for b in g.bots)):
            finish(game, *play_in_python(rules, game))
    finally:
        if sink:
            sink.close()
        if bar:
            bar.close()
    result = TournamentResult([bot_name(b) for b in bots])
    result.games = [GameResult(g.names(), scores[g.index], g.seed) for g in plan]
    return result


def play_in_python(rules, game: ScheduledGame):
    """One game with Python-defined bots among the seats (C++ bots are made from their specs), played by the
    C++ game loop (meeple.play_seated), which checks every choice."""
    seats = [_meeple.make_player(b, _meeple.seat_seed(game.seed, p)) if isinstance(b, str) else b for p, b in enumerate(game.bots)]
    return _meeple.play_seated(rules, seats, list(game.names()), game.seed)


def _play_batch(rules_text: str, games: list) -> list:
    """A Ray task: a few games in C++, one after the other (the cluster spreads the tasks)."""
    from meeple import _meeple as native

    return native.play_games(native.Rules.parse(rules_text), games, jobs=1, records=True)


def play_on_ray(rules, games: list[ScheduledGame], batch: int, address, finish) -> None:
    batches = cluster.split(games, batch)

    def done(i, results):
        for game, (scores, record) in zip(batches[i], results):
            finish(game, scores, record)

    cluster.run_batches(_play_batch, [(str(rules), [(list(g.bots), g.seed) for g in b]) for b in batches], address, done)
