"""meeple.net: the policy-value network's data, its JAX model, the weight file, and training."""
import dataclasses
import json
import os

import numpy as np
import pytest

import meeple
from meeple import net
from test_network import positions as positions_of_game

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


def test_search_values_are_the_choosers_and_blend_into_the_value_targets(data, positions):
    first, visits, values = data["first_action"], data["visits"], data["action_value"]
    assert values.shape == visits.shape and np.all(np.abs(values) <= 1)
    assert np.all(values[visits == 0] == 0) and np.count_nonzero(values[visits > 0]) > 0.9 * np.count_nonzero(visits)
    root = np.array([np.average(values[a:b], weights=visits[a:b]) for a, b in zip(first[:-1], first[1:])])
    # The chooser's search value predicts the chooser's outcome (a seat mixed up would reverse the sign).
    assert np.corrcoef(root, positions.outcome[:, 0])[0, 1] > 0.3
    blended = net.Positions(data, RULES, search_value=0.25)
    assert np.allclose(blended.value_target[:, 0], 0.75 * positions.outcome[:, 0] + 0.25 * root, atol=1e-5)
    assert np.allclose(blended.value_target[:, 1], -blended.value_target[:, 0], atol=1e-5)
    assert np.array_equal(blended.outcome, positions.outcome)
    _, _, value = blended.batch(np.arange(8), outcome=True)  # held-out errors are against the outcomes
    assert np.array_equal(value[:8], positions.outcome[:8])
    with pytest.raises(ValueError, match="search_value is a weight in"):
        net.Positions(data, RULES, search_value=1.5)
    old = {k: v for k, v in data.items() if k != "action_value"}
    with pytest.raises(ValueError, match="without 'action_value'.*generate it again"):
        net.Positions(old, RULES, search_value=0.5)


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


def test_data_keep_the_evaluators_leaf_points_as_value_base_terms(data, positions):
    """Positions.base is each seat's margin of the data's leaf points over the reward scale, seats from the
    chooser; tanh of it is the evaluator's leaf value, whose held-out error leaf_value_error measures."""
    points = data["leaf_points"]
    assert points.shape == (positions.size, 2)
    for i in (0, positions.size // 3, positions.size - 1):
        me = data["to_move"][i]
        want = (points[i][me] - points[i][1 - me]) / 20
        assert positions.base[i] == pytest.approx([want, -want], abs=1e-6)
    idx = np.arange(positions.size)
    err = net.leaf_value_error(positions, idx)
    assert err == pytest.approx(float(np.mean((np.tanh(positions.base) - positions.outcome) ** 2)))
    # The evaluator's values predict the outcome better than a constant does.
    assert err < float(np.mean(positions.outcome ** 2))
    old = net.Positions({k: v for k, v in data.items() if k != "leaf_points"}, RULES)
    with pytest.raises(ValueError, match="without 'leaf_points'.*generate"):
        old.batch(idx[:4], base=True)


def test_a_value_base_net_starts_at_the_evaluators_values_and_trains_from_them(positions):
    """A fresh net with a value base gives exactly the evaluator's leaf values (its head starts at zero),
    in JAX and in C++; training moves the head, and its weight file names the base."""
    config = dataclasses.replace(TINY, value_base="trained")
    idx = np.arange(positions.size)
    model, start = net.init_params(config, positions, seed=2)
    batch, _, _ = positions.batch(idx[:64], base=True)
    value, _ = model.apply(start, **batch.arrays())
    assert np.allclose(np.asarray(value)[:64], np.tanh(positions.base[:64]), atol=1e-6)
    text = net.to_json(start, config, RULES, "fresh")
    assert json.loads(text)["value_base"] == "trained" and net.from_json(text)[1] == config
    cpp = meeple.PolicyValueNet.from_json(text, "fresh")
    assert cpp.value_base == "trained"
    for s in list(positions_of_game(RULES, 3, every=2))[:30]:
        points = meeple.leaf_points(s)
        me = s.turn_player if s.is_chance else s.current_player
        assert cpp.evaluate(s)[0][0] == pytest.approx(np.tanh((points[me] - points[1 - me]) / 20), abs=1e-6)
    before = net.evaluate_loss(model, start, positions, idx, config)
    params, history = net.fit(positions, config, train_idx=idx, valid_idx=idx, epochs=6, batch_size=64, lr=1e-2,
                              params=start, progress=False, log=lambda *_: None, augment=False)
    assert before[1] == pytest.approx(net.leaf_value_error(positions, idx), rel=1e-4)
    assert history[-1]["valid_value"] < before[1]  # fitted on these very games: the head learns their outcomes
    # The data keep the shipped evaluator's leaf points only: another base is refused before training.
    with pytest.raises(ValueError, match="shipped evaluator's leaf points only"):
        net.fit(positions, dataclasses.replace(config, value_base="endnow"), train_idx=idx, valid_idx=idx, epochs=1,
                progress=False, log=lambda *_: None)


def test_linear_value_error_reads_the_shipped_weights(positions):
    w = net.shipped_linear_weights(RULES)
    assert w.shape == (net.HAND,)
    idx = np.arange(positions.size)
    err = net.linear_value_error(positions, idx, w)
    assert 0 < err < 1
    assert net.linear_value_error(positions, idx, np.zeros_like(w)) == pytest.approx(
        float(np.mean(positions.value_target ** 2)), rel=1e-5)  # a constant estimate: values 0


ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]


@pytest.mark.parametrize("players, expansions, hand, residual, base", [
    (2, [], True, 1, ""), (2, [], False, 0, ""), (3, ALL, True, 2, ""), (2, [], True, 1, "trained"), (3, ALL, True, 1, "trained")])
def test_jax_and_cpp_compute_the_same_net(players, expansions, hand, residual, base):
    """The framework and the search evaluate one weight file alike (to 1e-4): values of every seat and the
    logit of every legal action, at decisions and tile draws of whole games, and the C++ priors are the
    softmax of the JAX logits."""
    rules = meeple.Rules(players=players, expansions=expansions)
    text = meeple.random_network_json(rules, seed=players + residual, channels=16, residual=residual, flat_hidden=24,
                                      global_hidden=20, hand_features=hand, value_base=base)
    params, config, _ = net.from_json(text)
    assert config.value_base == base
    model = net.make_model(config, players)
    cpp = meeple.PolicyValueNet.from_json(text, "random")
    states = [s for seed in (11, 12) for s in positions_of_game(rules, seed, every=2)]
    values, logits = net.outputs(model, params, states, config)
    compared = 0
    for k, s in enumerate(states):
        cpp_values, cpp_logits = cpp.evaluate(s)
        assert np.allclose(cpp_values, values[k], atol=1e-4), k
        if s.is_chance:
            continue
        ids = [meeple.Encoding.id_of(s, a) for a in s.legal_actions()]
        assert np.allclose(cpp_logits[ids], logits[k], atol=1e-4), k
        p = np.exp(logits[k] - logits[k].max())
        assert np.allclose(cpp.priors(s), p / p.sum(), atol=1e-4), k
        compared += len(ids)
    assert compared > 1000
    assert np.std(values) > 0.01  # not a degenerate net that says the same everywhere


def test_train_net_runs_generations_and_resumes(tmp_path, monkeypatch):
    config = net.LoopConfig(rules="players=2", generations=1, teacher="mcts:iterations=20", teacher_games=3, games=2,
                            selfplay="mcts:net={net},iterations=20,noise=0.3,play_temp=1,play_temp_tiles=8", match="mcts:net={net},iterations=20", window=2,
                            epochs=1, batch=32, net=TINY, batch_pairs=1, max_pairs=1, workers=2, seed=5)
    rows = net.train_net(tmp_path, config, progress=False, log=lambda *_: None)
    assert [r["generation"] for r in rows] == ["0", "1"]
    assert rows[0]["verdict"] == "first" and rows[0]["best"] == "net-000.json"
    assert int(rows[1]["match_games"]) == 2 and rows[1]["best"] in ("net-000.json", "net-001.json")
    for name in ("data-000.npz", "data-001.npz", "net-000.json", "net-001.json", "match-001.jsonl",
                 "generations.csv", "generations.png", "best.json"):
        assert (tmp_path / name).exists(), name
    assert float(rows[0]["linear_value"]) > 0 and float(rows[1]["cpu_hours"]) > float(rows[0]["cpu_hours"])
    best = meeple.load_network(str(tmp_path / "best.json"))
    best.check_rules(RULES)
    # A rerun finds every generation done: nothing is played or trained again.
    monkeypatch.setattr(net, "fit", lambda *a, **k: pytest.fail("trained again"))
    assert net.train_net(tmp_path, config, progress=False, log=lambda *_: None) == rows
    # One more generation continues from the files: only generation 2 is new.
    monkeypatch.undo()
    more = net.train_net(tmp_path, dataclasses_replace(config, generations=2), progress=False, log=lambda *_: None)
    assert more[:2] == rows and more[2]["generation"] == "2"
    # Other settings in the same folder would mix two runs: refused before anything is played.
    with pytest.raises(ValueError, match=r"other settings \(epochs: 1 then, 2 now\)"):
        net.train_net(tmp_path, dataclasses_replace(config, epochs=2, generations=3), progress=False, log=print)
    assert not (tmp_path / "data-003.npz").exists()
    # A setting added since a run started counts as its default (a run from before search_value continues);
    # changed, it is refused.
    settings = json.loads((tmp_path / "loop.json").read_text())
    del settings["search_value"]
    (tmp_path / "loop.json").write_text(json.dumps(settings))
    monkeypatch.setattr(net, "fit", lambda *a, **k: pytest.fail("trained again"))
    assert net.train_net(tmp_path, dataclasses_replace(config, generations=2), progress=False, log=lambda *_: None) == more
    monkeypatch.undo()
    with pytest.raises(ValueError, match=r"other settings \(search_value: 0.0 then, 0.5 now\)"):
        net.train_net(tmp_path, dataclasses_replace(config, search_value=0.5), progress=False, log=print)
    with pytest.raises(ValueError, match="the bot mcts:scale=10 backs up other values"):
        net.train_net(tmp_path / "units", dataclasses_replace(config, teacher="mcts:scale=10", search_value=0.5),
                      progress=False)
    with pytest.raises(ValueError, match="they need 2 players; these rules have 3: use --generations 0"):
        net.train_net(tmp_path / "three", dataclasses_replace(config, rules="players=3"), progress=False)
    assert not (tmp_path / "three" / "data-000.npz").exists()


# With more than two players the loop distils the teacher (generation 0): a net of those rules, with a
# value base, that C++ reads and plays with.
def test_train_net_distils_a_three_player_net_with_every_expansion(tmp_path):
    rules = "players=3 expansions=river2,count,king_robber,cult_places,abbey_mayor"
    config = net.LoopConfig(rules=rules, generations=0, teacher="mcts:iterations=20", teacher_games=3, epochs=1,
                            batch=32, net=dataclasses_replace(TINY, value_base="trained"), workers=2, seed=7)
    rows = net.train_net(tmp_path, config, progress=False, log=lambda *_: None)
    assert [r["generation"] for r in rows] == ["0"] and rows[0]["best"] == "net-000.json"
    assert float(rows[0]["valid_value"]) > 0 and float(rows[0]["leaf_value"]) > 0
    best = meeple.load_network(str(tmp_path / "best.json"))
    best.check_rules(meeple.Rules.parse(rules))
    assert best.value_base == "trained"
    played = meeple.tournament([f"mcts:net={tmp_path / 'best.json'},iterations=30", "greedy", "random"], games=3,
                               rules=rules, seed=3, workers=2, progress=False)
    assert len(played.games) == 3 and all(max(g.scores) > 0 for g in played.games)


# A run's plot is written whole, by renaming: a folder seeded by hard links from another run (as
# docs/networks/loop-vb was) leaves that run's picture as it was, and the format follows the extension.
def test_generations_plot_replaces_its_file_whole(tmp_path):
    rows = [{"generation": "0", "total_elo": "0", "cpu_hours": "0.1", "promoted": "1", "valid_value": "0.25",
             "linear_value": "0.27", "leaf_value": "0.26"},
            {"generation": "1", "total_elo": "40", "cpu_hours": "0.5", "promoted": "1", "valid_value": "0.24",
             "linear_value": "0.27", "leaf_value": "0.26"}]
    other = tmp_path / "other.png"
    other.write_bytes(b"the other run's picture")
    os.link(other, tmp_path / "generations.png")
    net.plot_generations(rows, tmp_path / "generations.png")
    assert other.read_bytes() == b"the other run's picture"
    assert (tmp_path / "generations.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    net.plot_generations(rows, tmp_path / "generations.svg")
    assert b"<svg" in (tmp_path / "generations.svg").read_bytes()[:500]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["generations.png", "generations.svg", "other.png"]


def dataclasses_replace(config, **changes):
    import dataclasses

    return dataclasses.replace(config, **changes)
