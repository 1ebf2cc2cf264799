"""Policy networks for guided search: trained on what MCTS chose, read by the C++ search (mcts:policy=FILE).

    python -m meeple train-policy --out runs/policy-base --games 200 --bot mcts:iterations=800

A policy network scores each legal action from its action features (ACTION_FEATURE_NAMES: the kind of
decision, the feature a figure goes to, how the action changes the chooser's and the others' scores and
board, the deploys a placement opens); the prior is the softmax of the scores over the legal actions. The
C++ PolicyNet (ai/include/meeple/ai/policy.h) computes exactly what PolicyModel computes here.

Data. generate() plays self-play games between mcts bots in C++ threads (or as Ray tasks) and keeps every decision with two
or more legal actions: each action's features and the root visits the search gave it (the target is the
visit distribution, as in AlphaZero), saved to a compressed numpy file. The same games (seed, bot, count)
give the same data, whatever the number of workers.

Fitting. fit() trains a small MLP (tanh hidden layers, one logit per action) with Adam on the cross-entropy
between the softmax of the logits and the visit distribution of each decision. Games are split into
training and validation by id; the report gives both losses and how often the network's favourite is the
search's most visited action.

Value. The value per player that guided search reads at its leaves is an evaluator (a small MLP on each
seat's features, training.fit_mlp) fitted to the same games' final scores: out/value.json, for
mcts:policy=out/policy.json,eval=out/value.json. The report compares its validation loss with the shipped
weights'.
"""
from __future__ import annotations

import glob
import json
import os
from dataclasses import dataclass

import numpy as np

from . import _meeple, cluster, files
from .environment import as_rules
from . import training
from .checks import MAX_SEED, integer, real_number
from .tournament import MAX_GAMES, MAX_WORKERS
from .training import Adam, init_mlp, mlp_backward, mlp_forward, weights_text

FORMAT = "meeple-policy/1"
DATA_FORMAT = "meeple-policy-data/1"
ACTION_FEATURES = list(_meeple.ACTION_FEATURE_NAMES)


# --- Data -----------------------------------------------------------------------------------------------

def generate(path, rules, bot: str, games: int, seed: int = 1, workers: int = 1, progress: bool = True,
             backend: str = "local", address: str | None = None, batch: int = 4, observations: bool = False,
             chunk: int | None = None) -> dict:
    """Decisions of `games` self-play games (tile seeds seed .. seed + games - 1, every seat `bot`, an mcts
    spec), saved to `path` (.npz) and returned. An existing file of the same games is read instead. With
    `observations`, each decision's observation in the board encoding too (for policy-value networks).

    The games are played `chunk` at a time (default: 50, or 4 per worker locally and 50 Ray tasks' worth
    with Ray, when that is more, so that a chunk keeps every worker busy), each chunk saved beside `path`
    (PATH.games-FIRST-LAST.npz) until all are joined into `path`: a run stopped by Ctrl-C or a kill loses at
    most the chunk in progress, and the same call (the same chunk) resumes it.

    backend "local" plays `workers` games at once in C++ threads; "ray" sends batches of `batch` games as
    Ray tasks to the cluster at `address` (cluster.run_batches). Both give the same data for the same games."""
    cluster.check_backend(backend)
    games = integer("games", games, 1, MAX_GAMES)
    seed = integer("seed", seed, 0, MAX_SEED - games)
    workers = integer("workers", workers, 1, MAX_WORKERS)
    batch = integer("batch", batch, 1)
    if chunk is None:
        chunk = max(50, 50 * batch if backend == "ray" else 4 * workers)
    chunk = integer("chunk", chunk, 1)
    rules = as_rules(rules)
    _meeple.make_player(bot, 0)  # a bad spec fails before anything is played
    path = str(path)

    def meta_of(first: int, count: int) -> dict:
        meta = {"format": DATA_FORMAT, "rules": str(rules), "bot": bot, "games": count, "seed": first,
                "action_features": ACTION_FEATURES}
        if observations:
            meta["encoding"] = _meeple.ENCODING_VERSION
        return meta

    def read_same(file: str, meta: dict) -> dict:
        data = read_data(file)
        if files.loads(str(data["meta"]), f"{file}: meta") != meta:
            raise ValueError(f"{file} holds other games ({data['meta']}), not {json.dumps(meta)}; delete it or use "
                             "another path")
        return data

    if os.path.exists(path):
        return read_same(path, meta_of(seed, games))
    files.make_folder(os.path.dirname(path) or ".")
    chunks = [(first, min(chunk, seed + games - first)) for first in range(seed, seed + games, chunk)]
    part_path = {first: f"{path}.games-{first}-{first + count - 1}.npz" for first, count in chunks}
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game", desc=f"self-play {bot}")
    parts = []
    try:
        for first, count in chunks:
            if os.path.exists(part_path[first]):
                part = read_same(part_path[first], meta_of(first, count))
                if bar:
                    bar.update(count)
            else:
                part = _play(rules, bot, first, count, workers, bar, backend, address, batch, observations)
                save(part_path[first], part, meta_of(first, count))
            parts.append((first - seed, part))
    finally:
        if bar:
            bar.close()
    data = join_policy_data(parts)
    data["game_id"] = np.concatenate([part["game_id"] for _, part in parts])
    save(path, data, meta_of(seed, games))
    for file in glob.glob(glob.escape(path) + ".games-*"):  # also those of an earlier chunk size or a stop
        os.remove(file)
    return data


def _play(rules, bot: str, first: int, count: int, workers: int, bar, backend: str, address, batch: int,
          observations: bool) -> dict:
    """The decisions of games first .. first + count - 1 (generate's chunk); KeyboardInterrupt if stopped."""
    specs = [([bot] * rules.players, g) for g in range(first, first + count)]
    if backend == "ray":
        batches = cluster.split(specs, batch)
        parts = [None] * len(batches)

        def done(i, part):
            parts[i] = part
            if bar:
                bar.update(len(batches[i]))

        cluster.run_batches(_policy_batch, [(str(rules), b, observations) for b in batches], address, done)
        data = join_policy_data([(i * max(1, batch), part) for i, part in enumerate(parts)])
    else:
        data = _meeple.generate_policy_data(rules, specs, jobs=workers,
                                            on_finished=(lambda n: bar.update(1)) if bar else None,
                                            observations=observations)
        if data.pop("interrupted"):
            raise KeyboardInterrupt
    data["game_id"] = np.arange(first, first + count)[data["finished"]]
    return data


def save(path: str, data: dict, meta: dict) -> None:
    """data and its meta to path (.npz), whole or not at all."""
    data["meta"] = np.array(json.dumps(meta))
    tmp = path + ".partial.npz"
    np.savez_compressed(tmp, **data)
    os.replace(tmp, path)


def read_data(path) -> dict:
    """The arrays of a data file generate() wrote; ValueError naming the file if it is not one."""
    files.check_regular(path, "policy data file (.npz)")
    try:
        with np.load(path, allow_pickle=False) as npz:
            data = dict(npz)
    except (OSError, ValueError, EOFError) as e:
        raise ValueError(f"{path}: not a readable numpy data file ({e}); delete it to play its games again") from None
    if "meta" not in data:
        raise ValueError(f"{path}: not a {DATA_FORMAT} file (no meta); delete it to play its games again")
    return data


def _policy_batch(rules_text: str, games: list, observations: bool = False) -> dict:
    """A Ray task: generate_policy_data for a few games, in C++ on one CPU."""
    from meeple import _meeple as native

    data = native.generate_policy_data(native.Rules.parse(rules_text), games, jobs=1, observations=observations)
    if data.pop("interrupted"):
        raise KeyboardInterrupt
    return data


# How join_policy_data joins each array of generate_policy_data: offsets into other arrays renumbered, game
# indices shifted, rows concatenated.
OFFSET_ARRAYS = {"first_action": ("visits", np.int32), "first_entry": ("plane_value", np.int64)}
GAME_ARRAYS = ("game", "finished")
CONCATENATED_ARRAYS = ("to_move", "in_hand", "features", "leaf_points", "action_features", "action_id", "visits",
                       "action_value", "final_scores", "plane_index", "plane_value", "flat")


def join_policy_data(parts: list[tuple[int, dict]]) -> dict:
    """One data set from the data of consecutive batches of games, each given with the index of its first
    game: game indices and action rows renumbered, as if generated in one call."""
    for _, part in parts:  # an array the C++ side adds must get its rule here, not be dropped
        if unknown := set(part) - {*OFFSET_ARRAYS, *GAME_ARRAYS, *CONCATENATED_ARRAYS, "meta", "game_id"}:
            raise ValueError(f"join_policy_data: no rule to join {sorted(unknown)}")
    out = {}
    for first, (rows_of, dtype) in OFFSET_ARRAYS.items():
        if first not in parts[0][1]:
            continue
        rows, firsts = 0, []
        for _, part in parts:
            firsts.append(part[first][:-1] + rows)
            rows += len(part[rows_of])
        out[first] = np.concatenate(firsts + [np.array([rows])]).astype(dtype)
    for key in GAME_ARRAYS:
        out[key] = np.concatenate([part[key] + start for start, part in parts]).astype(np.int32)
    for key in CONCATENATED_ARRAYS:
        if all(key in part for _, part in parts):  # action_value, leaf_points: not in files written before they were kept
            out[key] = np.concatenate([part[key] for _, part in parts])
    return out


def visit_targets(data: dict) -> np.ndarray:
    """Per action row, its share of its decision's visits."""
    first, visits = data["first_action"], data["visits"].astype(np.float64)
    totals = np.add.reduceat(visits, first[:-1])
    return visits / np.repeat(np.maximum(totals, 1), np.diff(first))


def select_decisions(data: dict, keep: np.ndarray) -> dict:
    """The decisions where `keep` is true, with their action rows."""
    first = data["first_action"]
    lengths = np.diff(first)[keep]
    rows = rows_of(first, np.flatnonzero(keep))
    return {"first_action": np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
            "action_features": data["action_features"][rows], "visits": data["visits"][rows],
            "game": data["game"][keep]}


def rows_of(first: np.ndarray, decisions: np.ndarray) -> np.ndarray:
    """The action rows of these decisions, one after the other."""
    lengths = first[decisions + 1] - first[decisions]
    offsets = np.repeat(first[decisions] - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return offsets + np.arange(lengths.sum())


# --- The model ------------------------------------------------------------------------------------------

class PolicyModel(training.Mlp):
    """MLP layers [(weights [outputs, inputs], bias)], tanh between them, one logit per action row (the
    C++ PolicyNet)."""

    def logits(self, x: np.ndarray) -> np.ndarray:
        return self.predict(x)

    def priors(self, x: np.ndarray, first_action: np.ndarray | None = None) -> np.ndarray:
        """Softmax of the logits over each decision's rows (one decision when first_action is None)."""
        first = np.array([0, len(x)]) if first_action is None else first_action
        return group_softmax(self.logits(x), first)

    def to_json(self, rules, name: str, **training) -> str:
        doc = {"format": FORMAT, "name": name, "rules": str(rules), "action_features": ACTION_FEATURES,
               **self.fields()}
        if training:
            doc["training"] = files.finite(training)
        return weights_text(doc, name)

    @staticmethod
    def load(path) -> "PolicyModel":
        return PolicyModel(_meeple.PolicyNet.load(files.check_size(path, "policy file (.json)")).layers)


def group_softmax(z: np.ndarray, first: np.ndarray) -> np.ndarray:
    lengths = np.diff(first)
    z = z - np.repeat(np.maximum.reduceat(z, first[:-1]), lengths)
    e = np.exp(z)
    return e / np.repeat(np.add.reduceat(e, first[:-1]), lengths)


def cross_entropy(model: PolicyModel, data: dict) -> tuple[float, float]:
    """(mean cross-entropy against the visit distributions, share of decisions whose highest prior is the
    most visited action)."""
    first = data["first_action"]
    p = model.priors(data["action_features"], first)
    t = visit_targets(data)
    ce = -np.add.reduceat(t * np.log(np.maximum(p, 1e-30)), first[:-1])
    starts = first[:-1]
    agree = [np.argmax(p[a:b]) == np.argmax(t[a:b]) for a, b in zip(starts, first[1:])]
    return float(ce.mean()), float(np.mean(agree))


@dataclass(frozen=True)
class FitConfig:
    hidden: tuple = (32,)
    epochs: int = 20
    batch: int = 256          # decisions per step
    lr: float = 3e-3
    weight_decay: float = 1e-5
    seed: int = 0

    def check(self) -> None:
        """Raises ValueError (or TypeError) naming the setting at fault."""
        for h in self.hidden:
            integer("hidden layer width", h, 1, _meeple.MlpEvaluator.MAX_WIDTH)
        integer("epochs", self.epochs, 1)
        integer("batch", self.batch, 1)
        integer("seed", self.seed, 0, MAX_SEED)
        real_number("lr", self.lr, 0)
        real_number("weight_decay", self.weight_decay, 0)


def fit(data: dict, config: FitConfig = FitConfig()) -> PolicyModel:
    """Trains a PolicyModel on the decisions of `data` (generate()'s arrays)."""
    rng = np.random.default_rng(config.seed)
    params = init_mlp([len(ACTION_FEATURES), *config.hidden, 1], rng)
    adam = Adam(params, config.lr, config.weight_decay)
    first = data["first_action"]
    x = data["action_features"].astype(np.float32)
    t = visit_targets(data).astype(np.float32)
    decisions = len(first) - 1
    for _ in range(config.epochs):
        order = rng.permutation(decisions)
        for start in range(0, decisions, config.batch):
            chosen = order[start:start + config.batch]
            rows = rows_of(first, chosen)
            lengths = first[chosen + 1] - first[chosen]
            batch_first = np.concatenate([[0], np.cumsum(lengths)])
            acts = mlp_forward(params, x[rows])
            p = group_softmax(acts[-1][:, 0], batch_first)
            delta = ((p - t[rows]) / len(chosen))[:, None].astype(np.float32)
            adam.step(mlp_backward(params, acts, delta))
    return PolicyModel([(params[i], params[i + 1]) for i in range(0, len(params), 2)])


def split(data: dict, validation: float = 0.1) -> tuple[dict, dict]:
    """(training, validation) decisions: every 1/validation-th game (by index) is held out."""
    every = max(2, round(1 / validation))
    held_out = data["game"] % every == 0
    if held_out.all():  # a few games, all held out: every game trains, none validates
        held_out[:] = False
    return select_decisions(data, ~held_out), select_decisions(data, held_out)


def positions_of(data: dict, rules) -> training.Positions:
    """The decisions of `data` as training.Positions, for fitting a value (evaluator) to final scores."""
    seed = int((data["game_id"] - data["finished"])[0]) if len(data["finished"]) else 0
    game = seed + data["game"].astype(np.int64)  # the game id (tile seed) of each decision
    order = np.argsort(game, kind="stable")
    game = game[order]
    ply = (np.arange(len(game)) - np.searchsorted(game, game, side="left")).astype(np.int16)
    by_id = np.argsort(data["game_id"])
    seats = data["features"].shape[1]
    return training.Positions(str(rules), data["game_id"][by_id], data["final_scores"][by_id],
                              np.zeros((len(by_id), seats), np.int8), game, ply, data["to_move"][order],
                              data["features"][order], np.zeros((len(game), 1), np.uint8))


def fit_value(data: dict, rules, hidden=(32,), seed: int = 0):
    """(an Mlp fitted to the final scores of the training games, its validation loss, the shipped weights'
    validation loss), in points squared; the losses are None without validation games."""
    positions = positions_of(data, rules)
    train, val = training.split(positions)
    model = training.Mlp(training.fit_mlp(train, hidden=hidden, seed=seed))
    if len(val) == 0:
        return model, None, None
    shipped = _meeple.make_evaluator("trained").weights_for(rules)
    shipped_model = training.Mlp(shipped.layers) if isinstance(shipped, _meeple.MlpEvaluator) else training.Linear(shipped.weights)
    return model, training.loss(model, val), training.loss(shipped_model, val)


def train_policy(out, rules, bot: str = "mcts:iterations=800", games: int = 200, seed: int = 1, workers: int = 1,
                 config: FitConfig = FitConfig(), progress: bool = True, command: str | None = None,
                 backend: str = "local", address: str | None = None, batch: int = 4) -> dict:
    """Self-play data (out/data.npz), the fits, out/policy.json and out/value.json; returns the report (also
    out/report.json)."""
    rules = as_rules(rules)
    config.check()
    data = generate(os.path.join(out, "data.npz"), rules, bot, games, seed, workers, progress, backend, address, batch)
    if len(data["game"]) == 0:
        raise ValueError("self-play kept no decision to learn from; play more games")
    train, val = split(data)
    model = fit(train, config)
    uniform = PolicyModel([(np.zeros((1, len(ACTION_FEATURES))), np.zeros(1))])
    report = {"games": int(len(data["finished"])), "decisions": int(len(data["game"])),
              "actions": int(len(data["visits"]))}
    for name, part in (("train", train), ("validation", val)):
        if len(part["game"]):
            report[f"{name}_cross_entropy"], report[f"{name}_top1"] = cross_entropy(model, part)
            report[f"{name}_uniform_cross_entropy"] = cross_entropy(uniform, part)[0]
    noted = {"bot": bot, "games": games, "seed": seed, "fit": config.__dict__ | {"hidden": list(config.hidden)},
             **({"command": command} if command else {})}
    name = os.path.basename(os.path.normpath(out))
    files.write_atomic(os.path.join(out, "policy.json"), model.to_json(rules, name=name, **noted))
    value, report["value_validation_loss"], report["shipped_value_validation_loss"] = fit_value(data, rules, seed=config.seed)
    files.write_atomic(os.path.join(out, "value.json"), training.weights_json(value, rules, name=f"{name}-value", **noted))
    files.write_atomic(os.path.join(out, "report.json"), files.dumps(files.finite(report), indent=1) + "\n")
    return report
