"""python -m meeple play: whole games played by clicks in headless Chromium (Debian's chromium and
chromium-driver, which scripts/setup.sh installs), and the server's answers to bad requests."""
import json
import math
import random
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import meeple


@pytest.fixture
def server(tmp_path):
    """Starts `python -m meeple play` with the given arguments on a free port; yields (url, records file)."""
    processes = []

    def start(*args):
        out = tmp_path / "games.jsonl"
        process = subprocess.Popen([sys.executable, "-m", "meeple", "play", "--port", "0", "--no-open",
                                    "--out", str(out), *args], stdout=subprocess.PIPE, text=True)
        processes.append(process)
        line = process.stdout.readline()
        assert line.startswith("meeple play: http://127.0.0.1:"), line
        return line.split()[2], out

    yield start
    for process in processes:
        process.terminate()
        process.wait(timeout=10)


def settled(page):
    """The page's status once the server has answered."""
    wait = WebDriverWait(page, 60)
    wait.until(lambda p: p.find_element(By.ID, "status").text not in ("Loading...", "Bots are thinking..."))
    return page.find_element(By.ID, "status").text


def play_by_clicks(page, url):
    """Plays a whole game by clicking; returns (decision kinds clicked, final status, scores shown)."""
    from conftest import BoardPage

    page.get(url)
    kinds, clicks = set(), 0
    while not (status := settled(page)).startswith("Game over"):
        assert status.startswith("Your turn"), status
        assert BoardPage(page).side_fits() and BoardPage(page).codes() == []  # nothing cut off, words not codes
        cells = page.find_elements(By.CSS_SELECTOR, "#board .cell.legal")
        if cells:
            kinds.add("place")
            cells[clicks % len(cells)].click()
            rotate = page.find_element(By.ID, "rotate")
            if rotate.is_enabled():
                rotate.click()
            page.find_element(By.ID, "place").click()
        else:
            buttons = page.find_elements(By.CSS_SELECTOR, "#choices button.choice")
            assert buttons, "a decision without choices"
            button = buttons[-1 if clicks % 3 else 0]  # mostly the last choice: figures go out, features score
            kinds.add(button.get_attribute("data-kind"))
            target = page.find_elements(By.CSS_SELECTOR,
                                        f"#board [data-action='{button.get_attribute('data-action')}']")
            (target[0] if target else button).click()  # the spot or cell on the board when there is one
        clicks += 1
    rows = page.find_elements(By.CSS_SELECTOR, "#scores tr.score")
    scores = [int(row.find_elements(By.TAG_NAME, "td")[1].text) for row in rows]
    return kinds, status, scores, clicks


def check_the_end(board_page, line, scores, shot):
    """The final position in the page, as a person at a 1280x900 window sees it (and a screenshot to look at)."""
    final = meeple.replay(line)
    names = json.loads(line)["names"]
    tiles = board_page.check_final_position(scores, names)
    assert sorted((t["id"], t["x"], t["y"]) for t in tiles) == sorted((t[0], t[1], t[2]) for t in final.tiles())
    assert board_page.last_marked() == dict(zip(("id", "x", "y"), final.tiles()[-1][:3]))
    board_page.page.save_screenshot(str(shot))
    board_page.check_zoom_and_pan()


def test_a_whole_base_game_by_clicks_saves_a_record_that_replays(server, browser, board_page, tmp_path):
    url, out = server("--bots", "greedy", "--seed", "5")
    kinds, status, scores, clicks = play_by_clicks(browser, url)
    assert clicks > 40 and {"place", "deploy", "pass"} <= kinds
    record = json.loads(out.read_text().splitlines()[0])
    assert record["names"] == ["you", "greedy"] and record["seed"] == 5
    assert meeple.replay(out.read_text().splitlines()[0]).scores == scores == record["result"]["scores"]
    winners = [record["names"][p] for p, s in enumerate(scores) if s == max(scores)]
    assert status == "Game over: " + ", ".join(winners) + " won"
    assert "Record saved to" in browser.find_element(By.ID, "record").text
    check_the_end(board_page, out.read_text().splitlines()[0], scores, tmp_path / "end.png")


LONG_BOT = "mcts:iterations=30,c=0.7,fpu=0.5,reward=margin,widen=2,widen_exp=0.5"  # a name longer than the table


def test_every_expansion_by_clicks_with_three_players(server, browser, board_page, tmp_path):
    url, out = server("--bots", LONG_BOT, "greedy", "--seat", "1", "--seed", "2", "--expansions", "river2", "count",
                      "king_robber", "cult_places", "abbey_mayor")
    kinds, status, scores, _ = play_by_clicks(browser, url)
    assert {"place", "deploy", "abbey", "pass"} <= kinds
    line = out.read_text().splitlines()[0]
    assert meeple.replay(line).scores == scores and json.loads(line)["names"] == [LONG_BOT, "you", "greedy"]
    check_the_end(board_page, line, scores, tmp_path / "end.png")


def post(url, body: bytes, headers=None):
    headers = {"Content-Type": "application/json"} | (headers or {})
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_bad_requests_get_errors_and_leave_the_game_as_it_was(server):
    url, _ = server("--bots", "random", "--seed", "1")
    with urllib.request.urlopen(url + "api/state") as response:
        before = json.loads(response.read())
    n = len(before["placements"])
    assert post(url + "api/act", b'{"action": 999}') == (
        400, {"error": f"action must be an index 0 to {n - 1} of this decision's choices, got 999"})
    assert post(url + "api/act", b'{"action": "1"}')[0] == 400
    assert post(url + "api/act", b'{"action": true}')[0] == 400
    assert post(url + "api/act", b"[1]") == (400, {"error": "the request body must be a JSON object"})
    assert post(url + "api/act", b"{not json")[0] == 400
    assert post(url + "api/nothing", b"{}")[0] == 404
    # What another web page could send: a simple text/plain post, or a request for another host name.
    assert post(url + "api/act", b'{"action": 0}', {"Content-Type": "text/plain"})[0] == 415
    assert post(url + "api/act", b'{"action": 0}', {"Host": "evil.example:80"})[0] == 403
    assert post(url + "api/act", b"{}", {"Content-Length": "-1"})[0] == 400
    with urllib.request.urlopen(url + "api/state") as response:
        assert json.loads(response.read()) == before
    status, after = post(url + "api/act", b'{"action": 0}')
    assert status == 200 and after["log"][-1].startswith("you: place at")


def test_bad_bot_specs_fail_before_serving():
    result = subprocess.run([sys.executable, "-m", "meeple", "play", "--bots", "grredy", "--no-open", "--port", "0"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "unknown bot 'grredy'" in result.stderr


def test_every_kind_of_decision_is_offered_with_its_place_on_the_board(tmp_path):
    # The page's model, without a browser: 8 games with every expansion, 3 players, the person mostly taking
    # the last choice (figures go out, so the Count, wagons and barns come up).
    from conftest import check_account_data, raw_codes

    from meeple.play import SPOT_RADIUS, Table

    rules = meeple.Rules(players=3, expansions=["river2", "count", "king_robber", "cult_places", "abbey_mayor"])
    rng = random.Random(4)
    kinds, figures = set(), set()
    for game in range(8):
        table = Table(rules, ["greedy", "greedy"], seat=game % 3, seed=game + 1, out=str(tmp_path / "games.jsonl"))
        while not (view := table.view())["over"]:
            legal = table.state.legal_actions()
            offered = [p["action"] for p in view["placements"]] + [c["action"] for c in view["choices"]]
            assert sorted(offered) == list(range(len(legal)))  # every legal action, once
            words = "\n".join([view["status"]] + view["log"] + [c["label"] for c in view["choices"]])
            assert not raw_codes(words), (raw_codes(words), words)  # a person reads words, not record codes
            spots = [c["spot"] for c in view["choices"] if c["spot"]]
            assert all(math.dist(a, b) >= 2 * SPOT_RADIUS for i, a in enumerate(spots) for b in spots[:i])
            for c in view["choices"]:
                kinds.add(c["kind"])
                if c["kind"] in ("deploy", "wagon", "redeploy"):
                    assert c["spot"] is not None, c
                    figures.add(c["label"].split()[0])
                if c["kind"] == "abbey":
                    assert c["cell"] is not None, c
            table.act(len(legal) - 1 if rng.random() < 0.7 else rng.randrange(len(legal)))
        line = (tmp_path / "games.jsonl").read_text().splitlines()[game]
        assert meeple.replay(line).scores == view["scores"]
        assert view["account"]["features"]  # the end: what final scoring paid whom, adding up to the final scores
        check_account_data(view["account"], table.before_last[0], table.state)
    assert {"pass", "deploy", "abbey", "count_deploy", "redeploy", "wagon"} <= kinds, sorted(kinds)
    assert {"follower", "mayor", "barn", "wagon"} <= figures, sorted(figures)


def finish(table, choose=lambda legal: 0):
    """Plays the person's seat of a Table to the end; returns its last view."""
    while not table.state.is_terminal:
        table.act(choose(table.state.legal_actions()))
    return table.view()


def unusable_targets(tmp_path):
    """Records files that cannot take a record, each made fresh: (what it is, path)."""
    import os

    (tmp_path / "folder").mkdir()
    (tmp_path / "read-only.jsonl").write_text("kept\n")
    (tmp_path / "read-only.jsonl").chmod(0o444)
    (tmp_path / "a-file").write_text("")
    os.mkfifo(tmp_path / "fifo")
    for name, target in [("to-full", "/dev/full"), ("to-folder", tmp_path / "folder"), ("to-nothing", tmp_path / "gone"),
                         ("to-fifo", tmp_path / "fifo"), ("to-read-only", tmp_path / "read-only.jsonl")]:
        os.symlink(target, tmp_path / name)
    return [("/dev/full", "/dev/full"), ("/dev/null", "/dev/null"), ("a directory", str(tmp_path / "folder")),
            ("a directory with a slash", str(tmp_path / "folder") + "/"), ("a FIFO", str(tmp_path / "fifo")),
            ("a read-only file", str(tmp_path / "read-only.jsonl")),
            ("a path through a file", str(tmp_path / "a-file" / "games.jsonl")),
            ("a folder under a file", str(tmp_path / "a-file" / "x" / "games.jsonl")), ("empty", "")] + [
        (f"a symlink {name}", str(tmp_path / name)) for name in ["to-full", "to-folder", "to-nothing", "to-fifo", "to-read-only"]]


def test_unusable_records_files_are_refused_before_the_game(tmp_path):
    from meeple.play import Table

    rules = meeple.Rules(players=2)
    targets = unusable_targets(tmp_path)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    for what, out in targets:
        with pytest.raises(ValueError, match="--out") as refused:
            Table(rules, ["random"], seat=0, seed=1, out=out)
        assert out in str(refused.value) or not out, (what, refused.value)
    # The command line: exit 2 and the reason, before any server starts (a few of the cases: each is a process).
    for what, out in targets[::3]:
        result = subprocess.run([sys.executable, "-m", "meeple", "play", "--bots", "random", "--no-open", "--port", "0",
                                 "--out", out], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert result.returncode == 2 and result.stderr.startswith("error: --out"), (what, result.stderr)
        assert "meeple play: http" not in result.stdout, what
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing created, nothing replaced
    assert (tmp_path / "read-only.jsonl").read_text() == "kept\n"


def test_a_missing_folder_is_created_and_takes_the_records(tmp_path):
    from meeple.play import Table

    for depth in range(1, 4):
        out = tmp_path.joinpath(*[f"d{depth}-{k}" for k in range(depth)], "games.jsonl")
        table = Table(meeple.Rules(players=2), ["random"], seat=depth % 2, seed=depth, out=str(out))
        assert out.parent.is_dir() and not out.exists()  # the folder at once, the file with the first record
        view = finish(table)
        assert view["record"] == str(out) and view["save_error"] is None
        assert meeple.replay(out.read_text()).scores == view["scores"]


def test_a_record_that_cannot_be_appended_at_the_end_goes_elsewhere_and_says_where(tmp_path, monkeypatch):
    import os
    import tempfile

    from meeple import play

    spare = tmp_path / "spare"
    spare.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    rules = meeple.Rules(players=2)
    breakers = {"replaced by a directory": lambda out: (os.remove(out), os.mkdir(out)),
                "made read-only": lambda out: os.chmod(out, 0o444),
                "replaced by a symlink to /dev/full": lambda out: (os.remove(out), os.symlink("/dev/full", out)),
                "its folder removed": lambda out: (os.remove(out), os.rmdir(os.path.dirname(out)),
                                                   open(os.path.dirname(out), "w").close())}
    for seed, (what, breaks) in enumerate(breakers.items(), 1):
        out = tmp_path / f"game{seed}" / "games.jsonl"
        out.parent.mkdir()
        out.write_text("")
        table = play.Table(rules, ["random"], seat=0, seed=seed, out=str(out))
        breaks(str(out))
        view = finish(table)
        fallback = str(spare / f"meeple-play-{os.getpid()}-seed{seed}.jsonl")
        assert view["over"] and view["record"] == fallback, what
        assert f"could not append the record to {out}" in view["save_error"] and fallback in view["save_error"], what
        assert meeple.replay(open(fallback).read().splitlines()[0]).scores == view["scores"], what
        assert meeple.replay(view["record_text"]).scores == view["scores"], what
    # A device that fails the write itself (ENOSPC), and no temporary folder either: the page keeps the record.
    monkeypatch.setattr(play, "check_output", lambda path: None)
    monkeypatch.setattr(tempfile, "tempdir", "/dev/full/nowhere")
    table = play.Table(rules, ["random"], seat=1, seed=9, out="/dev/full")
    view = finish(table)
    assert view["record"] is None and "No space left on device" in view["save_error"]
    assert "download it from this page" in view["save_error"]
    assert meeple.replay(view["record_text"]).scores == view["scores"]


def test_the_last_move_gets_an_answer_when_the_records_file_broke_meanwhile(server):
    import os

    url, out = server("--bots", "random", "--seed", "3")
    os.mkdir(out)  # the server checked the (then missing) file at the start; now nothing can be appended
    status, view = 200, None
    while view is None or not view["over"]:
        status, view = post(url + "api/act", b'{"action": 0}')
        assert status == 200, view
    assert view["record"] and view["record"] != str(out) and "is a directory" in view["save_error"]
    assert meeple.replay(open(view["record"]).read().splitlines()[-1]).scores == view["scores"]
    os.remove(view["record"])
