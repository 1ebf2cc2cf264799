"""The environment wrappers on the board encoding: SeatView, OpenSpiel, PettingZoo and Gymnasium (pip install .[envs])."""
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import meeple
import meeple.openspiel
from meeple.environment import BoardOutgrewWindow, SeatView, as_rules, make_rules, option_words, win_utilities, with_players
from meeple.gymnasium import CarcassonneEnv
from meeple.pettingzoo import env as aec_env

ROOT = Path(__file__).parents[2]
ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]
# Every expansion alone, none and all five, each with 2 and 3 players; all five with 6.
EVERY_SET = [(p, x) for x in [[], *[[name] for name in ALL], ALL] for p in (2, 3)] + [(6, ALL)]
SET_IDS = [f"{p}p-{'+'.join(x) or 'base'}" for p, x in EVERY_SET]
IDS = meeple.NUM_ACTION_IDS


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


def eastmost(state, mask):
    """The id of the legal placement furthest east if there is one, else the first legal id: playing it
    again and again stretches the board out of the encoding's window."""
    ids = np.flatnonzero(mask)
    actions = [meeple.Encoding.action_of(state, int(i)) for i in ids]
    places = [k for k, a in enumerate(actions) if a.kind == "place"]
    return int(ids[max(places, key=lambda k: actions[k].x)]) if places else int(ids[0])


class East(meeple.Player):
    """A bot that stretches the board east (see eastmost)."""

    def choose(self, state):
        legal = state.legal_actions()
        places = [a for a in legal if a.kind == "place"]
        return max(places, key=lambda a: a.x) if places else legal[0]


# SeatView


@pytest.mark.parametrize("players,expansions", [(2, []), (4, ALL)])
def test_every_legal_action_has_one_id_and_ids_name_it_back(players, expansions):
    rules = meeple.Rules(players=players, expansions=expansions)
    view = SeatView(rules)
    decisions = 0
    for state in random_positions(rules, games=6, seed=players):
        mask, outside = view.mask(state)
        ids = np.flatnonzero(mask)
        assert outside == 0 and mask.dtype == np.bool_ and mask.shape == (IDS,)
        assert sorted(view.action(state, int(i)) for i in ids) == sorted(state.legal_actions())
        k = decisions % len(ids)
        assert view.action(state, int(ids[k]), mask) == view.action(state, ids[k])  # with the mask at hand, or not
        decisions += 1
    assert decisions > 6 * 60


def test_an_id_that_is_not_legal_is_refused_with_the_legal_ones():
    state, dealer = meeple.State(meeple.Rules()), meeple.Dealer(1)
    state.apply(dealer.deal(state))
    view = SeatView(meeple.Rules())
    legal = np.flatnonzero(view.mask(state)[0]).tolist()
    before = state.copy()
    illegal = [0, legal[0] + 1, legal[-1] + 4, meeple.ACTION_ID_BLOCKS["deploy"], IDS - 1]
    for i in illegal:
        with pytest.raises(ValueError, match=rf"action id {i} is not legal here \(phase place, seat 0\); legal ids: "
                                             rf"\[{', '.join(map(str, legal))}\]"):
            view.action(state, i)
    assert state == before and len(legal) == 3


def test_observations_put_the_observing_seat_first():
    rules = meeple.Rules(players=3)
    view = SeatView(rules)
    names = [n for n, _ in view.encoding.plane_channels()]
    fields = [n for n, _ in view.encoding.flat_fields()]
    state, dealer = meeple.State(rules), meeple.Dealer(2)
    while not (state.figures() and not state.is_chance):  # play until a figure is on the board
        state.apply(dealer.deal(state) if state.is_chance else state.legal_actions()[-1])
    owner = state.figures()[0][0]
    for seat in range(3):
        observation, fits = view.observe(state, seat)
        assert fits and set(observation) == {"observation", "flat"}
        planes, flat = observation["observation"], observation["flat"]
        relative = (owner - seat) % 3
        followers = [planes[names.index(f"seat{k}_followers")].sum() for k in range(3)]
        assert followers == [1 if k == relative else 0 for k in range(3)]
        assert [flat[fields.index(f"score.{k}")] for k in range(3)] == [state.scores[(seat + k) % 3] for k in range(3)]
        # Acting seat from the observer round the table.
        assert [flat[fields.index(f"acting.{k}")] for k in range(3)] == [
            1 if k == (state.current_player - seat) % 3 else 0 for k in range(3)]
        # observe_into writes the same as one float vector, which split() names
        tensor = np.zeros(view.tensor_size, np.float32)
        assert view.observe_into(state, seat, tensor)
        parts = view.split(tensor)
        assert np.array_equal(parts["observation"], planes) and np.array_equal(parts["flat"], flat)


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
    # The command line's --option items go through the same words.
    assert option_words(["small_city=two_points", "shrine_sets:ckr+csc", "a=b:c"]) == [
        "small_city=two_points", "shrine_sets=ckr+csc", "a=b:c"]
    assert option_words({"shrine_sets": ["ckr", "csc"]}) == ["shrine_sets=ckr+csc"]
    assert make_rules(2, ["river2"], {"small_city": "two_points"}) == meeple.Rules(
        players=2, expansions=["river2"], options={"small_city": "two_points"})
    with pytest.raises(ValueError, match="unknown expansion"):
        make_rules(2, "rivers")


def test_one_rules_text_with_shorthand():
    """Rules.parse's text is the one form: the parameters are shorthand for its words, so a name given both
    ways is refused, and a Rules or its text is accepted wherever rules are taken."""
    text = "players=3 expansions=river2,count small_city=two_points"
    assert as_rules(text) == as_rules(as_rules(text)) == meeple.Rules.parse(text)
    assert make_rules(rules="expansions=river2,count", players=3, options={"small_city": "two_points"}) == as_rules(text)
    assert make_rules(rules="expansions=count") == meeple.Rules.parse("players=2 expansions=count")
    assert make_rules(rules="expansions=count", default_players=4).players == 4
    assert make_rules(rules=text, default_players=4).players == 3
    with pytest.raises(ValueError, match="players given twice"):
        make_rules(2, rules=text)
    with pytest.raises(ValueError, match="expansions given twice"):
        make_rules(expansions=["abbey_mayor"], rules=text)
    with pytest.raises(ValueError, match="small_city given twice"):
        make_rules(options="small_city:normal", rules=text)
    with pytest.raises(TypeError, match="rules must be a meeple.Rules or its text"):
        as_rules(3)
    with pytest.raises(TypeError, match="expansion must be a string"):
        make_rules(expansions=[1])
    # The bound functions take the text too (pybind11's implicit conversion), and a bad text says why.
    assert meeple.State(text).rules == meeple.Rules(text) == as_rules(text)
    with pytest.raises(ValueError, match="argument 'rules': rules: players must be 2 to 6, got '9'"):
        meeple.State("players=9")
    with pytest.raises(TypeError, match="argument 'games' must be"):
        meeple.play_games("players=2", 5)  # a good text: the other argument is blamed
    # The environments take the text as well.
    assert CarcassonneEnv(opponents=["greedy", "random"], rules="expansions=river2").view.rules == as_rules(
        "players=3 expansions=river2")
    with pytest.raises(ValueError, match="the rules seat 4 players, but 1 opponents and the learner make 2"):
        CarcassonneEnv(opponents=["greedy"], rules="players=4")
    assert aec_env(rules="players=3 expansions=count").possible_agents == ["player_0", "player_1", "player_2"]
    # Shorthand is checked word by word: a value cannot smuggle in words of its own.
    for bad in (dict(expansions=["river2 players=5"]), dict(options={"small_city": "two_points players=3"}),
                dict(options=["small_city=a b"]), dict(expansions="river2,,count=1")):
        with pytest.raises(ValueError, match="is not one name"):
            make_rules(**bad)
    with pytest.raises(TypeError, match="a value of option shrine_sets must be a string"):
        make_rules(options={"shrine_sets": [1]})
    with pytest.raises(TypeError, match="an option item must be a string"):
        make_rules(options=[3])
    assert str(make_rules(options={"shrine_sets": ["ckr", "csc"]})) == "players=2 shrine_sets=ckr+csc"
    assert make_rules(expansions=["river2,count", "abbey_mayor"]) == as_rules("expansions=river2,count,abbey_mayor")
    assert with_players(text, 2) == meeple.Rules.parse("players=2 expansions=river2,count small_city=two_points")


# OpenSpiel


@pytest.mark.parametrize("players,expansions", EVERY_SET, ids=SET_IDS)
def test_openspiel_random_simulations_pass(players, expansions):
    params = {"players": players, "expansions": "+".join(expansions)}
    if players == 6:
        params["options"] = "count_move:clockwise;small_city:two_points"
    game = pyspiel.load_game(meeple.openspiel.GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    # The game string names the game with its parameters: loading it gives the same game.
    again = pyspiel.load_game(str(game))
    assert again.view.rules == game.view.rules and again.get_parameters() == game.get_parameters()


def test_openspiel_chance_nodes_are_meeple_draws_and_games_end_in_meeple_scores():
    game = pyspiel.load_game("meeple_carcassonne", {"players": 2})
    assert game.num_distinct_actions() == IDS
    assert game.max_chance_outcomes() == len(meeple.tile_ids())
    encoding = meeple.Encoding(2)
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
            assert legal == np.flatnonzero(encoding.legal_mask(shadow)).tolist()  # the encoding's ids, from its mask
            chosen = legal[int(rng.integers(len(legal)))]
            action = meeple.Encoding.action_of(shadow, chosen)
            assert state.action_to_string(state.current_player(), chosen) == repr(action)
            assert state.observation_string(state.current_player()).startswith(f"seat {state.current_player()}: ")
            assert len(state.observation_tensor()) == game.observation_tensor_size()
            state.apply_action(chosen)
        shadow.apply(action)
        assert state.meeple_state == shadow
    assert state.returns() == win_utilities(shadow.scores) and sum(state.returns()) == pytest.approx(0)


@pytest.mark.parametrize("players", [2, 3])
def test_openspiel_tensors_are_the_encoding_from_python_and_from_cpp(players):
    game = pyspiel.load_game("meeple_carcassonne", {"players": players, "expansions": "count+abbey_mayor"})
    encoding = meeple.Encoding(players)
    size = encoding.tensor_size
    assert game.observation_tensor_shape() == game.information_state_tensor_shape() == [size]
    observer = game.make_py_observer()
    assert observer.dict["observation"].shape == encoding.plane_shape and observer.dict["flat"].shape == (encoding.flat_size,)
    state, rng, seen = game.new_initial_state(), np.random.default_rng(players), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        if seen % 5 == 0:
            for p in range(players):
                planes, flat, _ = encoding.observe(state.meeple_state, p)
                expected = np.concatenate([planes.ravel().astype(np.float32), flat])
                tensor = state.observation_tensor(p)  # Python: a new numpy array each call
                assert tensor.dtype == np.float32 and np.array_equal(tensor, expected)
                assert tensor is not state.observation_tensor(p)
                assert np.array_equal(state.information_state_tensor(p), expected)
                # C++ callers (random_sim_test, C++ algorithms) read the observer: the same numbers
                assert np.array_equal(np.asarray(pyspiel.State.observation_tensor(state, p), np.float32), expected)
                observer.set_from(state, p)
                assert np.array_equal(observer.tensor, expected)
            assert np.array_equal(state.observation_tensor(), state.observation_tensor(state.current_player()))
        seen += 1
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    for bad in [-1, players, 100]:
        with pytest.raises(ValueError, match=f"player must be 0 to {players - 1}, got {bad}"):
            state.observation_tensor(bad)
    with pytest.raises(ValueError, match="no seat is to move at a terminal node: give the player"):
        state.observation_tensor()
    with pytest.raises(ValueError, match="no seat is to move at a chance node: give the player"):
        game.new_initial_state().information_state_tensor()
    for bad in [1.0, "0", None if state.is_terminal() else 0.5]:
        if bad is not None:
            with pytest.raises(TypeError, match="player must be an integer"):
                state.observation_tensor(bad)


def test_openspiel_observation_strings_tell_positions_apart_and_ids_of_past_decisions_print():
    game = pyspiel.load_game("meeple_carcassonne")
    state = game.new_initial_state()
    state.apply_action(meeple.tile_ids().index("BA.RFr"))  # a straight road: several cells take it
    a, b = state.clone(), state.clone()
    a.apply_action(a.legal_actions()[0])
    b.apply_action(b.legal_actions()[-1])
    assert str(a) != str(b) and a.observation_string(0) != b.observation_string(0)
    past = state.legal_actions()[0]  # the placement just made: an id of another decision now
    for chosen in [10_000, past, IDS - 1, -3]:
        assert a.action_to_string(0, chosen) == f"action id {chosen}"


def test_openspiel_clone_is_independent():
    game = pyspiel.load_game("meeple_carcassonne")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.meeple_state.phase == "place" and clone.meeple_state.phase != "place"
    assert state.legal_actions() != clone.legal_actions()


def test_openspiel_raises_when_the_board_outgrows_the_window():
    """OpenSpiel cannot truncate: the state whose board no longer fits raises BoardOutgrewWindow from its
    tensors and, once placements have no id, its legal actions; the rest of the state stays usable."""
    game = pyspiel.load_game("meeple_carcassonne")
    state, dealer, fitting = game.new_initial_state(), meeple.Dealer(5), 0
    while True:
        if state.is_chance_node():
            state.apply_action(meeple.tile_ids().index(dealer.deal(state.meeple_state).tile))
            continue
        try:
            state.observation_tensor(0)
        except BoardOutgrewWindow as e:
            assert "outgrew the encoding's 32 x 32 window" in str(e)
            break
        fitting += 1
        mask = np.zeros(IDS, np.bool_)
        mask[state.legal_actions()] = True
        state.apply_action(eastmost(state.meeple_state, mask))
    assert fitting > 30
    for call in [lambda: state.information_state_tensor(1), lambda: game.make_py_observer().set_from(state, 0),
                 lambda: pyspiel.State.observation_tensor(state, 0)]:
        with pytest.raises((BoardOutgrewWindow, pyspiel.SpielError), match="outgrew the encoding's 32 x 32 window"):
            call()
    text, clone = state.serialize(), state.clone()
    assert game.deserialize_state(text).meeple_state == state.meeple_state == clone.meeple_state
    assert str(state) and state.returns() == [0.0, 0.0]
    while True:  # on east: a placement beyond the window has no id, so the legal actions cannot be listed
        if state.is_chance_node():
            state.apply_action(meeple.tile_ids().index(dealer.deal(state.meeple_state).tile))
            continue
        try:
            legal = state.legal_actions()
        except BoardOutgrewWindow as e:
            assert "legal action(s) have no id" in str(e)
            break
        state.apply_action(max(legal, key=lambda i: (meeple.Encoding.action_of(state.meeple_state, i).x or 0)))
        assert not state.is_terminal()


def test_openspiel_mcts_plays_meeple_bots():
    game = pyspiel.load_game("meeple_carcassonne", {"players": 3})
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


@pytest.mark.parametrize("players,expansions", EVERY_SET, ids=SET_IDS)
def test_pettingzoo_api_test_passes_and_whole_games_stay_in_the_spaces(players, expansions):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # its advice for Dict observations: Box is "probably" better
        api_test(aec_env(players=players, expansions=expansions), num_cycles=300)
    game = aec_env(players=players, expansions=expansions)
    game.reset(seed=players)
    space = game.observation_space(game.possible_agents[0])
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        assert space.contains(observation) and observation["action_mask"].dtype == np.int8
        game.step(None if termination or truncation else int(game.np_random.choice(np.flatnonzero(observation["action_mask"]))))
    assert game.position.is_terminal


def test_pettingzoo_whole_game_ends_in_zero_sum_rewards():
    game = aec_env(players=3, expansions=["king_robber"])
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
        for other in game.possible_agents:  # only the agent to act has a mask
            assert game.observe(other)["action_mask"].any() == (other == agent)
        acted.add(agent)
        game.step(int(game.np_random.choice(np.flatnonzero(mask))))
    assert acted == set(game.possible_agents)
    scores = game.position.scores
    assert [totals[a] for a in game.possible_agents] == pytest.approx(win_utilities(scores))


def test_pettingzoo_refuses_an_illegal_action_and_keeps_the_game():
    game = aec_env()
    game.reset(seed=1)
    before = game.position.copy()
    legal = np.flatnonzero(game.observe(game.agent_selection)["action_mask"])
    for illegal in [next(i for i in range(IDS) if i not in legal), IDS - 1, 0]:
        with pytest.raises(ValueError, match="is not legal here"):
            game.step(illegal)
    assert game.position == before


def test_pettingzoo_truncates_every_agent_when_the_board_outgrows_the_window():
    game = aec_env()
    game.reset(seed=5)
    steps = 0
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            break
        game.step(eastmost(game.position, observation["action_mask"]))
        steps += 1
    assert truncation and not termination and steps > 30 and not game.position.is_terminal
    assert all(game.truncations.values()) and not any(game.terminations.values())
    assert all("outgrew the encoding's 32 x 32 window" in game.infos[a]["truncation"] for a in game.possible_agents)
    assert reward == 0 and all(r == 0 for r in game.rewards.values())
    fields = [n for n, _ in game.view.encoding.flat_fields()]
    assert observation["flat"][fields.index("outside_window")] == 1 and not observation["action_mask"].any()
    for agent in game.agent_iter():  # the dead steps empty the table
        game.step(None)
    assert game.agents == []


# Gymnasium


@pytest.mark.parametrize("players,expansions", EVERY_SET, ids=SET_IDS)
def test_gymnasium_check_env_passes_and_whole_episodes_stay_in_the_spaces(players, expansions):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the flat vector's Box is unbounded above: counts and scores
        check_env(CarcassonneEnv(opponents=["random"] * (players - 1), seat=None, expansions=expansions,
                                 render_mode="ansi" if players == 3 else None))
    env = CarcassonneEnv(opponents=["random"] * (players - 1), seat=None, expansions=expansions)
    observation, info = env.reset(seed=players)
    while True:
        assert env.observation_space.contains(observation)
        assert np.array_equal(observation["action_mask"].astype(bool), env.action_masks())
        observation, reward, terminated, truncated, info = env.step(env.action_space.sample(observation["action_mask"]))
        if terminated or truncated:
            break
    assert terminated and not truncated and env.observation_space.contains(observation)


def test_gymnasium_episode_against_bots_ends_with_the_learners_utility():
    env = gymnasium.make("meeple/Carcassonne-v0", opponents=["greedy", "heuristic"], seat=1)
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
        assert not truncated
    assert decisions > 20 and all(r == 0 for r in rewards[:-1])
    assert rewards[-1] == win_utilities(info["scores"])[1]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_gymnasium_same_seed_same_episode():
    def play(seed):
        env = CarcassonneEnv(opponents=["greedy"], seat=None)
        observation, info = env.reset(seed=seed)
        trace = [info["seat"]]
        while True:
            action = int(np.flatnonzero(observation["action_mask"])[-1])
            observation, reward, terminated, truncated, info = env.step(action)
            trace.append(action)
            if terminated or truncated:
                return trace, info["scores"], truncated
    assert play(11) == play(11)
    # Always the highest id (the placement furthest south, then east) stretches the board: with this seed, out
    # of the window, which ends the episode as truncated (about half the seeds do)
    assert play(11)[2]


def test_gymnasium_illegal_action_loses_or_raises():
    env = CarcassonneEnv(opponents=["random"])
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.unwrapped.position.copy()
    again, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True) and "is not legal here" in info["illegal_action"]
    assert env.unwrapped.position == before
    assert again["observation"] is not observation["observation"] and np.array_equal(again["observation"], observation["observation"])
    strict = CarcassonneEnv(opponents=["random"], illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(ValueError, match="is not legal here"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="opponents: give 1 to 5"):
        CarcassonneEnv(opponents=[])
    with pytest.raises(ValueError, match="unknown bot"):
        CarcassonneEnv(opponents=["grredy"])


def test_gymnasium_truncates_when_the_board_outgrows_the_window():
    env = CarcassonneEnv(opponents=[East()], seat=0)
    observation, info = env.reset(seed=5)
    steps = 0
    while True:
        observation, reward, terminated, truncated, info = env.step(eastmost(env.position, observation["action_mask"]))
        steps += 1
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0 and steps > 10 and not env.position.is_terminal
    assert "outgrew the encoding's 32 x 32 window" in info["truncation"] and "scores" in info
    fields = [n for n, _ in env.view.encoding.flat_fields()]
    assert observation["flat"][fields.index("outside_window")] == 1 and env.observation_space.contains(observation)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    observation, info = env.reset(seed=6)  # and a new episode starts as usual
    assert "truncation" not in info and observation["flat"][fields.index("outside_window")] == 0


def test_gymnasium_training_example_runs(tmp_path):
    out = tmp_path / "policy.json"
    text = subprocess.run([sys.executable, str(ROOT / "experiments/train_gymnasium.py"), "--opponent", "random", "--minutes", "0.05",
                           "--eval-episodes", "4", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=True).stdout
    assert "(final)" in text and out.exists()
