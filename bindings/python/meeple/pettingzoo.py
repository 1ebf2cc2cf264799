"""meeple as a PettingZoo AEC environment (pip install .[envs]).

    from meeple.pettingzoo import env
    game = env(players=3, expansions=["river2"], options={"small_city": "two_points"})
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(game.np_random.choice(mask.nonzero()[0]))
        game.step(action)

Agents are "player_0" .. "player_<n-1>", seat order. An agent acts several times in a row within its turn
(placement, then follower, ...); the tile draws happen inside step() (the seed of reset() fixes their order,
as meeple.Dealer does). Observations are the board encoding seen from the agent's seat (meeple.environment,
docs/environments.md): {"observation": uint8 planes [planes, WINDOW, WINDOW], "flat": float32 [flat_size],
"action_mask": int8 [meeple.NUM_ACTION_IDS]} (the mask is all zeros for agents not acting). Rewards are
zero-sum win utilities at the end. step() takes integer ids only (Python or numpy integers): a float, a
string, a bool or an id outside the action space is a TypeError or ValueError naming it, and an id that is
not legal is a ValueError; either way nothing changes.

Truncation: a board that outgrows the encoding's window (see meeple.environment) ends the game for every
agent with truncations True, rewards 0 and infos[agent]["truncation"] saying why.

There is no parallel API (pettingzoo.utils.aec_to_parallel): it steps every live agent at once, and
Carcassonne is turn-based, one seat deciding at a time, often several decisions in a row, so every parallel
step would be one agent's action and the others' no-ops; the AEC API says exactly that.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import _meeple
from .environment import SeatView, make_rules
from .gymnasium import observation_space


def env(players: int | None = None, expansions=(), options=None, render_mode: str | None = None, rules=None):
    """The AEC environment (see the module's doc); render_mode "ansi" returns the position as text. rules: a
    meeple.Rules or its text; players (default 2), expansions and options are shorthand for its words."""
    return CarcassonneAEC(players, expansions, options, render_mode, rules)


class CarcassonneAEC(AECEnv):
    metadata = {"name": "meeple_carcassonne_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players=None, expansions=(), options=None, render_mode=None, rules=None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.view = SeatView(make_rules(players, expansions, options, rules=rules))
        self.possible_agents = [f"player_{p}" for p in range(self.view.players)]
        observation = observation_space(self.view)
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.view.num_actions) for a in self.possible_agents}
        self.position = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None or not hasattr(self, "_seeds"):
            self._seeds = np.random.default_rng(seed)
        self.np_random = np.random.default_rng(int(self._seeds.integers(2**63)))
        self.position = _meeple.State(self.view.rules)
        self.dealer = _meeple.Dealer(int(self._seeds.integers(2**63)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._deal()
        self._moved()

    def _deal(self):
        while self.position.is_chance:
            self.position.apply(self.dealer.deal(self.position))

    def _moved(self):
        """After each move: the observations to come, whose turn, and the end of the game (over, or truncated
        because the board outgrew the window)."""
        s = self.position
        self._seen = {}  # seat -> (observation, fits) of this position, not yet handed out
        self._mask, outside = self.view.mask(s, np.empty(self.view.num_actions, np.int8))
        if s.is_terminal:
            for a, r in zip(self.possible_agents, self.view.returns(s)):
                self.rewards[a] = r
                self.terminations[a] = True
                self.infos[a] = {"scores": s.scores}
            self.agent_selection = self.possible_agents[0]
            return
        seat = s.current_player
        self._seen[seat] = self.view.observe(s, seat)
        truncation = self.view.truncation(self._seen[seat][1], outside)  # fits is the position's, whoever looks
        if truncation is not None:
            for a in self.possible_agents:
                self.truncations[a] = True
                self.infos[a] = {"scores": s.scores, "truncation": truncation}
            self.agent_selection = self.possible_agents[0]
            return
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        # The one made in _moved() serves the first call (last()); any later one gets arrays of its own.
        observation = (self._seen.pop(seat, None) or self.view.observe(self.position, seat))[0]
        acting = self.position.current_player == seat and not self.truncations[agent]
        observation["action_mask"] = self._mask.copy() if acting else np.zeros(self.view.num_actions, np.int8)
        return observation

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        # ValueError, nothing changed, if not legal
        self.position.apply(self.view.action(self.position, action, self._mask.view(np.bool_)))
        self._deal()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._moved()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            return None
        s = self.position
        return f"{s!r}\nphase {s.phase}, tile in hand {s.drawn_tile}, scores {s.scores}"

    def close(self):
        pass
