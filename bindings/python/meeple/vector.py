"""Many Carcassonne games stepped together in C++ threads, as a Gymnasium vector environment.

    from meeple.vector import VectorEnv
    env = VectorEnv(num_envs=128, rules="players=2", opponents=["greedy"], seed=1)
    obs, infos = env.reset(seed=1)
    while training:
        actions = policy(obs["observation"], obs["flat"], obs["action_mask"])   # int [num_envs]
        obs, rewards, terminations, truncations, infos = env.step(actions)

Observations are the board encoding (meeple.Encoding, docs/environments.md): obs["observation"] is uint8
[num_envs, planes, WINDOW, WINDOW], obs["flat"] float32 [num_envs, flat_size], obs["action_mask"] bool
[num_envs, NUM_ACTION_IDS]; each game is seen from the seat that acts (the learner against opponents,
the seat to move in self-play). Actions are ids of that space, one per game.

Against opponents (a bot spec for every game, or one per game: any spec meeple.make_player takes) the
learner's seat moves round the table from one episode to the next; the reward, at the end of a game, is the
learner's share of the win as in meeple.environment (1 to a sole winner, -1 / (n - 1) to each loser).
`opponents=None` is self-play: the caller acts for whichever seat is to move (infos["to_play"]), and the
reward at the end is that of the seat that made the last move; infos["returns"] has every seat's.

Games restart as Gymnasium's vector environments do by default (AutoresetMode.NEXT_STEP): after a step that
ends game i (terminated, or truncated because its board outgrew the encoding's window, which the encoding
reports rather than crops), the next step starts a new game there and ignores its action. The C++ threads
run with the GIL released and write into arrays allocated once; with copy=False the arrays returned are
those buffers, overwritten by the next step. Threads sharing one VectorEnv take turns: each reset() or
step() runs whole (ids in, games moved, results copied out) before the next starts.

Bad actions (not integers, out of range, not legal in their game) raise TypeError or ValueError naming the
env index, before any game moves; the action of an env that restarts at this step is ignored, whatever it is.
"""
from __future__ import annotations

import os
import threading

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from . import _meeple
from .environment import as_rules
from .checks import integer, shown

__all__ = ["VectorEnv"]


class VectorEnv(gymnasium.vector.VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 8, rules: "_meeple.Rules | str" = "players=2", opponents=("greedy",),
                 seed: int = 0, threads: int | None = None, copy: bool = True):
        num_envs = integer("num_envs", num_envs, 1, 65536)
        rules = as_rules(rules)
        if opponents is None:
            opponents = []
        elif isinstance(opponents, str):
            opponents = [opponents]
        opponents = list(opponents)
        for i, spec in enumerate(opponents):
            if not isinstance(spec, str):
                raise TypeError(f"opponents[{i}] must be a bot spec string (e.g. 'greedy'), got {shown(spec)}")
        threads = integer("threads", threads if threads is not None else (os.cpu_count() or 1), 1, 256)
        self._seed = integer("seed", seed, 0, 2**63 - 1)
        self._core = _meeple.VectorEnvCore(rules, num_envs, opponents, self._seed, threads)
        self.rules, self.num_envs, self.copy = rules, num_envs, bool(copy)
        self.self_play = not opponents
        self.encoding = _meeple.Encoding(rules.players)
        planes_shape = self.encoding.plane_shape
        n, ids = num_envs, _meeple.NUM_ACTION_IDS
        self._out = {
            "planes": np.zeros((n, *planes_shape), np.uint8),
            "flat": np.zeros((n, self.encoding.flat_size), np.float32),
            "mask": np.zeros((n, ids), np.uint8),
            "reward": np.zeros(n, np.float32),
            "terminated": np.zeros(n, np.uint8),
            "truncated": np.zeros(n, np.uint8),
            "to_play": np.zeros(n, np.int32),
            "returns": np.zeros((n, rules.players), np.float32),
        }
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0, 255, planes_shape, np.uint8),
            "flat": spaces.Box(-np.inf, np.inf, (self.encoding.flat_size,), np.float32),
            "action_mask": spaces.MultiBinary(ids),
        })
        self.single_action_space = spaces.Discrete(ids)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._ids = np.zeros(n, np.int64)
        self._restarting = np.zeros(n, np.bool_)  # ended at the last step: restarts at the next, its action ignored
        self._turn = threading.Lock()  # one reset() or step() at a time, from its ids to its results

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Starts a game in every env: (obs, infos). `seed` fixes every tile order and bot from here on."""
        if seed is not None:
            seed = integer("seed", seed, 0, 2**63 - 1)
        super().reset(seed=seed)
        with self._turn:
            if seed is not None:
                self._seed = seed
            self._core.reset(self._seed, self._out)
            self._restarting[:] = False
            return self._observation(), self._infos()

    def step(self, actions):
        """One action id per env (integers: a list, or a numpy integer array of shape [num_envs])."""
        if isinstance(actions, (list, tuple)) and len(actions) == self.num_envs:
            entries = actions  # as given: numpy would make [1, True] ints and [1, [2]] a ragged-array error
        else:
            ids = np.asarray(actions)
            if ids.shape != (self.num_envs,):
                raise ValueError(f"actions must have shape ({self.num_envs},): one id per env, got shape {ids.shape}")
            entries = None if ids.dtype.kind in "iu" else ids.tolist()  # bool, float, objects, text: each looked at
        if entries is not None:  # the first entry that is no integer is named
            ids = np.array([integer(f"env {i}: action id", v) for i, v in enumerate(entries)], dtype=object)
        with self._turn:
            # Out of range (also what int64 cannot hold) is named here; legality in C++, both before any game moves.
            bad = np.flatnonzero(((ids < 0) | (ids >= _meeple.NUM_ACTION_IDS)) & ~self._restarting)
            if bad.size:
                i = int(bad[0])
                raise ValueError(f"env {i}: action id {ids[i]} is out of range (0 to {_meeple.NUM_ACTION_IDS - 1})")
            self._ids[:] = np.where(self._restarting, 0, ids)
            self._core.step(self._ids, self._out)
            out = self._out
            terminated, truncated = out["terminated"].view(np.bool_), out["truncated"].view(np.bool_)
            np.logical_or(terminated, truncated, out=self._restarting)
            return (self._observation(), self._take(out["reward"]), self._take(terminated), self._take(truncated),
                    self._infos())

    def state(self, index: int) -> _meeple.State:
        """A copy of game `index`'s position (to render it, or to check what the arrays say)."""
        return self._core.state(integer("index", index, 0, self.num_envs - 1))

    def _take(self, array):
        return array.copy() if self.copy else array

    def _observation(self) -> dict:
        out = self._out
        return {"observation": self._take(out["planes"]), "flat": self._take(out["flat"]),
                "action_mask": self._take(out["mask"].view(np.bool_))}

    def _infos(self) -> dict:
        return {"to_play": self._take(self._out["to_play"]), "returns": self._take(self._out["returns"])}
