"""Trains a small policy in meeple's Gymnasium environment for a few minutes and measures it.

    .venv/bin/python experiments/train_gymnasium.py --opponent greedy --minutes 3 --out runs/gym-policy.json

The policy is linear and softmax over the legal actions: each action's logit is w . its action features
(meeple.action_features of the environment's position, env.unwrapped.position; meeple.ACTION_FEATURE_NAMES
names them). It learns by REINFORCE with a running-mean baseline, playing a random seat against the
opponent. The return it learns from is the final score margin (its score minus the best other, / 100, from
info["scores"]) rather than the environment's win/loss reward: against a strong opponent an untrained
policy loses every game, and the win/loss reward then says nothing about which losses were closer. Before training (w = 0) and at
every evaluation it plays --eval-episodes greedy (argmax) episodes on fixed seeds and prints the win rate
with its Wilson 95% interval. The weights are written to --out as JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np
from tqdm import tqdm

import meeple
from meeple.gymnasium import CarcassonneEnv


def decision(env, observation, w, rng=None):
    """(action id, chosen row, rows, probabilities) of the policy at the learner's decision."""
    position = env.unwrapped.position
    actions = position.legal_actions()
    rows = meeple.action_features(position)  # a row per legal action, in legal_actions() order
    logits = rows @ w
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    k = int(rng.choice(len(actions), p=probs)) if rng is not None else int(np.argmax(logits))
    return meeple.Encoding.id_of(position, actions[k]), k, rows, probs


def episode(env, w, seed, rng=None):
    """Plays one episode; returns (reward, score margin / 100, [(rows, chosen, probs)] of the learner's
    decisions)."""
    observation, info = env.reset(seed=seed)
    steps, over, reward = [], False, 0.0
    while not over:
        action, k, rows, probs = decision(env, observation, w, rng)
        steps.append((rows, k, probs))
        observation, reward, terminated, truncated, info = env.step(action)
        over = terminated or truncated  # truncated: the board outgrew the encoding's window (reward 0)
    scores, seat = info["scores"], info["seat"]
    margin = scores[seat] - max(s for p, s in enumerate(scores) if p != seat)
    return reward, margin / 100, steps


def evaluate(env, w, episodes: int) -> tuple[float, float, float]:
    wins = 0.0
    for e in range(episodes):
        reward, _, _ = episode(env, w, seed=1_000_000 + e)
        wins += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
    lo, hi = meeple.wilson(wins, episodes)
    return wins / episodes, lo, hi


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", default="greedy", help="meeple bot spec of the opponent (default: greedy)")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--eval-every", type=float, default=1.0, help="minutes between evaluations")
    parser.add_argument("--eval-episodes", type=int, default=100)
    parser.add_argument("--learning-rate", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="runs/gym-policy.json")
    args = parser.parse_args(argv)

    env = CarcassonneEnv(opponents=[args.opponent], seat=None)
    rng = np.random.default_rng(args.seed)
    w = np.zeros(len(meeple.ACTION_FEATURE_NAMES))
    baseline = 0.0
    print(f"{'minutes':>7} {'episodes':>8} {'win%':>6} {'95% interval':>15}   (against {args.opponent}, "
          f"{args.eval_episodes} argmax episodes on fixed seeds)")
    rate, lo, hi = evaluate(env, w, args.eval_episodes)
    print(f"{0:>7.1f} {0:>8} {100 * rate:>5.1f}% [{100 * lo:>5.1f}, {100 * hi:>5.1f}]   (untrained: w = 0, so argmax takes the first legal action)")
    start = time.monotonic()
    next_eval, episodes = args.eval_every, 0
    with tqdm(total=round(args.minutes * 60), unit="s", desc="training", leave=False) as bar:
        while (elapsed := time.monotonic() - start) < args.minutes * 60:
            bar.update(round(elapsed) - bar.n)
            _, margin, steps = episode(env, w, seed=int(rng.integers(2**31)), rng=rng)
            episodes += 1
            advantage = margin - baseline
            baseline += 0.01 * (margin - baseline)
            for rows, k, probs in steps:  # gradient of log softmax: chosen row minus the expected row
                w += args.learning_rate * advantage * (rows[k] - probs @ rows)
            if elapsed / 60 >= next_eval:
                rate, lo, hi = evaluate(env, w, args.eval_episodes)
                tqdm.write(f"{elapsed / 60:>7.1f} {episodes:>8} {100 * rate:>5.1f}% [{100 * lo:>5.1f}, {100 * hi:>5.1f}]")
                next_eval += args.eval_every
    rate, lo, hi = evaluate(env, w, args.eval_episodes)
    print(f"{args.minutes:>7.1f} {episodes:>8} {100 * rate:>5.1f}% [{100 * lo:>5.1f}, {100 * hi:>5.1f}]   (final)")
    if os.path.dirname(args.out):
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"features": meeple.ACTION_FEATURE_NAMES, "weights": w.tolist(), "opponent": args.opponent,
                   "episodes": episodes, "win_rate": rate, "win_interval": [lo, hi]}, f, indent=1)
    print("weights:", ", ".join(f"{n}={x:+.2f}" for n, x in zip(meeple.ACTION_FEATURE_NAMES, w) if abs(x) >= 0.05))
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
