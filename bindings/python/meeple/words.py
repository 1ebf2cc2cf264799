"""What a person reads on meeple's pages (python -m meeple play, meeple view): tiles, places on a tile and
moves in words rather than the record's codes (`BA.CcRr` is "city corner with road curve", a follower
"at": "NL" stands on "the field north-west").

The words come from the tile data (meeple.tile_geometry), so every tile of every expansion has a name.
"""
from __future__ import annotations

import json
from functools import lru_cache

from . import _meeple

EDGE_CODES = ["N", "E", "S", "W"]
HALF_CODES = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"]  # the order of tile_geometry's halves
CORNER_CODES = ["NE", "SE", "SW", "NW"]
INNER_CODES = ["C", "I1", "I2"]

# Where a record location lies on its tile, in compass words. A half-edge is named by its quarter of the tile
# (L and R as seen from the centre facing the edge: NL is the north edge's west half).
PLACE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west",
               "NL": "north-west", "NR": "north-east", "EL": "north-east", "ER": "south-east",
               "SL": "south-east", "SR": "south-west", "WL": "south-west", "WR": "north-west",
               "NE": "north-east corner", "SE": "south-east corner", "SW": "south-west corner", "NW": "north-west corner",
               "C": "", "I1": "inside", "I2": "inside"}

PHASE_WORDS = {"turn start (abbey or draw)": "place your abbey or draw a tile", "draw": "draw a tile",
               "place": "place the tile", "deploy": "put a figure on the tile, or not", "wagon move": "move your wagon",
               "abbey round": "place your abbey, or not", "redeploy": "move a follower out of Carcassonne, or not",
               "count deploy": "put a follower into Carcassonne, or not",
               "final redeploy": "move a follower out of Carcassonne before final scoring, or pass",
               "game over": "the game is over"}

NUMBERS = {2: "two", 3: "three", 4: "four"}
_SIDES = {1: "city edge", 3: "three-sided city", 4: "city on all four sides"}
_PLURAL = {"city edge": "city edges", "city corner": "city corners", "city across the tile": "cities across the tile"}


def _count(n: int, one: str, many: str) -> str:
    return one if n == 1 else f"{NUMBERS.get(n, n)} {many}"


def _two_edges(edges: list[int], corner: str, straight: str) -> str:
    return straight if (edges[1] - edges[0]) % 2 == 0 else corner


def _city(edges: list[int]) -> str:
    return _two_edges(edges, "city corner", "city across the tile") if len(edges) == 2 else _SIDES[len(edges)]


@lru_cache(maxsize=None)
def tile_name(tile_id: str) -> str:
    """A tile in words, from its segments: "city corner with road curve", "cloister with road", ..."""
    g = _meeple.tile_geometry(tile_id)
    if g["block"]:
        return "part of the City of Carcassonne"
    if g["abbey"]:
        return "abbey"
    segments = g["segments"]
    kinds = [s["kind"] for s in segments]
    parts = []
    if "cloister" in kinds or "shrine" in kinds:
        parts.append("cloister" if "cloister" in kinds else "shrine")
    cities = [_city(s["edges"]) for s in segments if s["kind"] == "city"]
    for city in sorted(set(cities), key=cities.index):
        n = cities.count(city)
        parts.append(city if n == 1 else f"{NUMBERS.get(n, n)} {_PLURAL.get(city, city)}")
    pennants = sum(s["pennants"] for s in segments)
    rivers = [s for s in segments if s["kind"] == "river"]
    if rivers:
        edges = rivers[0]["edges"]
        river = {1: "river end", 3: "river fork"}.get(len(edges)) or _two_edges(edges, "river bend", "straight river")
        parts.append("lake with a volcano" if g["volcano"] else river)
    roads = [s for s in segments if s["kind"] == "road"]
    ends = sum(len(s["edges"]) == 1 for s in roads)
    through = [s for s in roads if len(s["edges"]) == 2]
    if ends >= 3:
        parts.append("crossroads" if ends == 4 else "road junction")
    elif ends:
        parts.append(_count(ends, "road", "roads"))
    for s in through:
        parts.append(_two_edges(s["edges"], "road curve", "straight road"))
    parts += [f"{NUMBERS.get(len(s['edges']), len(s['edges']))}-way road" for s in roads if len(s["edges"]) > 2]
    if not parts:
        parts.append("field")
    name = parts[0] + (" with " + " and ".join(parts[1:]) if len(parts) > 1 else "")
    if pennants:
        name += (" and " if len(parts) > 1 else " with ") + _count(pennants, "a pennant", "pennants")
    return name


def spot_kind(tile_id: str, rotation: int, code: str) -> str:
    """What lies at a location (record code, board frame) of a tile placed turned `rotation` degrees."""
    segments = _meeple.tile_geometry(tile_id)["segments"]
    if code in CORNER_CODES or code in ("I1", "I2"):
        return "field"
    if code == "C":
        return next((s["kind"] for s in segments if s["kind"] in ("cloister", "shrine")), "abbey")
    turns = rotation // 90
    for segment in segments:
        if code in EDGE_CODES and (EDGE_CODES.index(code) - turns) % 4 in segment["edges"]:
            return segment["kind"]
        if code in HALF_CODES and (HALF_CODES.index(code) - 2 * turns) % 8 in segment["halves"]:
            return segment["kind"]
    return "feature"


def feature_words(board: dict, x: int, y: int, code: str, tile: bool = False) -> str:
    """A feature named by a location on the tile at (x, y): "the field, north-west", "the cloister", with
    `tile` "the road on tile (2, 0), south"."""
    kind = spot_kind(*board[(x, y)], code) if (x, y) in board else "feature"
    where = PLACE_WORDS.get(code, "")
    return f"the {kind}" + (f" on tile ({x}, {y})" if tile else "") + (f", {where}" if where else "")


def board_of(state) -> dict:
    """(x, y) -> (tile id, rotation) of the placed tiles, as feature_words looks them up."""
    return {(x, y): (tile_id, rotation) for tile_id, x, y, rotation in state.tiles()}


def describe(record: dict | None, board: dict, placed: tuple | None) -> str:
    """A move's record form (meeple.action_json, or an entry of a record's actions) in words. `board` holds the
    tiles it may name (board_of), `placed` the (x, y) of the tile placed this turn, which deploys go on."""
    if record is None:
        return "draw a tile (keep the abbey)"
    kind, what = next((k, v) for k, v in record.items() if k != "p")
    if kind == "draw":
        return f"tile drawn: {tile_name(what)}"
    if kind == "place":
        return f"place at ({what[0]}, {what[1]})" + (f" turned {what[2]}°" if what[2] else "")
    if what is None:
        return {"deploy": "place no figure", "count_deploy": "no follower into Carcassonne",
                "redeploy": "stop redeploying", "abbey": "decline the abbey", "wagon": "take the wagon back"}[kind]
    if kind == "deploy":
        return f"{what['figure']} on {feature_words(board, *(placed or (None, None)), what['at'])}"
    if kind == "count_deploy":
        to = what.get("count_to", "")
        return f"{what['figure']} into the {what['quarter']}" + (f", the Count to the {to}" if to else "")
    if kind == "redeploy":
        x, y, code = what["to"]
        return f"{what['figure']} from the {what['from']} to {feature_words(board, x, y, code, tile=True)}"
    if kind == "abbey":
        return f"abbey at ({what[0]}, {what[1]})"
    if kind == "wagon":
        return f"wagon to {feature_words(board, what[0], what[1], what[2], tile=True)}"
    return json.dumps(record)


def _cities(n: int) -> str:
    return "no completed city" if n == 0 else _count(n, "one completed city", "completed cities")


def scored_words(entry: dict) -> str:
    """What an entry of State.final_account is and why it paid what it paid, in words: "an unfinished city of three
    tiles and a pennant at (1, -1)", "a farm supplying two completed cities, 3 points each, at (0, 2)", "the King,
    a point for each of 5 completed cities"."""
    what, cells, n = entry["what"], entry["cells"], entry["completed"]
    paid = max(entry["points"][p] for p in entry["paid"])  # what each seat paid got (a shared majority: each the same)
    at = f" at ({cells[0][0]}, {cells[0][1]})" if cells else ""
    tiles = _count(len(cells), "one tile", "tiles")
    if what == "city":
        pennants = f" and {_count(entry['pennants'], 'a pennant', 'pennants')}" if entry["pennants"] else ""
        return f"an unfinished city of {tiles}{pennants}{at}"
    if what == "road":
        return f"an unfinished road of {tiles}{at}"
    if what in ("cloister", "shrine"):
        return f"an unfinished {what} with {paid - 1} of its 8 neighbours{at}"
    if what in ("farm", "barn"):
        text = ("a farm" if what == "farm" else "a barn in a farm") + f" supplying {_cities(n)}"
        return text + (f", {paid // n} points each," if n else "") + at
    if what == "king":
        return f"the King, a point for each of {n} completed cities" if n != 1 else "the King, a point for the one completed city"
    if what == "robber":
        return f"the Robber Baron, a point for each of {n} completed roads" if n != 1 else "the Robber Baron, a point for the one completed road"
    return what
