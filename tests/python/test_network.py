"""Policy-value networks (docs/networks.md): the C++ network computes what a numpy transcription of the spec
computes, its batched priors are the softmax of its reference logits, files round-trip, bad files and wrong
arguments are refused by name, and a search plays with one."""
import json
import random

import numpy as np
import pytest

import meeple

ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]
IDS = meeple.ACTION_ID_BLOCKS


def positions(rules, seed, every=3):
    """Every `every`-th unfinished position (decisions and tile draws) of a random game."""
    state, dealer, rng, n = meeple.State(rules), meeple.Dealer(seed), random.Random(seed), 0
    while not state.is_terminal:
        n += 1
        if n % every == 0:
            yield state.copy()
        state.apply(dealer.deal(state) if state.is_chance else rng.choice(state.legal_actions()))


def numpy_net(j, state):
    """docs/networks.md, line by line, in numpy (float64): (values from the observer on, logits per id)."""
    t = {name: np.array(v["data"], dtype=np.float64).reshape(v["shape"]) for name, v in j["tensors"].items()}
    relu = lambda v: np.maximum(v, 0.0)
    players = j["players"]
    observer = state.turn_player if state.is_chance else state.current_player
    planes, flat, _ = meeple.Encoding(players).observe(state, observer)
    x = np.log1p(planes.astype(np.float64))
    inputs = [np.sign(flat) * np.log1p(np.abs(flat.astype(np.float64)))]
    if j["hand_features"]:
        inputs.append(np.roll(np.asarray(state.features(), dtype=np.float64), -observer, axis=0).ravel())
    f = relu(np.concatenate(inputs) @ t["flat/kernel"] + t["flat/bias"])
    channels = {name: i for i, (name, _) in enumerate(meeple.Encoding(players).plane_channels())}
    open_cells = (planes[channels["frontier"]] > 0) | (planes[channels["last_placed"]] > 0)
    cells = np.flatnonzero(open_cells.ravel())
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    w = meeple.WINDOW
    patches = np.stack([padded[:, c // w:c // w + 3, c % w:c % w + 3].reshape(-1) for c in cells]) if len(cells) else np.zeros((0, 9 * len(x)))
    h = relu(patches @ t["cell/kernel"] + t["cell/bias"] + f @ t["flat_to_cell/kernel"])
    for i in range(j["residual"]):
        h = relu(h + h @ t[f"res{i}/kernel"] + t[f"res{i}/bias"])
    k = j["channels"]
    last_cells = [i for i, c in enumerate(cells) if planes[channels["last_placed"]].ravel()[c]]
    last = h[last_cells[0]] if last_cells else np.zeros(k)
    mean, most = (h.mean(axis=0), h.max(axis=0)) if len(cells) else (np.zeros(k), np.zeros(k))
    g = relu(np.concatenate([mean, most, last, f]) @ t["global/kernel"] + t["global/bias"])
    values = np.tanh(g @ t["value/kernel"] + t["value/bias"])
    logits = np.full(meeple.NUM_ACTION_IDS, -np.inf)
    place = h @ t["place/kernel"] + t["place/bias"]
    abbey = h @ t["abbey/kernel"] + t["abbey/bias"]
    for i, c in enumerate(cells):
        logits[IDS["place"] + 4 * c:IDS["place"] + 4 * c + 4] = place[i]
        logits[IDS["abbey"] + c] = abbey[i, 0]
    logits[IDS["deploy"]:IDS["count_deploy"]] = last @ t["deploy/kernel"] + t["deploy/bias"]
    other = g @ t["other/kernel"] + t["other/bias"]
    logits[IDS["pass"]] = other[0]
    logits[IDS["count_deploy"]:IDS["end"]] = other[1:]
    return values, logits


@pytest.mark.parametrize("expansions,players,hand,residual", [([], 2, True, 1), (ALL, 3, True, 2), (["abbey_mayor"], 4, False, 0)])
def test_cpp_network_computes_what_numpy_computes(expansions, players, hand, residual):
    rules = meeple.Rules(players=players, expansions=expansions)
    text = meeple.random_network_json(rules, seed=players, channels=6, residual=residual, flat_hidden=10, global_hidden=9,
                                      hand_features=hand)
    j, net = json.loads(text), meeple.PolicyValueNet.from_json(text)
    checked = decisions = 0
    for state in positions(rules, seed=players, every=4):
        values, logits = net.evaluate(state)
        assert values.dtype == np.float32 and values.shape == (players,)
        assert logits.dtype == np.float32 and logits.shape == (meeple.NUM_ACTION_IDS,)
        want_values, want_logits = numpy_net(j, state)
        np.testing.assert_allclose(values, want_values, atol=1e-5)
        np.testing.assert_array_equal(np.isinf(logits), np.isinf(want_logits))
        np.testing.assert_allclose(logits[np.isfinite(logits)], want_logits[np.isfinite(want_logits)], atol=1e-4, rtol=1e-5)
        checked += 1
        if state.is_chance:
            continue
        # The batched priors are the softmax of the legal actions' reference logits.
        legal = state.legal_actions()
        ids = [meeple.Encoding.id_of(state, a) for a in legal]
        assert all(i >= 0 and np.isfinite(logits[i]) for i in ids)
        z = logits[ids].astype(np.float64)
        want = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        priors = net.priors(state)
        assert len(priors) == len(legal)
        np.testing.assert_allclose(priors, want, atol=1e-5)
        decisions += 1
    assert checked > 30 and decisions > 15


def test_files_round_trip_and_bad_ones_are_refused_by_name(tmp_path):
    rules = meeple.Rules(players=2, expansions=["river2"])
    text = meeple.random_network_json(rules, seed=1, channels=4, flat_hidden=8, global_hidden=8, name="tiny")
    path = tmp_path / "tiny.json"
    path.write_text(text)
    net = meeple.load_network(str(path))
    assert (net.name, net.players, net.reward_scale) == ("tiny", 2, 20.0)
    assert net.rules.expansions == ["river2"]
    assert meeple.PolicyValueNet.from_json(net.to_json()).to_json() == net.to_json()
    (tmp_path / "cut.json").write_text(text[: len(text) // 2])
    with pytest.raises(ValueError, match=r"cut\.json: not JSON \(a truncated file\?\)"):
        meeple.load_network(str(tmp_path / "cut.json"))
    j = json.loads(text)
    j["encoding"] = 99
    with pytest.raises(ValueError, match="bad: written for encoding version 99"):
        meeple.PolicyValueNet.from_json(json.dumps(j), source="bad")
    del j["tensors"]["value/bias"]
    j["encoding"] = meeple.ENCODING_VERSION
    with pytest.raises(ValueError, match="tensor 'value/bias' is missing"):
        meeple.PolicyValueNet.from_json(json.dumps(j))
    with pytest.raises(ValueError, match="cannot read network weights"):
        meeple.load_network(str(tmp_path / "missing.json"))
    net.check_rules(rules)
    with pytest.raises(ValueError, match="is for 2 players, not 3"):
        net.check_rules(meeple.Rules(players=3, expansions=["river2"]))
    with pytest.raises(ValueError, match="not to this game"):
        net.check_rules(meeple.Rules(players=2))
    with pytest.raises(ValueError, match="channels must be 1 to 256, got 0"):
        meeple.random_network_json(rules, channels=0)


def test_arguments_are_checked_by_name():
    net = meeple.PolicyValueNet.from_json(meeple.random_network_json(meeple.Rules(), channels=2, flat_hidden=2, global_hidden=2))
    with pytest.raises(TypeError, match="argument 'state' must be meeple.State, got int 3"):
        net.evaluate(3)
    with pytest.raises(TypeError, match="argument 'state'"):
        net.priors("state")
    with pytest.raises(TypeError, match="argument 'path'"):
        meeple.load_network(None)
    state = meeple.State(meeple.Rules())
    with pytest.raises(ValueError, match="decision node, not a chance node"):
        net.priors(state)
    with pytest.raises(ValueError, match="a state of 3 players given to a network for 2"):
        net.evaluate(meeple.State(meeple.Rules(players=3)))


def test_a_search_plays_with_a_network(tmp_path):
    rules = meeple.Rules(players=2)
    path = tmp_path / "net.json"
    path.write_text(meeple.random_network_json(rules, seed=2, channels=4, flat_hidden=8, global_hidden=8))
    results = meeple.play_games(rules, [([f"mcts:net={path},iterations=20,batch=4", "greedy"], 1)])
    assert len(results) == 1 and len(results[0][0]) == 2
    # The shipped networks play the 2-player base game and the 3-player game with every expansion, and
    # games of other rules are refused before the first move.
    results = meeple.play_games(rules, [(["mcts:net=trained,iterations=20", "greedy"], 1)])
    assert len(results[0][0]) == 2
    every = meeple.Rules.parse("players=3 expansions=river2,count,king_robber,cult_places,abbey_mayor")
    results = meeple.play_games(every, [(["mcts:net=trained,iterations=10", "greedy", "greedy"], 2)])
    assert len(results[0][0]) == 3 and max(results[0][0]) > 0
    with pytest.raises(ValueError, match="no shipped network is for players=4"):
        meeple.play_games(meeple.Rules(players=4), [(["mcts:net=trained,iterations=20"] + ["greedy"] * 3, 1)])
