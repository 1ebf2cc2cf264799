"""What the environment wrappers share (meeple.openspiel, meeple.pettingzoo, meeple.gymnasium): one seat's view
of a game through the board encoding meeple.Encoding (ai/encoding.h; docs/environments.md has its tables),
integer actions in its fixed id space, and zero-sum rewards.

    view = meeple.environment.SeatView(meeple.Rules(players=2))
    observation, fits = view.observe(state, seat=1)   # {"observation": uint8 planes, "flat": float32 vector}
    mask, outside = view.mask(state)                   # bool [NUM_ACTION_IDS]; legal actions without an id
    action = view.action(state, action_id)             # the legal action of an id, or a clear error

Observation of seat s: the encoding's planes (uint8 [planes, WINDOW, WINDOW]) and flat vector (float32),
seats counted from s round the table. Every seat sees the whole position: the game has perfect information,
the tile order being the only hidden thing and no one knowing it.

Actions are the encoding's ids, the same for every rules and board and aligned with the planes: a
placement is 1 + 4 * (row * WINDOW + column) + rotation, a deploy names the figure and the segment of the
tile just placed, and so on (meeple.ACTION_ID_BLOCKS). The mask is legal_mask's: True at the id of every
legal action.

The window. The planes cover WINDOW x WINDOW cells around the board, which held every one of 40,000 random
games of every expansion set. A board that grows past it is never cropped silently: truncation() says why
an episode must end there (observe's fits is False, or a legal action has no id), and the wrappers that
can truncate (Gymnasium, PettingZoo, meeple.vector) end the episode as truncated; OpenSpiel, which cannot,
raises BoardOutgrewWindow.

Rewards are zero at every step but the last, which gives each seat n / (n - 1) * its share of the win - 1 /
(n - 1): 1 to a sole winner, -1 / (n - 1) to each loser, 0 to two tied winners of a 2-player game; the sum
is always 0.
"""
from __future__ import annotations

import re

import numpy as np

from . import _meeple
from .checks import integer


class BoardOutgrewWindow(ValueError):
    """The board grew past the encoding's window, so the position has no complete encoding (see the module's
    doc): raised where an episode cannot be truncated (OpenSpiel)."""


def as_rules(rules) -> _meeple.Rules:
    """`rules` as a meeple.Rules: a Rules, or its text in Rules.parse's one grammar
    ("players=3 expansions=river2,count small_city=two_points")."""
    if isinstance(rules, _meeple.Rules):
        return rules
    if isinstance(rules, str):
        return _meeple.Rules.parse(rules)
    raise TypeError(f"rules must be a meeple.Rules or its text such as 'players=3 expansions=river2', "
                    f"got {type(rules).__name__}")


def make_rules(players=None, expansions=(), options=None, *, rules=None, default_players=2) -> _meeple.Rules:
    """The one Rules value: `rules` (a Rules or its text) with `players`, `expansions` and `options` as
    shorthand for words of the same text, so a name given both ways is refused as given twice. Without a
    player count anywhere, `default_players` (a text may leave the count open; a Rules always has one).

    expansions: a list, or a string with the names separated by "+" or "," ("river2+count").
    options: a dict (a set option's values as a list), or a string of name:value (or name=value) items
    separated by ";" or spaces, a set option's values joined with "+" ("small_city:two_points;shrine_sets:ckr+csc").
    OpenSpiel parameters use the "+" and ":" forms, which its game strings can carry.
    """
    # A text's own words (a player count it lacks is still open); a Rules' text has them all.
    words = [] if rules is None else rules.split() if isinstance(rules, str) else str(as_rules(rules)).split()
    if players is not None:
        words.append(f"players={integer('players', players, 2, _meeple.MAX_PLAYERS)}")
    if isinstance(expansions, str):
        expansions = [name for name in expansions.replace("+", ",").split(",") if name]
    # A list's items may themselves be comma lists, as the C++ command line's --expansions A,B.
    expansions = [name for item in expansions for name in one_word("expansion", item).split(",") if name]
    if expansions:
        words.append("expansions=" + ",".join(expansions))
    words += option_words(options)
    defaulted = default_players is not None and not any(word.startswith("players=") for word in words)
    if defaulted:
        words.append(f"players={default_players}")
    try:
        return _meeple.Rules.parse(" ".join(words))
    except ValueError as e:
        raise ValueError(f"{e} (the game as given: {' '.join(words)!r}, from rules= and the players, expansions "
                         f"and options shorthand{', and the default player count' if defaulted else ''})") from None


def one_word(what: str, text, forbidden: str = " =") -> str:
    """`text` as one word of a rules text: a shorthand value with a space or "=" in it would add words of its own."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a string, got {text!r}")
    if not text or any(c in text for c in forbidden) or any(c.isspace() for c in text):
        raise ValueError(f"{what} {text!r} is not one name: no spaces or {' '.join(repr(c) for c in forbidden.strip())}")
    return text


def option_words(options) -> list[str]:
    """Options (see make_rules) as name=value words of a rules text."""
    if options is None:
        return []
    if isinstance(options, str):
        options = options.replace(";", " ").split()
    if isinstance(options, dict):
        items = []
        for name, value in options.items():
            one_word("an option name", name)
            if isinstance(value, (list, tuple, set, frozenset)):
                value = "+".join(one_word(f"a value of option {name}", v, " =+") for v in value)
            if not isinstance(value, str):
                raise TypeError(f"option {name}: expected a string (or a list of strings for a set option), got {value!r}")
            items.append(f"{name}={one_word(f'the value of option {name}', value)}")
        return items
    words = []
    for item in options:
        if not isinstance(item, str):
            raise TypeError(f"an option item must be a string name=value, got {item!r}")
        name_value = re.split("[=:]", item, maxsplit=1)
        if len(name_value) < 2:
            raise ValueError(f"option {item!r} needs a value: name=value or name:value, e.g. small_city=two_points")
        words.append(f"{one_word('an option name', name_value[0])}={one_word(f'the value of option {name_value[0]}', name_value[1])}")
    return words


def with_players(rules, players: int) -> _meeple.Rules:
    """The same game (expansions, options) for another number of seats: self-play of 3 is gated head to head."""
    return make_rules(players, rules=" ".join(w for w in str(as_rules(rules)).split() if not w.startswith("players=")),
                      default_players=None)


def win_utilities(scores) -> list[float]:
    """Zero-sum rewards from final scores (see the module's doc)."""
    n = len(scores)
    return [n / (n - 1) * share - 1 / (n - 1) for share in _meeple.win_shares(list(scores))]


class SeatView:
    """One seat's observation, the legal mask and integer actions of games under `rules`, through
    meeple.Encoding (see the module's doc)."""

    def __init__(self, rules: _meeple.Rules):
        self.rules, self.players = rules, rules.players
        self.encoding = _meeple.Encoding(self.players)
        self.plane_shape = tuple(self.encoding.plane_shape)
        self.flat_size = self.encoding.flat_size
        self.tensor_size = self.encoding.tensor_size  # observe_into's floats: the planes, then the flat vector
        self.num_actions = _meeple.NUM_ACTION_IDS

    def __reduce__(self):  # copies and pickles (OpenSpiel's games and states) rebuild it from the rules
        return SeatView, (self.rules,)

    def observe(self, state, seat: int) -> tuple[dict, bool]:
        """({"observation": planes uint8, "flat": float32}, fits) of seat `seat` (new arrays)."""
        planes, flat, fits = self.encoding.observe(state, seat)
        return {"observation": planes, "flat": flat}, fits

    def observe_into(self, state, seat: int, out: np.ndarray) -> bool:
        """The observation as one float32 vector written over `out` (tensor_size: the planes as floats, then
        the flat vector; split() names its parts); returns fits."""
        return self.encoding.observe_into(state, seat, out)

    def split(self, tensor: np.ndarray) -> dict:
        """Named views into an observe_into vector: {"observation": the planes, "flat": the flat vector}."""
        planes = int(np.prod(self.plane_shape))
        return {"observation": tensor[:planes].reshape(self.plane_shape), "flat": tensor[planes:]}

    def mask(self, state, out: np.ndarray | None = None) -> tuple[np.ndarray, int]:
        """(mask, outside): True (1) at the id of every legal action, in a new bool array or written over `out`
        (bool, int8 or uint8 [num_actions]); outside counts the legal actions that have no id (0 unless the
        board outgrew the window). All zeros at chance and terminal nodes."""
        mask = np.empty(self.num_actions, np.bool_) if out is None else out
        return mask, self.encoding.legal_mask_into(state, mask)

    @staticmethod
    def truncation(fits: bool, outside: int = 0) -> str | None:
        """Why the episode cannot go on in this encoding, or None (from observe's fits and mask's outside)."""
        if fits and not outside:
            return None
        lost = f"; {outside} legal action(s) have no id" if outside else ""
        return (f"the board outgrew the encoding's {_meeple.WINDOW} x {_meeple.WINDOW} window{lost}: the planes "
                "would miss tiles, so the episode ends here rather than go on with a cropped board")

    def action_id(self, value) -> int:
        """An action id as a Python int: only integers (Python ints, numpy integer scalars and arrays of no
        dimensions; not bool) are ids, and only 0 .. num_actions - 1. Anything else is a TypeError or
        ValueError naming the value: a float or a string is not rounded or parsed into an id, a negative
        id does not count from the end."""
        return integer("action id", value, 0, self.num_actions - 1)

    def action(self, state, action_id, mask: np.ndarray | None = None) -> _meeple.Action:
        """The legal action of an id; TypeError or ValueError (action id) if it is not an id, ValueError
        naming the legal ids if it is not legal. `mask`: this state's mask, if already at hand."""
        action_id = self.action_id(action_id)
        if mask is None:
            mask, _ = self.mask(state)
        if not mask[action_id]:
            ids = np.flatnonzero(mask)
            shown = ", ".join(str(x) for x in ids[:12]) + (", ..." if len(ids) > 12 else "")
            raise ValueError(f"action id {action_id} is not legal here (phase {state.phase}, seat "
                             f"{state.current_player}); legal ids: [{shown}]")
        return self.encoding.action_of(state, action_id)

    def returns(self, state) -> list[float]:
        """Per seat: the win utilities once the game is over, zeros before."""
        return win_utilities(state.scores) if state.is_terminal else [0.0] * self.players
