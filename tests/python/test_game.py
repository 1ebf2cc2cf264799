"""The game API from Python: rules by name, states, actions, errors, copies, pickles, records, features."""
import copy
import json
import pickle
import random

import numpy as np
import pytest

import meeple

ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]


def play_randomly(state, seed):
    rng, dealer = random.Random(seed), meeple.Dealer(seed)
    while not state.is_terminal:
        state.apply(dealer.deal(state) if state.is_chance else rng.choice(state.legal_actions()))
    return state


def test_rules_by_name_and_their_errors():
    rules = meeple.Rules(players=3, expansions=["river2", "king_robber"], options={"small_city": "two_points"})
    assert rules.players == 3
    assert rules.expansions == ["river2", "king_robber"]
    assert rules.option("small_city") == "two_points"
    assert meeple.Rules.parse(str(rules)) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    with pytest.raises(ValueError, match="unknown expansion 'dragons'"):
        meeple.Rules(expansions=["dragons"])
    with pytest.raises(ValueError, match="valid values: normal, two_points"):
        meeple.Rules(options={"small_city": "huge"})
    with pytest.raises(ValueError, match="players must be 2 to 6"):
        meeple.Rules(players=7)
    with pytest.raises(TypeError, match="option small_city must be a string"):
        meeple.Rules(options={"small_city": 2})
    with pytest.raises(ValueError, match="rules: expected NAME=VALUE, got 'two'"):  # a text is the rules text
        meeple.Rules("two")
    with pytest.raises(TypeError, match="argument 'players' must be int"):
        meeple.Rules(players=2.0)
    with pytest.raises(ValueError, match="give the text alone"):
        meeple.Rules("players=3", expansions=["river2"])
    assert meeple.Rules("players=3 expansions=river2") == meeple.Rules(players=3, expansions=["river2"])
    import numpy as np

    assert meeple.Rules(players=np.int64(3)).players == 3  # numpy integers are integers
    with pytest.raises(ValueError, match=f"players must be 2 to 6, got {2**70}"):
        meeple.Rules(players=2**70)
    with pytest.raises(ValueError, match="the rules text is not valid UTF-8"):
        meeple.State("players=2\udcff")


@pytest.mark.parametrize("expansions", [[], ["river2", "king_robber"], ALL])
@pytest.mark.parametrize("players", [2, 4])
def test_random_games_keep_the_state_consistent(expansions, players):
    """A random-simulation test from Python: invariants after every action."""
    rules = meeple.Rules(players=players, expansions=expansions)
    state, rng, dealer = meeple.State(rules), random.Random(players), meeple.Dealer(7)
    while not state.is_terminal:
        if state.is_chance:
            outcomes = state.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert state.legal_actions() == []
            action = dealer.deal(state)
            assert action in [a for a, _ in outcomes]
        else:
            legal = state.legal_actions()
            assert legal == sorted(legal) and 0 <= state.current_player < players
            action = rng.choice(legal)
        before = state.copy()
        state.apply(action)
        assert state != before or action.kind == "pass"
        assert state.check_consistency() == ""
    assert state.current_player == -2 and state.phase == "game over"
    assert sum(sum(b.values()) for b in state.score_breakdown()) == sum(state.scores)
    assert state.final_scores_if_ended_now() == state.scores
    assert all(state.scores[w] == max(state.scores) for w in state.winners())


@pytest.mark.parametrize("expansions", [[], ["king_robber"], ["abbey_mayor", "count"], ALL])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_final_account_adds_up_to_the_final_scores(expansions, players):
    """State.final_account: None for every action but the one that ends the game, whose account (asked of the
    position before it, which it leaves as it was) adds up, seat by seat and category by category, to the final
    scores; an illegal action is a RulesError, a wrong type a TypeError."""
    rules = meeple.Rules(players=players, expansions=expansions)
    for seed in range(3):
        state, rng, dealer = meeple.State(rules), random.Random(seed), meeple.Dealer(seed)
        while True:
            action = dealer.deal(state) if state.is_chance else rng.choice(state.legal_actions())
            before = state.copy()
            account = state.final_account(action)
            assert state == before
            state.apply(action)
            if state.is_terminal:
                break
            assert account is None
        for p in range(players):
            for category in meeple.SCORE_CATEGORIES:
                paid = sum(f["points"][p] for f in account["features"] if f["category"] == category)
                assert account["before"][p][category] + paid == state.score_breakdown()[p][category]
        tiles = {(x, y) for _, x, y, _ in state.tiles()}
        for f in account["features"]:
            assert f["what"] in ("city", "road", "cloister", "shrine", "farm", "barn", "king", "robber")
            assert f["paid"] and all(f["points"][p] == 0 for p in range(players) if p not in f["paid"])
            assert {tuple(c) for c in f["cells"]} <= tiles and bool(f["cells"]) == (f["what"] not in ("king", "robber"))
        with pytest.raises(meeple.RulesError, match="the game is over"):
            state.final_account(action)
        with pytest.raises(meeple.RulesError):
            before.final_account(meeple.Action.place(90, 90, 0))
        with pytest.raises(TypeError):
            before.final_account("pass")


def test_illegal_actions_raise_rules_error_and_leave_the_state_unchanged():
    state = meeple.State(meeple.Rules())
    with pytest.raises(meeple.RulesError, match="expected a tile draw"):
        state.apply(meeple.Action.place(0, 1, 0))
    state.apply(meeple.Action.draw("BA.C"))
    before = state.copy()
    with pytest.raises(meeple.RulesError, match="does not touch the board"):
        state.apply(meeple.Action.place(5, 5, 0))
    assert state == before
    with pytest.raises(ValueError, match="no tile 'XX'"):
        meeple.Action.draw("XX")
    with pytest.raises(ValueError, match="rotation is in degrees"):
        meeple.Action.place(0, -1, 1)
    with pytest.raises(TypeError):
        state.apply("place(0,-1,180)")
    with pytest.raises(ValueError, match="not at a chance node"):
        meeple.Dealer(1).deal(state)
    state.apply(meeple.Action.place(0, -1, 180))
    assert state.phase == "deploy"


def test_copies_and_pickles_are_independent_and_equal():
    state = meeple.State(meeple.Rules(players=3, expansions=ALL))
    dealer = meeple.Dealer(3)
    for _ in range(5):
        state.apply(dealer.deal(state) if state.is_chance else state.legal_actions()[-1])
    for twin in (state.copy(), copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin == state
        assert twin.legal_actions() == state.legal_actions()
    twin = state.copy()
    twin.apply(dealer.deal(twin) if twin.is_chance else twin.legal_actions()[0])
    assert twin != state
    blank = meeple.State.__new__(meeple.State)
    with pytest.raises(ValueError, match="not a pickled meeple State of this build"):
        blank.__setstate__(b"meeple-state/1:12:garbage")


def test_features_and_remaining_tiles_as_numpy():
    state = meeple.State(meeple.Rules(players=3))
    features = state.features()
    assert features.shape == (3, len(meeple.FEATURE_NAMES)) and features.dtype == np.float32
    assert np.all(features[:, meeple.FEATURE_NAMES.index("bias")] == 1)
    assert np.all(features[:, meeple.FEATURE_NAMES.index("supply_left")] == pytest.approx(7 * 71 / 72))
    remaining = state.remaining_tiles()
    assert remaining.sum() == state.tiles_left == 71
    assert remaining[meeple.tile_ids().index("BA.C")] == 5


def test_records_round_trip_and_bad_records_name_the_action():
    rules = meeple.Rules(players=2, expansions=["river2"])
    state, dealer, rng = meeple.State(rules), meeple.Dealer(5), random.Random(5)
    builder = meeple.RecordBuilder(rules, names=["a", "b"], seed=5)
    while not state.is_terminal:
        action = dealer.deal(state) if state.is_chance else rng.choice(state.legal_actions())
        builder.add(state, action)
        state.apply(action)
    line = builder.finish(state)
    assert meeple.replay(line) == state
    record = json.loads(line)
    first_place = next(i for i, a in enumerate(record["actions"]) if "place" in a)
    record["actions"][first_place]["place"] = [40, 40, 0]
    with pytest.raises(ValueError, match=f"record action {first_place}: .*does not touch the board"):
        meeple.replay(json.dumps(record))
    with pytest.raises(ValueError, match="record: "):
        meeple.replay("{not json")
