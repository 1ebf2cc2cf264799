"""Pictures of positions: an SVG of the board with every figure in its player's colour and the scores.

    svg = meeple.render_svg(state, names=["mcts", "greedy"])
    open("board.svg", "w").write(svg)

Each tile is drawn as printed and turned by an SVG rotation about its centre, so the drawing follows the
tile data (meeple.tile_geometry) rather than pictures of tiles: fields green, cities brown with pennants,
roads light with dark edges, rivers blue, cloisters and shrines as buildings, abbeys, the Count's city grey.
"""
from __future__ import annotations

import json
from importlib import resources
from xml.sax.saxutils import escape

from . import _meeple
from .words import scored_words, tile_name

T = 60  # tile size in pixels
COLOURS = ["#d62728", "#1f77b4", "#f2c14e", "#222222", "#9467bd", "#ff7f0e"]
COLOUR_NAMES = ["red", "blue", "yellow", "black", "purple", "orange"]
QUARTERS = ["castle", "market", "blacksmith", "cathedral"]

_EDGE_MID = [(T / 2, 0), (T, T / 2), (T / 2, T), (0, T / 2)]
_EDGE_CORNERS = [((0, 0), (T, 0)), ((T, 0), (T, T)), ((T, T), (0, T)), ((0, T), (0, 0))]
_HALF_POINT = [(T / 4, 0), (3 * T / 4, 0), (T, T / 4), (T, 3 * T / 4), (3 * T / 4, T), (T / 4, T), (0, 3 * T / 4), (0, T / 4)]
_CENTRE = (T / 2, T / 2)


def _toward_centre(point, amount):
    return (point[0] + (_CENTRE[0] - point[0]) * amount, point[1] + (_CENTRE[1] - point[1]) * amount)


def _mean(points):
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _anchor(segment):
    """Where a figure on this segment stands, in the tile's own frame."""
    if segment["kind"] in ("cloister", "shrine") or (not segment["edges"] and not segment["halves"]):
        return _CENTRE
    if segment["kind"] == "field":
        return _toward_centre(_mean([_HALF_POINT[h] for h in segment["halves"]]), 0.3)
    edges = segment["edges"]
    if len(edges) == 1:
        return _toward_centre(_EDGE_MID[edges[0]], 0.35)
    return _toward_centre(_mean([_EDGE_MID[e] for e in edges]), 0.3)


def _points(pts):
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def _tile_body(geometry) -> list[str]:
    """The SVG elements of one tile as printed (rotation 0), in its own 0..T frame."""
    out = [f'<rect width="{T}" height="{T}" fill="{"#9a9a9a" if geometry["block"] else "#8fc45a"}" stroke="#5d7f3a" stroke-width="0.6"/>']
    for seg in geometry["segments"]:
        if seg["kind"] == "city":
            if len(seg["edges"]) == 1:
                (a, b) = _EDGE_CORNERS[seg["edges"][0]]
                inner = [_toward_centre(b, 0.45), _toward_centre(a, 0.45)]
                out.append(f'<polygon points="{_points([a, b] + inner)}" fill="#c0874f" stroke="#7a4f24" stroke-width="1"/>')
            else:
                for e in seg["edges"]:
                    a, b = _EDGE_CORNERS[e]
                    out.append(f'<polygon points="{_points([a, b, _CENTRE])}" fill="#c0874f" stroke="#c0874f" stroke-width="1"/>')
            for k in range(seg["pennants"]):
                x, y = _anchor(seg)
                out.append(f'<path d="M{x - 5 + 4 * k:.1f},{y - 8:.1f} h8 v6 l-4,4 l-4,-4 z" fill="#2a4d9b" stroke="white" stroke-width="1"/>')
    for seg in geometry["segments"]:
        if seg["kind"] in ("road", "river"):
            colour, width = ("#f4ead2", 5) if seg["kind"] == "road" else ("#3a8dde", 8)
            for e in seg["edges"]:
                (x1, y1), (x2, y2) = _EDGE_MID[e], _CENTRE if len(seg["edges"]) != 1 else _toward_centre(_EDGE_MID[e], 0.8)
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#6b5b3e" stroke-width="{width + 2}"/>')
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" stroke-width="{width}"/>')
        elif seg["kind"] in ("cloister", "shrine"):
            fill = "#b5651d" if seg["kind"] == "cloister" else "#4b4b4b"
            out.append(f'<rect x="{T * 0.36}" y="{T * 0.42}" width="{T * 0.28}" height="{T * 0.22}" fill="{fill}" stroke="#222" stroke-width="1"/>')
            out.append(f'<polygon points="{_points([(T * 0.33, T * 0.42), (T * 0.5, T * 0.3), (T * 0.67, T * 0.42)])}" fill="#8b2e16" stroke="#222" stroke-width="1"/>')
    if geometry["abbey"]:
        out.append(f'<rect x="{T * 0.25}" y="{T * 0.35}" width="{T * 0.5}" height="{T * 0.35}" fill="#d8c6a0" stroke="#222" stroke-width="1.2"/>')
        out.append(f'<polygon points="{_points([(T * 0.2, T * 0.35), (T * 0.5, T * 0.15), (T * 0.8, T * 0.35)])}" fill="#7b3f20" stroke="#222"/>')
    if geometry["volcano"]:
        out.append(f'<circle cx="{T / 2}" cy="{T / 2}" r="{T * 0.18}" fill="#e2572b" stroke="#7a2a12"/>')
    return out


def tile_svg(tile_id: str) -> str:
    """The SVG elements of a tile as printed (rotation 0) in its own frame, 0..T pixels square."""
    return "".join(_tile_body(_meeple.tile_geometry(tile_id)))


def _figure(kind, x, y, colour) -> str:
    if kind == "mayor":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{T * 0.14:.1f}" fill="{colour}" stroke="white" stroke-width="2"/>'
    if kind == "wagon":
        return f'<rect x="{x - 8:.1f}" y="{y - 6:.1f}" width="16" height="12" rx="2" fill="{colour}" stroke="white" stroke-width="1.5"/>'
    if kind == "barn":
        return f'<polygon points="{_points([(x - 9, y + 7), (x + 9, y + 7), (x, y - 9)])}" fill="{colour}" stroke="white" stroke-width="1.5"/>'
    return f'<circle class="follower" cx="{x:.1f}" cy="{y:.1f}" r="{T * 0.1:.1f}" fill="{colour}" stroke="white" stroke-width="1.5"/>'


def figure_svgs(state, tiles=None) -> list[str]:
    """Each figure on the board as an SVG group in board pixels, in its player's colour."""
    placed = {(x, y): (tile_id, rotation) for tile_id, x, y, rotation in (tiles or state.tiles())}
    out = []
    for player, kind, x, y, segment in state.figures():
        tile_id, rotation = placed[(x, y)]
        ax, ay = _anchor(_meeple.tile_geometry(tile_id)["segments"][segment])
        out.append(f'<g data-player="{player}" data-figure="{kind}" transform="translate({x * T},{y * T}) '
                   f'rotate({rotation},{T / 2},{T / 2})">{_figure(kind, ax, ay, COLOURS[player])}</g>')
    return out


def render_svg(state, names=None, title: str | None = None) -> str:
    """An SVG document of the position: the board, the figures, the Count's quarters and the scores."""
    tiles = state.tiles()
    geometry = {tile_id: _meeple.tile_geometry(tile_id) for tile_id in {t[0] for t in tiles}}
    xs, ys = [t[1] for t in tiles] or [0], [t[2] for t in tiles] or [0]
    left, top = (min(xs) - 1) * T, (min(ys) - 1) * T
    width, board_height = (max(xs) - min(xs) + 3) * T, (max(ys) - min(ys) + 3) * T
    header = 26 * (state.num_players + 1) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{board_height + header}" '
             f'viewBox="{left} {top - header} {width} {board_height + header}" font-family="sans-serif">',
             f'<rect x="{left}" y="{top - header}" width="{width}" height="{board_height + header}" fill="#f7f3e8"/>']
    if title:
        parts.append(f'<title>{escape(title)}</title>')
    parts.append('<g class="board">')
    for tile_id, x, y, rotation in tiles:
        parts.append(f'<g class="tile" data-tile="{escape(tile_id)}" transform="translate({x * T},{y * T}) rotate({rotation},{T / 2},{T / 2})">')
        parts.extend(_tile_body(geometry[tile_id]))
        parts.append("</g>")
    parts.append("</g>")
    parts.append('<g class="figures">')
    parts.extend(figure_svgs(state, tiles))
    parts.append("</g>")
    # Scores, one line per seat, and the Count's quarters when in play.
    names = list(names) if names else [f"seat {p}" for p in range(state.num_players)]
    quarters, count = state.quarters()
    y0 = top - header + 22
    status = "game over" if state.is_terminal else f"{state.tiles_left} tiles left, {state.phase}"
    parts.append(f'<text x="{left + 10}" y="{y0}" font-size="15" font-weight="bold">{escape(status)}</text>')
    for p, score in enumerate(state.scores):
        y = y0 + 24 * (p + 1)
        parts.append(f'<g class="score" data-player="{p}"><circle cx="{left + 18}" cy="{y - 5}" r="7" fill="{COLOURS[p]}"/>')
        text = f"{names[p]}: {score}"
        if count is not None and sum(quarters[p]):
            text += "  (Carcassonne: " + ", ".join(f"{n} {QUARTERS[q]}" for q, n in enumerate(quarters[p]) if n) + ")"
        parts.append(f'<text x="{left + 32}" y="{y}" font-size="14">{escape(text)}</text></g>')
    if count is not None:
        parts.append(f'<text x="{left + width - 10}" y="{y0}" font-size="13" text-anchor="end">the Count: {count}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def position_of_record(record_line: str, actions: int | None = None):
    """The state of a meeple-game/1 record after its first `actions` actions (all of them by default)."""
    record = json.loads(record_line)
    if actions is not None:
        if not 0 <= actions <= len(record["actions"]):
            raise ValueError(f"the record has {len(record['actions'])} actions; asked for the position after {actions}")
        record["actions"] = record["actions"][:actions]
        record.pop("result", None)
    return _meeple.replay(json.dumps(record), check_result=actions is None)


# ---- The pages (python -m meeple play, meeple view) draw boards in the browser (board.js) from these. ----

def tile_symbols(tile_ids) -> str:
    """SVG <defs> holding each tile as printed, id "tile-" + its id, for board.js's <use> elements."""
    return "<defs>" + "".join(f'<g id="tile-{escape(t)}">{tile_svg(t)}</g>' for t in tile_ids) + "</defs>"


def page_assets(tile_ids) -> str:
    """What a page needs to draw boards: the tile symbols, their names in words, board.js."""
    tile_ids = sorted(set(tile_ids))
    script = resources.files(__package__).joinpath("board.js").read_text()
    names = json.dumps({t: tile_name(t) for t in tile_ids}).replace("</", "<\\/")
    return (f'<svg class="symbols" width="0" height="0" style="position: absolute">{tile_symbols(tile_ids)}</svg>\n'
            f"<script>\nconst TILE_SIZE = {T}, COLOURS = {json.dumps(COLOURS)}, TILE_NAMES = {names};\n{script}</script>")


def board_data(state) -> dict:
    """A position as board.js draws it: tiles [id, x, y, rotation] in placement order, figures as SVG, which
    tile was placed last (None while only the starting tiles lie there), the tiles left, and with the Count
    his quarter and each seat's followers per quarter of Carcassonne."""
    tiles = state.tiles()
    start = _meeple.State(state.rules).num_tiles  # the start tile, the River's spring, the City of Carcassonne
    quarters, count = state.quarters()
    return {"tiles": [list(t) for t in tiles], "figures": figure_svgs(state, tiles),
            "last": len(tiles) - 1 if len(tiles) > start else None, "tiles_left": state.tiles_left,
            "carcassonne": None if count is None else {"count": count, "quarters": QUARTERS, "followers": quarters}}


def final_account(before_last, last) -> dict | None:
    """The account of the end as the pages show it, from the position before the game's last action and that
    action (None if it does not end the game): "features", what final scoring paid feature by feature (the
    engine's State.final_account: each entry in words, the cells of its tiles, the seats paid and each seat's
    points), and "seats", per seat the score before final scoring, its points by category and the final score."""
    account = before_last.final_account(last)
    if account is None:
        return None
    features = [{"text": scored_words(f), "what": f["what"], "category": f["category"], "cells": [list(c) for c in f["cells"]],
                 "paid": f["paid"], "points": f["points"]} for f in account["features"]]
    seats = []
    for p, before in enumerate(account["before"]):
        row = {"before": sum(before.values())}
        row.update({c: sum(f["points"][p] for f in features if f["category"] == c) for c in _meeple.SCORE_CATEGORIES})
        row["final"] = row["before"] + sum(row[c] for c in _meeple.SCORE_CATEGORIES)
        seats.append(row)
    return {"seats": seats, "features": features}


def action_of(before, record_action: dict):
    """The Action a record's action (an entry of its "actions") stands for in the position `before` it."""
    candidates = [a for a, _ in before.chance_outcomes()] if before.is_chance else before.legal_actions()
    for action in candidates:
        if _meeple.action_json(before, action) == record_action:
            return action
    raise ValueError(f"the record's action {json.dumps(record_action)} is not legal in the position before it")
