"""Decisions per second through each environment wrapper, uniformly random legal actions, one process: a
table with each row's ratio to driving meeple.State from Python directly (measured in the same run).

    .venv/bin/python bench/env_speed.py [--seconds 8]
"""
import argparse
import time
import numpy as np
import pyspiel
import meeple.openspiel
from meeple.pettingzoo import env
from meeple.gymnasium import CarcassonneEnv

def rate(fn, seconds=8):
    start, steps = time.monotonic(), 0
    while time.monotonic() - start < seconds:
        steps += fn()
    return steps / (time.monotonic() - start)

rng = np.random.default_rng(1)
GAME = pyspiel.load_game("meeple_carcassonne")
def openspiel_game():
    s, n = GAME.new_initial_state(), 0
    while not s.is_terminal():
        if s.is_chance_node():
            o = s.chance_outcomes(); s.apply_action(o[rng.integers(len(o))][0])
        else:
            la = s.legal_actions(); s.apply_action(la[rng.integers(len(la))]); n += 1
    return n
def aec_game():
    e = env(); e.reset(seed=int(rng.integers(1 << 30))); n = 0
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None); continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"])))); n += 1
    return n
def gym_game():
    e = CarcassonneEnv(opponents=["random"]); obs, _ = e.reset(seed=int(rng.integers(1 << 30))); n = 0
    while True:
        obs, r, term, _, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"])))); n += 1
        if term: return n
def engine_game():
    s, d, n = meeple.State(meeple.Rules()), meeple.Dealer(int(rng.integers(1 << 30))), 0
    while not s.is_terminal:
        if s.is_chance: s.apply(d.deal(s))
        else:
            la = s.legal_actions(); s.apply(la[rng.integers(len(la))]); n += 1
    return n
parser = argparse.ArgumentParser(description="decisions per second through the environment wrappers")
parser.add_argument("--seconds", type=float, default=8, help="per row")
seconds = parser.parse_args().seconds
print(f"{'interface (base game, 2 players)':<48} {'decisions/s':>12} {'ratio':>6}")
print("(the Gymnasium row counts the learner's decisions only, while its time includes the opponent's moves)")
base = None
for name, fn in [("meeple.State from Python (baseline)", engine_game), ("OpenSpiel state (no observations)", openspiel_game),
                 ("PettingZoo AEC (observation + mask each step)", aec_game),
                 ("Gymnasium vs random (observation + mask)", gym_game)]:
    r = rate(fn, seconds)
    base = base or r
    print(f"{name:<48} {r:>12.0f} {r / base:>6.2f}")
