"""meeple as a single-agent Gymnasium environment: one seat against meeple bots (pip install .[envs]).

    from meeple.gymnasium import CarcassonneEnv
    env = CarcassonneEnv(opponents=["greedy"], expansions=["river2"])  # or gymnasium.make("meeple/Carcassonne-v0", ...)
    observation, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

The game has 1 + len(opponents) seats; the learner sits at `seat` (None: a random seat each episode). The
opponents (bot specs as for meeple.make_player, made afresh each episode, or meeple.Player objects, kept
across episodes: a Python Player wrapping the learner's own policy gives self-play; one object may sit in
several seats) play their moves and the tiles are drawn inside step(), so
the learner sees only its own decisions; several come in a row within its turn (placement, follower...).
Observations are the board encoding seen from the learner's seat (meeple.environment, docs/environments.md):
{"observation": uint8 planes [planes, WINDOW, WINDOW], "flat": float32 [flat_size], "action_mask": int8
[meeple.NUM_ACTION_IDS]} (int8, as action_space.sample(mask) takes it); action_masks() gives the mask as bool
(for sb3-contrib's maskable algorithms). The reward is 0 until the end, then the learner's zero-sum win
utility (1 for a sole win, -1 / (number of opponents) for a loss). info holds the scores and the seat.

Truncation: a board that outgrows the encoding's window (far beyond anything random or searching play
reaches, see meeple.environment) ends the episode at the learner's next decision with truncated=True, reward
0 and info["truncation"] saying why; the observation, whose flat field outside_window is 1, is the last.

An action that is not legal (not in the mask) ends the episode with reward -1 and info["illegal_action"]
saying why, the position unchanged (illegal_action="lose", the default, which is what random sampling from
action_space meets, as gymnasium's check_env does); illegal_action="raise" raises ValueError instead. What is
not an id at all (a float, a string, a bool, an integer outside the action space) is a TypeError or
ValueError naming it either way: it is not rounded, parsed or counted from the end.
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _meeple
from .checks import integer
from .environment import SeatView, make_rules
from .tournament import bot_name, check_bots


class CarcassonneEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, opponents=("greedy",), seat: int | None = 0, expansions=(), options=None,
                 render_mode: str | None = None, illegal_action: str = "lose", rules=None):
        opponents = check_bots([opponents] if isinstance(opponents, (str, _meeple.Player)) else opponents, "opponents")
        if not 1 <= len(opponents) < _meeple.MAX_PLAYERS:
            raise ValueError(f"opponents: give 1 to {_meeple.MAX_PLAYERS - 1} bot specs, got {len(opponents)}")
        players = 1 + len(opponents)
        seat = None if seat is None else integer("seat (or None: random)", seat, 0, players - 1)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.view = SeatView(make_rules(None, expansions, options, rules=rules, default_players=players))
        if self.view.players != players:
            raise ValueError(f"the rules seat {self.view.players} players, but {len(opponents)} opponents and the "
                             f"learner make {players}")
        self.opponents, self.fixed_seat, self.render_mode = opponents, seat, render_mode
        self.observation_space = observation_space(self.view)
        self.action_space = spaces.Discrete(self.view.num_actions)
        self.position, self.over = None, True
        self._mask = np.zeros(self.view.num_actions, np.int8)  # the learner's decision's, for step()

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.over = True  # until the new episode stands (a bot that refuses the rules fails here)
        draw = lambda: int(self.np_random.integers(2**63))  # noqa: E731
        players = self.view.players
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(players))
        others = iter(self.opponents)
        self.bots = [None if p == self.seat else seated(next(others), draw()) for p in range(players)]
        names = ["learner" if b is None else bot_name(b) for b in self.bots]
        self.table = _meeple.Table(self.view.rules, self.bots, names, draw(), keep_record=False)
        self._play_others()
        observation, truncation = self._observe()
        return observation, self._info(truncation)

    def step(self, action):
        if self.over:
            raise RuntimeError("the episode is over (or never began): call reset()")
        action = self.view.action_id(action)  # not an id (a float, a string, out of range): an error whatever illegal_action
        try:
            chosen = self.view.action(self.position, action, self._mask.view(np.bool_))
        except ValueError as e:
            if self.illegal_action == "raise":
                raise
            observation, _ = self._observe()  # the same position, in new arrays
            self.over = True
            return observation, -1.0, True, False, self._info() | {"illegal_action": str(e)}
        self._apply(chosen)
        self._play_others()
        observation, truncation = self._observe()
        terminated = self.position.is_terminal
        reward = self.view.returns(self.position)[self.seat] if terminated else 0.0
        return observation, reward, terminated, truncation is not None, self._info(truncation)

    def action_masks(self) -> np.ndarray:
        return self._mask.astype(bool)

    def render(self):
        if self.render_mode is None:
            return None
        s = self.position
        return f"{s!r}\nlearner at seat {self.seat}, phase {s.phase}, tile in hand {s.drawn_tile}, scores {s.scores}"

    def _apply(self, action):
        try:
            self.table.act(action)  # (the position is read once, after the opponents' turns that follow)
        except BaseException:
            self.over = True  # an opponent failed while told the action: the episode cannot go on
            self.position = self.table.state
            raise

    def _play_others(self):
        """Draws and the opponents' decisions, up to the learner's next decision or the end."""
        try:
            self.table.advance()
        except BaseException:
            self.over = True  # an opponent failed: not the learner's turn, so the episode cannot go on
            raise
        finally:
            self.position = self.table.state

    def _observe(self):
        """The learner's observation (its mask kept for step()) and why the episode is truncated, or None; sets
        self.over when the episode ends here."""
        observation, fits = self.view.observe(self.position, self.seat)
        self._mask, outside = self.view.mask(self.position, np.empty(self.view.num_actions, np.int8))
        observation["action_mask"] = self._mask
        terminated = self.position.is_terminal
        truncation = None if terminated else self.view.truncation(fits, outside)
        self.over = terminated or truncation is not None
        return observation, truncation

    def _info(self, truncation=None):
        info = {"scores": self.position.scores, "seat": self.seat}
        return info if truncation is None else info | {"truncation": truncation}


def observation_space(view: SeatView) -> spaces.Dict:
    """The observation of SeatView with its int8 mask, in Gymnasium's and PettingZoo's environments."""
    return spaces.Dict({
        "observation": spaces.Box(0, 255, view.plane_shape, np.uint8),
        "flat": spaces.Box(-np.inf, np.inf, (view.flat_size,), np.float32),
        "action_mask": spaces.MultiBinary(view.num_actions),
    })


def seated(opponent, seed: int):
    """The player for an episode: a new C++ bot from a spec (seeded from the episode's seed), or the very
    meeple.Player object given (kept across episodes, as self-play wants)."""
    return _meeple.make_player(opponent, seed) if isinstance(opponent, str) else opponent


gymnasium.register("meeple/Carcassonne-v0", entry_point=CarcassonneEnv)
