"""A single static HTML page that steps through a game record: the start, then the end of each turn, with the
turn's moves in words, the scores, and at the end the account of final scoring; buttons, a slider and the
arrow keys step, the board fits the window and zooms and pans (board.js). Open it in any browser; it needs
nothing else.

    meeple.write_viewer(record_line, "game.html")      # or: python -m meeple view games.jsonl --game 3

The page holds the game as data (each tile and each figure drawing once, positions as counts and indices)
and draws positions in the browser from shared tile symbols: some 60 KB for a two-player base game, 125 KB
with every expansion (a whole SVG per position made 1.7 and 4.6 MB).
"""
from __future__ import annotations

import html
import json
import re
from importlib import resources

from .render import COLOUR_NAMES, action_of, board_data, final_account, page_assets, position_of_record
from .words import board_of, describe


def turn_starts(actions: list[dict]) -> list[int]:
    """Where each turn begins: a draw or an abbey not following a draw (a tile that fits nowhere is followed by
    another draw in the same turn; each seat's abbey in the end-of-game round is a turn of its own)."""
    return [i for i, a in enumerate(actions) if ("draw" in a or "abbey" in a) and not (i and "draw" in actions[i - 1])]


def viewer_data(record_line: str) -> dict:
    """The game as viewer.html steps through it (a ValueError names what is wrong with the record)."""
    record = json.loads(record_line)
    actions = record["actions"]
    final = position_of_record(record_line)
    names = record.get("names") or [f"{COLOUR_NAMES[p]} (seat {p})" for p in range(final.num_players)]
    board = board_of(final)  # what moves name: a placed tile never changes, so the final board has them all
    tiles = board_data(final)["tiles"]
    figures, frames = {}, []
    cuts = sorted(set([0] + turn_starts(actions) + [len(actions)]))
    placed = None
    for k, cut in enumerate(cuts):
        state = final if cut == len(actions) else position_of_record(record_line, cut)
        data = board_data(state)
        assert data["tiles"] == tiles[:len(data["tiles"])], "tiles are only ever added"
        moves = []
        for a in actions[cuts[k - 1]:cut] if k else []:
            where = a.get("place") or a.get("abbey")
            placed = tuple(where[:2]) if where else placed
            moves.append((f"{names[a['p']]}: " if "p" in a else "") + describe(a, board, placed))
        if state.is_terminal:
            top = max(state.scores)
            status = "Game over: " + ", ".join(names[p] for p, v in enumerate(state.scores) if v == top) + " won"
        else:
            status = f"Turn {k}" if k else "The start"
        frames.append({"tiles": len(data["tiles"]), "last": data["last"], "tiles_left": data["tiles_left"],
                       "carcassonne": data["carcassonne"],
                       "figures": [figures.setdefault(f, len(figures)) for f in data["figures"]],
                       "scores": state.scores, "breakdown": state.score_breakdown(), "status": status, "moves": moves})
    account = None
    if final.is_terminal and actions:
        before = position_of_record(record_line, len(actions) - 1)
        account = final_account(before, action_of(before, actions[-1]))
    return {"names": names, "tiles": tiles, "figures": list(figures), "frames": frames, "account": account}


def viewer_html(record_line: str, title: str = "meeple game") -> str:
    """The page for one record."""
    game = viewer_data(record_line)
    # "</" inside the script's JSON would end the script early (a name may hold anything).
    parts = {"$title": html.escape(title), "$game": json.dumps(game, separators=(",", ":")).replace("</", "<\\/"),
             "<!-- board -->": page_assets(t[0] for t in game["tiles"])}
    page = resources.files(__package__).joinpath("viewer.html").read_text()
    return re.sub("|".join(map(re.escape, parts)), lambda m: parts[m.group()], page)  # one pass: nothing inserted is read again


def write_viewer(record_line: str, path, title: str = "meeple game") -> None:
    with open(path, "w") as f:
        f.write(viewer_html(record_line, title))
