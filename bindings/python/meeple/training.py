"""Training evaluators from self-play: labelled positions, linear fits, and a gated promotion loop.

    python -m meeple train --expansions river2 --generations 6 --games 400 --out runs/train-river2

Data. generate() plays self-play games in C++ threads and writes every decision node as a position to
compressed numpy chunks (chunk-00000.npz, ...; docs/training.md lists their arrays). A game is known by
its id, the seed of its tile order (seed, seed + 1, ...); a chunk is written once its games are played,
and an interrupted run writes the games finished so far, so a rerun of the same call plays only the
games no chunk holds.

Fitting. The linear evaluator values seat p as w . f_p; what decides games is the difference to the others,
so fit_ridge() regresses each seat's final score minus the mean of the others' on its features minus
the mean of the others' (ridge, standardised columns). fit_td() fits TD(lambda) targets instead: the
lambda-return of the fitted values along each game, refitted a few times. fit_mlp() trains a small
multilayer perceptron (numpy, Adam) on the same rows for the C++ MlpEvaluator. Features equal for every seat
(bias, tiles_left) cancel in differences and keep the prior's weight. Games are split into training and validation
by game id, and losses are the mean squared error of the predicted score difference, in points squared.

Promotion. train() alternates: self-play with the current weights, a fit on the last few generations'
data (shrunk towards the current weights by default), and a seat-swapped SPRT match of the fitted
weights against the current ones; only a win (H1 accepted) promotes. Each generation is a row of generations.csv and a point of generations.png.
"""
from __future__ import annotations

import csv
import glob
import io
import math
import os
import re
import shlex
import sys
from dataclasses import dataclass, replace

import numpy as np

from . import _meeple, files
from .checks import MAX_SEED, integer, real_number
from .environment import as_rules, with_players
from .sprt import elo_of, sprt
from .tournament import MAX_GAMES, MAX_WORKERS

FORMAT = "meeple-positions/1"
WEIGHTS_FORMAT = "meeple-evaluator/1"
FEATURES = list(_meeple.FEATURE_NAMES)


# --- Data -----------------------------------------------------------------------------------------------

def seats_of(bots, game_id: int) -> list:
    """Bots by seat for game `game_id`: rotated each game, so every bot sits in every seat."""
    k = game_id % len(bots)
    return list(bots[k:]) + list(bots[:k])


def chunk_files(folder) -> list[str]:
    return sorted(glob.glob(os.path.join(folder, "chunk-*.npz")))


def generate(folder, rules, bots, games: int, seed: int = 1, chunk_games: int = 200, workers: int = 1,
             progress: bool = True) -> int:
    """Plays the self-play games with ids (tile seeds) seed .. seed + games - 1 not yet in `folder` and
    writes their positions; returns how many games it played. bots: one spec per seat (rotated each game),
    e.g. ["heuristic", "heuristic"]."""
    rules = as_rules(rules)
    if len(bots) != rules.players:
        raise ValueError(f"{rules.players} seats need {rules.players} bot specs, got {len(bots)}: {bots}")
    games = integer("games", games, 0, MAX_GAMES)
    seed = integer("seed", seed, 0, MAX_SEED - games)
    chunk_games = integer("chunk_games", chunk_games, 1)
    workers = integer("workers", workers, 1, MAX_WORKERS)
    files.make_folder(folder)
    have = set()
    for path in chunk_files(folder):
        with open_chunk(path) as chunk:
            check_chunk(path, chunk, rules)
            first = int(chunk["game_id"][0])
            if list(chunk["bots"][0]) != seats_of(bots, first):
                raise ValueError(f"{path}: game {first} was played by {list(chunk['bots'][0])}, not by "
                                 f"{seats_of(bots, first)}; use another folder for other bots")
            have.update(int(g) for g in chunk["game_id"])
    todo = [g for g in range(seed, seed + games) if g not in have]
    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=games, initial=games - len(todo), unit="game", desc=f"self-play {os.path.basename(folder)}")
    played = 0
    try:
        for start in range(0, len(todo), chunk_games):
            ids, data = todo[start:start + chunk_games], None
            try:
                data = _meeple.generate_selfplay(rules, [(seats_of(bots, g), g) for g in ids], jobs=workers,
                                                 on_finished=(lambda n: bar.update(1)) if bar else None)
            finally:  # also when Ctrl-C comes just after the games returned
                if data is not None and len(data["finished"]):
                    write_chunk(folder, rules, bots, ids, data)
            played += len(data["finished"])
            if data["interrupted"]:
                raise KeyboardInterrupt
    finally:
        if bar:
            bar.close()
    return played


def write_chunk(folder, rules, bots, ids, data) -> str:
    ids = np.asarray(ids, dtype=np.int64)
    game_id = ids[data["finished"]]
    existing = chunk_files(folder)
    number = int(os.path.basename(existing[-1])[6:11]) + 1 if existing else 0
    path = os.path.join(folder, f"chunk-{number:05d}.npz")
    tmp = os.path.join(folder, f"partial-{number:05d}.npz")  # not a chunk-*.npz until it is whole
    np.savez_compressed(
        tmp, format=np.array(FORMAT), rules=np.array(str(rules)), feature_names=np.array(FEATURES),
        tile_ids=np.array(_meeple.tile_ids()), game_id=game_id,
        bots=np.array([seats_of(bots, int(g)) for g in game_id]), final_scores=data["final_scores"],
        ranks=data["ranks"], game=ids[data["game"]], ply=data["ply"], to_move=data["to_move"],
        features=data["features"], remaining=data["remaining"])
    os.replace(tmp, path)
    return path


def open_chunk(path):
    """np.load of a chunk (a regular file; never a pickle), with errors that name the file."""
    files.check_regular(path, "numpy chunk (.npz)")
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as e:
        raise ValueError(f"{path}: not a readable numpy chunk ({e}); delete it, and rerun to play its games again") from None


def check_chunk(path, chunk, rules=None) -> None:
    if "format" not in chunk or str(chunk["format"]) != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} chunk (written by meeple.training.generate)")
    if list(chunk["feature_names"]) != FEATURES:
        raise ValueError(f"{path}: its features {list(chunk['feature_names'])} are not this meeple's {FEATURES}; "
                         "generate the data again")
    if rules is not None and str(chunk["rules"]) != str(rules):
        raise ValueError(f"{path}: positions of '{chunk['rules']}', not of '{rules}'; use another folder")


@dataclass
class Positions:
    """Positions of many games, sorted by game id then ply; per-game arrays are sorted by game id."""
    rules: str
    game_id: np.ndarray       # [games]: the seed of the game's tile order
    final_scores: np.ndarray  # [games, seats]
    ranks: np.ndarray         # [games, seats]
    game: np.ndarray          # [positions]: the position's game id
    ply: np.ndarray           # [positions]
    to_move: np.ndarray       # [positions]
    features: np.ndarray      # [positions, seats, features], float32
    remaining: np.ndarray     # [positions, tile types]

    def __len__(self) -> int:
        return len(self.game)

    def game_index(self) -> np.ndarray:
        """Per position, the row of its game in the per-game arrays."""
        return np.searchsorted(self.game_id, self.game)

    def select_games(self, keep) -> "Positions":
        """The positions of the games for which keep(game_id array) is true."""
        g, p = keep(self.game_id), keep(self.game)
        return Positions(self.rules, self.game_id[g], self.final_scores[g], self.ranks[g],
                         self.game[p], self.ply[p], self.to_move[p], self.features[p], self.remaining[p])


def load_positions(*folders_or_files) -> Positions:
    """The positions in these chunk files, or in the chunks of these folders, as one Positions."""
    paths = []
    for item in folders_or_files:
        paths += chunk_files(item) if os.path.isdir(item) else [item]
    if not paths:
        raise ValueError(f"no chunk-*.npz files in {list(folders_or_files)}")
    parts, rules = [], None
    for path in paths:
        with open_chunk(path) as chunk:
            check_chunk(path, chunk)
            if rules is not None and str(chunk["rules"]) != rules:
                raise ValueError(f"{path}: positions of '{chunk['rules']}', while {paths[0]} has '{rules}'")
            rules = str(chunk["rules"])
            parts.append({k: chunk[k] for k in ("game_id", "final_scores", "ranks", "game", "ply", "to_move", "features",
                                                 "remaining")})
    cat = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    if len(np.unique(cat["game_id"])) != len(cat["game_id"]):
        raise ValueError(f"a game (tile seed) appears twice in {list(folders_or_files)}: runs with overlapping seeds?")
    games, positions = np.argsort(cat["game_id"]), np.lexsort((cat["ply"], cat["game"]))
    return Positions(rules, *(cat[k][games] for k in ("game_id", "final_scores", "ranks")),
                     *(cat[k][positions] for k in ("game", "ply", "to_move", "features", "remaining")))


# --- Fitting --------------------------------------------------------------------------------------------

def versus_others(x: np.ndarray) -> np.ndarray:
    """Each seat's value minus the mean of the other seats' (axis 1 is the seat)."""
    seats = x.shape[1]
    return x - (x.sum(axis=1, keepdims=True) - x) / (seats - 1)


def design(data: Positions) -> np.ndarray:
    """[positions * seats, features]: the rows the weights multiply."""
    return versus_others(data.features.astype(np.float64)).reshape(-1, len(FEATURES))


def outcome(data: Positions) -> np.ndarray:
    """[positions * seats]: each seat's final score minus the mean of the others', at every position."""
    scores = data.final_scores[data.game_index()].astype(np.float64)
    return versus_others(scores).reshape(-1)


def ridge(x: np.ndarray, y: np.ndarray, alpha: float, prior=None, frozen=()) -> np.ndarray:
    """Ridge regression without intercept on standardised columns, shrunk towards `prior` (weights; default
    zero). Frozen features (names), and columns that are all zero, keep the prior's weight."""
    prior = np.zeros(x.shape[1]) if prior is None else np.asarray(prior, dtype=np.float64)
    y = y - x @ prior
    if frozen:
        x = x.copy()
        x[:, [FEATURES.index(name) for name in frozen]] = 0
    scale = np.sqrt((x * x).mean(axis=0))
    used = scale > 1e-9
    xs = x[:, used] / scale[used]
    gram = xs.T @ xs + alpha * len(xs) * np.eye(used.sum())
    w = prior.copy()
    w[used] += np.linalg.solve(gram, xs.T @ y) / scale[used]
    return w


def fit_ridge(data: Positions, alpha: float = 1e-4, prior=None, frozen=()) -> np.ndarray:
    """Weights predicting the final score difference (seat vs mean of the others) from the features,
    shrunk towards `prior` (e.g. the current weights) by `alpha`; `frozen` features keep the prior's."""
    return ridge(design(data), outcome(data), alpha, prior, frozen)


def lambda_returns(data: Positions, values: np.ndarray, lam: float) -> np.ndarray:
    """TD(lambda) targets [positions, seats]: G_t = (1 - lam) V_{t+1} + lam G_{t+1}, with the final
    outcome after a game's last position. `values` are the fitted values [positions, seats]."""
    rows, seats = data.game_index(), values.shape[1]
    first = np.searchsorted(data.game, data.game_id)  # positions are sorted by game then ply
    step = np.arange(len(data)) - first[rows]
    length = np.bincount(rows, minlength=len(data.game_id))
    final = versus_others(data.final_scores.astype(np.float64))
    # Dense [games, longest + 1, seats], padded with the outcome: the recursion then needs no masks.
    v = np.repeat(final[:, None, :], length.max() + 1, axis=1)
    v[rows, step] = values
    g = v.copy()
    for t in range(length.max() - 1, -1, -1):
        g[:, t] = (1 - lam) * v[:, t + 1] + lam * g[:, t + 1]
    return g[rows, step]


def fit_td(data: Positions, lam: float = 0.7, alpha: float = 1e-4, sweeps: int = 4, prior=None,
           frozen=()) -> np.ndarray:
    """Fitted TD(lambda): start from the outcome fit (lambda = 1), then refit to lambda-returns of the
    current weights `sweeps` times (each fit as fit_ridge's, with `prior` and `frozen`)."""
    x, seats = design(data), data.features.shape[1]
    w = ridge(x, outcome(data), alpha, prior, frozen)
    for _ in range(sweeps):
        w = ridge(x, lambda_returns(data, (x @ w).reshape(-1, seats), lam).reshape(-1), alpha, prior, frozen)
    return w


def fit_mlp(data: Positions, hidden=(32,), epochs: int = 20, batch: int = 4096, lr: float = 3e-3,
            weight_decay: float = 1e-5, seed: int = 0) -> list:
    """A multilayer perceptron (tanh hidden layers, linear output) on the same rows and targets as
    fit_ridge, trained with Adam on minibatches. Returns [(weights [outputs, inputs], bias)] per layer, with
    the input and target scaling folded in, as MlpEvaluator computes it."""
    x, y = design(data), outcome(data)
    scale = np.sqrt((x * x).mean(axis=0))
    scale[scale < 1e-9] = 1.0  # constant columns are all zero here: any scale
    y_scale = float(np.sqrt((y * y).mean())) or 1.0
    xs, ys = (x / scale).astype(np.float32), (y / y_scale).astype(np.float32)
    rng = np.random.default_rng(seed)
    params = init_mlp([x.shape[1], *hidden, 1], rng)
    adam = Adam(params, lr, weight_decay)
    for _ in range(epochs):
        order = rng.permutation(len(xs))
        for start in range(0, len(xs), batch):
            rows = order[start:start + batch]
            adam.step(mlp_gradients(params, xs[rows], ys[rows]))
    layers = [(params[i].astype(np.float64), params[i + 1].astype(np.float64)) for i in range(0, len(params), 2)]
    first_w, first_b = layers[0]
    layers[0] = (first_w / scale, first_b)
    last_w, last_b = layers[-1]
    layers[-1] = (last_w * y_scale, last_b * y_scale)
    return layers


def init_mlp(sizes, rng) -> list:
    """Parameters [W1, b1, W2, b2, ...] of a network with these layer sizes (inputs first), float32."""
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        params += [rng.normal(0, np.sqrt(1 / n_in), (n_out, n_in)).astype(np.float32), np.zeros(n_out, np.float32)]
    return params


def mlp_forward(params, x) -> list:
    """Activations of each layer of [W1, b1, ...] on rows x, the input first and the (linear) output last."""
    acts = [x]
    for i in range(0, len(params) - 2, 2):
        acts.append(np.tanh(acts[-1] @ params[i].T + params[i + 1]))
    acts.append(acts[-1] @ params[-2].T + params[-1])
    return acts


def mlp_backward(params, acts, delta) -> list:
    """Gradients of [W1, b1, ...] given the activations (mlp_forward) and the loss gradient at the output."""
    grads = [None] * len(params)
    for i in range(len(params) - 2, -1, -2):
        grads[i], grads[i + 1] = delta.T @ acts[i // 2], delta.sum(axis=0)
        if i:
            delta = (delta @ params[i]) * (1 - acts[i // 2] ** 2)
    return grads


def mlp_gradients(params, x, y) -> list:
    """Gradients of the mean squared error of the network [W1, b1, W2, b2, ...] on rows x, targets y."""
    acts = mlp_forward(params, x)
    return mlp_backward(params, acts, 2 * (acts[-1][:, 0] - y)[:, None] / len(y))


class Adam:
    """Adam steps on a list of numpy parameters, updated in place."""

    def __init__(self, params, lr: float, weight_decay: float = 0.0):
        self.params, self.lr, self.weight_decay = params, lr, weight_decay
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
        self.steps = 0

    def step(self, grads) -> None:
        self.steps += 1
        for p, g, (m, v) in zip(self.params, grads, self.moments):
            g = g + self.weight_decay * p
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= self.lr * (m / (1 - 0.9 ** self.steps)) / (np.sqrt(v / (1 - 0.999 ** self.steps)) + 1e-8)


class Linear:
    """Linear weights, one per feature in FEATURE_NAMES order (the C++ LinearEvaluator)."""

    kind = "linear"

    def __init__(self, weights):
        self.weights = np.asarray(weights, dtype=np.float64)

    def predict(self, x: np.ndarray) -> np.ndarray:
        return x @ self.weights

    def fields(self) -> dict:
        return {"weights": [digits(v) for v in self.weights]}


class Mlp:
    """MLP layers [(weights [outputs, inputs], bias)], tanh between them (the C++ MlpEvaluator)."""

    kind = "mlp"

    def __init__(self, layers):
        self.layers = [(np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64)) for w, b in layers]

    def predict(self, x: np.ndarray) -> np.ndarray:
        for w, b in self.layers[:-1]:
            x = np.tanh(x @ w.T + b)
        w, b = self.layers[-1]
        return (x @ w.T + b)[:, 0]

    def fields(self) -> dict:
        return {"layers": [{"weights": [[digits(v) for v in row] for row in w], "bias": [digits(v) for v in b]}
                           for w, b in self.layers]}


def as_model(model):
    """A Linear or Mlp from either, from linear weights (an array) or from MLP layers (fit_mlp's list)."""
    if isinstance(model, (Linear, Mlp)):
        return model
    if isinstance(model, (list, tuple)) and len(model) > 0 and isinstance(model[0], tuple):
        return Mlp(model)
    return Linear(model)


def predict(model, x: np.ndarray) -> np.ndarray:
    """Predicted score differences for design rows x."""
    return as_model(model).predict(x)


def loss(model, data: Positions) -> float | None:
    """Mean squared error of the predicted score difference against the final one (points squared); None
    for no positions (an empty validation set: there is nothing to measure, and NaN is not JSON)."""
    if len(data) == 0:
        return None
    return float(np.mean((predict(model, design(data)) - outcome(data)) ** 2))


def split(data: Positions, validation: float = 0.1) -> tuple[Positions, Positions]:
    """(training, validation): every 1/validation-th game by id is held out, never split across the two.
    A few games may all be held out: then every game trains and the validation set is empty."""
    every = max(2, round(1 / validation))
    train, val = data.select_games(lambda ids: ids % every != 0), data.select_games(lambda ids: ids % every == 0)
    if len(train.game_id) == 0:
        return data, data.select_games(lambda ids: np.zeros(len(ids), bool))
    return train, val


# --- Weight files ---------------------------------------------------------------------------------------

def weights_json(model, rules, name: str, **training) -> str:
    """A weight file the C++ evaluators load (format meeple-evaluator/1): linear weights (an array in
    FEATURE_NAMES order) or MLP layers (fit_mlp), with how they were fitted."""
    model = as_model(model)
    doc = {"format": WEIGHTS_FORMAT, "kind": model.kind, "name": name, "rules": str(rules), "features": FEATURES,
           **model.fields()}
    if training:  # notes: what was not computed (NaN included) is left out
        doc["training"] = {k: v for k, v in files.finite(training).items() if v is not None}
    return weights_text(doc, name)


def weights_text(doc: dict, name: str) -> str:
    """A weight file's text; ValueError if a weight is not a finite number (a fit that diverged), which no
    JSON file can hold."""
    try:
        return files.dumps(doc, indent=1) + "\n"
    except ValueError:
        raise ValueError(f"the weights of {name!r} are not all finite numbers (the fit diverged?); nothing written") from None


def digits(value) -> float:
    """Eight significant digits: about what the C++ evaluators keep (float32), however small the value."""
    return float(f"{float(value):.8g}")


def read_model(path):
    """The model of a weight file, Linear or Mlp (the C++ loader checks the file's contents)."""
    evaluator = _meeple.make_evaluator(files.check_size(path, "weight file (.json)"))
    if not isinstance(evaluator, _meeple.FittedEvaluator):
        raise ValueError(f"{path!r} is not a weight file (FILE.json); weights to start from or compare with must be one")
    if isinstance(evaluator, _meeple.MlpEvaluator):
        return Mlp(evaluator.layers)
    return Linear(evaluator.weights)


def loads_as_weights(path) -> bool:
    """Whether `path` is a weight file the evaluators load."""
    try:
        read_model(path)
        return True
    except (OSError, ValueError):
        return False


# --- The promotion loop ---------------------------------------------------------------------------------

COLUMNS = ["generation", "games", "positions", "train_loss", "val_loss", "current_val_loss", "match_games", "score",
           "score_lo", "score_hi", "elo", "elo_lo", "elo_hi", "verdict", "promoted", "current"]


def read_log(path) -> list[dict]:
    """The rows of generations.csv (none if there is no file): generation 1, 2, ... each naming the weight
    file that was current after it; ValueError naming the line otherwise."""
    if not os.path.exists(path):
        return []
    try:
        text = [line.decode("utf-8") for _, line in files.read_lines(path, "training log (generations.csv)")]
        rows = list(csv.DictReader(text))
    except (UnicodeDecodeError, csv.Error) as e:
        raise ValueError(f"{path}: not a training log ({e}); remove it to start the generations again") from None
    for number, row in enumerate(rows, 2):
        if set(row) != set(COLUMNS) or row["generation"] != str(number - 1) or None in row.values() \
                or not re.fullmatch(r"gen-[0-9]+\.json", row["current"]):
            raise ValueError(f"{path}: line {number} is not generation {number - 1}'s row of a training log "
                             f"(columns {COLUMNS}); remove the line and what follows to play from there again")
    return rows


@dataclass(frozen=True)
class TrainConfig:
    """Everything a training run is asked to do (python -m meeple train's options)."""

    rules: str = "players=2"     # the self-play games' (Rules.parse text); the matches are head to head
    generations: int = 5
    games: int = 400              # self-play games per generation
    window: int = 3               # generations of data each fit uses
    method: str = "ridge"         # ridge, td or mlp
    lam: float = 0.7              # td: lambda
    alpha: float = 0.1            # ridge and td: shrinkage
    shrink_to: str = "current"    # ridge and td: towards the current weights, or zero
    frozen: tuple = ()            # ridge and td: features that keep the current weights
    hidden: tuple = (32,)         # mlp: hidden layer widths
    selfplay_bot: str = "heuristic:eval={weights}"
    match_bot: str = "heuristic:eval={weights}"
    elo0: float = 0.0             # the promotion match's SPRT hypotheses
    elo1: float = 20.0
    batch_pairs: int = 50
    max_pairs: int = 400
    seed: int = 1
    workers: int = 1
    start: str | None = None      # weights of generation 0 (default: the hand-tuned ones)

    def check(self) -> None:
        """Raises ValueError (or TypeError) naming the setting at fault."""
        as_rules(self.rules)
        integer("generations", self.generations, 1)
        integer("games", self.games, 1, MAX_GAMES)
        integer("window", self.window, 1)
        integer("batch_pairs", self.batch_pairs, 1)
        integer("max_pairs", self.max_pairs, 1)
        integer("workers", self.workers, 1, MAX_WORKERS)
        # Generation g plays from seed + 1,000,000 g: the last one must still be a seed.
        integer("seed", self.seed, 0, MAX_SEED - 1_000_000 * (self.generations + 1))
        real_number("lam", self.lam, 0, 1)
        real_number("alpha", self.alpha, 0)
        if not real_number("elo1", self.elo1) > real_number("elo0", self.elo0):
            raise ValueError(f"elo1 ({self.elo1}) must be greater than elo0 ({self.elo0})")
        if self.start is not None:
            files.check_size(self.start, "weight file (.json)")
        if self.method not in ("ridge", "td", "mlp"):
            raise ValueError(f"method must be 'ridge', 'td' or 'mlp', not {self.method!r}")
        if self.shrink_to not in ("current", "zero"):
            raise ValueError(f"shrink_to must be 'current' or 'zero', not {self.shrink_to!r}")
        unknown = [name for name in self.frozen if name not in FEATURES]
        if unknown:
            raise ValueError(f"cannot freeze unknown features {unknown}; the features are {FEATURES}")
        if self.method == "mlp" and self.frozen:
            raise ValueError("--freeze applies to linear weights (methods ridge and td), not to an mlp")
        for h in self.hidden:
            integer("hidden layer width", h, 1, _meeple.MlpEvaluator.MAX_WIDTH)
        for template in (self.selfplay_bot, self.match_bot):
            if "{weights}" not in template:
                raise ValueError(f"bot template {template!r} must contain {{weights}}, e.g. 'heuristic:eval={{weights}}'")
            _meeple.make_player(template.format(weights="handtuned"), 0)  # a bad spec fails before any file is made

    def fit(self, data: Positions, current, generation: int):
        """The method's model fitted to `data`, starting from the current model."""
        if self.method == "mlp":
            return Mlp(fit_mlp(data, hidden=self.hidden, seed=self.seed + generation))
        # Shrinking towards the current weights moves them only as far as the data insist: a fit shrunk to
        # zero follows correlations of self-play that search then exploits (docs/training.md).
        prior = None
        if isinstance(current, Linear):
            keep = np.isin(FEATURES, self.frozen)  # frozen features keep their current weights in either case
            prior = current.weights if self.shrink_to == "current" else np.where(keep, current.weights, 0.0)
        if self.method == "td":
            return Linear(fit_td(data, lam=self.lam, alpha=self.alpha, prior=prior, frozen=self.frozen))
        return Linear(fit_ridge(data, alpha=self.alpha, prior=prior, frozen=self.frozen))

    def noted(self) -> dict:
        """How a generation was fitted, for its weight file."""
        linear = self.method != "mlp"
        return {"method": self.method, "lam": self.lam if self.method == "td" else None,
                "alpha": self.alpha if linear else None, "shrunk_to": self.shrink_to if linear else None,
                "frozen": list(self.frozen) or None, "hidden": None if linear else list(self.hidden)}


def train(out, config: TrainConfig | None = None, *, progress: bool = True, log=print, command: str | None = None,
          **settings) -> list[dict]:
    """The generate / fit / match loop (see the module docstring) with `config`, or TrainConfig's defaults
    changed by `settings` (train(out, generations=2, games=24)). Everything goes to the folder `out`:
    data/gen-N/ chunks, gen-N.json weights (gen-0: the starting weights), match-gen-N.jsonl records,
    generations.csv and generations.png, and best.json, the last promoted weights (gen-0 if none). A rerun
    from the same working directory continues where it stopped (bot names in the records hold the paths).
    Bot templates get {weights} replaced by a weight file. `command` is noted in the weight files (default:
    this process's command line). Returns the log rows."""
    if "rules" in settings:
        settings["rules"] = str(as_rules(settings["rules"]))
    for key in ("frozen", "hidden"):
        if key in settings:
            settings[key] = tuple(settings[key])
    config = replace(config or TrainConfig(), **settings)
    config.check()
    rules = as_rules(config.rules)
    start = read_model(config.start) if config.start else None  # a bad file fails before the folder is made
    out = os.path.normpath(out)  # "runs/x/" and "runs/x" name the same bots
    files.make_folder(out)
    first = os.path.join(out, "gen-0.json")
    if not loads_as_weights(first):  # missing, or left unreadable by an earlier version: written again
        if start is not None:
            text = weights_json(start, rules, "gen-0", started_from=str(config.start))
        else:
            text = weights_json(np.array(_meeple.make_evaluator("handtuned").weights), rules, "handtuned")
        files.write_atomic(first, text)
    log_path = os.path.join(out, "generations.csv")
    rows = read_log(log_path)
    current = rows[-1]["current"] if rows else "gen-0.json"  # file name in `out`
    for generation in range(len(rows) + 1, config.generations + 1):
        row = run_generation(out, rules, generation, os.path.join(out, current), config, progress=progress,
                             command=command or shlex.join(sys.argv))
        current = row["current"]
        rows.append({k: "" if v is None else str(v) for k, v in row.items()})  # "": not computed
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
        files.write_atomic(log_path, text.getvalue(), newline="")
        plot_generations(rows, os.path.join(out, "generations.png"), title=f"training: {rules}")
        log(format_row(rows[-1]))
    files.copy_atomic(os.path.join(out, current), os.path.join(out, "best.json"))
    return rows


def run_generation(out, rules, generation: int, current: str, config: TrainConfig, *, progress: bool,
                   command: str) -> dict:
    data_dir = os.path.join(out, "data", f"gen-{generation}")
    generate(data_dir, rules, [config.selfplay_bot.format(weights=current)] * rules.players, config.games,
             seed=config.seed + 1_000_000 * generation, workers=config.workers, progress=progress)
    first = max(1, generation - config.window + 1)
    train_set, val_set = split(load_positions(*[os.path.join(out, "data", f"gen-{g}") for g in range(first, generation + 1)]))
    current_model = read_model(current)
    model = config.fit(train_set, current_model, generation)
    candidate = os.path.join(out, f"gen-{generation}.json")
    row = {"generation": generation, "games": len(train_set.game_id) + len(val_set.game_id),
           "positions": len(train_set) + len(val_set), "train_loss": loss(model, train_set),
           "val_loss": loss(model, val_set), "current_val_loss": loss(current_model, val_set)}
    files.write_atomic(candidate, weights_json(
        model, rules, f"gen-{generation}", **config.noted(), generation=generation, games=row["games"],
        positions=row["positions"], train_loss=rounded(row["train_loss"]), val_loss=rounded(row["val_loss"]),
        command=command))
    match = sprt(config.match_bot.format(weights=candidate), config.match_bot.format(weights=current),
                 elo0=config.elo0, elo1=config.elo1, batch_pairs=config.batch_pairs, max_pairs=config.max_pairs,
                 rules=with_players(rules, 2),
                 seed=config.seed + 1_000_000 * generation + 500_000, workers=config.workers,
                 out=os.path.join(out, f"match-gen-{generation}.jsonl"))
    lo, hi = match.interval
    promoted = match.accepted == "H1"
    return row | {"match_games": match.games, "score": match.score, "score_lo": lo, "score_hi": hi, "elo": match.elo,
                  "elo_lo": elo_of(lo), "elo_hi": elo_of(hi), "verdict": match.accepted or "none",
                  "promoted": int(promoted), "current": os.path.basename(candidate if promoted else current)}


def rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def logged_number(text) -> float:
    """A number of the log ("" or None, not computed: NaN, which tables print as "-" and plots skip)."""
    return math.nan if text in ("", None) else float(text)


def one_decimal(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.1f}"


def format_row(row: dict) -> str:
    f = {k: logged_number(row[k]) for k in ("val_loss", "current_val_loss", "score", "score_lo", "score_hi", "elo")}
    return (f"generation {row['generation']}: {row['positions']} positions, validation loss "
            f"{one_decimal(f['val_loss'])} (current {one_decimal(f['current_val_loss'])}); "
            f"match {row['match_games']} games, score {100 * f['score']:.1f}% "
            f"[{100 * f['score_lo']:.1f}, {100 * f['score_hi']:.1f}], elo {signed(f['elo'])}, SPRT {row['verdict']}: "
            + ("promoted" if row["promoted"] in ("1", 1) else "not promoted"))


def signed(elo: float) -> str:
    """+12, -3, 0 (not -0)."""
    return f"{round(elo):+d}" if round(elo) else "0"


def generations_table(rows) -> str:
    """The log as a Markdown table (for docs)."""
    lines = ["| gen | positions | val loss | current's val loss | match games | score [95%] | Elo [95%] | SPRT | promoted |",
             "| ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |"]
    for r in rows:
        f = {k: logged_number(r[k]) for k in ("val_loss", "current_val_loss", "score", "score_lo", "score_hi", "elo", "elo_lo", "elo_hi")}
        lines.append(f"| {r['generation']} | {r['positions']} | {one_decimal(f['val_loss'])} | {one_decimal(f['current_val_loss'])} | "
                     f"{r['match_games']} | {100 * f['score']:.1f}% [{100 * f['score_lo']:.1f}, {100 * f['score_hi']:.1f}] | "
                     f"{signed(f['elo'])} [{signed(f['elo_lo'])}, {signed(f['elo_hi'])}] | {r['verdict']} | "
                     f"{'yes' if r['promoted'] in ('1', 1) else 'no'} |")
    return "\n".join(lines)


def plot_generations(rows, path, title="training") -> None:
    """Validation loss (fitted vs current weights) and match Elo with its interval, per generation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    gen = [int(r["generation"]) for r in rows]
    val = [logged_number(r["val_loss"]) for r in rows]
    cur = [logged_number(r["current_val_loss"]) for r in rows]
    elo = np.array([float(r["elo"]) for r in rows])
    lo, hi = np.array([float(r["elo_lo"]) for r in rows]), np.array([float(r["elo_hi"]) for r in rows])
    promoted = [r["promoted"] in ("1", 1) for r in rows]
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    a.plot(gen, val, "o-", label="fitted weights")
    a.plot(gen, cur, "s--", label="current weights")
    a.set(xlabel="generation", ylabel="validation loss (points²)", title="score-difference error")
    a.legend()
    b.errorbar(gen, elo, yerr=[np.clip(elo - lo, 0, None), np.clip(hi - elo, 0, None)], fmt="none", ecolor="grey")
    b.scatter(gen, elo, c=["tab:green" if p else "tab:red" for p in promoted], zorder=3)
    b.axhline(0, color="black", linewidth=0.5)
    b.set(xlabel="generation", ylabel="Elo vs current (95%)", title="match: green = promoted")
    fig.suptitle(title)
    fig.tight_layout()
    files.save_figure(fig, path, dpi=100)
    plt.close(fig)
