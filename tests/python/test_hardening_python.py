"""Bad input to the pure-Python package (issue 27), each class over generated cases: files that are not
regular files or never end, records edited before a tournament resumes, action ids that are not integers,
numbers and command lines that are wrong, and the files a run writes (valid JSON, written whole)."""
import base64
import contextlib
import decimal
import fractions
import json
import os
import pickle
import random
import signal
import subprocess
import sys

import numpy as np
import pyspiel
import pytest

import meeple
import meeple.openspiel
from meeple import files, policy, training
from meeple.__main__ import main
from meeple.checks import shown
from meeple.gymnasium import CarcassonneEnv
from meeple.pettingzoo import env as aec_env

BOTS = ["greedy", "random", "heuristic"]
RICH = ["river2", "king_robber", "abbey_mayor"]  # passes, abbeys and robbers in the records


@contextlib.contextmanager
def deadline(seconds: int = 60):
    """A watchdog: a read that never ends (a FIFO, /dev/zero) fails the test instead of hanging it."""
    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: a read that never ends?")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def strict_json(text):
    """json.loads that refuses NaN and infinities, as the C++ loaders and every other JSON reader do."""
    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")
    return json.loads(text, parse_constant=refuse)


def run_cli(capsys, argv) -> tuple[int, str]:
    """(exit code, stderr) of python -m meeple ARGV run in this process."""
    try:
        code = main(argv)
    except SystemExit as e:  # argparse
        code = e.code
    return code, capsys.readouterr().err


def assert_one_clear_line(code, err, *expected):
    assert code == 2, err
    assert "Traceback" not in err and err.strip() and "\n" not in err.strip(), err
    for text in expected:
        assert text in err, err


# --- Inputs that never end (class 4) ---------------------------------------------------------------------

@pytest.fixture
def bad_paths(tmp_path):
    """Paths where a file is expected, by what they name: each is refused (ValueError: not a regular
    file; OSError: nothing there) without reading forever or blocking."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "folder").mkdir()
    (tmp_path / "a-file").write_text("x\n")
    return {"directory": (str(tmp_path / "folder"), ValueError, "is a directory, not a regular file"),
            "/dev/zero": ("/dev/zero", ValueError, "is a device, not a regular file"),
            "/dev/null": ("/dev/null", ValueError, "is a device, not a regular file"),
            "FIFO": (str(fifo), ValueError, "is a FIFO, not a regular file"),
            "missing": (str(tmp_path / "missing.json"), FileNotFoundError, "No such file"),
            "under a file": (str(tmp_path / "a-file" / "x.json"), NotADirectoryError, "Not a directory")}


def readers(tmp_path):
    """Every place the package reads a file a user names, as (name, function of the path)."""
    return [
        ("tournament resume", lambda p: meeple.tournament(BOTS[:2], games=2, out=p, progress=False)),
        ("record lines", lambda p: list(files.read_lines(p))),
        ("weight file", training.read_model),
        ("training start", lambda p: training.train(str(tmp_path / "train"), start=p, generations=1, games=1,
                                                    progress=False)),
        ("policy file", policy.PolicyModel.load),
        ("numpy chunk", training.open_chunk),
        ("training log", training.read_log),
        ("policy data", policy.read_data),
    ]


def test_every_reader_refuses_what_is_not_a_regular_file(tmp_path, bad_paths):
    for name, read in readers(tmp_path):
        for kind, (path, error, message) in bad_paths.items():
            if kind in ("missing", "under a file") and name == "training log":
                continue  # a file to come, in the folder train() made
            if kind == "missing" and name == "tournament resume":
                continue  # a file to come: the run makes it
            named = path
            if kind == "under a file" and name == "tournament resume":  # its folder cannot be made
                error, message, named = ValueError, "is a file, not a folder", os.path.dirname(path)
            with deadline(), pytest.raises(error, match=message) as caught:
                read(path)
            assert named in str(caught.value) or getattr(caught.value, "filename", None) == named, (name, kind)
    assert not (tmp_path / "train").exists()  # the start file is checked before the folder is made


def test_every_command_refuses_what_is_not_a_regular_file(tmp_path, bad_paths, capsys):
    for command in (["replay"], ["render", "--out", str(tmp_path / "b.svg")], ["view", "--out", str(tmp_path / "g.html")],
                    ["train", "--out", str(tmp_path / "t"), "--start"]):
        for kind, (path, _, message) in bad_paths.items():
            with deadline():
                code, err = run_cli(capsys, command + [path])
            assert_one_clear_line(code, err, message)
    assert not (tmp_path / "b.svg").exists() and not (tmp_path / "g.html").exists() and not (tmp_path / "t").exists()


def test_lines_and_weight_files_are_read_with_limits(tmp_path, monkeypatch, capsys):
    out = tmp_path / "games.jsonl"
    meeple.tournament(BOTS[:2], games=2, out=str(out), progress=False)
    good = out.read_bytes()
    monkeypatch.setattr(files, "MAX_LINE", 100_000)
    for tail in (b"\0" * 300_000, b"x" * 300_000 + b"\n", b" " * 100_001 + b"\n", b"[" * 200_000):
        out.write_bytes(good + tail)
        with pytest.raises(ValueError, match=r"line 3 is longer than 100000 bytes"):
            meeple.tournament(BOTS[:2], games=2, out=str(out), progress=False)
        assert out.read_bytes() == good + tail  # nothing cut on an error
        assert_one_clear_line(*run_cli(capsys, ["replay", str(out)]), "line 3 is longer than 100000 bytes")
    weights = tmp_path / "w.json"
    weights.write_text(training.weights_json(np.ones(len(training.FEATURES)), meeple.Rules(), "w"))
    training.read_model(weights)
    monkeypatch.setattr(files, "MAX_JSON", weights.stat().st_size - 1)
    with pytest.raises(ValueError, match="more than a weight file"):
        training.read_model(weights)


def nested(depth: int, inner="1") -> str:
    return "[" * depth + inner + "]" * depth


def test_deeply_nested_records_are_refused_with_the_line(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    meeple.tournament(BOTS[:2], games=2, out=str(out), progress=False)
    good = out.read_text().splitlines()
    record = json.loads(good[1])
    for field in ("seed", "players", "names", "result", "actions", "rules", "format"):
        for depth in (100_000, 5_000):
            text = json.dumps(record | {field: "HOLE"}).replace('"HOLE"', nested(depth))
            out.write_text(good[0] + "\n" + text + "\n")
            with pytest.raises(ValueError, match="line 2") as caught:
                meeple.tournament(BOTS[:2], games=2, out=str(out), progress=False)
            assert len(str(caught.value)) < 2000  # the message does not quote the value
            code, err = run_cli(capsys, ["replay", str(out)])
            assert code == 2 and "line 2:" in err and "Traceback" not in err and len(err) < 2000
            assert_one_clear_line(*run_cli(capsys, ["view", str(out), "--game", "2", "--out", str(tmp_path / "g.html")]),
                                  "game 2")
    with pytest.raises(ValueError, match="nested too deeply"):
        files.loads(nested(100_000), "x")


# --- Resume trusts what it reads (class 6) ---------------------------------------------------------------

def corruptions(lines: list[str], rng: random.Random, tiles: list[str]):
    """(description, index of the line changed, new lines) for edits of a tournament's records."""
    n = rng.randrange(len(lines))
    record = json.loads(lines[n])

    def edited(change):
        r = json.loads(lines[n])
        change(r)
        return lines[:n] + [json.dumps(r)] + lines[n + 1:]

    def score(r):
        r["result"]["scores"][rng.randrange(len(r["result"]["scores"]))] += rng.choice([-100, -7, -1, 1, 2, 50])

    def swap_scores(r):
        r["result"]["scores"].reverse()

    def winner(r):  # the loser gets the winner's score plus one
        s = r["result"]["scores"]
        s[s.index(min(s))] = max(s) + 1

    def action_index(r, key):
        found = [i for i, a in enumerate(r["actions"]) if key in a and a[key] is not None]
        return rng.choice(found) if found else None

    def place(r):
        i = action_index(r, "place")
        x, y, rot = r["actions"][i]["place"]
        r["actions"][i]["place"] = rng.choice([[x + 1, y, rot], [x, y - 1, rot], [x, y, (rot + 90) % 360]])

    def deploy(r):
        i = action_index(r, "deploy")
        if i is None:
            r["actions"].append({"deploy": None, "p": 0})
        else:
            r["actions"][i]["deploy"]["at"] = rng.choice(["N", "NL", "E", "C", "SR", "W", "XX"])

    def draw(r):
        i = action_index(r, "draw")
        r["actions"][i]["draw"] = rng.choice([t for t in tiles if t != r["actions"][i]["draw"]])

    def drop_action(r):
        del r["actions"][rng.randrange(len(r["actions"]))]

    def repeat_action(r):
        i = rng.randrange(len(r["actions"]))
        r["actions"].insert(i, r["actions"][i])

    def swap_actions(r):
        i = rng.randrange(len(r["actions"]) - 1)
        r["actions"][i], r["actions"][i + 1] = r["actions"][i + 1], r["actions"][i]

    def seat(r):
        i = action_index(r, "p") or 1
        r["actions"][i]["p"] = 1 - r["actions"][i]["p"]

    def seed(r):
        r["seed"] = rng.choice([r["seed"] + 1, r["seed"] - 1, r["seed"] + 2, 0, 2**40, -r["seed"], -2**63, 2**63,
                                r["seed"] + 0.5, str(r["seed"]), None])

    def swap_names(r):
        r["names"].reverse()

    def other_bot(r):
        r["names"][rng.randrange(2)] = rng.choice(["mcts:iterations=5", "heuristic", "greedy", "random"])

    def rules(r):
        r["rules"] = rng.choice([{}, {"expansions": ["river2"]}, {"expansions": RICH + ["count"]}])

    def players(r):
        r["players"] = 3

    def no_result(r):
        del r["result"]

    def cut_actions(r):
        r["actions"] = r["actions"][: rng.randrange(len(r["actions"]))]

    changes = [score, swap_scores, winner, place, deploy, draw, drop_action, repeat_action, swap_actions, seat, seed,
               swap_names, other_bot, rules, players, no_result, cut_actions]
    change = rng.choice(changes + ["truncate", "repeat line", "garbage"])
    if change == "truncate":
        cut = lines[n][: rng.randrange(1, len(lines[n]))]
        return "truncate", n, lines[:n] + [cut] + lines[n + 1:]
    if change == "repeat line":
        return "repeat line", n, lines[:n + 1] + [lines[n]] + lines[n + 1:]
    if change == "garbage":
        return "garbage", n, lines[:n] + [rng.choice(["{", "[]", "null", '{"format": 1}', "\x00", "é" * 3])] + lines[n:]
    return change.__name__, n, edited(change)


def test_an_edited_record_is_refused_naming_its_line_or_changes_nothing(tmp_path):
    out = tmp_path / "games.jsonl"
    settings = dict(games=12, players=2, seed=3, expansions=RICH, workers=2, progress=False)
    original = meeple.tournament(BOTS, out=str(out), **settings)
    lines = out.read_text().splitlines()
    truth = [g.scores for g in original.games]
    rng, refused, seen = random.Random(27), 0, set()
    for case in range(300):
        what, n, changed = corruptions(lines, rng, meeple.tile_ids())
        seen.add(what)
        text = "\n".join(changed) + "\n"
        out.write_text(text)
        try:
            result = meeple.tournament(BOTS, out=str(out), **settings)
        except ValueError as e:
            refused += 1
            numbers = {n + 1, n + 2} if what in ("repeat line", "garbage") else {n + 1}
            assert any(f"line {k} " in str(e) or f"line {k}:" in str(e) for k in numbers), (case, what, str(e))
            assert out.read_text() == text, (case, what)  # the file is left as it was
            continue
        # Accepted: only an edit that changes no game's result (an unscheduled seed or seating, which is
        # played again; a torn last line, cut off and played again).
        assert [g.scores for g in result.games] == truth, (case, what)
    assert refused > 200 and len(seen) == 20


def test_a_repeated_seating_is_refused_and_a_torn_last_line_is_played_again(tmp_path):
    out = tmp_path / "games.jsonl"
    first = meeple.tournament(BOTS[:2], games=4, seed=5, out=str(out), progress=False)
    lines = out.read_text().splitlines()
    swapped = json.loads(lines[0])
    swapped["names"].reverse()  # now the seating of line 2, which is in the file
    out.write_text("\n".join([json.dumps(swapped)] + lines[1:]) + "\n")
    with pytest.raises(ValueError, match=r"line 2 is the game of line 1 again"):
        meeple.tournament(BOTS[:2], games=4, seed=5, out=str(out), progress=False)
    for seed in (-5, -2**63, 2**63, 5.5, "5", None, [5], 6):  # 6: the tile order of another game
        changed = json.loads(lines[0]) | {"seed": seed}
        out.write_text("\n".join([json.dumps(changed)] + lines[1:]) + "\n")
        with pytest.raises(ValueError, match=r"line 1 (has seed|does not replay|draws)"):
            meeple.tournament(BOTS[:2], games=4, seed=5, out=str(out), progress=False)
    out.write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])
    again = meeple.tournament(BOTS[:2], games=4, seed=5, out=str(out), progress=False)
    assert [g.scores for g in again.games] == [g.scores for g in first.games]
    assert sorted(out.read_text().splitlines()) == sorted(lines)


# --- Environments (class 7) ------------------------------------------------------------------------------

def not_ids(legal: int, size: int) -> list:
    """Values that are not action ids, around a legal id: none may be taken as one."""
    floats = [legal + f for f in (0.0, 0.1, 0.5, 0.9)]
    return (floats + [np.float32(x) for x in floats] + [np.float64(x) for x in floats]
            + [str(legal), f"{legal}.0", b"1", True, False, np.bool_(True), None, [legal], (legal,), {legal},
               np.array([legal]), np.array(float(legal)), np.array([[legal]]), complex(legal, 0),
               decimal.Decimal(legal), fractions.Fraction(legal), -1, -legal - 1, -size, size, size + legal, 2**63,
               2**64 + legal, np.int64(-1), np.int16(-legal - 1), np.uint64(2**64 - 1)])


def ids_of(legal: int) -> list:
    """What is an id: Python and numpy integers, and arrays of no dimensions."""
    return [legal, np.int32(legal), np.int64(legal), np.uint16(legal), np.uint64(legal), np.array(legal),
            np.array(legal, dtype=np.int16)]


def assert_names_the_value(error, value):
    assert "action id" in str(error) or "outcome" in str(error), str(error)
    assert shown(value) in str(error) or str(int(value)) in str(error), (str(error), value)


def test_gymnasium_takes_only_integer_ids_whatever_illegal_action_says():
    for mode in ("lose", "raise"):
        env = CarcassonneEnv(opponents=["greedy"], illegal_action=mode)
        observation, _ = env.reset(seed=3)
        legal = int(np.flatnonzero(observation["action_mask"])[-1])
        before = env.unwrapped.position.copy()
        for value in not_ids(legal, meeple.NUM_ACTION_IDS):
            with pytest.raises((TypeError, ValueError)) as caught:
                env.step(value)
            assert_names_the_value(caught.value, value)
            assert env.unwrapped.position == before and not env.unwrapped.over
        results = []
        for value in ids_of(legal):
            env.reset(seed=3)
            results.append(env.step(value)[0]["observation"])
        assert all(np.array_equal(r, results[0]) for r in results)


def test_pettingzoo_takes_only_integer_ids():
    game = aec_env(players=3, expansions=RICH)
    game.reset(seed=5)
    for step in range(30):
        agent = game.agent_selection
        mask = game.observe(agent)["action_mask"]
        legal = int(np.flatnonzero(mask)[step % int(mask.sum())])
        before = game.position.copy()
        for value in not_ids(legal, meeple.NUM_ACTION_IDS):
            with pytest.raises((TypeError, ValueError)) as caught:
                game.step(value)
            assert_names_the_value(caught.value, value)
            assert game.position == before and game.agent_selection == agent
        game.step(ids_of(legal)[step % 7])


def test_openspiel_takes_only_integer_ids_and_outcomes_in_range():
    game = pyspiel.load_game("meeple_carcassonne", {"players": 2, "expansions": "river2+abbey_mayor"})
    state, rng = game.new_initial_state(), random.Random(7)
    tiles = len(meeple.tile_ids())
    for step in range(60):
        history = state.history()
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            for value in [-k for k in range(1, tiles + 3)] + [tiles, tiles + 5, 2**40]:
                # Python would index the tile list from the end; pyspiel itself refuses -1 (kInvalidAction).
                with pytest.raises((ValueError, pyspiel.SpielError)) as caught:
                    state.apply_action(value)
                if value != -1:
                    assert "chance outcome must be 0 to" in str(caught.value) and str(value) in str(caught.value)
                assert state.history() == history
            state.apply_action(rng.choice(outcomes))
        else:
            legal = state.legal_actions()
            for value in [-2, -legal[-1] - 2, meeple.NUM_ACTION_IDS, meeple.NUM_ACTION_IDS + legal[0]]:
                with pytest.raises(ValueError, match=f"action id must be 0 to {meeple.NUM_ACTION_IDS - 1}, got {value}"):
                    state.apply_action(value)
                assert state.history() == history
            for value in (legal[0] + 0.5, str(legal[0]), None):  # pyspiel's own binding takes only integers
                with pytest.raises(TypeError):
                    state.apply_action(value)
            state.apply_action(rng.choice(legal))


def random_history(game, rng, stop: float):
    state = game.new_initial_state()
    while not state.is_terminal() and rng.random() > stop:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiel_states_serialize_as_plain_data_and_round_trip():
    rng = random.Random(11)
    for g in range(16):
        params = {"players": 2 + g % 3, "expansions": ["", "river2", "river2+king_robber", "abbey_mayor+count"][g % 4]}
        game = pyspiel.load_game("meeple_carcassonne", params)
        state = random_history(game, rng, stop=[0.0, 0.004, 0.01, 0.05][g % 4])
        text = state.serialize()
        assert json.loads(text) == {"format": meeple.openspiel.SERIALIZED_FORMAT, "history": state.history()}
        twin = game.deserialize_state(text)
        assert twin.history() == state.history() and str(twin) == str(state)
        assert twin.meeple_state == state.meeple_state and twin.is_terminal() == state.is_terminal()
        while not state.is_terminal():  # both play on alike
            action = rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions())
            state.apply_action(action)
            twin.apply_action(action)
        assert twin.returns() == state.returns() and twin.meeple_state == state.meeple_state


class Payload:
    """What a crafted pickle runs when it is loaded."""

    def __reduce__(self):
        return print, ("PAYLOAD RAN",)


def test_loading_a_serialized_state_runs_nothing(capfd):
    game = pyspiel.load_game("meeple_carcassonne")
    blob = pickle.dumps({"meeple_state": Payload()})
    finished = random_history(game, random.Random(2), stop=0.0).serialize()
    crafted = [
        "history=\nmove_number=0\n__dict__=" + base64.b64encode(blob).decode(),  # OpenSpiel's own form
        blob.decode("latin-1"), base64.b64encode(blob).decode(), pickle.dumps(Payload(), protocol=0).decode("latin-1"),
        "", "{}", "[]", "null", '{"format": "meeple-openspiel-history/1"}', '{"format": "x", "history": []}',
        '{"format": "meeple-openspiel-history/1", "history": [0.5]}',
        '{"format": "meeple-openspiel-history/1", "history": ["1"]}',
        '{"format": "meeple-openspiel-history/1", "history": [-1]}',
        '{"format": "meeple-openspiel-history/1", "history": [100000]}',
        '{"format": "meeple-openspiel-history/1", "history": [true]}',
        finished[:-2] + ", 0]}",  # an action after the end
        nested(100_000), b"history=", None, 5]
    for text in crafted:
        with pytest.raises((TypeError, ValueError)):
            game.deserialize_state(text)
    assert "PAYLOAD RAN" not in capfd.readouterr().out


def test_gymnasium_opponents_may_be_players_and_a_bad_choice_names_the_bot():
    from test_players import FirstLegal  # the Python bot the player tests use

    me = FirstLegal()
    env = CarcassonneEnv(opponents=[me, meeple.make_player("greedy", 1), me], seat=None)
    for episode in range(3):
        observation, info = env.reset(seed=episode)
        over, seen = False, me.seen
        while not over:  # (the first legal action again and again may stretch the board out of the window: truncated)
            observation, reward, terminated, truncated, info = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
            over = terminated or truncated
        assert me.seen > seen and len(info["scores"]) == 4
    assert env.unwrapped.bots.count(me) == 2  # the very object, in two seats (told each action once)

    class Returns(meeple.Player):
        def __init__(self, value):
            super().__init__()
            self.value = value

        def choose(self, state):
            return self.value(state)

    wrong = [lambda s: 3, lambda s: None, lambda s: s.legal_actions(), lambda s: str(s.legal_actions()[0]),
             lambda s: s.legal_actions()[0].bits]
    for value in wrong:
        env = CarcassonneEnv(opponents=[Returns(value)], seat=1)
        with pytest.raises(TypeError, match=r"bot Returns at seat 0 returned .* not a meeple\.Action"):
            env.reset(seed=1)
        with pytest.raises(RuntimeError, match="call reset"):  # not the learner's turn: no step is taken
            env.step(0)
        with pytest.raises(TypeError, match=r"bot Returns at seat \d returned"):
            meeple.tournament([Returns(value), "greedy"], games=2, progress=False)
    illegal = Returns(lambda s: meeple.Action.place(100, 100, 0) if s.phase == "place" else s.legal_actions()[0])
    with pytest.raises(meeple.RulesError, match=r"bot Returns at seat \d chose"):
        meeple.tournament([illegal, "greedy"], games=2, progress=False)
    for opponents in ([3], [None], "", [b"greedy"], ["nosuchbot"]):
        with pytest.raises((TypeError, ValueError), match="opponents|unknown bot"):
            CarcassonneEnv(opponents=opponents)


# --- Numbers and command lines (class 8) -----------------------------------------------------------------

def test_tournament_refuses_bad_numbers_and_bots_before_making_any_file(tmp_path):
    out = tmp_path / "new" / "games.jsonl"
    good = dict(bots=BOTS[:2], games=2, players=2, seed=1, workers=1, batch=4)
    bad = {"games": [0, -1, 2.0, "4", None, True, 10**7], "workers": [0, -1, 1.5, "2", True, None, 10**6],
           "seed": [-1, 2**63, 1.0, "1"], "batch": [0, -3, 2.5], "players": [0, 1, 7, "2", 2.0],
           "bots": ["greedy", b"greedy", None, 3, [3], ["nosuchbot"], ["greedy", "mcts:iterations=x"], [],
                    ["greedy", None]]}
    for name, values in bad.items():
        for value in values:
            with pytest.raises((TypeError, ValueError)) as caught:
                meeple.tournament(**(good | {name: value}), out=str(out), progress=False)
            assert name.rstrip("s") in str(caught.value) or "unknown bot" in str(caught.value) \
                or "players" in str(caught.value) or "bad value" in str(caught.value), (name, value, str(caught.value))
            assert not (tmp_path / "new").exists(), (name, value)
    for bad_rules in (dict(expansions=["nosuch"]), dict(options={"nosuch": "x"}), dict(backend="slurm")):
        with pytest.raises(ValueError):
            meeple.tournament(**good, **bad_rules, out=str(out), progress=False)
        assert not (tmp_path / "new").exists()


def command_lines(tmp_path) -> list:
    """(argv, text the one-line error must hold) for every subcommand, with bad arguments."""
    record_file = tmp_path / "games.jsonl"
    meeple.tournament(BOTS[:2], games=2, out=str(record_file), progress=False)
    a_file = str(record_file)
    not_json, not_utf8 = tmp_path / "not.json", tmp_path / "latin1.jsonl"
    not_json.write_text("hello\n")
    not_utf8.write_bytes(b'{"format": "meeple-game/1", "names": ["\xe9"]}\n')
    out = str(tmp_path / "out")
    cases = []
    for games in ("0", "-1", "x", "1.5", "10000000"):
        cases.append((["tournament", "--bots", "greedy", "random", "--games", games, "--out", out], "--games"))
    for workers in ("0", "-2", "abc"):
        cases.append((["tournament", "--bots", "greedy", "random", "--workers", workers, "--out", out], "--workers"))
    cases += [
        (["tournament", "--bots", "nosuchbot", "random", "--games", "2", "--out", out], "unknown bot 'nosuchbot'"),
        (["tournament", "--bots", "greedy", "mcts:iterations=-5", "--games", "2", "--out", out], "iterations"),
        (["tournament", "--bots", "greedy", "random", "--seed", "-1", "--out", out], "--seed"),
        (["tournament", "--bots", "greedy", "random", "--players", "7", "--out", out], "--players"),
        (["tournament", "--bots", "greedy", "random", "--expansions", "nosuch", "--out", out], "nosuch"),
        (["tournament", "--bots", "greedy", "random", "--option", "nosuch=1", "--out", out], "nosuch"),
        (["tournament", "--bots", "greedy", "random", "--option", "novalue", "--out", out], "novalue"),
        (["tournament", "--bots", "greedy", "random", "--batch", "0", "--out", out], "--batch"),
        (["tournament", "--bots", "greedy", "random", "--games", "2", "--out", a_file], "is a file, not a folder"),
        (["tournament", "--bots", "greedy", "random", "--games", "2", "--out", "/dev/null"], "not a folder"),
        (["train", "--games", "0", "--out", out], "--games"),
        (["train", "--generations", "-1", "--out", out], "--generations"),
        (["train", "--alpha", "nan", "--out", out], "--alpha"),
        (["train", "--lam", "2", "--out", out], "--lam"),
        (["train", "--elo1", "inf", "--out", out], "--elo1"),
        (["train", "--elo0", "30", "--elo1", "10", "--out", out], "elo1"),
        (["train", "--hidden", "0", "--method", "mlp", "--out", out], "--hidden"),
        (["train", "--freeze", "nosuch", "--out", out], "nosuch"),
        (["train", "--selfplay-bot", "greedy", "--out", out], "{weights}"),
        (["train", "--start", str(not_json), "--out", out], "not.json"),
        (["train", "--out", a_file, "--games", "1"], "is a file, not a folder"),
        (["train-policy", "--games", "0", "--out", out], "--games"),
        (["train-policy", "--epochs", "0", "--out", out], "--epochs"),
        (["train-policy", "--lr", "nan", "--out", out], "--lr"),
        (["train-policy", "--hidden", "1000", "--out", out], "--hidden"),
        (["train-policy", "--bot", "nosuchbot", "--games", "1", "--out", out], "unknown bot"),
        (["train-policy", "--games", "1", "--out", a_file], "is a file, not a folder"),
        (["replay", str(not_json)], "not.json: not valid JSON"),
        (["replay", str(not_utf8)], "not UTF-8"),
        (["render", a_file, "--game", "3", "--out", str(tmp_path / "b.svg")], "has 2 games"),
        (["render", a_file, "--game", "0", "--out", str(tmp_path / "b.svg")], "--game"),
        (["render", a_file, "--actions", "-1", "--out", str(tmp_path / "b.svg")], "--actions"),
        (["render", a_file, "--out", str(tmp_path)], "Is a directory"),
        (["render", str(not_json), "--out", str(tmp_path / "b.svg")], "not valid JSON"),
        (["view", a_file, "--game", "9", "--out", str(tmp_path / "g.html")], "has 2 games"),
        (["view", str(not_utf8), "--out", str(tmp_path / "g.html")], "not UTF-8"),
        (["play", "--port", "70000", "--no-open"], "--port"),
        (["play", "--seat", "-1", "--no-open"], "--seat"),
        (["play", "--seat", "4", "--bots", "greedy", "--no-open", "--port", "0"], "--seat"),
        (["play", "--bots", "nosuchbot", "--no-open", "--port", "0"], "unknown bot"),
        (["play", "--expansions", "nosuch", "--no-open", "--port", "0"], "nosuch"),
        (["info", "extra"], "unrecognized arguments"),
        (["encoding", "--players", "7"], "--players"),
        (["encoding", "--players", "two"], "--players"),
        (["encoding", "--players", "-2"], "--players"),
        (["encoding", "--markdown", "extra"], "unrecognized arguments"),
        (["bogus"], "invalid choice"),
        ([], "required"),
    ]
    return cases


def test_every_command_with_bad_arguments_prints_one_line_and_exits_2(tmp_path, capsys):
    cases = command_lines(tmp_path)
    for argv, text in cases:
        with deadline():
            code, err = run_cli(capsys, argv)
        assert_one_clear_line(code, err, text)
        assert not os.path.exists(tmp_path / "out"), argv  # nothing made before the arguments were checked
    assert len(cases) > 50


def test_the_module_prints_its_version_and_errors_without_tracebacks(tmp_path):
    run = lambda *argv: subprocess.run([sys.executable, "-m", "meeple", *argv], capture_output=True, text=True,  # noqa: E731
                                       timeout=120)
    version = run("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"meeple {meeple.__version__}"
    for argv in (["replay", "/dev/zero"], ["replay", str(tmp_path / "missing.jsonl")], ["replay", str(tmp_path)],
                 ["tournament", "--bots", "nosuchbot", "greedy", "--out", str(tmp_path / "t")]):
        done = run(*argv)
        assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "t").exists()


# --- Files a run writes (class 10) -----------------------------------------------------------------------

def assert_every_json_file_is_json(folder):
    found = 0
    for root, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".json") or name.endswith(".jsonl"):
                with open(os.path.join(root, name)) as f:
                    for line in (f.read().splitlines() if name.endswith(".jsonl") else [f.read()]):
                        strict_json(line)
                found += 1
            assert ".tmp-" not in name, name  # every file written whole, nothing left behind
    assert found


def test_training_on_a_few_games_writes_json_and_resumes(tmp_path, capsys):
    out = str(tmp_path / "train")
    argv = ["train", "--games", "4", "--generations", "1", "--batch-pairs", "2", "--max-pairs", "2", "--workers", "2",
            "--out", out, "--quiet"]
    assert main(argv) == 0
    assert_every_json_file_is_json(out)
    doc = strict_json(open(os.path.join(out, "gen-1.json")).read())
    assert "val_loss" not in doc["training"] and doc["training"]["games"] == 4  # no validation game: no loss
    assert "validation loss - (current -)" in capsys.readouterr().out
    # Files an earlier version left unreadable (a torn gen-0.json, NaN in gen-1.json): a rerun writes them again.
    with open(os.path.join(out, "gen-0.json"), "r+") as f:
        f.truncate(50)
    os.remove(os.path.join(out, "generations.csv"))
    with open(os.path.join(out, "gen-1.json"), "w") as f:
        f.write(json.dumps(doc).replace('"train_loss": ', '"val_loss": NaN, "train_loss": '))
    assert main(argv[:4] + ["2"] + argv[5:]) == 0
    assert_every_json_file_is_json(out)
    assert [r["generation"] for r in training.read_log(os.path.join(out, "generations.csv"))] == ["1", "2"]


def test_small_validation_sets_give_no_loss_and_nan_is_never_written(tmp_path):
    rules = meeple.Rules()
    training.generate(tmp_path / "d", rules, ["greedy", "greedy"], games=3, seed=10, progress=False)  # ids 10-12
    data = training.load_positions(tmp_path / "d")
    only = data.select_games(lambda ids: ids == 10)  # the one game is held out: it trains instead
    train, val = training.split(only)
    assert len(train.game_id) == 1 and len(val) == 0 and training.loss(np.zeros(len(training.FEATURES)), val) is None
    train, val = training.split(data)
    assert list(train.game_id) == [11, 12] and list(val.game_id) == [10]
    with pytest.raises(ValueError, match="not all finite"):
        training.weights_json(np.full(len(training.FEATURES), np.nan), rules, "diverged")
    text = training.weights_json(np.ones(len(training.FEATURES)), rules, "w", val_loss=float("nan"), train_loss=1.5,
                                 elo=float("inf"))
    assert strict_json(text)["training"] == {"train_loss": 1.5}
    report = policy.train_policy(str(tmp_path / "p"), rules, bot="mcts:iterations=10", games=1, seed=10,
                                 config=policy.FitConfig(epochs=1), progress=False)
    assert report["value_validation_loss"] is None and "validation_cross_entropy" not in report
    assert_every_json_file_is_json(tmp_path / "p")
    for bad in (dict(epochs=0), dict(hidden=(0,)), dict(lr=float("nan")), dict(batch=2.5)):
        with pytest.raises((TypeError, ValueError)):
            policy.train_policy(str(tmp_path / "q"), rules, games=1, config=policy.FitConfig(**bad), progress=False)
    assert not (tmp_path / "q").exists()


def test_match_and_environment_parameters_are_checked(capsys):
    bad_sprt = [dict(batch_pairs=0), dict(batch_pairs=-1), dict(max_pairs=0), dict(batch_pairs=1.5), dict(alpha=0),
                dict(alpha=1), dict(beta=float("nan")), dict(elo0=float("nan")), dict(elo1=float("inf")),
                dict(elo0=10, elo1=10), dict(elo1="20"), dict(seed=-1), dict(workers=0)]
    for settings in bad_sprt:
        with deadline(), pytest.raises((TypeError, ValueError)):  # a batch of 0 pairs used to loop forever
            meeple.sprt("greedy", "random", **settings)
    bad_envs = [lambda: CarcassonneEnv(seat="0"), lambda: CarcassonneEnv(seat=1.0), lambda: CarcassonneEnv(seat=2),
                lambda: CarcassonneEnv(illegal_action="skip"), lambda: CarcassonneEnv(opponents=["greedy"] * 6),
                lambda: CarcassonneEnv(options="small_city"), lambda: CarcassonneEnv(render_mode="human"),
                lambda: aec_env(players="2"), lambda: aec_env(players=7), lambda: aec_env(players=True),
                lambda: aec_env(options={"small_city": "nosuch"}), lambda: aec_env(expansions="nosuch"),
                lambda: pyspiel.load_game("meeple_carcassonne", {"players": 9}),
                # the window is the encoding's (meeple.WINDOW), no longer a parameter: an old game string says so
                lambda: pyspiel.load_game("meeple_carcassonne", {"window": 31})]
    for make in bad_envs:
        with pytest.raises((TypeError, ValueError, pyspiel.SpielError)):
            make()
    for argv in (["--games", "0"], ["--games", "-2"], ["--simulations", "0"], ["--players", "9"], ["--seed", "-1"],
                 ["--against", "nosuchbot"], ["--expansions", "nosuch"], ["--rollouts", "x"]):
        with pytest.raises(SystemExit) as caught:
            meeple.openspiel.main(argv)
        err = capsys.readouterr().err
        assert caught.value.code == 2 and "Traceback" not in err and "error:" in err, (argv, err)
