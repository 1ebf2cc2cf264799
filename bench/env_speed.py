"""Environment speed: decisions (env steps) per second through each interface, uniformly random legal actions,
2-player base game. A table with each row's ratio to the engine's own random games on the same cores, measured
in the same run (this machine is noisy: compare ratios, not rates across runs).

    .venv/bin/python bench/env_speed.py [--seconds 8] [--envs 128] [--rows vector,single,openspiel]

Rows:
- engine: C++ random bots playing whole games on every core (meeple.play_games): decisions a second, the
  decisions of a game counted from records of the same games;
- VectorEnv: meeple.vector.VectorEnv with N games, full observations (planes, flat vector) and masks, the
  ids picked uniformly among the legal ones in numpy from the masks (one flatnonzero over the batch), in
  self-play (every decision is a step) and against random opponents (only the learner's are);
- single environments from Python: OpenSpiel states and rl_environment, PettingZoo AEC, Gymnasium, and
  OpenSpiel's observation_tensor() alone (microseconds a call).
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import meeple
from meeple.vector import VectorEnv

RULES = meeple.Rules(players=2)


def rate(step, seconds):
    """Items per second of step() (which returns how many it did), over about `seconds` of wall time."""
    step()  # warm up
    start, items = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        items += step()
    return items / (time.perf_counter() - start)


def engine_rate(seconds, jobs):
    sample = meeple.play_games(RULES, [(["random", "random"], s) for s in range(200)], jobs, True)
    decisions = np.mean([sum("draw" not in a for a in json.loads(line)["actions"]) for _, line in sample])
    seed = [1000]

    def batch():
        games = [(["random", "random"], seed[0] + g) for g in range(2000)]
        seed[0] += 2000
        meeple.play_games(RULES, games, jobs)
        return 2000 * decisions
    return rate(batch, seconds)


def random_legal(masks, rng):
    """One uniformly random legal id per row of a bool [n, ids] array (0 for a row with none)."""
    n, width = masks.shape
    flat = np.flatnonzero(masks)
    rows = flat // width
    counts = np.bincount(rows, minlength=n)
    starts = np.cumsum(counts) - counts
    picks = starts + (rng.random(n) * np.maximum(counts, 1)).astype(np.int64)
    return np.where(counts > 0, flat[np.minimum(picks, max(len(flat) - 1, 0))] % width, 0)


def vector_rate(seconds, n, opponents, copy):
    env = VectorEnv(num_envs=n, rules=RULES, opponents=opponents, seed=1, copy=copy)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)

    def step():
        nonlocal obs
        obs, *_ = env.step(random_legal(obs["action_mask"], rng))
        return n
    return rate(step, seconds)


def single_rows(seconds):
    """Rows of the one-game environments, or a note when their libraries are missing."""
    rng = np.random.default_rng(2)
    rows = []
    try:
        import pyspiel
        import meeple.openspiel  # noqa: F401  registers the game
        from open_spiel.python import rl_environment
    except ImportError as e:
        return [(f"OpenSpiel rows skipped: {e}", None)]
    game = pyspiel.load_game("meeple_carcassonne")

    def openspiel_game():
        s, n = game.new_initial_state(), 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.integers(len(legal))])
                n += 1
        return n
    rows.append(("OpenSpiel state, legal actions (no observation)", rate(openspiel_game, seconds)))

    env = rl_environment.Environment(game)

    def rl_game():
        t, n = env.reset(), 0
        while not t.last():
            legal = t.observations["legal_actions"][t.observations["current_player"]]
            t = env.step([legal[rng.integers(len(legal))]])
            n += 1
        return n
    rows.append(("OpenSpiel rl_environment (observation tensors)", rate(rl_game, seconds)))

    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])

    def tensors():
        for _ in range(200):
            state.observation_tensor(0)
        return 200
    per_call = 1e6 / rate(tensors, seconds / 2)
    rows.append((f"OpenSpiel observation_tensor(): {per_call:.1f} us a call", None))

    from meeple.gymnasium import CarcassonneEnv
    from meeple.pettingzoo import env as aec_env

    def aec_game():
        e = aec_env()
        e.reset(seed=int(rng.integers(1 << 30)))
        n = 0
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n
    rows.append(("PettingZoo AEC (observation + mask each step)", rate(aec_game, seconds)))

    def gym_game():
        e = CarcassonneEnv(opponents=["random"])
        obs, _ = e.reset(seed=int(rng.integers(1 << 30)))
        n = 0
        while True:
            obs, _, term, trunc, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
            if term or trunc:
                return n
    rows.append(("Gymnasium vs random (learner's decisions)", rate(gym_game, seconds)))
    return rows


def main():
    parser = argparse.ArgumentParser(description="environment steps per second, with ratios to the engine's random games")
    parser.add_argument("--seconds", type=float, default=8, help="per row")
    parser.add_argument("--envs", type=int, default=128, help="games in each VectorEnv row")
    parser.add_argument("--rows", default="vector,single", help="which groups: vector, single")
    args = parser.parse_args()
    jobs = os.cpu_count() or 1
    groups = args.rows.split(",")
    engine = engine_rate(args.seconds, jobs)
    rows = [(f"engine: C++ random games, {jobs} threads (baseline)", engine)]
    if "vector" in groups:
        n = args.envs
        rows += [
            (f"VectorEnv N={n} self-play, copy=False", vector_rate(args.seconds, n, None, False)),
            (f"VectorEnv N={n} self-play, copy=True", vector_rate(args.seconds, n, None, True)),
            (f"VectorEnv N={n} vs random, copy=False (learner's steps)", vector_rate(args.seconds, n, ["random"], False)),
            (f"VectorEnv N={n} vs greedy, copy=False (learner's steps)", vector_rate(args.seconds, n, ["greedy"], False)),
        ]
    if "single" in groups:
        rows += single_rows(args.seconds)
    print(f"{'interface (2 players, base game, random legal actions)':<60} {'steps/s':>12} {'ratio':>7}")
    for name, value in rows:
        if value is None:
            print(name)
        else:
            print(f"{name:<60} {value:>12,.0f} {value / engine:>7.3f}")


if __name__ == "__main__":
    main()
