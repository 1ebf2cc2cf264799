"""meeple.net: the policy-value network's data, its JAX model, the weight file, and training."""
import json

import numpy as np
import pytest

import meeple
from meeple import net

RULES = meeple.Rules(players=2)
TINY = net.NetConfig(channels=8, residual=1, flat_hidden=8, global_hidden=8)


@pytest.fixture(scope="module")
def data():
    return meeple.generate_policy_data(RULES, [(["mcts:iterations=60"] * 2, s) for s in range(4)], jobs=2,
                                       observations=True)


@pytest.fixture(scope="module")
def positions(data):
    return net.Positions(data, RULES)


def plane(name):
    return [n for n, _ in meeple.Encoding(2).plane_channels()].index(name)


def test_data_has_every_decision_observed_and_its_ids(data):
    n = len(data["game"])
    assert n > 100
    assert data["first_entry"].shape == (n + 1,) and data["flat"].shape == (n, meeple.Encoding(2).flat_size)
    assert np.all(np.diff(data["first_entry"]) > 0)
    assert np.all(data["plane_value"] > 0)  # only nonzero bytes are kept
    assert np.all(data["action_id"] >= 0)   # a 2-player base game stays inside the window
    for i in range(n):  # one id per legal action: no two actions of a decision share one
        ids = data["action_id"][data["first_action"][i]:data["first_action"][i + 1]]
        assert len(set(ids.tolist())) == len(ids)


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_ids_point_at_the_planes_that_show_them(positions, turns):
    """In every orientation, a placement id's cell has that rotation's `fits` plane set, and a deploy's
    sample has a last placed tile: the sparse planes, the rotations and the ids agree."""
    fits, last = plane("fits_0"), plane("last_placed")
    idx = np.arange(positions.size)
    batch, targets, _ = positions.batch(idx, turns=np.full(len(idx), turns))
    n = batch.planes.shape[0]
    real = batch.row_sample < n
    t = len(batch.pair_sample)
    placements = 0
    for source, sample in zip(batch.row_source[real], batch.row_sample[real]):
        if source < 4 * t:
            pair, rotation = divmod(int(source), 4)
            assert batch.pair_sample[pair] == sample
            cell = int(batch.pair_cell[pair])
            assert batch.planes[sample, fits + rotation, cell // 32, cell % 32] == 1
            placements += 1
        elif 5 * t <= source < 5 * t + n * net.DEPLOY_IDS:
            assert batch.last_pair[sample] >= 0
    assert placements > 50
    sums = np.bincount(batch.row_sample[real], weights=targets[real], minlength=n)
    assert np.allclose(sums, 1)


def test_value_targets_are_the_final_margins_from_the_chooser(data, positions):
    for i in (0, positions.size // 2, positions.size - 1):
        g = list(data["finished"]).index(data["game"][i])
        scores = data["final_scores"][g].astype(float)
        me = data["to_move"][i]
        assert positions.value_target[i][0] == pytest.approx(np.tanh((scores[me] - scores[1 - me]) / 20), abs=1e-6)
        assert positions.value_target[i][1] == pytest.approx(-positions.value_target[i][0], abs=1e-6)
        assert np.array_equal(positions.hand[i][:net.HAND], data["features"][i][me])


def test_weight_file_round_trip_and_refusals(positions):
    _, params = net.init_params(TINY, positions)
    text = net.to_json(params, TINY, RULES, "t")
    again, config, rules = net.from_json(text)
    assert config == TINY and str(rules) == str(RULES)
    for layer, tensors in params["params"].items():
        for kind, a in tensors.items():
            assert np.array_equal(np.asarray(a), again["params"][layer][kind]), (layer, kind)
    doc = json.loads(text)
    assert doc["tensors"]["cell/kernel"]["shape"] == [9 * 50, 8]
    assert doc["tensors"]["other/kernel"]["shape"] == [8, net.OTHER_IDS]
    with pytest.raises(ValueError, match="not a meeple-net/1"):
        net.from_json(json.dumps(doc | {"format": "meeple-policy/1"}))
    with pytest.raises(ValueError, match="channels"):
        net.from_json(json.dumps(doc | {"channels": 0}))


def test_training_lowers_both_losses(positions):
    idx = np.arange(positions.size)
    model, start = net.init_params(TINY, positions, seed=3)
    before = net.evaluate_loss(model, start, positions, idx, TINY)
    params, history = net.fit(positions, TINY, train_idx=idx, valid_idx=idx, epochs=12, batch_size=64, lr=1e-2,
                              progress=False, log=lambda *_: None, augment=False)
    after = history[-1]
    # The cross-entropy cannot go below the entropy of the visit distributions: compare what is above it.
    _, targets, _ = positions.batch(idx)
    entropy = -np.sum(targets * np.log(np.where(targets > 0, targets, 1))) / len(idx)
    assert after["valid_policy"] - entropy < 0.7 * (before[0] - entropy)
    assert after["valid_value"] < 0.8 * before[1]  # early positions of a game are a coin toss: no fit gets them


def test_linear_value_error_reads_the_shipped_weights(positions):
    w = net.shipped_linear_weights(RULES)
    assert w.shape == (net.HAND,)
    idx = np.arange(positions.size)
    err = net.linear_value_error(positions, idx, w)
    assert 0 < err < 1
    assert net.linear_value_error(positions, idx, np.zeros_like(w)) == pytest.approx(
        float(np.mean(positions.value_target ** 2)), rel=1e-5)  # a constant estimate: values 0
