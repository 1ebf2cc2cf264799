"""What the environment wrappers share (meeple.openspiel, meeple.pettingzoo, meeple.gymnasium): a game seen
as integer actions, one seat's observation as arrays, and zero-sum rewards.

    game = meeple.environment.SeatView(meeple.Rules(players=2))
    ids, actions = game.legal(state)             # every legal action and its id (< meeple.ACTION_IDS)
    obs = game.observe(state, seat=1)            # float32, game.observation_size; game.split(obs) names parts

Actions. Ids are meeple.legal_action_ids: placements and abbeys number their cell by its rank among the
decision's legal cells, so every legal action has an id, in a space of fixed size whatever the board. A
deploy's id names the figure and the segment in the placed tile's own numbering (meeple.tile_geometry);
wagon and redeploy ids name the engine's feature node (meeple.action_json gives their board location).

Observation of seat s (every seat sees the whole position: the game has perfect information, the tile
order being the only hidden thing and no one knowing it), flattened in this order:
- planes: meeple.board_planes over a window of `window` x `window` cells around the board, with the figure
  planes (any figure kind) rotated so that plane 18 is seat s, 19 the next seat clockwise, and so on;
- tile: one-hot of the tile in hand (indexed like meeple.tile_ids()), zeros when none;
- placed: one-hot of the last tile placed (where a deploy goes), then 4 for its rotation;
- phase: one-hot of the phase (meeple.PHASES);
- acting: one-hot of the seat deciding, counted from s round the table (zeros at chance and at the end);
- remaining: copies of each tile type still to come, / 10;
- scores: the current scores from seat s round the table, / 100;
- features: the evaluator features (meeple.FEATURE_NAMES) of each seat from s round the table.

Rewards are zero at every step but the last, which gives each seat n / (n - 1) * its share of the win - 1 /
(n - 1): 1 to a sole winner, -1 / (n - 1) to each loser, 0 to two tied winners of a 2-player game; the sum
is always 0.
"""
from __future__ import annotations

import re

import numpy as np

from . import _meeple
from .checks import integer

_PLANES = 18  # board planes before the figure planes (one per seat): see meeple.board_planes


def make_rules(players=2, expansions=(), options=None) -> _meeple.Rules:
    """Rules from the environments' parameters, names and values as `meeple info` lists them.

    expansions: a list, or a string with the names separated by "+" or "," ("river2+count").
    options: a dict, or a string of name:value (or name=value) items separated by ";" or spaces, a set
    option's values joined with "+" ("small_city:two_points;shrine_sets:ckr+csc"). OpenSpiel parameters
    use the "+" and ":" forms, which its game strings can carry.
    """
    players = integer("players", players, 2, _meeple.MAX_PLAYERS)
    if isinstance(expansions, str):
        expansions = [name for name in expansions.replace("+", ",").split(",") if name]
    if isinstance(options, str):
        options = parse_options(options.replace(";", " ").split())
    return _meeple.Rules(players=players, expansions=list(expansions), options=options or {})


def parse_options(items) -> dict:
    """Option items, each name=value or name:value (a set option's values joined with "+"), as a dict."""
    parsed = {}
    for item in items:
        name_value = re.split("[=:]", item, maxsplit=1)
        if len(name_value) < 2:
            raise ValueError(f"option {item!r} needs a value: name=value or name:value, e.g. small_city=two_points")
        parsed[name_value[0]] = name_value[1]
    return parsed


def win_utilities(scores) -> list[float]:
    """Zero-sum rewards from final scores (see the module's doc)."""
    n = len(scores)
    return [n / (n - 1) * share - 1 / (n - 1) for share in _meeple.win_shares(list(scores))]


class SeatView:
    """Integer actions and one seat's observation for games under `rules`."""

    def __init__(self, rules: _meeple.Rules, window: int = 31):
        window = integer("window", window, 3, 255)  # cells across
        self.rules, self.window, self.players = rules, window, rules.players
        self.tile_index = {tile: i for i, tile in enumerate(_meeple.tile_ids())}
        tiles, features = len(self.tile_index), len(_meeple.FEATURE_NAMES)
        self.parts = {
            "planes": (_PLANES + self.players, window, window),
            "tile": (tiles,),
            "placed": (tiles + 4,),
            "phase": (len(_meeple.PHASES),),
            "acting": (self.players,),
            "remaining": (tiles,),
            "scores": (self.players,),
            "features": (self.players, features),
        }
        self._slices, start = [], 0  # (name, start, end, shape): computed once, split() runs every step
        for name, shape in self.parts.items():
            end = start + int(np.prod(shape))
            self._slices.append((name, start, end, shape))
            start = end
        self.observation_size = start
        self.num_actions = _meeple.ACTION_IDS

    def legal(self, state) -> tuple[np.ndarray, list]:
        """(ids, actions) of the decision, ascending ids; empty at chance and terminal nodes."""
        return _meeple.legal_action_ids(state)

    def mask(self, state) -> np.ndarray:
        """int8 [num_actions]: 1 at the legal ids."""
        out = np.zeros(self.num_actions, np.int8)
        out[self.legal(state)[0]] = 1
        return out

    def action_id(self, value) -> int:
        """An action id as a Python int: only integers (Python ints, numpy integer scalars and arrays of no
        dimensions; not bool) are ids, and only 0 .. num_actions - 1. Anything else is a TypeError or
        ValueError naming the value: a float or a string is not rounded or parsed into an id, a negative
        id does not count from the end."""
        return integer("action id", value, 0, self.num_actions - 1)

    def action(self, state, action_id) -> _meeple.Action:
        """The legal action of an id; TypeError or ValueError (action_id) if it is not an id, ValueError
        naming the legal ids if it is not legal."""
        action_id = self.action_id(action_id)
        ids, actions = self.legal(state)
        i = int(np.searchsorted(ids, action_id))
        if i == len(ids) or ids[i] != action_id:
            shown = ", ".join(str(x) for x in ids[:12]) + (", ..." if len(ids) > 12 else "")
            raise ValueError(f"action id {action_id} is not legal here (phase {state.phase}, seat "
                             f"{state.current_player}); legal ids: [{shown}]")
        return actions[i]

    def observe(self, state, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """Seat `seat`'s observation, float32 [observation_size], written into `out` when given."""
        out = np.empty(self.observation_size, np.float32) if out is None else out
        view = self.split(out)
        order = [(seat + k) % self.players for k in range(self.players)]
        planes = _meeple.board_planes(state, self.window)
        view["planes"][:_PLANES] = planes[:_PLANES]
        view["planes"][_PLANES:] = planes[[_PLANES + p for p in order]]
        for part in ("tile", "placed", "phase", "acting"):
            view[part][:] = 0
        if state.drawn_tile is not None:
            view["tile"][self.tile_index[state.drawn_tile]] = 1
        tile_id, _, _, rotation = state.tiles()[-1]
        view["placed"][self.tile_index[tile_id]] = 1
        view["placed"][len(self.tile_index) + rotation // 90] = 1
        view["phase"][_meeple.PHASES.index(state.phase)] = 1
        if state.current_player >= 0:
            view["acting"][(state.current_player - seat) % self.players] = 1
        view["remaining"][:] = state.remaining_tiles() / 10
        view["scores"][:] = np.asarray(state.scores, np.float32)[order] / 100
        view["features"][:] = state.features()[order]
        return out

    def split(self, observation: np.ndarray) -> dict:
        """Named views into a flat observation: planes, tile, placed, phase, acting, remaining, scores,
        features."""
        return {name: observation[start:end].reshape(shape) for name, start, end, shape in self._slices}

    def returns(self, state) -> list[float]:
        """Per seat: the win utilities once the game is over, zeros before."""
        return win_utilities(state.scores) if state.is_terminal else [0.0] * self.players
