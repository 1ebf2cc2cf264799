"""Masked PPO with a small convolutional network over the board encoding, trained in meeple.vector.VectorEnv
against a bot, with its win rate against greedy and heuristic measured along the way.

    .venv/bin/pip install ".[train]"          # jax[cpu], flax, optax
    .venv/bin/python experiments/ppo.py --out runs/ppo --minutes 60 --envs 64 --opponent greedy

Network (flax linen; input: the encoding of docs/environments.md seen from the learner's seat). A
convolution over the planes evaluated only at the cells that actions name: every cell with a legal placement
or abbey id in the mask, and the tile just placed, where deploys go (10 to 50 of the window's 1,024 cells;
the other cells' outputs would all be masked away, and on CPU the gradient of a full 32 x 32 convolution
costs about ten times more). At each such cell: a 5 x 5 convolution of the planes (log1p-scaled) plus an
embedding of the flat vector (signed log1p, with each plane's mean over the window), --layers residual 1x1
convolutions, then 1x1 convolutions to 4 placement logits and 1 abbey logit, written where the ids put
them: channel r at cell c (= row * 32 + column) is the logit of id 1 + 4 * c + r, the abbey's of its id
at c. Pass, deploys, the Count, redeploys and wagons come from a dense layer over pooled features (mean and
max over those cells, the features at the tile just placed, the flat embedding), as does the value. Illegal
ids get a logit of -1e9 before the softmax: their probability is exactly 0 in float32, never sampled.

Reward. The environment pays the learner's share of the win at the end of a game. Against greedy an untrained
policy loses every game, which says nothing about which losses were closer, so the learner also gets, at
every step, the change of its margin if the game ended now (State.final_scores_if_ended_now(): own points
minus the best other seat's, open features, cloisters and fields scored as at the end; / --margin-scale):
a potential-based term that sums to the final margin over a game and credits a good placement or deploy at
once, rather than when its feature completes. --margin-scale 0 turns it off.

Imitation first (--imitate SPEC, off by default): for the first --imitate-steps env steps (rounded up to
whole rollouts) a teacher bot (one per thread; a search bot releases the GIL while it thinks) chooses the
learner's actions in the same training games, and the network is fitted to them by behaviour cloning: the
cross-entropy of the teacher's ids under the masked softmax, and the value regressed on the returns the
teacher's games paid (lambda 1 within the rollout), so that PPO starts from a policy that already wins and
from a value that measures its advantages. Then PPO plays the policy's own sampled actions while the teacher
still names its choice at each of those states (DAgger's labels), and PPO's loss keeps --imitate-weight times
their cross-entropy: pure PPO after imitation drifted below the imitated policy (docs/environments.md).
--imitate-lr is imitation's learning rate; --lr is PPO's. The CSV's phase column says what had trained the
network at each row (start, imitate, ppo: an evaluation falls where imitation ends, and the plot marks it),
and agreement the share of the teacher's choices that are the network's argmax. In imitate rows the
training reward and margin are the teacher's games', and the KL and clip fraction are empty.

PPO: rollouts of --rollout steps in each of --envs games, GAE (--gamma, --lam), clipped surrogate (--clip),
value loss, entropy bonus, --epochs passes of --minibatches minibatches, Adam with global-norm clipping; the
action sampling and the whole update are jit-compiled. Steps are the learner's decisions (env steps).

Evaluation, every --eval-every steps (and at the start and the end): --eval-games complete games against greedy
and against heuristic, in VectorEnvs of their own reset to the same seed every time (the same tile orders and
seats), the policy playing its argmax action (greedy in its own logits, no sampling). A game's win share is 1,
1/2 for a shared win, 0 for a loss; the win rate has a Wilson 95% interval. Rows go to OUT/progress.csv
(steps, wall seconds, win rates and intervals, mean training reward and margin, losses) and OUT/progress.png
plots the win rates against steps. --evaluate-only plays OUT's checkpoint from --eval-seed instead of training:
judge the result on games nobody watched during the run.

Budget and resuming: --minutes and --steps are totals for OUT (the first reached stops the run). A checkpoint
(OUT/checkpoint.npz: parameters, Adam state, RNG, counters, settings, the CSV rows so far) is written through a
temporary file and renamed, every --checkpoint-minutes, at every evaluation and at the end; rerunning with the
same --out resumes from it (with the network settings it was started with: a different --channels, --layers or
--hidden is an error). Ctrl-C stops at the next env step (dropping the rollout in progress; an update in progress
finishes), saves and exits cleanly; a second Ctrl-C aborts. OUT/weights.npz holds the parameters alone, one
array per layer ("conv/kernel", "place/kernel", ...).
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import csv
import functools
import io
import json
import os
import signal
import sys
import time

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax

import meeple
from meeple.vector import VectorEnv

WINDOW = meeple.WINDOW
BLOCKS = meeple.ACTION_ID_BLOCKS
NUM_IDS = meeple.NUM_ACTION_IDS
# The layout the policy head writes: placements then abbeys straight from the per-cell convolutions.
assert BLOCKS["pass"] == 0 and BLOCKS["place"] == 1
assert BLOCKS["abbey"] == BLOCKS["place"] + 4 * WINDOW * WINDOW and BLOCKS["deploy"] == BLOCKS["abbey"] + WINDOW * WINDOW
# Ids from the dense head: pass, then everything from the first deploy to the end.
DENSE_IDS = 1 + NUM_IDS - BLOCKS["deploy"]
LAST_PLACED = [name for name, _ in meeple.Encoding(2).plane_channels()].index("last_placed")  # deploys go there
ILLEGAL = -1e9

FIELDS = ["steps", "updates", "wall_seconds", "steps_per_second",
          "win_greedy", "low_greedy", "high_greedy", "win_heuristic", "low_heuristic", "high_heuristic", "eval_games",
          "mean_reward", "mean_margin", "train_episodes", "policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction",
          "agreement", "phase"]
STATS = ["policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction", "agreement"]  # what update() returns
NETWORK_SETTINGS = ("channels", "layers", "hidden", "players")
RUN_SETTINGS = ("imitate", "imitate_steps", "imitate_weight", "eval_seed")  # a resume keeps them too
WATCHED_SEED = 12345  # the evaluation games of a run, unless --eval-seed says otherwise


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__[__doc__.index("Network"):],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="run folder: progress.csv, progress.png, checkpoint.npz, weights.npz")
    p.add_argument("--minutes", type=float, default=60.0, help="wall-time budget in minutes, evaluation included (default 60)")
    p.add_argument("--steps", type=int, default=None, help="budget in env steps (learner decisions); default: none")
    p.add_argument("--envs", type=int, default=64, help="training games stepped together (default 64)")
    p.add_argument("--opponent", default="greedy", help="bot spec of the training opponent (default greedy)")
    p.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    p.add_argument("--rollout", type=int, default=32, help="steps per env between updates (default 32)")
    p.add_argument("--epochs", type=int, default=4, help="passes over each rollout (default 4)")
    p.add_argument("--minibatches", type=int, default=4, help="minibatches per pass (default 4)")
    p.add_argument("--lr", type=float, default=2e-3, help="Adam learning rate (default 2e-3)")
    p.add_argument("--gamma", type=float, default=0.99, help="discount (default 0.99)")
    p.add_argument("--lam", type=float, default=0.95, help="GAE lambda (default 0.95)")
    p.add_argument("--clip", type=float, default=0.2, help="PPO ratio clip (default 0.2)")
    p.add_argument("--vf-coef", type=float, default=0.5, help="value loss weight (default 0.5)")
    p.add_argument("--ent-coef", type=float, default=0.003, help="entropy bonus weight (default 0.003)")
    p.add_argument("--max-grad-norm", type=float, default=0.5, help="global gradient norm clip (default 0.5)")
    p.add_argument("--imitate", default="none",
                   help="bot spec of a teacher to imitate first (behaviour cloning), or none (default none)")
    p.add_argument("--imitate-steps", type=int, default=400_000,
                   help="env steps (teacher decisions) of imitation before PPO starts (default 400000)")
    p.add_argument("--imitate-weight", type=float, default=0.5,
                   help="after imitation, PPO's loss keeps this weight times the cross-entropy of the teacher's ids "
                        "at the states the policy visits; 0: pure PPO (default 0.5)")
    p.add_argument("--imitate-lr", type=float, default=2e-3, help="Adam learning rate while imitating (default 2e-3)")
    p.add_argument("--margin-scale", type=float, default=50.0,
                   help="shaping: reward += change of the margin if the game ended now / this at every step; 0: off (default 50)")
    p.add_argument("--channels", type=int, default=64, help="channels of the convolution (default 64)")
    p.add_argument("--layers", type=int, default=1, help="residual 1x1 convolutions after it (default 1)")
    p.add_argument("--hidden", type=int, default=128, help="width of the flat embedding and dense head (default 128)")
    p.add_argument("--eval-every", type=int, default=100_000, help="env steps between evaluations (default 100000)")
    p.add_argument("--eval-games", type=int, default=200, help="games against each evaluation opponent (default 200)")
    p.add_argument("--eval-seed", type=int, default=None,
                   help=f"seed of the evaluation games: the same games at every point of a run (default {WATCHED_SEED})")
    p.add_argument("--evaluate-only", action="store_true",
                   help="train nothing: play --eval-games games of OUT's checkpoint against greedy and heuristic "
                        "from --eval-seed (required: games the run was not evaluated on) and print the win rates")
    p.add_argument("--eval-envs", type=int, default=50, help="games stepped together in evaluation (default 50)")
    p.add_argument("--checkpoint-minutes", type=float, default=5.0, help="minutes between checkpoints (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the network, the sampling and the games (default 0)")
    p.add_argument("--threads", type=int, default=None, help="threads of each VectorEnv (default: every core)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    positive = ["envs", "rollout", "epochs", "minibatches", "channels", "hidden", "eval_every", "eval_games",
                "eval_envs"]
    for name in positive:
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.layers < 0:
        p.error(f"--layers must be 0 or more, got {args.layers}")
    if (args.envs * args.rollout) % args.minibatches:
        p.error(f"--minibatches ({args.minibatches}) must divide --envs * --rollout ({args.envs * args.rollout})")
    if args.evaluate_only and args.eval_seed is None:
        p.error("--evaluate-only needs --eval-seed: a seed of games the run was not evaluated on")
    if not args.evaluate_only and args.eval_seed is None:
        args.eval_seed = WATCHED_SEED
    if args.imitate_steps < 0:
        p.error(f"--imitate-steps must be 0 or more, got {args.imitate_steps}")
    if args.imitate_weight < 0:
        p.error(f"--imitate-weight must be 0 or more, got {args.imitate_weight}")
    for name in ["minutes", "lr", "imitate_lr", "checkpoint_minutes"]:
        if not getattr(args, name) > 0:
            p.error(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    if args.steps is not None and args.steps < 1:
        p.error(f"--steps must be at least 1, got {args.steps}")
    if args.margin_scale < 0:
        p.error(f"--margin-scale must be 0 (off) or positive, got {args.margin_scale}")
    if not 2 <= args.players <= 6:
        p.error(f"--players must be 2 to 6, got {args.players}")
    for flag, spec in (("--opponent", args.opponent), ("--imitate", args.imitate)):
        if flag == "--imitate" and spec == "none":
            continue
        try:
            meeple.make_player(spec)
        except Exception as e:  # noqa: BLE001  the bot factory's own message names what is wrong
            p.error(f"{flag} {spec!r}: {e}")
    return args


# ----------------------------------------------------------------------------------------------- network

PATCH = 5  # the convolution's kernel: the cell and two cells around it each way


def assemble_logits(dense, place, abbey):
    """Logits over every id: `dense` [B, DENSE_IDS] (pass, then deploy to the end), `place` [B, 32, 32, 4]
    (channel r at row, column: id 1 + 4 * (row * 32 + column) + r), `abbey` [B, 32, 32, 1]."""
    b = dense.shape[0]
    return jnp.concatenate([dense[:, :1], place.reshape(b, -1), abbey.reshape(b, -1), dense[:, 1:]], axis=1)


def signed_log1p(x):
    return jnp.sign(x) * jnp.log1p(jnp.abs(x))


def candidate_cells(planes, mask):
    """The cells the network is evaluated at: every cell an id of the mask names (a placement or an abbey),
    and the tile just placed (where deploys go). (row of the batch, cell) pairs, as arrays sorted by row."""
    b = mask.shape[0]
    cells = mask[:, BLOCKS["place"]:BLOCKS["abbey"]].reshape(b, WINDOW * WINDOW, 4).any(axis=2)
    cells |= mask[:, BLOCKS["abbey"]:BLOCKS["deploy"]]
    cells |= planes[:, LAST_PLACED].reshape(b, -1) > 0
    return np.nonzero(cells)


def bucket(n):
    """The padded length of n pairs: 256, 384, 512, 768, ... (few shapes, few compilations)."""
    size = 256
    while size < n:
        size = size * 3 // 2 if size & (size - 1) == 0 else size * 4 // 3
    return size


def pair_arrays(planes, rows, cells, outputs, sample=None, size=None):
    """The network's `pairs` input, padded to `size` (default: bucket(len)): `sample` the row of `planes`
    to read the patch from (default: `rows`), `row` the output row (`outputs` for padding: dropped),
    `cell`, and `last` (1 on the tile just placed)."""
    size = size or bucket(len(rows))
    out = {"sample": np.zeros(size, np.int32), "row": np.full(size, outputs, np.int32),
           "cell": np.zeros(size, np.int32), "last": np.zeros(size, np.float32)}
    n = len(rows)
    out["sample"][:n] = rows if sample is None else sample
    out["row"][:n] = rows
    out["cell"][:n] = cells
    out["last"][:n] = planes[out["sample"][:n], LAST_PLACED, cells // WINDOW, cells % WINDOW] > 0
    return out


def network_flat(planes, flat):
    """The flat input: the encoding's flat vector and the mean of each plane over the window (what is on the
    board beyond the cells the convolution sees)."""
    return np.concatenate([flat, planes.reshape(*planes.shape[:2], -1).mean(axis=2, dtype=np.float32)], axis=1)


class Policy(nn.Module):
    """A convolutional network evaluated at the cells that actions name, not at every cell of the window
    (the other cells' outputs would all be masked away, and on CPU the full 32 x 32 convolution's gradient
    costs ten times more). A PATCH x PATCH convolution of the planes plus the flat embedding, `layers`
    residual 1x1 convolutions, then 1x1 convolutions to the placement logits (4 per cell) and the abbey's
    (1 per cell), written at their cells; the other ids and the value come from pooled features."""
    channels: int = 64
    layers: int = 1
    hidden: int = 128

    @nn.compact
    def __call__(self, planes, flat, pairs):
        """planes uint8 [N, P, 32, 32]; flat float32 [B, F] (network_flat); pairs (pair_arrays) naming the
        cells of output rows 0..B-1 -> (logits [B, NUM_IDS], value [B])."""
        b, p = flat.shape[0], planes.shape[1]
        pad = PATCH // 2
        padded = jnp.pad(planes, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        row, col = pairs["cell"] // WINDOW, pairs["cell"] % WINDOW
        patch = jax.vmap(lambda s, r, c: jax.lax.dynamic_slice(padded, (s, 0, r, c), (1, p, PATCH, PATCH)))(
            pairs["sample"], row, col)
        x = jnp.log1p(patch.reshape(patch.shape[0], -1).astype(jnp.float32))  # [T, P * PATCH * PATCH]
        f = nn.relu(nn.Dense(self.hidden, name="flat")(signed_log1p(flat)))
        out = pairs["row"]
        h = nn.relu(nn.Dense(self.channels, name="conv")(x) + nn.Dense(self.channels, name="flat_to_cells")(f)[out])
        for i in range(self.layers):
            h = nn.relu(h + nn.Dense(self.channels, name=f"mix{i}")(h))
        cells = (b, WINDOW, WINDOW)
        place = jnp.zeros((*cells, 4)).at[out, row, col].set(nn.Dense(4, name="place")(h), mode="drop")
        abbey = jnp.zeros((*cells, 1)).at[out, row, col].set(nn.Dense(1, name="abbey")(h), mode="drop")
        segment = functools.partial(jax.ops.segment_sum, segment_ids=out, num_segments=b + 1)
        count = segment(jnp.ones_like(pairs["last"]))[:b, None]
        high = jax.ops.segment_max(h, out, num_segments=b + 1)[:b]
        pooled = jnp.concatenate([segment(h)[:b] / jnp.maximum(count, 1), jnp.where(count > 0, high, 0),
                                  segment(h * pairs["last"][:, None])[:b], f], axis=1)
        g = nn.relu(nn.Dense(self.hidden, name="head")(pooled))
        dense = nn.Dense(DENSE_IDS, name="dense_ids", kernel_init=nn.initializers.normal(0.01))(g)
        value = nn.Dense(1, name="value")(g)[:, 0]
        return assemble_logits(dense, place, abbey), value


def masked(logits, mask):
    return jnp.where(mask, logits, ILLEGAL)


def sample_masked(key, logits, mask):
    """One id per row drawn from the softmax over the legal ids (0 for a row with none: a finished game's
    step, whose action the environment ignores)."""
    ids = jax.random.categorical(key, masked(logits, mask), axis=-1)
    return jnp.where(mask.any(axis=-1), ids, 0)


def log_probs(logits, mask):
    return jax.nn.log_softmax(masked(logits, mask), axis=-1)


def chosen(logp_all, ids):
    """The log-probability of each row's id."""
    return jnp.take_along_axis(logp_all, ids[:, None], axis=1)[:, 0]


# The PPO settings the update reads: a hashable static argument of the compiled functions, so that two
# learners with the same network and settings (a resumed run in the same process, the tests) share them.
Hyper = collections.namedtuple("Hyper", "lr max_grad_norm clip vf_coef ent_coef imitate_weight")


def optimizer(h):
    return optax.chain(optax.clip_by_global_norm(h.max_grad_norm), optax.adam(h.lr, eps=1e-5))


@functools.partial(jax.jit, static_argnums=(0, 1, 2, 3))
def initial_state(net, h, planes_shape, flat_size, key):
    planes = jnp.zeros((1, *planes_shape), jnp.uint8)
    pairs = {"sample": jnp.zeros(1, jnp.int32), "row": jnp.zeros(1, jnp.int32), "cell": jnp.zeros(1, jnp.int32),
             "last": jnp.zeros(1, jnp.float32)}
    params = net.init(key, planes, jnp.zeros((1, flat_size), jnp.float32), pairs)
    return params, optimizer(h).init(params)


@functools.partial(jax.jit, static_argnums=0)
def act(net, params, key, planes, flat, mask, pairs):
    """(sampled ids, their log-probabilities, values) of a batch of observations."""
    logits, value = net.apply(params, planes, flat, pairs)
    ids = sample_masked(key, logits, mask)
    logp = chosen(log_probs(logits, mask), ids)
    return ids, logp, value


@functools.partial(jax.jit, static_argnums=0)
def best(net, params, planes, flat, mask, pairs):
    """The most likely legal id of each row (0 for a row with none)."""
    logits, _ = net.apply(params, planes, flat, pairs)
    return jnp.where(mask.any(axis=-1), jnp.argmax(masked(logits, mask), axis=-1), 0)


def evaluated(net, params, planes, mb):
    """The minibatch's log-probabilities over every id [B, NUM_IDS] and values [B], with mean(x): the mean of
    x [B] over the rows that are decisions (not the steps that only restart a finished game)."""
    logits, value = net.apply(params, planes, mb["flat"], mb["pairs"])
    w = mb["valid"]
    n = jnp.maximum(w.sum(), 1.0)
    return log_probs(logits, mb["mask"]), value, lambda x: (x * w).sum() / n


def common_terms(logp_all, value, mean, mb):
    """The value loss and the entropy (illegal ids: 0 * -1e9 = 0)."""
    return 0.5 * mean((value - mb["returns"]) ** 2), mean(-(jnp.exp(logp_all) * logp_all).sum(axis=-1))


def ppo_loss(net, h, params, planes, mb):
    logp_all, value, mean = evaluated(net, params, planes, mb)
    logp = chosen(logp_all, mb["actions"])
    adv = mb["advantages"]
    adv = (adv - mean(adv)) / (jnp.sqrt(mean((adv - mean(adv)) ** 2)) + 1e-8)
    ratio = jnp.exp(logp - mb["logp"])
    policy_loss = -mean(jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - h.clip, 1 + h.clip) * adv))
    value_loss, entropy = common_terms(logp_all, value, mean, mb)
    loss = policy_loss + h.vf_coef * value_loss - h.ent_coef * entropy
    if h.imitate_weight:  # the teacher's ids at the states the policy visited (DAgger's labels)
        loss -= h.imitate_weight * mean(chosen(logp_all, mb["teacher"]))
    approx_kl = mean((ratio - 1) - (logp - mb["logp"]))
    clip_fraction = mean(jnp.abs(ratio - 1) > h.clip)
    # Only with a teacher's labels: without, their array is zeros, and the argmax over every id would be wasted.
    agreement = mean(jnp.argmax(logp_all, axis=-1) == mb["teacher"]) if h.imitate_weight else jnp.full((), jnp.nan)
    return loss, jnp.stack([policy_loss, value_loss, entropy, approx_kl, clip_fraction, agreement])


def imitation_loss(net, h, params, planes, mb):
    """Behaviour cloning: the cross-entropy of the teacher's ids under the masked softmax, and the value
    regressed on the returns of the teacher's games (what PPO's first advantages are measured against)."""
    logp_all, value, mean = evaluated(net, params, planes, mb)
    policy_loss = -mean(chosen(logp_all, mb["actions"]))
    value_loss, entropy = common_terms(logp_all, value, mean, mb)
    agreement = mean(jnp.argmax(logp_all, axis=-1) == mb["actions"])
    nothing = jnp.full((), jnp.nan)  # no ratio, so no KL and no clipping
    return policy_loss + h.vf_coef * value_loss, jnp.stack([policy_loss, value_loss, entropy, nothing, nothing, agreement])


@functools.partial(jax.jit, static_argnums=(0, 1, 2))
def update(net, h, imitate, params, opt_state, batch, plan):
    """One gradient step per minibatch of `plan` (its rows `index` into the rollout `batch`, and their
    cells' `pairs`, all padded alike): (params, opt_state, the minibatches' mean of each of STATS); the
    loss is imitation_loss with `imitate` (no KL, no clip fraction: NaN), else ppo_loss. The agreement is the
    share of the teacher's ids that are the network's argmax."""
    tx = optimizer(h)
    grad = jax.grad(functools.partial(imitation_loss if imitate else ppo_loss, net, h), has_aux=True)

    def minibatch(carry, step):
        params, opt_state = carry
        mb = {k: v[step["index"]] for k, v in batch.items() if k != "planes"}
        mb["pairs"] = step["pairs"]
        g, stats = grad(params, batch["planes"], mb)
        updates, opt_state = tx.update(g, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), stats

    (params, opt_state), stats = jax.lax.scan(minibatch, (params, opt_state), plan)
    return params, opt_state, stats.mean(axis=0)


def minibatch_plan(batch, epochs, minibatches, rng):
    """`epochs` shuffles of the rollout cut into `minibatches`: the rows of each and their cells' pairs
    (reading patches from the whole rollout's planes), every minibatch padded to the longest."""
    size = len(batch["actions"])
    rows, cells = candidate_cells(batch["planes"], batch["mask"])
    starts = np.searchsorted(rows, np.arange(size + 1))
    order = np.concatenate([rng.permutation(size) for _ in range(epochs)]).reshape(-1, size // minibatches)
    picked = []
    for index in order:
        counts = starts[index + 1] - starts[index]
        pair_index = np.concatenate([np.arange(starts[i], starts[i + 1]) for i in index])
        picked.append((index, np.repeat(np.arange(len(index)), counts), rows[pair_index], cells[pair_index]))
    length = bucket(max(len(local) for _, local, _, _ in picked))
    pairs = [pair_arrays(batch["planes"], local, cell, len(index), sample=sample, size=length)
             for index, local, sample, cell in picked]
    return {"index": order.astype(np.int32), "pairs": {k: np.stack([p[k] for p in pairs]) for k in pairs[0]}}


class Learner:
    """The network's parameters, the optimizer's state and the sampling key, with the compiled functions."""

    def __init__(self, args, planes_shape, flat_size):
        self.args = args
        self.net = Policy(args.channels, args.layers, args.hidden)
        self.hyper = Hyper(args.lr, args.max_grad_norm, args.clip, args.vf_coef, args.ent_coef,
                           args.imitate_weight if args.imitate != "none" else 0.0)
        self.imitation_hyper = self.hyper._replace(lr=args.imitate_lr)
        flat_size += planes_shape[0]  # network_flat adds each plane's mean
        self.params, self.opt_state = initial_state(self.net, self.hyper, tuple(planes_shape), flat_size, jax.random.PRNGKey(args.seed))
        self.key = jax.random.PRNGKey(args.seed + 1)

    def next_key(self):
        self.key, key = _split(self.key)
        return key

    @staticmethod
    def inputs(obs):
        planes, mask = obs["observation"], obs["action_mask"]
        rows, cells = candidate_cells(planes, mask)
        return planes, network_flat(planes, obs["flat"]), mask, pair_arrays(planes, rows, cells, len(planes))

    def act(self, obs):
        return act(self.net, self.params, self.next_key(), *self.inputs(obs))

    def best(self, obs):
        return best(self.net, self.params, *self.inputs(obs))

    def update(self, batch, imitate=False):
        a = self.args
        shuffles = np.random.default_rng(np.asarray(self.next_key()))  # from the checkpointed key
        plan = minibatch_plan(batch, a.epochs, a.minibatches, shuffles)
        batch = dict(batch, flat=network_flat(batch["planes"], batch["flat"]))
        hyper = self.imitation_hyper if imitate else self.hyper
        self.params, self.opt_state, stats = update(self.net, hyper, imitate, self.params, self.opt_state, batch, plan)
        return np.asarray(stats)


_split = jax.jit(lambda key: tuple(jax.random.split(key)))


# ----------------------------------------------------------------------------------------------- rollouts

def gae(rewards, values, dones, last_value, gamma, lam):
    """Advantages and returns of a rollout [T, N]; `dones[t]` ends the game at step t (no bootstrap past it)."""
    t_max = rewards.shape[0]
    adv = np.zeros_like(rewards)
    running = np.zeros_like(last_value)
    for t in reversed(range(t_max)):
        next_value = last_value if t == t_max - 1 else values[t + 1]
        live = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_value * live - values[t]
        running = delta + gamma * lam * live * running
        adv[t] = running
    return adv, adv + values


class Trainer:
    """Rollouts in the training VectorEnv: keeps the current observation and each game's running stats."""

    def __init__(self, args, learner, env_seed):
        self.args, self.learner = args, learner
        rules = f"players={args.players}"
        self.env = VectorEnv(num_envs=args.envs, rules=rules, opponents=[args.opponent], seed=env_seed, threads=args.threads)
        self.obs, _ = self.env.reset(seed=env_seed)
        scores = self.env.encoding.flat_layout["scores"]
        self.scores = slice(scores, scores + args.players)
        self.restart = np.zeros(args.envs, bool)  # the next step only starts a new game there (its action ignored)
        self.finished = []  # (env reward, final margin) of games ended since the last evaluation
        self.phi = None  # the shaping potential of the current observations
        self.pool = None  # the threads that ask the teachers

    def margin(self, flat):
        """Own points minus the best other seat's, from the learner's flat vectors [N, F]."""
        s = flat[:, self.scores]
        return s[:, 0] - s[:, 1:].max(axis=1)

    def potential(self, flat, ended):
        """The shaping potential: the learner's margin if the games ended now (open features, fields and
        cloisters scored as at the end), what greedy maximizes; the final margin where a game has ended."""
        margin = self.margin(flat)
        for i in np.flatnonzero(~ended):
            state = self.env.state(i)
            scores = state.final_scores_if_ended_now()
            me = state.current_player  # the learner: a game waits at its decisions
            margin[i] = scores[me] - max(v for seat, v in enumerate(scores) if seat != me)
        return margin

    def teacher_ids(self, teacher, mask):
        """The teacher's choice in every game waiting for the learner: not where a game only restarts (a game
        that outgrew the window ended there, with legal actions the ids cannot name), which get 0.
        `teacher` is a list of players, one per thread (a search bot releases the GIL while it thinks)."""
        ids = np.zeros(len(mask), np.int64)
        waiting = np.flatnonzero(mask.any(axis=1) & ~self.restart)

        def ask(bot, part):
            for i in part:
                state = self.env.state(i)
                ids[i] = meeple.Encoding.id_of(state, bot.choose(state))
                if ids[i] < 0 or not mask[i, ids[i]]:
                    raise RuntimeError(f"env {i}: the teacher {bot.name()} chose an action without a legal id")

        if len(teacher) == 1:
            ask(teacher[0], waiting)
        else:
            if self.pool is None:
                self.pool = concurrent.futures.ThreadPoolExecutor(len(teacher))
            for done in [self.pool.submit(ask, bot, waiting[k::len(teacher)]) for k, bot in enumerate(teacher)]:
                done.result()
        return ids

    def rollout(self, stop, teacher=None, imitate=False):
        """One rollout as a dict of arrays [T * N, ...]; None if `stop()` became true meanwhile. A `teacher`
        (players, one per thread) labels every state with its choice ("teacher"); with `imitate` its choices
        are also the actions played, and the returns are the teacher's (GAE's lambda 1: what the teacher's
        games paid up to the rollout's end, the value's own estimate only beyond it)."""
        a, n = self.args, self.args.envs
        shape = (a.rollout, n)
        buf = {"planes": np.zeros((*shape, *self.obs["observation"].shape[1:]), np.uint8),
               "flat": np.zeros((*shape, self.obs["flat"].shape[1]), np.float32),
               "mask": np.zeros((*shape, NUM_IDS), bool), "actions": np.zeros(shape, np.int32),
               "logp": np.zeros(shape, np.float32), "values": np.zeros(shape, np.float32),
               "rewards": np.zeros(shape, np.float32), "dones": np.zeros(shape, np.float32),
               "valid": np.zeros(shape, np.float32), "teacher": np.zeros(shape, np.int32)}
        if a.margin_scale > 0 and self.phi is None:
            self.phi = self.potential(self.obs["flat"], self.restart)
        for t in range(a.rollout):
            if stop():
                return None
            obs = self.obs
            ids, logp, value = self.learner.act(obs)
            if teacher is not None:
                buf["teacher"][t] = self.teacher_ids(teacher, obs["action_mask"])
            ids = buf["teacher"][t] if imitate else np.asarray(ids)
            buf["planes"][t], buf["flat"][t], buf["mask"][t] = obs["observation"], obs["flat"], obs["action_mask"]
            buf["actions"][t], buf["logp"][t], buf["values"][t] = ids, logp, value
            buf["valid"][t] = ~self.restart
            self.obs, reward, terminated, truncated, _ = self.env.step(ids)
            ended = terminated | truncated
            shaped = reward.astype(np.float32)
            if a.margin_scale > 0:
                phi = self.potential(self.obs["flat"], ended)
                shaped += (phi - self.phi) / a.margin_scale
                self.phi = phi
            buf["rewards"][t] = np.where(self.restart, 0.0, shaped)
            buf["dones"][t] = ended | self.restart
            final = self.margin(self.obs["flat"])
            for i in np.flatnonzero(ended & ~self.restart):
                self.finished.append((float(reward[i]), float(final[i])))
            self.restart = ended
        _, _, last_value = self.learner.act(self.obs)
        lam = 1.0 if imitate else a.lam
        adv, ret = gae(buf["rewards"], buf["values"], buf["dones"], np.asarray(last_value), a.gamma, lam)
        batch = {k: buf[k] for k in ("planes", "flat", "mask", "actions", "logp", "valid", "teacher")}
        batch["advantages"], batch["returns"] = adv, ret
        return {k: v.reshape(a.rollout * n, *v.shape[2:]) for k, v in batch.items()}


def evaluate(learner, env, games, seed):
    """Win share of the argmax policy over `games` complete games (each env plays its equal share, from the
    same seed every time): (win share, wins + ties / 2, games)."""
    n = env.num_envs
    quota = np.array([games // n + (i < games % n) for i in range(n)])
    played = np.zeros(n, int)
    shares = []
    obs, _ = env.reset(seed=seed)
    players = env.rules.players
    restart = np.zeros(n, bool)
    while (played < quota).any():
        ids = np.asarray(learner.best(obs))
        obs, reward, terminated, truncated, _ = env.step(ids)
        ended = (terminated | truncated) & ~restart
        for i in np.flatnonzero(ended):
            if played[i] < quota[i]:
                played[i] += 1
                shares.append((reward[i] * (players - 1) + 1) / players)  # 1 sole winner, 0 a loser
        restart = terminated | truncated
    wins = float(np.sum(shares))
    return wins / len(shares), wins, len(shares)


# ----------------------------------------------------------------------------------------------- files

def atomic_write(path, write):
    """write(file) into a temporary file beside `path`, then rename it over `path`."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        write(f)
    os.replace(tmp, path)


def flat_params(tree, prefix=""):
    """{"trunk/Conv_0/kernel": array, ...} of a nested dict of arrays."""
    out = {}
    for k, v in tree.items():
        name = f"{prefix}/{k}" if prefix else str(k)
        out.update(flat_params(v, name) if isinstance(v, dict) else {name: np.asarray(v)})
    return out


def csv_text(rows):
    buf = io.StringIO()
    w = csv.DictWriter(buf, FIELDS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def save(out, learner, counters, rows, args):
    """Checkpoint, weights and CSV, each written atomically."""
    state = {f"opt/{i}": np.asarray(x) for i, x in enumerate(jax.tree_util.tree_leaves(learner.opt_state))}
    state.update({f"params/{k}": v for k, v in flat_params(learner.params["params"]).items()})
    state["key"] = np.asarray(learner.key)
    state["counters"] = np.array(json.dumps(counters))
    state["settings"] = np.array(json.dumps({k: getattr(args, k) for k in NETWORK_SETTINGS}))
    state["run_settings"] = np.array(json.dumps({k: getattr(args, k) for k in RUN_SETTINGS}))
    state["csv"] = np.array(csv_text(rows))
    atomic_write(os.path.join(out, "checkpoint.npz"), lambda f: np.savez(f, **state))
    atomic_write(os.path.join(out, "weights.npz"), lambda f: np.savez(f, **flat_params(learner.params["params"])))
    atomic_write(os.path.join(out, "progress.csv"), lambda f: f.write(csv_text(rows).encode()))


def fail(message):
    """A bad command line or run folder: the message on stderr, exit code 2, nothing written."""
    print(f"ppo.py: error: {message}", file=sys.stderr, flush=True)
    raise SystemExit(2)


def load(path, learner, args):
    """Restores a checkpoint into `learner`; returns (counters, rows). A run resumed (not --evaluate-only)
    must also keep RUN_SETTINGS (a checkpoint from before they were saved is not checked)."""
    try:
        z = np.load(path)
        settings = json.loads(str(z["settings"]))
        counters = json.loads(str(z["counters"]))
        rows = list(csv.DictReader(io.StringIO(str(z["csv"]))))
        arrays = {k: z[k] for k in z.files}
    except Exception as e:  # noqa: BLE001  whatever np.load meets in a damaged file, say which file
        fail(f"{path} is not a checkpoint of ppo.py ({type(e).__name__}: {e}); move it away or use another --out")
    ours = {k: getattr(args, k) for k in NETWORK_SETTINGS}
    saved_run = json.loads(str(arrays["run_settings"])) if "run_settings" in arrays else {}
    if not args.evaluate_only:
        settings = {**settings, **saved_run}
        ours.update({k: getattr(args, k) for k in saved_run})
    if any(settings.get(k) != v for k, v in ours.items()):
        changed = ", ".join(f"--{k.replace('_', '-')} {settings.get(k)} (not {v})" for k, v in ours.items() if settings.get(k) != v)
        fail(f"{path} was trained with {changed}: use those settings, or another --out for a new run")
    if args.evaluate_only and args.eval_seed == saved_run.get("eval_seed", WATCHED_SEED):
        fail(f"--eval-seed {args.eval_seed} gives the games {path} was evaluated on during training: choose another")
    names = flat_params(learner.params["params"])
    leaves, treedef = jax.tree_util.tree_flatten(learner.opt_state)
    wanted = [f"params/{k}" for k in names] + [f"opt/{i}" for i in range(len(leaves))] + ["key"]
    missing = [k for k in wanted if k not in arrays]
    if missing:
        fail(f"{path} lacks {', '.join(missing[:3])}: not a checkpoint of this network")
    learner.params = {"params": unflatten({k: jnp.asarray(arrays[f"params/{k}"]) for k in names})}
    learner.opt_state = jax.tree_util.tree_unflatten(treedef, [jnp.asarray(arrays[f"opt/{i}"]) for i in range(len(leaves))])
    learner.key = jnp.asarray(arrays["key"])
    return counters, rows


def unflatten(flat):
    tree = {}
    for name, v in flat.items():
        node = tree
        *path, leaf = name.split("/")
        for p in path:
            node = node.setdefault(p, {})
        node[leaf] = v
    return tree


def plot(rows, path, opponent, teacher=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    steps = [int(r["steps"]) for r in rows]
    for name in ("greedy", "heuristic"):
        y = np.array([float(r[f"win_{name}"]) for r in rows]) * 100
        lo = np.array([float(r[f"low_{name}"]) for r in rows]) * 100
        hi = np.array([float(r[f"high_{name}"]) for r in rows]) * 100
        ax.errorbar(steps, y, yerr=[y - lo, hi - y], marker="o", capsize=3, label=f"against {name}")
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    imitated = [int(r["steps"]) for r in rows if r.get("phase") == "imitate"]
    if imitated:
        ax.axvline(max(imitated), color="grey", lw=0.8, ls=":", label="imitation ends, PPO begins")
    ax.set_ylim(0, 100)
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel("win % (argmax policy, Wilson 95% interval)")
    ax.set_title(f"masked PPO trained against {opponent}{f' after imitating {teacher}' if teacher else ''}, "
                 f"{rows[-1]['eval_games']} games a point")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    atomic_write(path, lambda f: fig.savefig(f, format="png"))
    plt.close(fig)


# ----------------------------------------------------------------------------------------------- main

def main(argv=None):
    args = parse_args(argv)
    from tqdm import tqdm

    if not args.evaluate_only:
        os.makedirs(args.out, exist_ok=True)
    encoding = meeple.Encoding(args.players)
    learner = Learner(args, encoding.plane_shape, encoding.flat_size)
    checkpoint = os.path.join(args.out, "checkpoint.npz")
    counters, rows = {"steps": 0, "updates": 0, "seconds": 0.0, "next_eval": 0, "imitated": 0}, []
    if os.path.exists(checkpoint):
        counters, rows = load(checkpoint, learner, args)
        counters.setdefault("imitated", 0)
        print(f"{'loaded' if args.evaluate_only else 'resuming'} {checkpoint}: {counters['steps']} steps, {counters['updates']} updates, "
              f"{counters['seconds'] / 60:.1f} minutes", flush=True)
    rules = f"players={args.players}"
    judges = {name: VectorEnv(num_envs=min(args.eval_envs, args.eval_games), rules=rules, opponents=[name],
                              seed=1, threads=args.threads) for name in ("greedy", "heuristic")}
    if args.evaluate_only:
        if not os.path.exists(checkpoint):
            fail(f"--evaluate-only: {checkpoint} does not exist (train a run into --out first)")
        for name, env in judges.items():
            win, wins, games = evaluate(learner, env, args.eval_games, seed=args.eval_seed)
            lo, hi = meeple.wilson(wins, games)
            print(f"{args.out} at {counters['steps']} steps against {name}: {100 * win:.1f}% "
                  f"[{100 * lo:.1f}, {100 * hi:.1f}] of {games} games from seed {args.eval_seed}", flush=True)
        return 0
    # Fresh games on every resume (the games in progress are not saved): seeded by the update count.
    trainer = Trainer(args, learner, env_seed=args.seed * 1_000_003 + counters["updates"])

    threads = args.threads or os.cpu_count() or 1
    teacher = None if args.imitate == "none" else [meeple.make_player(args.imitate, args.seed * 1000 + k) for k in range(threads)]
    # Imitation comes first or not at all: never on top of PPO.
    imitating = lambda: (teacher is not None and counters["imitated"] == counters["steps"]  # noqa: E731
                         and counters["imitated"] < args.imitate_steps)

    def phase():
        """What trained the network so far: nothing (start), only imitation, or PPO too."""
        return "start" if not counters["steps"] else "imitate" if counters["imitated"] == counters["steps"] else "ppo"

    stopping = {"now": False}

    def on_sigint(signum, frame):
        if stopping["now"]:
            raise KeyboardInterrupt
        stopping["now"] = True
        print("\nCtrl-C: finishing this step, saving and exiting (Ctrl-C again aborts)", file=sys.stderr, flush=True)

    previous = signal.signal(signal.SIGINT, on_sigint)
    start, base = time.monotonic(), counters["seconds"]
    elapsed = lambda: base + time.monotonic() - start  # noqa: E731
    budget_left = lambda: elapsed() < args.minutes * 60 and (args.steps is None or counters["steps"] < args.steps)  # noqa: E731
    stats, last_checkpoint, window_start = None, time.monotonic(), (counters["steps"], elapsed())
    bar = tqdm(total=args.steps, initial=counters["steps"], unit="step", disable=args.no_progress, dynamic_ncols=True)

    def evaluation():
        nonlocal window_start
        results = {name: evaluate(learner, env, args.eval_games, seed=args.eval_seed) for name, env in judges.items()}
        done = trainer.finished
        rate = (counters["steps"] - window_start[0]) / max(elapsed() - window_start[1], 1e-9)
        row = {"steps": counters["steps"], "updates": counters["updates"], "wall_seconds": round(elapsed(), 1),
               "steps_per_second": round(rate, 1), "eval_games": results["greedy"][2],
               "mean_reward": round(float(np.mean([r for r, _ in done])), 4) if done else "",
               "mean_margin": round(float(np.mean([m for _, m in done])), 2) if done else "",
               "train_episodes": len(done), "phase": phase()}
        for name, (win, wins, games) in results.items():
            lo, hi = meeple.wilson(wins, games)
            row.update({f"win_{name}": round(win, 4), f"low_{name}": round(lo, 4), f"high_{name}": round(hi, 4)})
        for k, v in zip(STATS, stats if stats is not None else [np.nan] * len(STATS)):
            row[k] = "" if np.isnan(v) else round(float(v), 5)
        rows.append(row)
        trainer.finished = []
        window_start = (counters["steps"], elapsed())
        bar.write(f"steps {row['steps']:>9}  {row['wall_seconds'] / 60:6.1f} min  {row['steps_per_second']:>7} steps/s  "
                  f"greedy {100 * row['win_greedy']:5.1f}% [{100 * row['low_greedy']:.1f}, {100 * row['high_greedy']:.1f}]  "
                  f"heuristic {100 * row['win_heuristic']:5.1f}% [{100 * row['low_heuristic']:.1f}, {100 * row['high_heuristic']:.1f}]  "
                  f"margin {row['mean_margin']}")
        sys.stdout.flush()  # a log file sees each evaluation as it comes
        plot(rows, os.path.join(args.out, "progress.png"), args.opponent, teacher and args.imitate)

    def checkpoint_now():
        nonlocal last_checkpoint
        counters["seconds"] = elapsed()
        save(args.out, learner, counters, rows, args)
        last_checkpoint = time.monotonic()

    try:
        while not stopping["now"]:
            if counters["steps"] >= counters["next_eval"]:
                evaluation()
                counters["next_eval"] = counters["steps"] + args.eval_every
                checkpoint_now()
            if not budget_left():
                break
            imitate = imitating()
            labels = imitate or (teacher is not None and args.imitate_weight > 0)
            batch = trainer.rollout(lambda: stopping["now"], teacher if labels else None, imitate)
            if batch is None:
                break
            stats = learner.update(batch, imitate)
            counters["steps"] += args.envs * args.rollout
            counters["imitated"] += args.envs * args.rollout if imitate else 0
            counters["updates"] += 1
            if imitate and not imitating():
                counters["next_eval"] = counters["steps"]  # a point where imitation ends
            bar.update(args.envs * args.rollout)
            bar.set_postfix(min=f"{elapsed() / 60:.1f}", ent=f"{stats[2]:.2f}",
                            **({} if imitate else {"kl": f"{stats[3]:.3f}"}), **({"agree": f"{stats[5]:.2f}"} if labels else {}))
            if time.monotonic() - last_checkpoint > args.checkpoint_minutes * 60:
                checkpoint_now()
        if not stopping["now"] and (not rows or int(rows[-1]["steps"]) != counters["steps"]):
            evaluation()  # the final point
        checkpoint_now()
    finally:
        bar.close()
        signal.signal(signal.SIGINT, previous)
    last = rows[-1]
    print(f"{'stopped' if stopping['now'] else 'done'}: {counters['steps']} steps in {elapsed() / 60:.1f} min; "
          f"last evaluation at {last['steps']} steps: greedy {100 * float(last['win_greedy']):.1f}%, "
          f"heuristic {100 * float(last['win_heuristic']):.1f}%; files in {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
