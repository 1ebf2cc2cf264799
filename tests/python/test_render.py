"""Board pictures: the SVG holds every tile, figure and score of the position, and is valid XML."""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import meeple

NS = {"svg": "http://www.w3.org/2000/svg"}
ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]


def midgame(expansions, players, actions, seed=4):
    state, dealer = meeple.State(meeple.Rules(players=players, expansions=expansions)), meeple.Dealer(seed)
    bots = [meeple.make_player("heuristic", seed=p) for p in range(players)]
    for _ in range(actions):
        if state.is_terminal:
            break
        state.apply(dealer.deal(state) if state.is_chance else bots[state.current_player].choose(state))
    return state


@pytest.mark.parametrize("expansions,players", [([], 2), (ALL, 3), (["abbey_mayor", "king_robber"], 6)])
def test_svg_has_every_tile_figure_and_score(expansions, players):
    state = midgame(expansions, players, actions=120)
    root = ET.fromstring(meeple.render_svg(state))
    tiles = root.findall(".//svg:g[@class='tile']", NS)
    assert sorted(t.get("data-tile") for t in tiles) == sorted(t[0] for t in state.tiles())
    figures = root.findall(".//svg:g[@data-figure]", NS)
    assert sorted((int(f.get("data-player")), f.get("data-figure")) for f in figures) == sorted(
        (p, kind) for p, kind, *_ in state.figures())
    assert len(figures) > 0
    scores = root.findall(".//svg:g[@class='score']", NS)
    assert [s.find("svg:text", NS).text.split(": ")[1] for s in scores] == [str(v) for v in state.scores]
    if "count" in expansions:
        assert any("the Count" in (t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text"))


def test_positions_of_a_record_and_the_render_command(tmp_path):
    result = meeple.tournament(["greedy", "random"], games=2, players=2, seed=3, out=str(tmp_path / "g.jsonl"),
                               progress=False)
    line = (tmp_path / "g.jsonl").read_text().splitlines()[0]
    assert meeple.position_of_record(line).scores == result.games[0].scores
    assert meeple.position_of_record(line, 0).num_tiles == 1
    with pytest.raises(ValueError, match="asked for the position after 100000"):
        meeple.position_of_record(line, 100000)
    out = tmp_path / "board.svg"
    subprocess.run([sys.executable, "-m", "meeple", "render", str(tmp_path / "g.jsonl"), "--game", "2", "--actions", "40",
                    "--out", str(out)], check=True, capture_output=True)
    root = ET.parse(out).getroot()
    assert root.find("svg:title", NS).text.endswith("game 2")
    bad = subprocess.run([sys.executable, "-m", "meeple", "render", str(tmp_path / "g.jsonl"), "--game", "9"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "has 2 games" in bad.stderr


def test_every_tile_has_a_name_in_words():
    from meeple.words import PHASE_WORDS, tile_name

    assert set(meeple.PHASES) == set(PHASE_WORDS)  # every phase of a turn in words too
    names = {t: tile_name(t) for t in meeple.tile_ids()}
    for tile_id, name in names.items():
        assert re.fullmatch(r"[a-z][a-zA-Z -]*[a-z]", name) and tile_id not in name, (tile_id, name)
    # Tiles that differ in what a player sees (cities, roads, cloisters, pennants) differ in name.
    def looks(t):
        g = meeple.tile_geometry(t)
        return (g["abbey"], g["block"], g["volcano"], sorted((s["kind"], len(s["edges"]), s["pennants"])
                                                              for s in g["segments"] if s["kind"] != "field"))
    assert all(names[a] != names[b] for a in names for b in names if looks(a) != looks(b) and not
               meeple.tile_geometry(a)["block"]), "two different tiles share a name"
