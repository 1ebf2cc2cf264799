"""Policy-value networks that read the board, trained with JAX (the `[train]` extra) and evaluated by the C++
search (mcts:net=FILE). docs/networks.md gives the architecture and the weight file; this module computes the
same function as ai/src/network.cpp (a test compares them to 1e-4).

    python -m meeple train-net --out runs/net-base --rules "players=2"

Data. Decisions of self-play games between mcts bots (policy.generate with observations): each decision's
observation in the board encoding (planes kept sparse), the evaluator features of every seat, its legal
actions' ids and the visits the search gave them. Targets: the visit distribution (policy, cross-entropy)
and every seat's tanh(final margin / reward_scale) (value, squared error), the reward the search backs up.
Batches are drawn in a random orientation of the board (its four rotations are the game's symmetries).
"""
from __future__ import annotations

import dataclasses
import json
import math
import os

import numpy as np

from . import _meeple, files

FORMAT = "meeple-net/1"
TRAINED_BASE = "trained"  # the evaluator whose leaf points policy data keep (generate_policy_data)
WINDOW = 32
CELLS = WINDOW * WINDOW
HAND = len(_meeple.FEATURE_NAMES)  # evaluator features per seat
PLACE, ABBEY, DEPLOY, COUNT_DEPLOY = (_meeple.ACTION_ID_BLOCKS[k] for k in ("place", "abbey", "deploy", "count_deploy"))
END = _meeple.NUM_ACTION_IDS
DEPLOY_IDS = COUNT_DEPLOY - DEPLOY
OTHER_IDS = 1 + END - COUNT_DEPLOY  # pass, then every id from the Count's deploys on


@dataclasses.dataclass(frozen=True)
class NetConfig:
    """The sizes of a net (docs/networks.md)."""
    channels: int = 32       # K: features per candidate cell
    residual: int = 1        # R: residual 1x1 layers on the cells
    flat_hidden: int = 64    # Hf
    global_hidden: int = 64  # G
    hand_features: bool = True
    reward_scale: float = 20.0
    # An evaluator spec ("trained"): the value corrects its leaf values, tanh(head + margin(leaf_points) /
    # reward_scale), starting from them (the head's weights start at zero); "": tanh(head).
    value_base: str = ""

    def check(self):
        for name in ("channels", "flat_hidden", "global_hidden"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 1 <= value <= 256:
                raise ValueError(f"net {name} must be an integer from 1 to 256, not {value!r}")
        if not isinstance(self.residual, int) or not 0 <= self.residual <= 8:
            raise ValueError(f"net residual must be an integer from 0 to 8, not {self.residual!r}")
        if not (isinstance(self.reward_scale, (int, float)) and 0 < self.reward_scale < math.inf):
            raise ValueError(f"net reward_scale must be positive, not {self.reward_scale!r}")
        if not isinstance(self.value_base, str):
            raise ValueError(f"net value_base must be an evaluator spec such as 'trained' or '', not {self.value_base!r}")
        return self

    def check_trainable(self):
        """Training reads the value base's terms from the data, which keep the shipped evaluator's leaf points
        only: another base would train against values the search never computes."""
        if self.value_base not in ("", TRAINED_BASE):
            raise ValueError(f"net value_base {self.value_base!r}: training data keep the shipped evaluator's leaf "
                             f"points only, so a net is trained with value_base '{TRAINED_BASE}' or none")
        return self


# --- Inputs ---------------------------------------------------------------------------------------------

def bucket(n: int, least: int = 64) -> int:
    """A padded length for n items: powers of two and the midpoints between them (few shapes, few
    compilations)."""
    size = least
    while size < n:
        size = size * 3 // 2 if size & (size - 1) == 0 else size * 4 // 3
    return size


@dataclasses.dataclass
class Batch:
    """What the network reads for B positions, padded to few shapes.

    planes uint8 [B, P, 32, 32]; flat float32 [B, F] (already with the hand features appended when the net
    reads them); base float32 [B, players]: the value base's margin(leaf_points) / reward_scale from the
    observer's seat on (zeros for a net without one); candidate cells as pairs (pair_sample b, pair_cell; pair_sample = B for padding) and last_pair; and, for the
    policy loss, action rows naming where each legal action's logit comes from (row_source: an index into
    the concatenation [place logits of every pair (4 each), abbey logits (1 each), deploy logits of every
    sample (DEPLOY_IDS each), other logits (OTHER_IDS each)]) and to which sample it belongs (row_sample,
    B for padding)."""
    planes: np.ndarray
    flat: np.ndarray
    pair_sample: np.ndarray
    pair_cell: np.ndarray
    last_pair: np.ndarray       # [B]: index of the sample's last placed cell among the pairs, or -1
    base: np.ndarray | None = None
    row_source: np.ndarray | None = None
    row_sample: np.ndarray | None = None
    size: int = 0               # real samples (B may be padded)

    def arrays(self) -> dict:
        return {k: getattr(self, k) for k in ("planes", "flat", "base", "pair_sample", "pair_cell", "last_pair")}


def candidate_pairs(planes: np.ndarray, frontier: int, last_placed: int):
    """(sample, cell, is_last) of every candidate cell, in sample then cell order (docs/networks.md)."""
    b = planes.shape[0]
    last = planes[:, last_placed].reshape(b, CELLS) > 0
    cells = (planes[:, frontier].reshape(b, CELLS) > 0) | last
    sample, cell = np.nonzero(cells)
    return sample.astype(np.int32), cell.astype(np.int32), last[sample, cell]


def make_batch(planes, flat, encoding, pad_to: int | None = None, base=None) -> Batch:
    """A Batch of dense planes [B, P, 32, 32], flat inputs [B, F'] and value base terms [B, players] (None:
    zeros) (ids not set)."""
    b = planes.shape[0]
    n = pad_to or b
    base = np.zeros((b, encoding.players), np.float32) if base is None else np.asarray(base, np.float32)
    if n > b:
        planes = np.concatenate([planes, np.zeros((n - b, *planes.shape[1:]), planes.dtype)])
        flat = np.concatenate([flat, np.zeros((n - b, flat.shape[1]), flat.dtype)])
        base = np.concatenate([base, np.zeros((n - b, base.shape[1]), np.float32)])
    names = [name for name, _ in encoding.plane_channels()]
    sample, cell, last = candidate_pairs(planes[:b], names.index("frontier"), names.index("last_placed"))
    t = bucket(len(sample), 256)
    pair_sample = np.full(t, n, np.int32)
    pair_cell = np.zeros(t, np.int32)
    pair_sample[:len(sample)], pair_cell[:len(sample)] = sample, cell
    last_pair = np.full(n, -1, np.int32)
    where = np.nonzero(last)[0]
    last_pair[sample[where]] = where
    return Batch(np.ascontiguousarray(planes), np.ascontiguousarray(flat, dtype=np.float32), pair_sample, pair_cell,
                 last_pair, np.ascontiguousarray(base), size=b)


def action_rows(batch: Batch, sample: np.ndarray, ids: np.ndarray):
    """row_source for action rows (sample, id): where the logit of `id` at `sample` lies in the concatenated
    logits (see Batch). Raises ValueError for a placement or abbey off the sample's candidate cells."""
    try:
        return _action_rows(batch, sample, ids)
    except KeyError as e:
        raise ValueError(f"action id off the candidate cells of its sample (sample, cell) = {e}") from None


def _action_rows(batch: Batch, sample: np.ndarray, ids: np.ndarray):
    n = batch.planes.shape[0]
    t = len(batch.pair_sample)
    pair_of = {(int(s), int(c)): i for i, (s, c) in enumerate(zip(batch.pair_sample, batch.pair_cell)) if s < n}
    source = np.empty(len(ids), np.int64)
    for i, (s, a) in enumerate(zip(sample.tolist(), ids.tolist())):
        if PLACE <= a < ABBEY:
            source[i] = 4 * pair_of[(s, (a - PLACE) // 4)] + (a - PLACE) % 4
        elif ABBEY <= a < DEPLOY:
            source[i] = 4 * t + pair_of[(s, a - ABBEY)]
        elif DEPLOY <= a < COUNT_DEPLOY:
            source[i] = 5 * t + s * DEPLOY_IDS + (a - DEPLOY)
        else:
            k = 0 if a == 0 else 1 + a - COUNT_DEPLOY
            source[i] = 5 * t + n * DEPLOY_IDS + s * OTHER_IDS + k
    return source


def base_terms(points: np.ndarray, observer: np.ndarray, reward_scale: float) -> np.ndarray:
    """Each seat's margin(points) / reward_scale, seats counted from the observer, from points [N, players] in
    absolute seats: a value base's terms (of leaf_points), and tanh of it a value target (of final scores)."""
    players = points.shape[1]
    best_other = np.stack([np.delete(points, k, axis=1).max(axis=1) for k in range(players)], axis=1)
    seats = (np.asarray(observer, np.int64)[:, None] + np.arange(players)) % players
    return (np.take_along_axis(points - best_other, seats, axis=1) / reward_scale).astype(np.float32)


def observe(states, hand_features: bool = True, turns: int = 0, value_base: str = "", reward_scale: float = 20.0):
    """(Batch, ids per state) of game states (not terminal) as the net reads them: each from its observer's
    point of view (the player to act; at a chance node the player whose turn it is), with the ids of its legal
    actions (decision nodes; [] at chance nodes). The action rows are those ids'. With a `value_base`
    evaluator, its leaf values' terms (base_terms)."""
    players = states[0].num_players
    encoding = _meeple.Encoding(players)
    planes = np.zeros((len(states), *encoding.plane_shape), np.uint8)
    flat = np.zeros((len(states), encoding.flat_size), np.float32)
    hand = np.zeros((len(states), players * HAND), np.float32)
    points = np.zeros((len(states), players), np.float64)
    observers = np.zeros(len(states), np.int64)
    ids = []
    for k, s in enumerate(states):
        seat = s.turn_player if s.is_chance else s.current_player
        observers[k] = seat
        planes[k], flat[k], _ = encoding.observe(s, seat, turns)
        hand[k] = np.roll(s.features(), -seat, axis=0).reshape(-1)
        if value_base:
            points[k] = _meeple.leaf_points(s, value_base)
        ids.append([] if s.is_chance else [_meeple.Encoding.id_of(s, a, turns) for a in s.legal_actions()])
    base = base_terms(points, observers, reward_scale) if value_base else None
    batch = make_batch(planes, np.concatenate([flat, hand], axis=1) if hand_features else flat, encoding, base=base)
    sample = np.concatenate([np.full(len(i), k) for k, i in enumerate(ids)] + [np.zeros(0, np.int64)]).astype(np.int64)
    flat_ids = np.concatenate([np.asarray(i, np.int64) for i in ids] + [np.zeros(0, np.int64)])
    keep = flat_ids >= 0
    batch.row_source = action_rows(batch, sample[keep], flat_ids[keep])
    batch.row_sample = sample[keep].astype(np.int32)
    return batch, ids


def outputs(model, params, states, config: "NetConfig"):
    """(values [B, players] from each observer, logits of each state's legal actions in legal_actions()
    order, NaN for an action without an id): the JAX net's outputs, to compare with C++'s."""
    batch, ids = observe(states, config.hand_features, value_base=config.value_base, reward_scale=config.reward_scale)
    value, logits = model.apply(params, **batch.arrays())
    row_logit = np.asarray(logits)[batch.row_source]
    out, at = [], 0
    for i in ids:
        got = np.full(len(i), np.nan, np.float32)
        has = np.asarray(i) >= 0
        got[has] = row_logit[at:at + int(has.sum())]
        at += int(has.sum())
        out.append(got)
    return np.asarray(value)[:len(states)], out


# --- The network ----------------------------------------------------------------------------------------

def _jax():
    try:
        import flax.linen as nn
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError as e:
        raise ImportError(f"training networks needs JAX ({e}): pip install 'meeple[train]'") from None
    return jax, jnp, nn, optax


def make_model(config: NetConfig, players: int):
    """The flax module computing docs/networks.md's function; its Dense layers carry the tensor names of the
    weight file."""
    jax, jnp, nn, _ = _jax()
    flat_size = _meeple.Encoding(players).flat_size

    class PolicyValueNet(nn.Module):
        @nn.compact
        def __call__(self, planes, flat, base, pair_sample, pair_cell, last_pair):
            """-> (value [B, players], logits concatenated as Batch describes). `flat`: the encoding's flat
            vector, then the hand features (read as they are) if the net has them; `base`: the value base's
            terms (zeros without one)."""
            n, p = planes.shape[0], planes.shape[1]
            x = jnp.log1p(planes.astype(jnp.float32))
            x = jnp.pad(x, ((0, 1), (0, 0), (1, 1), (1, 1)))  # a zero sample for padding pairs, a zero border
            encoded, hand = flat[:, :flat_size], flat[:, flat_size:]
            inputs = jnp.concatenate([jnp.sign(encoded) * jnp.log1p(jnp.abs(encoded)), hand], axis=1)
            f = nn.relu(nn.Dense(config.flat_hidden, name="flat")(inputs))
            row, col = pair_cell // WINDOW, pair_cell % WINDOW
            patch = jax.vmap(lambda s, r, c: jax.lax.dynamic_slice(x, (s, 0, r, c), (1, p, 3, 3)))(pair_sample, row, col)
            patch = patch.reshape(patch.shape[0], p * 9)
            f_pad = jnp.concatenate([f, jnp.zeros((1, f.shape[1]), f.dtype)])
            h = nn.relu(nn.Dense(config.channels, name="cell")(patch)
                        + nn.Dense(config.channels, use_bias=False, name="flat_to_cell")(f_pad)[pair_sample])
            for i in range(config.residual):
                h = nn.relu(h + nn.Dense(config.channels, name=f"res{i}")(h))
            real = (pair_sample < n)[:, None]
            count = jax.ops.segment_sum(real.astype(jnp.float32)[:, 0], pair_sample, num_segments=n + 1)[:n, None]
            mean = jax.ops.segment_sum(jnp.where(real, h, 0), pair_sample, num_segments=n + 1)[:n] / jnp.maximum(count, 1)
            high = jax.ops.segment_max(jnp.where(real, h, 0), pair_sample, num_segments=n + 1)[:n]
            high = jnp.where(count > 0, high, 0)
            last = jnp.where((last_pair >= 0)[:, None], h[jnp.maximum(last_pair, 0)], 0)
            g = nn.relu(nn.Dense(config.global_hidden, name="global")(jnp.concatenate([mean, high, last, f], axis=1)))
            # With a value base the head starts at zero: the net starts as the evaluator's leaf values.
            head = nn.Dense(players, name="value", kernel_init=nn.initializers.zeros if config.value_base
                            else nn.linear.default_kernel_init)
            value = jnp.tanh(head(g) + base)
            logits = jnp.concatenate([
                nn.Dense(4, name="place")(h).reshape(-1),
                nn.Dense(1, name="abbey")(h).reshape(-1),
                nn.Dense(DEPLOY_IDS, name="deploy")(last).reshape(-1),
                nn.Dense(OTHER_IDS, name="other")(g).reshape(-1),
            ])
            return value, logits

    return PolicyValueNet()


# --- The weight file ------------------------------------------------------------------------------------

def tensor_names(config: NetConfig) -> list[str]:
    layers = ["flat", "cell", "flat_to_cell"] + [f"res{i}" for i in range(config.residual)] + [
        "place", "abbey", "deploy", "global", "other", "value"]
    return [f"{layer}/{kind}" for layer in layers for kind in ("kernel", "bias") if (layer, kind) != ("flat_to_cell", "bias")]


def to_json(params, config: NetConfig, rules, name: str, **info) -> str:
    """The weight file (docs/networks.md) of flax parameters `params`."""
    encoding = _meeple.Encoding(rules.players)
    doc = {"format": FORMAT, "name": name, "rules": str(rules), "encoding": _meeple.ENCODING_VERSION,
           "players": rules.players, "planes": encoding.num_planes, "flat": encoding.flat_size,
           "hand_features": config.hand_features, "channels": config.channels, "residual": config.residual,
           "flat_hidden": config.flat_hidden, "global_hidden": config.global_hidden,
           "reward_scale": config.reward_scale, "tensors": {}}
    if config.value_base:
        doc["value_base"] = config.value_base
    if info:
        doc["training"] = info
    p = params["params"] if "params" in params else params
    for full in tensor_names(config):
        layer, kind = full.split("/")
        a = np.asarray(p[layer][kind], np.float32)
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name}: tensor {full} is not finite (training diverged: lower the learning rate)")
        doc["tensors"][full] = {"shape": list(a.shape), "data": [float(f"{v:.9g}") for v in a.reshape(-1)]}
    try:
        return json.dumps(doc, separators=(",", ":"), allow_nan=False)
    except ValueError:
        raise ValueError(f"{name}: a training note is not a finite number: {info}") from None


def from_json(text: str, source: str = "network"):
    """(params, config, rules) of a weight file's text; ValueError naming `source` otherwise. The C++ loader
    checks the same file in full before any search uses it."""
    doc = files.loads(text, source)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"{source}: not a {FORMAT} weight file")
    try:
        return _from_doc(doc)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{source}: not a readable {FORMAT} weight file ({type(e).__name__}: {e})") from None


def _from_doc(doc):
    config = NetConfig(channels=doc["channels"], residual=doc["residual"], flat_hidden=doc["flat_hidden"],
                       global_hidden=doc["global_hidden"], hand_features=doc["hand_features"],
                       reward_scale=doc["reward_scale"], value_base=doc.get("value_base", "")).check()
    params = {}
    for full in tensor_names(config):
        layer, kind = full.split("/")
        t = doc["tensors"][full]
        params.setdefault(layer, {})[kind] = np.asarray(t["data"], np.float32).reshape(t["shape"])
    return {"params": params}, config, _meeple.Rules.parse(doc["rules"])


# --- Positions from self-play data ----------------------------------------------------------------------

class Positions:
    """The decisions of policy data files with observations (policy.generate(..., observations=True)), and
    batches of them in any orientation."""

    def __init__(self, data: dict, rules, reward_scale: float = 20.0, search_value: float = 0.0):
        for key in ("first_entry", "plane_index", "plane_value", "flat", "action_id", "in_hand"):
            if key not in data:
                raise ValueError(f"policy data without '{key}': generate it with observations=True")
        self.rules = rules
        self.encoding = _meeple.Encoding(rules.players)
        self.players = rules.players
        self.data = data
        self.size = len(data["game"])
        # The value target of each decision: every seat's tanh(final margin / reward_scale), seats counted
        # from the chooser.
        game_row = {int(g): i for i, g in enumerate(data["finished"])}
        scores = data["final_scores"][[game_row[int(g)] for g in data["game"]]].astype(np.float32)
        seats = (data["to_move"][:, None].astype(np.int64) + np.arange(self.players)) % self.players
        self.outcome = np.tanh(base_terms(scores, data["to_move"], reward_scale))
        self.value_target = self.outcome
        if search_value:
            self.value_target = self.blend_search_value(search_value)
        self.hand = np.take_along_axis(data["features"], seats[:, :, None], axis=1).reshape(self.size, -1)
        # The shipped evaluator's leaf values as a value base reads them (None in data made before they were kept).
        self.base = base_terms(data["leaf_points"], data["to_move"], reward_scale) if "leaf_points" in data else None
        self.tile_names = list(_meeple.tile_ids())
        # The tile seed of each decision's game (data files give their first seed in meta).
        self.tile_seed = data["tile_seed"] if "tile_seed" in data else data["game"].astype(np.int64)

    def blend_search_value(self, weight: float) -> np.ndarray:
        """The value targets with the chooser's search value (its root's mean reward, the visits' average of
        the actions' values) weighted in: a game's outcome is one noisy sample of what the position is worth,
        the search's value an estimate over many continuations. With 2 players the other seat's margin is the
        chooser's negated, so it gets the negated value; with more only the chooser's is known."""
        if not 0 <= weight <= 1:
            raise ValueError(f"search_value is a weight in [0, 1], got {weight}")
        if "action_value" not in self.data:
            raise ValueError("policy data without 'action_value' (data generated before search values were kept): "
                             "generate it again, or train with search_value=0")
        from .policy import visit_targets

        root = np.add.reduceat(visit_targets(self.data) * self.data["action_value"], self.data["first_action"][:-1])
        target = self.outcome.copy()
        target[:, 0] = (1 - weight) * target[:, 0] + weight * root
        if self.players == 2:
            target[:, 1] = (1 - weight) * target[:, 1] - weight * root
        return target.astype(np.float32)

    def games(self) -> np.ndarray:
        return self.data["game"]

    def planes(self, i: int) -> np.ndarray:
        out = np.zeros(self.encoding.num_planes * CELLS, np.uint8)
        a, b = self.data["first_entry"][i], self.data["first_entry"][i + 1]
        out[self.data["plane_index"][a:b]] = self.data["plane_value"][a:b]
        return out.reshape(self.encoding.num_planes, WINDOW, WINDOW)

    def batch(self, indices, turns=None, hand_features: bool = True, pad_to: int | None = None,
              outcome: bool = False, base: bool = False):
        """(Batch with action rows, policy targets per row, value targets [B, players]) of decisions
        `indices`, decision k turned turns[k] quarter turns (default 0); the value targets are the training
        targets, or with `outcome` the games' outcomes alone (what a held-out error is measured against).
        With `base`, the batch carries the shipped evaluator's leaf values (a value base's terms)."""
        indices = np.asarray(indices)
        if base and self.base is None:
            raise ValueError("policy data without 'leaf_points' (generated before they were kept): a net with a "
                             "value base needs data generated again")
        turns = np.zeros(len(indices), np.int64) if turns is None else np.asarray(turns)
        planes = np.stack([self.planes(i) for i in indices])
        flat = self.data["flat"][indices].copy()
        for k, t in enumerate(turns):
            if t:
                planes[k] = self.encoding.rotate_planes(planes[k], int(t))
                flat[k] = self.encoding.rotate_flat(flat[k], int(t))
        if hand_features:
            flat = np.concatenate([flat, self.hand[indices]], axis=1)
        batch = make_batch(planes, flat, self.encoding, pad_to, self.base[indices] if base else None)
        first = self.data["first_action"]
        rows_sample, rows_id, target = [], [], []
        for k, i in enumerate(indices):
            ids = self.data["action_id"][first[i]:first[i + 1]]
            visits = self.data["visits"][first[i]:first[i + 1]].astype(np.float64)
            keep = ids >= 0
            ids, visits = ids[keep], visits[keep]
            if turns[k]:
                hand = int(self.data["in_hand"][i])
                name = self.tile_names[hand] if hand >= 0 else None
                ids = np.array([_meeple.Encoding.rotate_id(int(a), int(turns[k]), name) for a in ids], np.int64)
            rows_sample.append(np.full(len(ids), k))
            rows_id.append(ids)
            target.append(visits / max(visits.sum(), 1.0))
        sample, ids, target = np.concatenate(rows_sample), np.concatenate(rows_id), np.concatenate(target)
        r = bucket(len(ids), 1024)
        batch.row_source = np.zeros(r, np.int64)
        batch.row_sample = np.full(r, batch.planes.shape[0], np.int32)
        batch.row_source[:len(ids)] = action_rows(batch, sample, ids)
        batch.row_sample[:len(ids)] = sample
        targets = np.zeros(r, np.float32)
        targets[:len(ids)] = target
        value = np.zeros((batch.planes.shape[0], self.players), np.float32)
        value[:len(indices)] = (self.outcome if outcome else self.value_target)[indices]
        return batch, targets, value


def load_positions(paths, rules, reward_scale: float = 20.0, search_value: float = 0.0) -> Positions:
    """Positions of one or more policy data files (joined as one set)."""
    from .policy import join_policy_data, read_data

    parts, start, seeds = [], 0, []
    for path in paths:
        d = read_data(path)
        seeds.append(int(files.loads(str(d.pop("meta")), f"{path}: meta")["seed"]) + d["game"].astype(np.int64))
        d.pop("game_id", None)
        parts.append((start, d))
        start += int(d["game"].max()) + 1 if len(d["game"]) else 0
    data = join_policy_data(parts) if len(parts) > 1 else parts[0][1]
    data["tile_seed"] = np.concatenate(seeds)
    return Positions(data, rules, reward_scale, search_value)


# --- Training -------------------------------------------------------------------------------------------

def losses(model, params, batch_arrays, row_source, row_sample, targets, value_target, n_real):
    """(total, (policy cross-entropy, value squared error)) of one batch; padded samples and rows left out."""
    jax, jnp, _, _ = _jax()
    value, logits = model.apply(params, **batch_arrays)
    n = value.shape[0]
    row_logit = logits[row_source]
    real_row = row_sample < n
    high = jax.ops.segment_max(jnp.where(real_row, row_logit, -1e30), row_sample, num_segments=n + 1)
    shifted = jnp.where(real_row, row_logit - high[row_sample], 0.0)
    log_z = jnp.log(jax.ops.segment_sum(jnp.where(real_row, jnp.exp(shifted), 0.0), row_sample, num_segments=n + 1))
    log_p = shifted - log_z[row_sample]
    policy = -jnp.sum(jnp.where(real_row, targets * log_p, 0.0)) / n_real
    real = (jnp.arange(n) < n_real)[:, None]
    value_loss = jnp.sum(jnp.where(real, (value - value_target) ** 2, 0.0)) / (n_real * value.shape[1])
    return policy + value_loss, (policy, value_loss)


def init_params(config: NetConfig, positions: Positions, seed: int = 0):
    jax, _, _, _ = _jax()
    model = make_model(config, positions.players)
    batch, _, _ = positions.batch(np.arange(min(4, positions.size)), hand_features=config.hand_features,
                                  base=bool(config.value_base))
    return model, model.init(jax.random.PRNGKey(seed), **batch.arrays())


def evaluate_loss(model, params, positions: Positions, indices, config: NetConfig, batch_size: int = 256):
    """Mean policy cross-entropy, value squared error and how often the net's favourite is the search's most
    visited action, over decisions `indices` (orientation 0); the value error against the games' outcomes."""
    jax, jnp, _, _ = _jax()
    totals = np.zeros(3)
    for start in range(0, len(indices), batch_size):
        part = indices[start:start + batch_size]
        batch, targets, value = positions.batch(part, hand_features=config.hand_features, pad_to=batch_size,
                                                outcome=True, base=bool(config.value_base))
        _, (policy, value_loss) = losses(model, params, batch.arrays(), batch.row_source, batch.row_sample,
                                         targets, value, len(part))
        _, logits = model.apply(params, **batch.arrays())
        row_logit = np.asarray(logits)[batch.row_source]
        agree = 0
        for k in range(len(part)):
            rows = np.nonzero(batch.row_sample == k)[0]
            if len(rows):  # none when every legal action lay off the window
                agree += targets[rows][np.argmax(row_logit[rows])] == targets[rows].max()
        totals += np.array([float(policy) * len(part), float(value_loss) * len(part), agree])
    return totals / max(len(indices), 1)


def split_games(positions: Positions, validation: int = 10):
    """(training, validation) decision indices, whole games apart: the games whose tile seed is a multiple of
    `validation` are held out, so a game stays on its side in every generation's window."""
    held = positions.tile_seed % validation == 0
    if not held.any() or held.all():  # too few games for the rule: the first game alone is held out
        held = positions.tile_seed == positions.tile_seed.min()
    return np.nonzero(~held)[0], np.nonzero(held)[0]


def fit(positions: Positions, config: NetConfig, *, train_idx, valid_idx, epochs: int = 4, batch_size: int = 256,
        lr: float = 2e-3, weight_decay: float = 1e-4, seed: int = 0, params=None, progress: bool = True, log=print,
        augment: bool = True):
    """Trains (from `params`, or fresh) on decisions train_idx with Adam, each batch in random orientations;
    returns (params, history), history a row per epoch with the validation losses."""
    jax, jnp, _, optax = _jax()
    config.check_trainable()
    if len(train_idx) == 0:
        raise ValueError("no decisions to train on: play more games")
    batch_size = min(batch_size, len(train_idx))  # a small data set still trains, in one batch
    model = make_model(config, positions.players)
    if params is None:
        _, params = init_params(config, positions, seed)
    steps = epochs * max(1, len(train_idx) // batch_size)
    schedule = optax.cosine_decay_schedule(lr, max(steps, 1), alpha=0.05)
    opt = optax.adamw(schedule, weight_decay=weight_decay)
    opt_state = opt.init(params)

    @jax.jit
    def step(params, opt_state, arrays, row_source, row_sample, targets, value, n_real):
        (_, parts), grads = jax.value_and_grad(
            lambda p: losses(model, p, arrays, row_source, row_sample, targets, value, n_real), has_aux=True)(params)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, parts

    rng = np.random.default_rng(seed)
    history = []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=steps, unit="batch", desc="training")
    for epoch in range(epochs):
        order = rng.permutation(train_idx)
        sums = np.zeros(2)
        count = 0
        for start in range(0, len(order) - batch_size + 1, batch_size):
            part = order[start:start + batch_size]
            turns = rng.integers(0, 4, len(part)) if augment else None
            batch, targets, value = positions.batch(part, turns, hand_features=config.hand_features,
                                                    base=bool(config.value_base))
            params, opt_state, parts = step(params, opt_state, batch.arrays(), batch.row_source, batch.row_sample,
                                            targets, value, len(part))
            sums += np.array([float(parts[0]), float(parts[1])])
            count += 1
            if bar:
                bar.update(1)
                bar.set_postfix(policy=f"{sums[0] / count:.3f}", value=f"{sums[1] / count:.4f}")
        valid = evaluate_loss(model, params, positions, valid_idx, config) if len(valid_idx) else [math.nan] * 3
        row = {"epoch": epoch + 1, "train_policy": sums[0] / max(count, 1), "train_value": sums[1] / max(count, 1),
               "valid_policy": valid[0], "valid_value": valid[1], "valid_agree": valid[2]}
        history.append(row)
        log(f"epoch {epoch + 1}: train policy {row['train_policy']:.3f} value {row['train_value']:.4f}; "
            f"validation policy {valid[0]:.3f} value {valid[1]:.4f} agree {valid[2]:.3f}")
    if bar:
        bar.close()
    return params, history


def shipped_linear_weights(rules) -> np.ndarray | None:
    """The shipped evaluator's weights for `rules` (FEATURE_NAMES order), or None when it is not linear."""
    weights = _meeple.make_evaluator("trained").weights_for(rules)
    w = getattr(weights, "weights", None)
    return None if w is None else np.asarray(w, np.float32).reshape(-1)


def leaf_value_error(positions: Positions, indices) -> float:
    """The squared error of the shipped evaluator's leaf values (tanh of base_terms: what search without a
    network backs up, the turn in progress finished) against the games' outcomes, as the net's is measured."""
    if positions.base is None:
        raise ValueError("policy data without 'leaf_points' (generated before they were kept): generate it again")
    return float(np.mean((np.tanh(positions.base[indices]) - positions.outcome[indices]) ** 2))


def linear_value_error(positions: Positions, indices, evaluator_weights: np.ndarray, reward_scale: float = 20.0):
    """The squared error of a linear evaluator's values (tanh of its estimated margins / reward_scale, as
    the search reads them) against the same targets the net's value head is fitted to."""
    x = positions.hand[indices].reshape(len(indices), positions.players, HAND)
    value = np.tanh(base_terms(x @ evaluator_weights, np.zeros(len(indices)), reward_scale))  # seats already from the chooser
    return float(np.mean((value - positions.outcome[indices]) ** 2))


# --- The loop: self-play, training, gating --------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class LoopConfig:
    """python -m meeple train-net's settings. Bot templates get {net} replaced by a weight file."""
    rules: str = "players=2"
    generations: int = 6
    games: int = 200                  # self-play games per generation
    teacher: str = "mcts"             # generation 0's self-play: today's search, distilled
    teacher_games: int = 600          # generation 0's games
    selfplay: str = "mcts:net={net},iterations=800,noise=0.3,play_temp=1,play_temp_tiles=8"
    match: str = "mcts:net={net},iterations=800"
    window: int = 4                   # generations of data trained on (the replay buffer)
    epochs: int = 3
    batch: int = 256
    lr: float = 2e-3
    search_value: float = 0.0         # weight of the search's root value in the value targets (0: outcomes only)
    net: NetConfig = NetConfig()
    elo0: float = 0.0
    elo1: float = 30.0
    batch_pairs: int = 20
    max_pairs: int = 150
    workers: int = 2
    seed: int = 1
    backend: str = "local"
    address: str | None = None
    ray_batch: int = 4                # games per Ray task


COLUMNS = ["generation", "games", "positions", "valid_policy", "valid_value", "valid_agree", "linear_value", "leaf_value",
           "match_games", "score", "score_lo", "score_hi", "elo", "verdict", "promoted", "best", "total_elo",
           "cpu_hours"]


def cpu_hours() -> float:
    t = os.times()
    return (t.user + t.system + t.children_user + t.children_system) / 3600


def train_net(out, config: LoopConfig = LoopConfig(), *, progress: bool = True, log=print) -> list[dict]:
    """Runs the loop into folder `out` (resumable: every step's file is written atomically and reused by a
    rerun with the same settings):

    - generation 0: `teacher` self-play (data-000.npz), a net trained from scratch (net-000.json): the first best;
    - generation g: self-play of the best net (data-g.npz), a candidate trained from the best on the last
      `window` generations' data (net-g.json), and an SPRT match of the candidate against the best
      (match-g.jsonl); H1 promotes it.

    generations.csv has a row per generation and generations.png plots Elo by generation and CPU-hour."""
    from . import policy
    from .sprt import sprt
    from .environment import as_rules

    rules = as_rules(config.rules)
    if rules.players != 2 and config.generations > 0:
        raise ValueError(f"train-net gates its generations by head-to-head matches, so they need 2 players; these "
                         f"rules have {rules.players}: use --generations 0 to distil the teacher's games into a "
                         f"{rules.players}-player net")
    config.net.check().check_trainable()
    if config.search_value:  # the search's values are blended with outcomes in the net's own units
        for spec in (config.teacher, config.selfplay):
            if "scale=" in spec or "reward=win" in spec:
                raise ValueError(f"--search-value blends the search's values into targets of tanh(margin / "
                                 f"{config.net.reward_scale:g}); the bot {spec} backs up other values (scale= or "
                                 "reward=win): drop those keys or use --search-value 0")
    out = os.path.abspath(out)  # the nets' paths are in the bots' specs, which a rerun must repeat exactly
    files.make_folder(out)
    check_settings(out, config)
    log_path = os.path.join(out, "generations.csv")
    rows = read_rows(log_path)
    best = rows[-1]["best"] if rows else None
    total_elo = float(rows[-1]["total_elo"]) if rows else 0.0
    hours = float(rows[-1]["cpu_hours"]) if rows else 0.0
    for g in range(len(rows), config.generations + 1):
        started = cpu_hours()
        data_path = os.path.join(out, f"data-{g:03d}.npz")
        bot = config.teacher if g == 0 else config.selfplay.format(net=os.path.join(out, best))
        games = config.teacher_games if g == 0 else config.games
        policy.generate(data_path, rules, bot, games, seed=config.seed + 100_000 * g, workers=config.workers,
                        progress=progress, backend=config.backend, address=config.address, batch=config.ray_batch,
                        observations=True)
        paths = [os.path.join(out, f"data-{k:03d}.npz") for k in range(max(0, g - config.window + 1), g + 1)]
        positions = load_positions(paths, rules, config.net.reward_scale, config.search_value)
        train_idx, valid_idx = split_games(positions)
        name = f"net-{g:03d}.json"
        candidate = os.path.join(out, name)
        if not os.path.exists(candidate):
            start = from_json(files.read_text(os.path.join(out, best)), best)[0] if best else None
            params, history = fit(positions, config.net, train_idx=train_idx, valid_idx=valid_idx,
                                  epochs=config.epochs, batch_size=config.batch, lr=config.lr, seed=config.seed + g,
                                  params=start, progress=progress, log=log)
            files.write_atomic(candidate, to_json(params, config.net, rules, f"gen-{g}", generation=g,
                                                  positions=positions.size, **{k: round(v, 5) for k, v in history[-1].items()}))
        params, _, _ = from_json(files.read_text(candidate), candidate)
        model = make_model(config.net, positions.players)
        valid = evaluate_loss(model, params, positions, valid_idx, config.net)
        linear = shipped_linear_weights(rules)
        row = {"generation": g, "games": games, "positions": positions.size, "valid_policy": valid[0],
               "valid_value": valid[1], "valid_agree": valid[2],
               "linear_value": "" if linear is None else linear_value_error(positions, valid_idx, linear, config.net.reward_scale),
               "leaf_value": "" if positions.base is None else leaf_value_error(positions, valid_idx)}
        if best is None:
            row |= {"match_games": 0, "score": "", "score_lo": "", "score_hi": "", "elo": 0.0, "verdict": "first",
                    "promoted": 1, "best": name}
        else:
            match = sprt(config.match.format(net=candidate), config.match.format(net=os.path.join(out, best)),
                         elo0=config.elo0, elo1=config.elo1, batch_pairs=config.batch_pairs, max_pairs=config.max_pairs,
                         rules=rules, seed=config.seed + 100_000 * g + 50_000,
                         workers=config.workers, out=os.path.join(out, f"match-{g:03d}.jsonl"),
                         report=(lambda r: log(f"  SPRT: {r.wins}-{r.draws}-{r.losses}, LLR {r.llr:.2f}")) if progress else None)
            promoted = match.accepted == "H1"
            lo, hi = match.interval
            row |= {"match_games": match.games, "score": match.score, "score_lo": lo, "score_hi": hi,
                    "elo": match.elo, "verdict": match.accepted or "none", "promoted": int(promoted),
                    "best": name if promoted else best}
            if promoted:
                total_elo += match.elo
        best = row["best"]
        hours += cpu_hours() - started
        row |= {"total_elo": total_elo, "cpu_hours": hours}
        rows.append({k: "" if v is None else (f"{v:.5g}" if isinstance(v, float) else str(v)) for k, v in row.items()})
        write_rows(log_path, rows)
        plot_generations(rows, os.path.join(out, "generations.png"), title=f"train-net: {rules}")
        files.copy_atomic(os.path.join(out, best), os.path.join(out, "best.json"))  # a stopped run's best too
        log(" ".join(f"{k}={rows[-1][k]}" for k in COLUMNS))
    if best:
        files.copy_atomic(os.path.join(out, best), os.path.join(out, "best.json"))
    return rows


# Settings a rerun may change: how many generations, and where the games are played.
FREE_SETTINGS = ("generations", "workers", "backend", "address", "ray_batch")


def check_settings(out, config: LoopConfig) -> None:
    """Writes out/loop.json on the first run; a rerun with other settings (but FREE_SETTINGS) is refused
    before anything is played, as its files would mix two runs."""
    settings = {k: v for k, v in dataclasses.asdict(config).items() if k not in FREE_SETTINGS}
    settings["rules"] = str(settings["rules"])
    path = os.path.join(out, "loop.json")
    if not os.path.exists(path):
        files.write_atomic(path, json.dumps(settings, indent=1))
        return
    before = files.loads(files.read_text(path), path)
    defaults = dataclasses.asdict(LoopConfig())  # a setting added since the run started was at its default
    then = {k: before.get(k, defaults.get(k)) for k in settings}
    if isinstance(then.get("net"), dict):  # likewise a net setting added since
        then["net"] = defaults["net"] | then["net"]
    changed = [f"{k}: {then[k]!r} then, {v!r} now" for k, v in settings.items() if then[k] != v]
    if changed:
        raise ValueError(f"{out} holds a run with other settings ({'; '.join(changed)}); rerun with the same "
                         "settings to continue it, or use another --out")


def read_rows(path) -> list[dict]:
    import csv

    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_rows(path, rows) -> None:
    import csv
    import io

    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=COLUMNS)
    writer.writeheader()
    writer.writerows(rows)
    files.write_atomic(path, text.getvalue(), newline="")


def plot_generations(rows, path, title="train-net") -> None:
    """Elo of the best net (promotions' match Elo summed) by generation and by CPU-hour, and the validation
    losses by generation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    gen = [int(r["generation"]) for r in rows]
    elo = [float(r["total_elo"]) for r in rows]
    hours = [float(r["cpu_hours"]) for r in rows]
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(13, 3.8))
    a.plot(gen, elo, "o-")
    a.scatter(gen, elo, c=["tab:green" if r["promoted"] == "1" else "tab:red" for r in rows], zorder=3)
    a.set(xlabel="generation", ylabel="Elo over generation 0", title="best net (green: promoted)")
    b.plot(hours, elo, "o-")
    b.set(xlabel="CPU-hours", ylabel="Elo over generation 0", title="by compute")
    c.plot(gen, [float(r["valid_value"]) for r in rows], "o-", label="net value")
    if rows and rows[0].get("linear_value"):
        c.plot(gen, [float(r["linear_value"]) for r in rows], "s--", label="shipped linear evaluator")
    if rows and rows[0].get("leaf_value"):  # what search without a network backs up (a value base's start)
        c.plot(gen, [float(r["leaf_value"]) for r in rows], "^:", label="evaluator's leaf values")
    c.set(xlabel="generation", ylabel="squared error, held-out games", title="value error")
    c.legend()
    fig.suptitle(title)
    fig.tight_layout()
    files.save_figure(fig, path, dpi=100)
    plt.close(fig)
