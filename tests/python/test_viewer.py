"""The HTML viewer: one small static page per record that draws its positions in the browser, checked as data
for many games and in headless Chromium (Debian's chromium package, installed by scripts/setup.sh) as a person
at a 1280x900 window would see it."""
import json
import subprocess
import sys

import pytest
from conftest import check_account_data, raw_codes
from selenium.webdriver.common.by import By

import meeple
from meeple.viewer import viewer_data

ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]
LONG_BOT = "mcts:iterations=20,c=0.7,fpu=0.5,reward=margin,widen=2,widen_exp=0.5"  # a name longer than the table
# Bytes of a whole game's page, which held a whole SVG per position before (1.7 MB for a base game, 4.7 MB
# with every expansion): now each tile and figure drawing once, positions as numbers.
BOUND = {"base": 100_000, "all": 200_000}


def records(tmp_path, bots, games, players, expansions, seed):
    out = tmp_path / f"g{seed}-{players}-{len(expansions)}.jsonl"
    meeple.tournament(bots, games=games, players=players, expansions=expansions, seed=seed, out=str(out), progress=False)
    return out, out.read_text().splitlines()


def test_the_data_of_many_games_adds_up(tmp_path):
    whats = set()  # what the accounts of the end paid for
    for expansions, players, seed in [([], 2, 1), (ALL, 3, 2), (["abbey_mayor", "king_robber"], 6, 3), (["count"], 4, 4),
                                      (["river2", "cult_places"], 5, 5)]:
        bots = ["random", "greedy", "heuristic", "mcts:iterations=4", "mcts:iterations=5", "mcts:iterations=6"]
        _, lines = records(tmp_path, bots[:players], 4, players, expansions, seed)
        for line in lines:
            record, final = json.loads(line), meeple.replay(line)
            game = viewer_data(line)
            frames = game["frames"]
            assert frames[0]["status"] == "The start" and frames[0]["moves"] == []
            assert frames[-1]["scores"] == final.scores and frames[-1]["status"].startswith("Game over")
            assert [t[:3] for t in game["tiles"]] == [list(t[:3]) for t in final.tiles()]
            assert all(a["tiles"] <= b["tiles"] for a, b in zip(frames, frames[1:]))
            # Every action is told, in words, once: each turn's moves are its actions.
            moves = [m for f in frames for m in f["moves"]]
            assert len(moves) == len(record["actions"]) and not raw_codes("\n".join(moves)), raw_codes("\n".join(moves))
            assert all(f["last"] == f["tiles"] - 1 for f in frames[1:] if f["moves"][0].startswith("tile drawn"))
            before_last = meeple.position_of_record(line, len(record["actions"]) - 1)
            check_account_data(game["account"], before_last, final)
            whats.update(f["what"] for f in game["account"]["features"])
    assert whats == {"city", "road", "cloister", "shrine", "farm", "barn", "king", "robber"}, whats


def test_the_page_of_a_whole_game_is_small(tmp_path):
    sizes = {}
    for kind, expansions, players in [("base", [], 2), ("all", ALL, 3)]:
        out, lines = records(tmp_path, ["greedy", "heuristic", "random"][:players], 2, players, expansions, 6)
        for game in (1, 2):
            page = tmp_path / f"{kind}{game}.html"
            subprocess.run([sys.executable, "-m", "meeple", "view", str(out), "--game", str(game), "--out", str(page)],
                           check=True, capture_output=True)
            sizes[kind, game] = page.stat().st_size
            assert sizes[kind, game] < BOUND[kind], sizes


@pytest.mark.parametrize("expansions,players", [([], 2), (ALL, 3)])
def test_the_viewer_in_a_browser(tmp_path, browser, board_page, expansions, players):
    out, lines = records(tmp_path, [LONG_BOT, "greedy", "heuristic"][:players], 1, players, expansions, 7)
    line = lines[0]
    page = tmp_path / "game.html"
    meeple.write_viewer(line, page)
    browser.get(page.as_uri())
    final, names = meeple.replay(line), json.loads(line)["names"]
    # It opens at the start, with nothing placed yet marked.
    assert browser.find_element(By.ID, "label").text == f"position 0 of {len(viewer_data(line)['frames']) - 1}"
    assert browser.find_element(By.ID, "status").text == "The start" and board_page.last_marked() is None
    start_tiles = len(board_page.tiles())
    browser.find_element(By.ID, "next").click()  # the first turn: its moves in words, its tile marked
    moves = browser.find_element(By.ID, "moves").text
    assert moves.startswith("tile drawn: ") and "place at" in moves and board_page.codes() == []
    assert len(board_page.tiles()) == start_tiles + 1 and board_page.last_marked() is not None
    browser.find_element(By.ID, "last").click()
    assert browser.find_element(By.ID, "status").text.startswith("Game over")
    tiles = board_page.check_final_position(final.scores, names)
    assert len(tiles) == final.num_tiles
    assert board_page.last_marked() == dict(zip(("id", "x", "y"), final.tiles()[-1][:3]))
    browser.save_screenshot(str(tmp_path / "end.png"))
    board_page.check_zoom_and_pan()
    assert browser.get_log("browser") == []  # no script errors
