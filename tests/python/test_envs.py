"""The environment wrappers: action ids, OpenSpiel, PettingZoo and Gymnasium (pip install .[envs])."""
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import meeple
import meeple.openspiel
from meeple.environment import SeatView, make_rules, parse_options, win_utilities
from meeple.gymnasium import CarcassonneEnv
from meeple.training import rules_options
from meeple.pettingzoo import env as aec_env

ROOT = Path(__file__).parents[2]
ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]


def random_positions(rules, games, seed):
    """Every decision node of random games."""
    state_rng = np.random.default_rng(seed)
    for g in range(games):
        state, dealer = meeple.State(rules), meeple.Dealer(seed + g)
        while not state.is_terminal:
            if state.is_chance:
                state.apply(dealer.deal(state))
                continue
            yield state
            legal = state.legal_actions()
            state.apply(legal[int(state_rng.integers(len(legal)))])


@pytest.mark.parametrize("players,expansions", [(2, []), (4, ALL)])
def test_every_legal_action_has_one_id_and_ids_name_it_back(players, expansions):
    rules = meeple.Rules(players=players, expansions=expansions)
    view = SeatView(rules, window=9)
    decisions = 0
    for state in random_positions(rules, games=6, seed=players):
        ids, actions = view.legal(state)
        assert sorted(actions) == state.legal_actions()
        assert len(set(ids.tolist())) == len(ids) and np.all(np.diff(ids) > 0)
        assert 0 <= ids[0] and ids[-1] < meeple.ACTION_IDS
        k = decisions % len(ids)
        assert view.action(state, int(ids[k])) == actions[k]
        decisions += 1
    assert decisions > 6 * 60


def test_an_id_that_is_not_legal_is_refused_with_the_legal_ones():
    state, dealer = meeple.State(meeple.Rules()), meeple.Dealer(1)
    state.apply(dealer.deal(state))
    view = SeatView(meeple.Rules())
    ids, _ = view.legal(state)
    before = state.copy()
    with pytest.raises(ValueError, match=r"action id 7 is not legal here \(phase place, seat 0\); legal ids: \[1, 5, 9\]"):
        view.action(state, 7)
    assert state == before and ids.tolist() == [1, 5, 9]


def test_observations_put_the_observing_seat_first():
    rules = meeple.Rules(players=3)
    view = SeatView(rules, window=15)
    state, dealer = meeple.State(rules), meeple.Dealer(2)
    while not (state.figures() and not state.is_chance):  # play until a figure is on the board
        state.apply(dealer.deal(state) if state.is_chance else state.legal_actions()[-1])
    owner = state.figures()[0][0]
    for seat in range(3):
        parts = view.split(view.observe(state, seat))
        relative = (owner - seat) % 3
        figure_planes = parts["planes"][18:]
        assert figure_planes[relative].sum() == 1 and figure_planes.sum() == 1
        assert parts["scores"].tolist() == pytest.approx([state.scores[(seat + k) % 3] / 100 for k in range(3)])
        np.testing.assert_allclose(parts["features"], state.features()[[(seat + k) % 3 for k in range(3)]])
    assert parts["tile"].sum() == (state.drawn_tile is not None)
    tile_id, _, _, rotation = state.tiles()[-1]
    placed = parts["placed"]
    assert placed.sum() == 2 and placed[meeple.tile_ids().index(tile_id)] == 1 and placed[len(meeple.tile_ids()) + rotation // 90] == 1
    assert parts["phase"].sum() == 1 and parts["phase"][meeple.PHASES.index(state.phase)] == 1
    # Acting seat from the observer round the table: seat 2 sees seat 0 (to act) one seat ahead.
    assert parts["acting"].tolist() == [1 if k == (state.current_player - 2) % 3 else 0 for k in range(3)]


def test_rewards_are_zero_sum_win_utilities():
    assert win_utilities([10, 3]) == [1.0, -1.0]
    assert win_utilities([10, 10]) == [0.0, 0.0]
    assert win_utilities([5, 9, 9, 1]) == pytest.approx([-1 / 3, 1 / 3, 1 / 3, -1 / 3])
    assert sum(win_utilities([4, 8, 8, 2, 8, 0])) == pytest.approx(0)


def test_rules_parameters_read_as_in_meeple_info():
    expected = "players=3 expansions=river2,cult_places small_city=two_points shrine_sets=ckr+csc"
    assert str(make_rules(3, "river2,cult_places", "small_city=two_points shrine_sets=ckr+csc")) == expected
    assert str(make_rules(3, "river2+cult_places", "small_city:two_points;shrine_sets:ckr+csc")) == expected
    with pytest.raises(ValueError, match="needs a value"):
        make_rules(2, "", "small_city")
    # The command line's --option items go through the same parser.
    assert parse_options(["small_city=two_points", "shrine_sets:ckr+csc", "a=b:c"]) == {
        "small_city": "two_points", "shrine_sets": "ckr+csc", "a": "b:c"}
    # ... and so does training's reading of a Rules' non-default options back from its text.
    assert rules_options(make_rules(3, "river2+cult_places", "small_city:two_points;shrine_sets:ckr+csc")) == {
        "small_city": "two_points", "shrine_sets": "ckr+csc"}
    assert make_rules(2, ["river2"], {"small_city": "two_points"}) == meeple.Rules(
        players=2, expansions=["river2"], options={"small_city": "two_points"})
    with pytest.raises(ValueError, match="unknown expansion"):
        make_rules(2, "rivers")


# OpenSpiel


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3, "expansions": "river2+king_robber", "window": 11},
                                    {"players": 6, "expansions": "+".join(ALL), "window": 11,
                                     "options": "count_move:clockwise;small_city:two_points"}])
def test_openspiel_random_simulations_pass(params):
    game = pyspiel.load_game(meeple.openspiel.GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    # The game string names the game with its parameters: loading it gives the same game.
    again = pyspiel.load_game(str(game))
    assert again.view.rules == game.view.rules and again.get_parameters() == game.get_parameters()


def test_openspiel_chance_nodes_are_meeple_draws_and_games_end_in_meeple_scores():
    game = pyspiel.load_game("meeple_carcassonne", {"players": 2, "window": 9})
    assert game.num_distinct_actions() == meeple.ACTION_IDS
    assert game.max_chance_outcomes() == len(meeple.tile_ids())
    state, rng = game.new_initial_state(), np.random.default_rng(5)
    shadow = meeple.State(meeple.Rules())
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1)
            expected = [(meeple.tile_ids().index(a.tile), p) for a, p in shadow.chance_outcomes()]
            assert outcomes == expected
            tile = outcomes[int(rng.integers(len(outcomes)))][0]
            action = meeple.Action.draw(meeple.tile_ids()[tile])
            state.apply_action(tile)
        else:
            legal = state.legal_actions()
            ids, actions = meeple.legal_action_ids(shadow)
            assert legal == ids.tolist()
            chosen = legal[int(rng.integers(len(legal)))]
            action = actions[legal.index(chosen)]
            assert state.action_to_string(state.current_player(), chosen) == repr(action)
            assert state.observation_string(state.current_player()).startswith(f"seat {state.current_player()}: ")
            assert len(state.observation_tensor()) == game.observation_tensor_size()
            state.apply_action(chosen)
        shadow.apply(action)
        assert state.meeple_state == shadow
    assert state.returns() == win_utilities(shadow.scores) and sum(state.returns()) == pytest.approx(0)


def test_openspiel_observation_strings_tell_positions_apart_and_ids_of_past_decisions_print():
    game = pyspiel.load_game("meeple_carcassonne")
    state = game.new_initial_state()
    state.apply_action(meeple.tile_ids().index("BA.RFr"))  # a straight road: several cells take it
    a, b = state.clone(), state.clone()
    a.apply_action(a.legal_actions()[0])
    b.apply_action(b.legal_actions()[-1])
    assert str(a) != str(b) and a.observation_string(0) != b.observation_string(0)
    chosen = 10_000  # not an id of this decision (a deploy or pass comes next)
    assert a.action_to_string(0, chosen) == "action id 10000"


def test_openspiel_clone_is_independent():
    game = pyspiel.load_game("meeple_carcassonne")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.meeple_state.phase == "place" and clone.meeple_state.phase != "place"


def test_openspiel_mcts_plays_meeple_bots():
    game = pyspiel.load_game("meeple_carcassonne", {"players": 3, "window": 9})
    bots = [meeple.openspiel.openspiel_mcts(game, simulations=3, seed=1), meeple.openspiel.MeepleBot("greedy", 2),
            meeple.openspiel.MeepleBot("mcts:iterations=20", 3)]
    scores = meeple.openspiel.play_game(game, bots, seed=4)
    assert len(scores) == 3 and max(scores) > 0


def test_openspiel_match_command_prints_the_table():
    out = subprocess.run([sys.executable, "-m", "meeple.openspiel", "--games", "3", "--players", "3", "--simulations", "2",
                          "--against", "random", "random"], capture_output=True, text=True, timeout=300, check=True).stdout
    lines = out.splitlines()
    assert lines[0] == "3 games, 3 players, expansions: none"
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == {"openspiel-mcts:sims=2,rollouts=1", "random", "random#2"}  # a repeated bot fills a seat
    assert sum(float(r[2]) for r in rows.values()) == 3.0  # wins, ties shared, add up to the games
    bad = subprocess.run([sys.executable, "-m", "meeple.openspiel", "--games", "3"], capture_output=True, text=True,
                         timeout=300)
    assert bad.returncode == 2 and "games must be a multiple of the players (2)" in bad.stderr


# PettingZoo


@pytest.mark.parametrize("kwargs", [{"players": 2, "window": 9},
                                    {"players": 3, "expansions": ["river2", "abbey_mayor"], "window": 9},
                                    {"players": 6, "expansions": ALL, "window": 9}])
def test_pettingzoo_api_test_passes(kwargs):
    api_test(aec_env(**kwargs), num_cycles=300)


def test_pettingzoo_whole_game_ends_in_zero_sum_rewards():
    game = aec_env(players=3, expansions=["king_robber"], window=9)
    game.reset(seed=7)
    totals, acted = dict.fromkeys(game.possible_agents, 0.0), set()
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        totals[agent] += reward
        if termination or truncation:
            game.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.sum() >= 1 and game.possible_agents.index(agent) == game.position.current_player
        acted.add(agent)
        game.step(int(game.np_random.choice(np.flatnonzero(mask))))
    assert acted == set(game.possible_agents)
    scores = game.position.scores
    assert [totals[a] for a in game.possible_agents] == pytest.approx(win_utilities(scores))


def test_pettingzoo_refuses_an_illegal_action_and_keeps_the_game():
    game = aec_env(window=9)
    game.reset(seed=1)
    before = game.position.copy()
    legal = np.flatnonzero(game.observe(game.agent_selection)["action_mask"])
    illegal = next(i for i in range(meeple.ACTION_IDS) if i not in legal)
    with pytest.raises(ValueError, match="is not legal here"):
        game.step(illegal)
    assert game.position == before


# Gymnasium


def test_gymnasium_check_env_passes():
    check_env(CarcassonneEnv(opponents=["greedy"], window=9))
    check_env(CarcassonneEnv(opponents=["random", "greedy"], seat=None, expansions=["river2"], window=9,
                             render_mode="ansi"))
    check_env(CarcassonneEnv(opponents=["random"] * 5, seat=None, expansions=ALL, window=9))


def test_gymnasium_episode_against_bots_ends_with_the_learners_utility():
    env = gymnasium.make("meeple/Carcassonne-v0", opponents=["greedy", "heuristic"], seat=1, window=9)
    observation, info = env.reset(seed=3)
    assert info["seat"] == 1
    rewards, decisions = [], 0
    while True:
        assert env.unwrapped.position.current_player == 1  # only the learner's decisions reach it
        mask = observation["action_mask"]
        assert np.array_equal(mask.astype(bool), env.unwrapped.action_masks())
        observation, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        rewards.append(reward)
        decisions += 1
        if terminated:
            break
    assert decisions > 20 and all(r == 0 for r in rewards[:-1])
    assert rewards[-1] == win_utilities(info["scores"])[1]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_gymnasium_same_seed_same_episode():
    def play(seed):
        env = CarcassonneEnv(opponents=["greedy"], seat=None, window=9)
        observation, info = env.reset(seed=seed)
        trace = [info["seat"]]
        while True:
            action = int(np.flatnonzero(observation["action_mask"])[-1])
            observation, reward, terminated, _, info = env.step(action)
            trace.append(action)
            if terminated:
                return trace, info["scores"]
    assert play(11) == play(11)


def test_gymnasium_illegal_action_loses_or_raises():
    env = CarcassonneEnv(opponents=["random"], window=9)
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.unwrapped.position.copy()
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True) and "is not legal here" in info["illegal_action"]
    assert env.unwrapped.position == before
    strict = CarcassonneEnv(opponents=["random"], window=9, illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(ValueError, match="is not legal here"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="opponents: give 1 to 5"):
        CarcassonneEnv(opponents=[])
    with pytest.raises(ValueError, match="unknown bot"):
        CarcassonneEnv(opponents=["grredy"])


def test_gymnasium_training_example_runs(tmp_path):
    out = tmp_path / "policy.json"
    text = subprocess.run([sys.executable, str(ROOT / "experiments/train_gymnasium.py"), "--opponent", "random", "--minutes", "0.05",
                           "--eval-episodes", "4", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=True).stdout
    assert "(final)" in text and out.exists()
