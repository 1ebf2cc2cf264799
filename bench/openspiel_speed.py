"""OpenSpiel through meeple.openspiel: microseconds per observation_tensor() call and rl_environment steps
per second (uniformly random legal actions), best of --repeats runs, CPU time of this process (the 2-core
machine is shared, and wall time counts the other processes' turns too).

    .venv/bin/python bench/openspiel_speed.py [--seconds 2] [--players 2]
"""
import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python import rl_environment

import meeple.openspiel  # noqa: F401 - registers the game

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--seconds", type=float, default=2, help="CPU seconds per run")
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--players", type=int, default=2)
args = parser.parse_args()
game = pyspiel.load_game("meeple_carcassonne", {"players": args.players})
rng = np.random.default_rng(1)


def best(run):
    """The best rate of `run` (which returns the work it did in about args.seconds) over the repeats."""
    rates = []
    for _ in range(args.repeats):
        start = time.process_time()
        work = run()
        rates.append(work / (time.process_time() - start))
    return max(rates)


positions = []  # every decision of a few random games
for _ in range(3):
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            positions.append(s.clone())
            legal = s.legal_actions()
            s.apply_action(legal[rng.integers(len(legal))])


def tensors(call):
    def run():
        n, start = 0, time.process_time()
        while time.process_time() - start < args.seconds:
            for s in positions:
                call(s)
            n += len(positions)
        return n
    return run


def rl_steps():
    env = rl_environment.Environment(game)
    step, n, start = env.reset(), 0, time.process_time()
    while time.process_time() - start < args.seconds:
        if step.last():
            step = env.reset()
            continue
        legal = step.observations["legal_actions"][step.observations["current_player"]]
        step = env.step([legal[rng.integers(len(legal))]])
        n += 1
    return n


print(f"meeple_carcassonne, {args.players} players, tensor of {game.observation_tensor_size()} floats")
print(f"state.observation_tensor(p) (numpy)           {1e6 / best(tensors(lambda s: s.observation_tensor(0))):8.1f} us/call")
print(f"OpenSpiel's C++ path (a list of floats)       {1e6 / best(tensors(lambda s: pyspiel.State.observation_tensor(s, 0))):8.1f} us/call")
print(f"rl_environment.Environment step               {best(rl_steps):8.0f} steps/s")
