"""Training: self-play data files, fitting, the promotion loop, and weights refused for other rules."""
import csv
import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import meeple
from conftest import interruptible
from meeple import training

F = len(meeple.FEATURE_NAMES)


def synthetic(true_weights, games=3000, seats=3, noise=0.0, seed=0):
    """One position per game; each seat's final score is its features times the true weights (plus noise).
    bias and tiles_left are the same for every seat, as in real positions."""
    rng = np.random.default_rng(seed)
    features = rng.normal(size=(games, seats, F)).astype(np.float32)
    features[:, :, meeple.FEATURE_NAMES.index("bias")] = 1
    features[:, :, meeple.FEATURE_NAMES.index("tiles_left")] = rng.uniform(size=(games, 1))
    scores = features.astype(np.float64) @ true_weights + noise * rng.normal(size=(games, seats))
    ids = np.arange(games)
    return training.Positions("players=3", ids, scores, np.zeros((games, seats), np.int8), ids,
                              np.zeros(games, np.int16), np.zeros(games, np.int8), features,
                              np.zeros((games, 1), np.uint8))


def test_ridge_recovers_known_weights():
    true = np.linspace(-2, 3, F)
    fitted = training.fit_ridge(synthetic(true, noise=0.5), alpha=1e-8)
    identifiable = [i for i, n in enumerate(meeple.FEATURE_NAMES) if n not in ("bias", "tiles_left")]
    np.testing.assert_allclose(fitted[identifiable], true[identifiable], atol=0.05)
    # Features equal for every seat cancel in score differences: no weight.
    assert fitted[meeple.FEATURE_NAMES.index("bias")] == 0
    assert fitted[meeple.FEATURE_NAMES.index("tiles_left")] == 0
    # The penalty shrinks the weights towards zero, or towards a prior such as the current weights.
    assert np.linalg.norm(training.fit_ridge(synthetic(true), alpha=1.0)) < 0.8 * np.linalg.norm(fitted)
    prior = np.full(F, 0.5)
    np.testing.assert_allclose(training.fit_ridge(synthetic(true), alpha=1e6, prior=prior), prior, atol=1e-3)
    np.testing.assert_allclose(training.fit_ridge(synthetic(true), alpha=1e-8, prior=prior)[identifiable],
                               true[identifiable], atol=1e-3)
    # Frozen features keep the prior's weight; the others absorb what they can.
    frozen = training.fit_ridge(synthetic(true), alpha=1e-8, prior=prior, frozen=["score", "king"])
    assert frozen[training.FEATURES.index("score")] == 0.5 and frozen[training.FEATURES.index("king")] == 0.5
    others = [i for i in identifiable if training.FEATURES[i] not in ("score", "king")]
    np.testing.assert_allclose(frozen[others], true[others], atol=0.1)


def test_td_with_lambda_one_is_the_outcome_fit_and_lambda_returns_follow_the_recursion():
    # Games of four positions each, labelled by the last: lambda = 1 targets the outcome at every position
    # (the ridge fit); a smaller lambda bootstraps from later positions and fits something else.
    data = synthetic(np.linspace(1, 2, F), games=2000, seats=2)
    data.game = np.repeat(np.arange(500), 4)
    data.ply = np.tile(np.arange(4, dtype=np.int16), 500)
    data.game_id, data.final_scores = np.arange(500), data.final_scores[3::4]
    ridge = training.fit_ridge(data, alpha=1e-8)
    np.testing.assert_allclose(training.fit_td(data, lam=1.0, alpha=1e-8), ridge, atol=1e-6)
    assert np.abs(training.fit_td(data, lam=0.3, alpha=1e-8) - ridge).max() > 0.01
    # One game of three positions, two seats, final scores 10 and 4 (difference +6 / -6).
    game = training.Positions("players=2", np.array([7]), np.array([[10, 4]]), np.array([[0, 1]], np.int8),
                              np.array([7, 7, 7]), np.array([0, 1, 2], np.int16), np.array([0, 1, 0], np.int8),
                              np.zeros((3, 2, F), np.float32), np.zeros((3, 1), np.uint8))
    values = np.array([[1.0, -1.0], [2.0, -2.0], [4.0, -4.0]])
    lam = 0.5
    g2 = 6.0
    g1 = (1 - lam) * 4 + lam * g2
    g0 = (1 - lam) * 2 + lam * g1
    np.testing.assert_allclose(training.lambda_returns(game, values, lam), [[g0, -g0], [g1, -g1], [g2, -g2]])


def test_the_mlp_learns_what_a_linear_fit_cannot_and_cpp_evaluates_it_as_numpy_does(tmp_path):
    data = synthetic(np.zeros(F), games=4000, seats=2)
    x = training.versus_others(data.features.astype(np.float64))
    # Each seat's score is a nonlinear (odd, so it survives differencing) function of its relative features.
    score = lambda rel: 10 * np.tanh(3 * rel[..., 1]) + 5 * np.tanh(3 * rel[..., 2]) + 3 * rel[..., 3]
    data.final_scores = np.stack([score(x[:, 0]), score(x[:, 1])], axis=1) / 2
    train_set, val_set = training.split(data)
    mlp = training.fit_mlp(train_set, hidden=(16,), epochs=60, batch=256, seed=1)
    ridge = training.fit_ridge(train_set)
    assert training.loss(mlp, val_set) < 0.3 * training.loss(ridge, val_set)
    # The weight file, read by C++, gives the same values as numpy.
    path = tmp_path / "mlp.json"
    path.write_text(training.weights_json(mlp, meeple.Rules(), "mlp", method="mlp"))
    evaluator = meeple.make_evaluator(str(path))
    assert isinstance(evaluator, meeple.MlpEvaluator) and evaluator.rules == meeple.Rules()
    state, dealer, bot = meeple.State(meeple.Rules()), meeple.Dealer(2), meeple.make_player("greedy", 2)
    for _ in range(30):
        state.apply(dealer.deal(state) if state.is_chance else bot.choose(state))
    rel = training.versus_others(state.features()[None].astype(np.float64))[0]
    np.testing.assert_allclose(np.array(evaluator.evaluate(state)) * 2, training.predict(mlp, rel), rtol=1e-4, atol=1e-3)
    layers = training.read_model(path)
    np.testing.assert_allclose(layers.layers[0][0], mlp[0][0], atol=1e-5)


def test_data_files_load_and_match_the_games_they_came_from(tmp_path):
    rules = meeple.Rules(players=2, expansions=["river2"])
    assert training.generate(tmp_path, rules, ["greedy", "heuristic"], games=5, seed=40, chunk_games=2,
                             progress=False) == 5
    assert len(training.chunk_files(tmp_path)) == 3
    data = training.load_positions(tmp_path)
    assert list(data.game_id) == [40, 41, 42, 43, 44]
    with np.load(training.chunk_files(tmp_path)[0]) as chunk:
        assert str(chunk["rules"]) == str(rules) and list(chunk["feature_names"]) == list(meeple.FEATURE_NAMES)
        bots = {int(g): list(b) for g, b in zip(chunk["game_id"], chunk["bots"])}
    assert bots[40] == ["greedy", "heuristic"] and bots[41] == ["heuristic", "greedy"]  # seats rotate
    for row, game_id in enumerate(data.game_id[:2]):
        seats = training.seats_of(["greedy", "heuristic"], int(game_id))
        (scores, record), = meeple.play_games(rules, [(seats, int(game_id))], records=True)
        assert list(data.final_scores[row]) == scores
        assert list(data.ranks[row]) == [0 if s == max(scores) else 1 for s in scores]
        mine = data.game == game_id
        decisions = []
        for k in range(len(json.loads(record)["actions"])):
            state = meeple.position_of_record(record, k)
            if not state.is_chance and not state.is_terminal:
                decisions.append(state)
        assert mine.sum() == len(decisions)
        assert list(data.ply[mine]) == list(range(len(decisions)))
        for features, to_move, remaining, state in zip(data.features[mine], data.to_move[mine], data.remaining[mine],
                                                        decisions):
            np.testing.assert_array_equal(features, state.features())
            assert to_move == state.current_player
            np.testing.assert_array_equal(remaining, state.remaining_tiles())


def test_generation_resumes_playing_only_the_missing_games(tmp_path):
    rules = meeple.Rules()
    training.generate(tmp_path / "a", rules, ["greedy"] * 2, games=6, chunk_games=2, progress=False)
    chunks = training.chunk_files(tmp_path / "a")
    whole = training.load_positions(tmp_path / "a")
    import os

    os.remove(chunks[1])
    assert training.generate(tmp_path / "a", rules, ["greedy"] * 2, games=6, chunk_games=2, progress=False) == 2
    assert training.generate(tmp_path / "a", rules, ["greedy"] * 2, games=6, chunk_games=2, progress=False) == 0
    again = training.load_positions(tmp_path / "a")
    np.testing.assert_array_equal(again.game_id, whole.game_id)
    np.testing.assert_array_equal(again.features, whole.features)
    np.testing.assert_array_equal(again.final_scores, whole.final_scores)
    with pytest.raises(ValueError, match="not of 'players=3'"):
        training.generate(tmp_path / "a", meeple.Rules(players=3), ["greedy"] * 3, games=6, progress=False)
    (tmp_path / "a" / "chunk-00009.npz").write_text("not numpy")
    with pytest.raises(ValueError, match="chunk-00009.npz: not a readable numpy chunk"):
        training.load_positions(tmp_path / "a")


def test_ctrl_c_keeps_every_finished_game(tmp_path):
    """Interrupted in its second batch of 200 games, self-play writes the games of that batch finished so far."""
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "meeple", "train", "--out", str(out), "--games", "100000",
                             "--workers", "1", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=interruptible)
    chunks = out / "data" / "gen-1"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(chunks.glob("chunk-*.npz")):
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "rerun the same command to resume" in err
    files = training.chunk_files(chunks)
    assert len(files) == 2
    with np.load(files[1]) as partial:
        assert 1 <= len(partial["game_id"]) < 200
    data = training.load_positions(chunks)
    last = int(data.game_id[-1])
    (scores, _), = meeple.play_games(meeple.Rules(), [(training.seats_of([f"heuristic:eval={out}/gen-0.json"] * 2, last), last)])
    assert list(data.final_scores[-1]) == scores


def test_a_tiny_training_loop_runs_end_to_end_and_resumes(tmp_path):
    out = tmp_path / "train"
    lines = []
    rows = training.train(str(out), generations=2, games=24, batch_pairs=5, max_pairs=10, workers=2, progress=False,
                          log=lines.append, command="test")
    assert [r["generation"] for r in rows] == ["1", "2"] and len(lines) == 2
    with open(out / "generations.csv") as f:
        logged = list(csv.DictReader(f))
    assert logged == rows and set(training.COLUMNS) == set(logged[0])
    assert int(logged[0]["games"]) == 24 and int(logged[1]["games"]) == 48  # the fit window holds both generations
    assert int(logged[0]["positions"]) > 24 * 30 and int(logged[1]["positions"]) > int(logged[0]["positions"])
    for row in logged:
        assert float(row["val_loss"]) > 0 and 0 <= float(row["score_lo"]) <= float(row["score"]) <= float(row["score_hi"]) <= 1
        assert int(row["match_games"]) in (10, 20) and row["verdict"] in ("H1", "H0", "none")
        assert (row["current"] == f"gen-{row['generation']}.json") == (row["promoted"] == "1")
    fitted = meeple.make_evaluator(str(out / "gen-1.json"))
    assert str(fitted.rules) == "players=2"
    doc = json.loads((out / "gen-1.json").read_text())
    assert doc["training"]["command"] == "test" and doc["training"]["generation"] == 1
    assert (out / "generations.png").stat().st_size > 1000 and (out / "best.json").exists()
    assert "| 2 |" in training.generations_table(rows)
    # A rerun has nothing left to do.
    assert training.train(str(out), generations=2, games=24, progress=False, log=lines.append) == rows
    assert len(lines) == 2


def test_weights_fitted_to_other_rules_are_refused(tmp_path):
    path = tmp_path / "river.json"
    path.write_text(training.weights_json(np.ones(F), meeple.Rules(expansions=["river2"]), "river"))
    evaluator = meeple.make_evaluator(str(path))
    evaluator.check_rules(meeple.Rules(players=4, expansions=["river2"]))
    with pytest.raises(ValueError, match=r"evaluator 'river' was fitted to 'expansions=river2', not to this game: the base game \(default options\)"):
        evaluator.check_rules(meeple.Rules())
    with pytest.raises(ValueError, match="was fitted to"):
        meeple.play_games(meeple.Rules(), [([f"heuristic:eval={path}", "greedy"], 1)])
    with pytest.raises(ValueError, match="was fitted to"):
        training.generate(tmp_path / "d", meeple.Rules(), [f"mcts:iterations=5,eval={path}"] * 2, games=1, progress=False)


def test_the_default_evaluator_is_the_shipped_trained_one():
    trained = meeple.make_evaluator("trained")
    everything = meeple.Rules(expansions=["river2", "count", "king_robber", "cult_places", "abbey_mayor"])
    for rules in (meeple.Rules(), everything, meeple.Rules(players=3, expansions=["count"])):
        weights = trained.weights_for(rules)
        assert set(weights.rules.expansions) >= set(rules.expansions)
        assert weights.weights != meeple.make_evaluator("handtuned").weights  # fitted, not the hand-tuned start
        state = meeple.State(rules)
        dealer = meeple.Dealer(3)
        bot = meeple.make_player("greedy", 1)
        for _ in range(12):
            state.apply(dealer.deal(state) if state.is_chance else bot.choose(state))
        assert trained.evaluate(state) == weights.evaluate(state)
    assert trained.weights_for(meeple.Rules()).rules == meeple.Rules()
    assert trained.weights_for(everything).rules == everything
