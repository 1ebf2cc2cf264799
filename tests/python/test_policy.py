"""Policy networks: the C++ network computes what the Python model computes, the self-play data is the same
for any number of workers, and a tiny train-then-play loop runs end to end."""
import json
import os
import random

import numpy as np
import pytest

import meeple
from meeple import policy

ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]
K = len(meeple.ACTION_FEATURE_NAMES)


def random_model(hidden=(6,), seed=0):
    rng = np.random.default_rng(seed)
    sizes = [K, *hidden, 1]
    return policy.PolicyModel([(rng.normal(0, 0.7, (o, i)), rng.normal(0, 0.3, o)) for i, o in zip(sizes[:-1], sizes[1:])])


def decisions(rules, seed, every=3):
    """Every `every`-th decision node of a random game."""
    state, dealer, rng, n = meeple.State(rules), meeple.Dealer(seed), random.Random(seed), 0
    while not state.is_terminal:
        if state.is_chance:
            state.apply(dealer.deal(state))
            continue
        n += 1
        if n % every == 0:
            yield state
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("expansions,players", [([], 2), (ALL, 3), (["abbey_mayor", "count"], 5)])
def test_cpp_network_computes_what_the_python_model_computes(expansions, players):
    model = random_model(hidden=(7, 5), seed=players)
    net = meeple.PolicyNet.from_json(model.to_json(meeple.Rules(players=players, expansions=expansions), name="t"))
    checked = 0
    for state in decisions(meeple.Rules(players=players, expansions=expansions), seed=players):
        x = meeple.action_features(state)
        assert x.shape == (len(state.legal_actions()), K)
        np.testing.assert_allclose(net.priors(state), model.priors(x), rtol=2e-4, atol=1e-6)
        checked += 1
    assert checked > 20
    # The model read back from the file is the same network.
    again = policy.PolicyModel(net.layers)
    np.testing.assert_allclose(again.logits(x), model.logits(x), rtol=1e-5, atol=1e-5)


def test_priors_and_features_need_a_decision_node():
    state = meeple.State(meeple.Rules())
    assert state.is_chance
    with pytest.raises(ValueError, match="decision node"):
        meeple.action_features(state)
    with pytest.raises(ValueError, match="decision node"):
        meeple.PolicyNet.from_json(random_model().to_json(meeple.Rules(), name="t")).priors(state)


def test_policy_data_is_the_same_for_any_number_of_workers(tmp_path):
    rules = meeple.Rules(players=2)
    one = policy.generate(tmp_path / "one.npz", rules, "mcts:iterations=30", games=3, seed=5, workers=1, progress=False)
    two = policy.generate(tmp_path / "two.npz", rules, "mcts:iterations=30", games=3, seed=5, workers=2, progress=False)
    for key in ("game", "to_move", "first_action", "features", "action_features", "visits", "final_scores", "game_id"):
        np.testing.assert_array_equal(one[key], two[key], err_msg=key)
    first, visits = one["first_action"], one["visits"]
    assert len(first) == len(one["game"]) + 1 and first[-1] == len(visits) == len(one["action_features"])
    assert (np.diff(first) >= 2).all(), "only decisions with a choice are kept"
    # Every decision's visits are those of a search of 30 simulations (less the root's own first visit).
    totals = np.add.reduceat(visits, first[:-1])
    assert (totals >= 29).all()
    # The file is reused for the same games and refused for others.
    again = policy.generate(tmp_path / "one.npz", rules, "mcts:iterations=30", games=3, seed=5, progress=False)
    np.testing.assert_array_equal(again["visits"], visits)
    with pytest.raises(ValueError, match="holds other games"):
        policy.generate(tmp_path / "one.npz", rules, "mcts:iterations=30", games=4, seed=5, progress=False)
    with pytest.raises(ValueError, match="not an mcts bot"):
        policy.generate(tmp_path / "h.npz", rules, "heuristic", games=1, progress=False)


def test_policy_data_from_ray_tasks_equals_local_threads(tmp_path, ray_cluster):
    rules = meeple.Rules(players=3, expansions=["count", "abbey_mayor"])
    spec = "mcts:iterations=15"
    local = policy.generate(tmp_path / "local.npz", rules, spec, games=5, seed=9, workers=2, progress=False)
    remote = policy.generate(tmp_path / "ray.npz", rules, spec, games=5, seed=9, progress=False, backend="ray", batch=2)
    assert len(local["game"]) > 100 and set(local["game"]) == {0, 1, 2, 3, 4}
    for key in ("game", "to_move", "first_action", "features", "action_features", "visits", "finished",
                "final_scores", "game_id"):
        assert remote[key].dtype == local[key].dtype, key
        np.testing.assert_array_equal(remote[key], local[key], err_msg=key)
    with pytest.raises(ValueError, match="backend must be 'local' or 'ray'"):
        policy.generate(tmp_path / "x.npz", rules, spec, games=1, backend="dask")


def test_train_then_play_end_to_end(tmp_path):
    out = tmp_path / "policy"
    config = policy.FitConfig(hidden=(8,), epochs=40, batch=32)
    report = policy.train_policy(out, "players=2", bot="mcts:iterations=60", games=4, seed=3, config=config, progress=False)
    assert report["games"] == 4 and report["decisions"] > 200
    # Learning happened: the fit explains the visits better than a uniform prior does.
    assert report["train_cross_entropy"] < report["train_uniform_cross_entropy"] - 0.05
    doc = json.loads((out / "policy.json").read_text())
    assert doc["format"] == "meeple-policy/1" and doc["rules"] == "players=2" and doc["training"]["games"] == 4
    net = meeple.PolicyNet.load(str(out / "policy.json"))
    with pytest.raises(ValueError, match="was fitted to"):
        net.check_rules(meeple.Rules(expansions=["river2"]))
    # The same command again reuses the data and fits the same network.
    first = (out / "policy.json").read_text()
    policy.train_policy(out, "players=2", bot="mcts:iterations=60", games=4, seed=3, config=config, progress=False)
    assert (out / "policy.json").read_text() == first
    # Guided search plays a whole game with it.
    spec = f"mcts:iterations=80,policy={out / 'policy.json'}"
    (scores, _), = meeple.play_games(meeple.Rules(), [([spec, "heuristic"], 9)], jobs=1)
    assert len(scores) == 2 and max(scores) > 0


def test_train_policy_command(tmp_path):
    from meeple.__main__ import main

    out = tmp_path / "cli"
    assert main(["train-policy", "--out", str(out), "--games", "2", "--bot", "mcts:iterations=20", "--epochs", "2",
                 "--hidden", "4", "--quiet"]) == 0
    assert os.path.exists(out / "policy.json") and os.path.exists(out / "report.json")
    assert main(["train-policy", "--out", str(tmp_path / "bad"), "--games", "1", "--bot", "greedy", "--quiet"]) == 2


# Games are played and saved a chunk at a time: a run stopped part way keeps its finished chunks, the same
# call plays only the rest, and the joined data are those of one uninterrupted call.
def test_policy_data_resumes_after_a_stop_between_chunks(tmp_path, monkeypatch):
    rules = meeple.Rules(players=2)
    spec = "mcts:iterations=20"
    whole = policy.generate(tmp_path / "whole.npz", rules, spec, games=5, seed=30, progress=False, observations=True)
    real_play, played = policy._play, []

    def stopped_at_game_34(rules, bot, first, count, *args):
        if first == 34:
            raise KeyboardInterrupt
        played.append(first)
        return real_play(rules, bot, first, count, *args)

    monkeypatch.setattr(policy, "_play", stopped_at_game_34)
    path = tmp_path / "chunked.npz"
    with pytest.raises(KeyboardInterrupt):
        policy.generate(path, rules, spec, games=5, seed=30, progress=False, observations=True, chunk=2)
    assert played == [30, 32] and not path.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chunked.npz.games-30-31.npz", "chunked.npz.games-32-33.npz",
                                                          "whole.npz"]
    # A chunk of other games in its place is refused, not joined.
    os.rename(tmp_path / "chunked.npz.games-30-31.npz", tmp_path / "kept.npz")
    policy.generate(tmp_path / "other.npz", rules, "mcts:iterations=21", games=2, seed=30, progress=False,
                    observations=True, chunk=2)
    os.rename(tmp_path / "other.npz", tmp_path / "chunked.npz.games-30-31.npz")
    with pytest.raises(ValueError, match=r"chunked.npz.games-30-31.npz holds other games"):
        policy.generate(path, rules, spec, games=5, seed=30, progress=False, observations=True, chunk=2)
    os.replace(tmp_path / "kept.npz", tmp_path / "chunked.npz.games-30-31.npz")
    (tmp_path / "chunked.npz.games-30-32.npz").write_bytes(b"a chunk of another size, never read")
    played.clear()
    monkeypatch.setattr(policy, "_play", lambda *a: played.append(a[2]) or real_play(*a))
    joined = policy.generate(path, rules, spec, games=5, seed=30, progress=False, observations=True, chunk=2)
    assert played == [34]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chunked.npz", "whole.npz"]
    assert sorted(joined) == sorted(whole)
    for key in whole:
        np.testing.assert_array_equal(joined[key], whole[key], err_msg=key)
    np.testing.assert_array_equal(policy.read_data(path)["plane_value"], whole["plane_value"])
    # An array join_policy_data has no rule for is refused, not dropped from the joined data.
    with pytest.raises(ValueError, match=r"no rule to join \['new_array'\]"):
        policy.join_policy_data([(0, dict(whole, new_array=np.zeros(3)))])
