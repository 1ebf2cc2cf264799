"""Bad input to the pure-Python package (issue 27), each class over generated cases: files that are not
regular files or never end, records edited before a tournament resumes, action ids that are not integers,
numbers and command lines that are wrong, and the files a run writes (valid JSON, written whole)."""
import base64
import contextlib
import fractions
import decimal
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
            assert code == 2 and "game 2:" in err and "Traceback" not in err and len(err) < 2000
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
        r["seed"] = rng.choice([r["seed"] + 1, r["seed"] - 1, r["seed"] + 2, 0, 2**40])

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
    out.write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])
    again = meeple.tournament(BOTS[:2], games=4, seed=5, out=str(out), progress=False)
    assert [g.scores for g in again.games] == [g.scores for g in first.games]
    assert sorted(out.read_text().splitlines()) == sorted(lines)
