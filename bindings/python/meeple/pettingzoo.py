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
as meeple.Dealer does). Observations are {"observation": float32 [SeatView.observation_size], "action_mask":
int8 [meeple.ACTION_IDS]} (meeple.environment documents both; the mask is all zeros for agents not acting).
Rewards are zero-sum win utilities at the end. step() takes integer ids only (Python or numpy integers):
a float, a string, a bool or an id outside the action space is a TypeError or ValueError naming it, and an
id that is not legal is a ValueError; either way nothing changes.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import _meeple
from .environment import SeatView, make_rules


def env(players: int = 2, expansions=(), options=None, window: int = 31, render_mode: str | None = None):
    """The AEC environment (see the module's doc); render_mode "ansi" returns the position as text."""
    return CarcassonneAEC(players, expansions, options, window, render_mode)


class CarcassonneAEC(AECEnv):
    metadata = {"name": "meeple_carcassonne_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players=2, expansions=(), options=None, window=31, render_mode=None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.view = SeatView(make_rules(players, expansions, options), window)
        self.possible_agents = [f"player_{p}" for p in range(self.view.players)]
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.view.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.view.num_actions,), np.int8),
        })
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
        self.agent_selection = self.possible_agents[self.position.current_player]

    def _deal(self):
        while self.position.is_chance:
            self.position.apply(self.dealer.deal(self.position))

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        acting = self.position.current_player == seat
        return {"observation": self.view.observe(self.position, seat),
                "action_mask": self.view.mask(self.position) if acting else np.zeros(self.view.num_actions, np.int8)}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self.position.apply(self.view.action(self.position, action))  # ValueError, nothing changed, if not legal
        self._deal()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.position.is_terminal:
            for a, r in zip(self.possible_agents, self.view.returns(self.position)):
                self.rewards[a] = r
                self.terminations[a] = True
                self.infos[a] = {"scores": self.position.scores}
            self.agent_selection = self.possible_agents[0]
        else:
            self.agent_selection = self.possible_agents[self.position.current_player]
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            return None
        s = self.position
        return f"{s!r}\nphase {s.phase}, tile in hand {s.drawn_tile}, scores {s.scores}"

    def close(self):
        pass
