"""Tournaments: the schedule, records written as games finish, resuming, ratings, Python bots."""
import json

import pytest

import meeple
from conftest import interruptible
from meeple.tournament import GameResult, record_rules, schedule


def test_schedule_rotates_seats_over_paired_tile_orders():
    plan = schedule(["a", "b", "c"], games=12, players=2, seed=10)
    assert [(g.bots, g.seed) for g in plan[:6]] == [
        (("a", "b"), 10), (("b", "a"), 10), (("a", "c"), 11), (("c", "a"), 11), (("b", "c"), 12), (("c", "b"), 12)]
    assert plan[6].bots == ("a", "b") and plan[6].seed == 13
    with pytest.raises(ValueError, match="repeat a bot"):
        schedule(["a", "b"], games=4, players=3, seed=1)
    with pytest.raises(ValueError, match="names must differ"):
        schedule(["a", "a"], games=4, players=2, seed=1)


def test_records_are_written_as_games_finish_and_a_rerun_resumes(tmp_path):
    out = tmp_path / "run" / "games.jsonl"
    bots = ["greedy", "random", "mcts:iterations=20"]
    first = meeple.tournament(bots, games=12, players=2, seed=3, workers=2, out=str(out), progress=False)
    lines = out.read_text().splitlines()
    assert len(lines) == 12
    for line in lines:
        record = json.loads(line)
        assert meeple.replay(line).scores == record["result"]["scores"]
    # A killed run: the file lost its last games and ends with half a line.
    out.write_text("\n".join(lines[:5]) + "\n" + lines[5][: len(lines[5]) // 2])
    again = meeple.tournament(bots, games=12, players=2, seed=3, workers=2, out=str(out), progress=False)
    assert sorted(out.read_text().splitlines()) == sorted(lines)
    assert [g.scores for g in again.games] == [g.scores for g in first.games]
    # Nothing left to play: the file is unchanged.
    meeple.tournament(bots, games=12, players=2, seed=3, out=str(out), progress=False)
    assert len(out.read_text().splitlines()) == 12


def test_standings_ratings_and_csv(tmp_path):
    result = meeple.tournament(["greedy", "random"], games=20, players=2, seed=1, workers=2, progress=False)
    rows = result.standings()
    assert [r["bot"] for r in rows] == ["greedy", "random"]
    assert rows[0]["wins"] + rows[1]["wins"] == 20
    assert rows[0]["mu"] > rows[1]["mu"] and rows[0]["win_lo"] > 0.5
    games, share = result.pairwise()[("greedy", "random")]
    assert games == 20 and share == rows[0]["wins"]
    # One standings for every front end: the rows and table of meeple.Standings, as meeple match prints them.
    standings = meeple.Standings(["greedy", "random"])
    for game in result.games:
        standings.add(list(game.names), list(game.scores))
    assert [{k: r[k] for k in standings.rows()[0]} for r in rows] == standings.rows()
    margins = {name: sum(s[n.index(name)] - max(x for i, x in enumerate(s) if i != n.index(name))
                         for n, s in ((g.names, g.scores) for g in result.games)) / 20 for name in ("greedy", "random")}
    assert [r["mean_margin"] for r in rows] == pytest.approx([margins["greedy"], margins["random"]])
    table = result.table().splitlines()
    assert table[1].split()[:8] == ["bot", "games", "wins", "win%", "95%", "interval", "score", "margin"]
    assert table[1].endswith("rating    +-") and table[2].startswith("greedy ")
    assert table[2:] == [a + b[len(a):] for a, b in zip(standings.table().splitlines()[1:], table[2:])]
    result.write_csv(tmp_path / "results.csv")
    assert (tmp_path / "results.csv").read_text().startswith(
        "bot,games,wins,win_rate,win_lo,win_hi,mean_score,mean_margin,mu,sigma,ordinal")
    with pytest.raises(ValueError, match="a bot for each of its 1 to 6 scores"):
        standings.add(["greedy"], [1, 2])


class Stubborn(meeple.Player):
    def choose(self, state):
        return state.legal_actions()[-1]


def test_python_bots_play_in_tournaments(tmp_path):
    result = meeple.tournament([Stubborn(), "random", "greedy"], games=6, players=3, seed=2,
                               out=str(tmp_path / "g.jsonl"), progress=False)
    assert {g.names for g in result.games} >= {("Stubborn", "random", "greedy")}
    assert len((tmp_path / "g.jsonl").read_text().splitlines()) == 6


def test_an_exception_in_the_progress_callback_stops_the_batch():
    rules = meeple.Rules(players=2)
    seen = []

    def stop(index, scores, record):
        seen.append(index)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        meeple.play_games(rules, [(["random", "random"], s) for s in range(8)], jobs=2, on_finished=stop)
    assert len(seen) >= 1


def test_command_line_tournament_writes_records_csv_and_plot(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "ladder"
    run = subprocess.run([sys.executable, "-m", "meeple", "tournament", "--bots", "greedy", "random", "heuristic",
                          "--games", "6", "--players", "2", "--out", str(out), "--quiet"],
                         capture_output=True, text=True, check=True)
    assert "win%" in run.stdout and "heuristic" in run.stdout
    assert len((out / "games.jsonl").read_text().splitlines()) == 6
    assert (out / "results.csv").read_text().startswith("bot,")
    assert (out / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    bad = subprocess.run([sys.executable, "-m", "meeple", "tournament", "--bots", "greedy", "clever", "--out",
                          str(out / "bad")], capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown bot 'clever'" in bad.stderr


def test_rules_are_one_text_with_shorthand_flags(tmp_path):
    """--rules (or rules=) is Rules.parse's text; --players, --expansions and --option are shorthand for its
    words; seats default to one per bot everywhere."""
    from meeple.__main__ import main

    out = tmp_path / "t"
    assert main(["tournament", "--bots", "greedy", "random", "heuristic", "--games", "3", "--rules", "expansions=river2",
                 "--option", "small_city=two_points", "--out", str(out), "--quiet"]) == 0
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert {r["players"] for r in records} == {3}
    assert {json.dumps(r["rules"], sort_keys=True) for r in records} == {
        json.dumps(record_rules(meeple.Rules.parse("players=3 expansions=river2 small_city=two_points"))["rules"],
                   sort_keys=True)}
    assert main(["tournament", "--bots", "greedy", "random", "--rules", "players=2", "--players", "2", "--out",
                 str(tmp_path / "bad")]) == 2
    result = meeple.tournament(["greedy", "random"], games=2, rules="expansions=count", progress=False)
    assert [len(g.scores) for g in result.games] == [2, 2]
    with pytest.raises(ValueError, match="expansions given twice"):
        meeple.tournament(["greedy", "random"], games=2, rules="expansions=count", expansions=["river2"])
    with pytest.raises(ValueError, match="sprt plays two seats"):
        meeple.sprt("greedy", "random", rules="players=3")


def test_ray_backend_gives_the_records_of_the_local_one(tmp_path, ray_cluster):
    bots = ["greedy", "mcts:iterations=20", "random"]
    local = meeple.tournament(bots, games=6, players=3, seed=5, out=str(tmp_path / "local.jsonl"), progress=False)
    remote = meeple.tournament(bots, games=6, players=3, seed=5, out=str(tmp_path / "ray.jsonl"), progress=False,
                               backend="ray", batch=2)
    assert sorted((tmp_path / "ray.jsonl").read_text().splitlines()) == sorted((tmp_path / "local.jsonl").read_text().splitlines())
    assert [g.scores for g in remote.games] == [g.scores for g in local.games]
    with pytest.raises(ValueError, match="backend must be"):
        meeple.tournament(bots, games=3, players=3, backend="spark")


def test_ctrl_c_stops_a_tournament_promptly_and_keeps_every_finished_game(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "t"

    def command(games):
        return [sys.executable, "-m", "meeple", "tournament", "--bots", "mcts:iterations=300", "greedy", "--games",
                str(games), "--players", "2", "--workers", "2", "--quiet", "--out", str(out)]

    proc = subprocess.Popen(command(400), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=interruptible)
    games = out / "games.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not games.exists() or len(games.read_text().splitlines()) < 3):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    start = time.monotonic()
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - start < 10, "Ctrl-C took too long"
    assert proc.returncode == 130 and "rerun the same command to resume" in err
    kept = games.read_text().splitlines()
    assert 3 <= len(kept) < 400
    for line in kept:
        assert meeple.replay(line).is_terminal
    # Resuming plays only the rest.
    subprocess.run(command(len(kept) + 2), check=True, capture_output=True)
    assert games.read_text().splitlines()[: len(kept)] == kept


def test_statistics_are_the_cpp_ones_of_meeple_match():
    # One schedule, one win count and one interval for the CLI and Python (ai/match.h).
    assert [(seats, seed) for seats, seed in meeple.schedule(2, games=4, players=2, seed=5)] == [((0, 1), 5), ((1, 0), 5), ((0, 1), 6), ((1, 0), 6)]
    assert meeple.win_shares([9, 4, 9]) == [0.5, 0.0, 0.5]
    lo, hi = meeple.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    # Shared wins reach the standings: two bots that always tie have half a win each per game.
    result = meeple.TournamentResult(["a", "b"])
    result.games = [GameResult(("a", "b"), [10, 10], 1)] * 4
    rows = {row["bot"]: row for row in result.standings()}
    assert rows["a"]["wins"] == 2.0 and rows["b"]["win_rate"] == 0.5


def test_the_version_is_the_one_of_the_cmake_project():
    import importlib.metadata
    import re
    from pathlib import Path

    cmake = (Path(__file__).parents[2] / "CMakeLists.txt").read_text()
    assert meeple.__version__ == re.search(r"project\(meeple VERSION ([0-9.]+)", cmake).group(1)
    assert importlib.metadata.version("meeple") == meeple.__version__


def test_one_game_loop_for_cpp_and_python_players():
    """meeple.play_seated is the C++ match's game loop: with C++ bots it gives play_games' record, and a Python
    bot in two seats is told each action once."""
    from test_players import FirstLegal

    rules = meeple.Rules.parse("players=3 expansions=river2")
    specs = ["greedy", "mcts:iterations=20", "random"]
    seats = [meeple.make_player(spec, meeple.seat_seed(7, p)) for p, spec in enumerate(specs)]
    scores, record = meeple.play_seated(rules, seats, specs, 7)
    (expected,) = meeple.play_games(rules, [(specs, 7)], jobs=1, records=True)
    assert (list(scores), record) == (list(expected[0]), expected[1])
    me = FirstLegal()
    scores, record = meeple.play_seated(rules, [me, meeple.make_player("greedy"), me], ["first", "greedy", "first2"], 3)
    assert me.seen == len(json.loads(record)["actions"]) and len(scores) == 3
    with pytest.raises(ValueError, match="one name per player"):
        meeple.play_seated(rules, seats, specs[:2], 7)
