"""Bad input from Python gets a clear error and changes nothing (issue 13): properties checked on many
generated inputs (hypothesis, derandomized so that every run tries the same ones), plus the regressions
named in the issue."""
import json
import pickle
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple

ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]
checked = settings(derandomize=True, database=None, max_examples=300, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])


def mid_game(players=3, expansions=ALL, actions=60, seed=4):
    state, dealer = meeple.State(meeple.Rules(players=players, expansions=expansions)), meeple.Dealer(seed)
    for i in range(actions):
        legal = None if state.is_chance else state.legal_actions()
        state.apply(dealer.deal(state) if state.is_chance else legal[i % len(legal)])
    return state


@checked
@given(st.integers(-2**40, 2**40), st.integers(-300, 300), st.sampled_from([0, 90, 180, 270, 45, 360, -90, 2**33]))
def test_placements_hold_their_coordinates_or_are_refused(x, y, rotation):
    try:
        action = meeple.Action.place(x, y, rotation)
    except ValueError as e:
        assert not (-128 <= x <= 127 and -128 <= y <= 127 and rotation in (0, 90, 180, 270))
        assert "must be -128 to 127" in str(e) or "rotation is in degrees" in str(e)
        return
    assert (action.x, action.y, action.rotation) == (x, y, rotation)


def test_placements_far_apart_are_not_equal():
    with pytest.raises(ValueError, match="x must be -128 to 127, got 256"):
        meeple.Action.place(256, 1, 0)
    assert meeple.Action.place(127, 1, 0) != meeple.Action.place(-128, 1, 0)


@checked
@given(st.integers(0, 2**32 - 1))
def test_any_bits_are_an_action_or_refused(bits):
    try:
        action = meeple.Action.from_bits(bits)
    except ValueError as e:
        assert "name no action" in str(e) or "draw tile type" in str(e)
        return
    assert action.bits == bits
    assert pickle.loads(pickle.dumps(action)) == action
    repr(action)
    if action.kind == "draw":
        assert action.tile in meeple.tile_ids()


def test_a_draw_beyond_the_tile_table_is_refused():
    with pytest.raises(ValueError, match="draw tile type 200"):
        meeple.Action.from_bits((2 << 24) | 200)


@checked
@given(st.integers(0, 2**32 - 1), st.integers(0, 80))
def test_any_action_applies_legally_or_leaves_the_state_unchanged(bits, actions):
    state = mid_game(actions=actions)
    try:
        action = meeple.Action.from_bits(bits)
    except ValueError:
        return
    before = state.copy()
    legal = action in (state.legal_actions() if not state.is_chance else [a for a, _ in state.chance_outcomes()])
    try:
        state.apply(action)
    except meeple.RulesError:
        assert not legal
        assert state == before
        return
    assert legal
    assert state.check_consistency() == ""


def state_bytes(state):
    """The bytes behind a State's pickle header, and the header up to its CRC-32."""
    blob = state.__getstate__()
    header = blob.index(b":", blob.index(b":") + 1) + 1
    return blob[:header], bytearray(blob[header + 9:])


def from_bytes(header, body):
    """A state from bytes given their right CRC-32: what the checks beneath the checksum see."""
    state = meeple.State.__new__(meeple.State)
    state.__setstate__(header + b"%08x:" % zlib.crc32(body) + bytes(body))
    return state


@checked
@given(st.integers(0, 10**9), st.integers(0, 255), st.integers(1, 3))
def test_corrupted_pickles_are_refused_or_consistent(position, value, width):
    header, body = state_bytes(mid_game())
    at = position % len(body)
    body[at:at + width] = bytes([value]) * len(body[at:at + width])
    try:
        twin = from_bytes(header, body)
    except ValueError as e:
        assert str(e).startswith("a corrupted State pickle: ")
        return
    # The bytes may have changed only what no check can see (a score, a remaining count); the state is
    # still one the engine can play on.
    assert twin.check_consistency() == ""
    if not twin.is_terminal:
        (twin.chance_outcomes() if twin.is_chance else twin.legal_actions())


def test_a_pickle_with_an_impossible_phase_is_refused():
    header, body = state_bytes(mid_game())
    for at in range(len(body)):  # the byte that holds the phase, found by changing each in turn
        changed = bytearray(body)
        changed[at] = 0xEE
        try:
            from_bytes(header, changed)
        except ValueError as e:
            if "unknown phase" in str(e):
                return
    pytest.fail("no byte of the pickle holds the phase")


@checked
@given(st.integers(-2**40, 2**40))
def test_players_out_of_range_are_refused(players):
    try:
        rules = meeple.Rules(players=players)
    except (ValueError, TypeError) as e:
        assert not 2 <= players <= 6
        assert f"players must be 2 to 6, got {players}" in str(e)
        return
    assert rules.players == players


def test_expansions_as_one_string():
    assert meeple.Rules(expansions="river2").expansions == ["river2"]
    assert meeple.Rules(expansions="river2,count").expansions == ["river2", "count"]
    with pytest.raises(ValueError, match="unknown expansion 'rivers'"):
        meeple.Rules(expansions="rivers")
    result = meeple.tournament(["greedy", "random"], games=2, expansions="river2", progress=False)
    assert len(result.games) == 2


@checked
@given(st.one_of(st.text(max_size=300), st.binary(max_size=300).map(lambda b: b.decode("latin-1")),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                              lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                              max_leaves=12).map(json.dumps)))
def test_any_text_replays_or_is_refused_with_a_message(text):
    try:
        meeple.replay(text)
    except ValueError as e:
        assert str(e)


def test_tournament_output_must_be_a_regular_file():
    with pytest.raises(ValueError, match="not a regular file"):
        meeple.tournament(["greedy", "random"], games=2, out="/dev/zero", progress=False)


def test_resuming_with_other_rules_or_bots_says_what_differs(tmp_path):
    out = str(tmp_path / "games.jsonl")
    meeple.tournament(["greedy", "random"], games=2, out=out, progress=False)
    with pytest.raises(ValueError, match=r"line 1 was played with rules .*\"players\": 2.* not this tournament's .*river2"):
        meeple.tournament(["greedy", "random"], games=2, expansions=["river2"], out=out, progress=False)
    with pytest.raises(ValueError, match=r"line 1 is a game of \['greedy', 'random'\], not of this tournament's bots \['greedy', 'heuristic'\]"):
        meeple.tournament(["greedy", "heuristic"], games=2, out=out, progress=False)
    again = meeple.tournament(["greedy", "random"], games=4, out=out, progress=False)  # more of the same: resumes
    assert len(again.games) == 4
    assert len(open(out).read().splitlines()) == 4
