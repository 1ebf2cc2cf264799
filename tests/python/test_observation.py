"""The board encoding from Python (meeple.Encoding, ai/encoding.h): over random games of several expansion sets
and player counts, legal actions and the ids of the mask map one to one; the observation says what the state
says; turning the board turns observations, masks and ids alike; a board that outgrows the window is
reported; bad arguments are named."""
import random
from pathlib import Path

import numpy as np
import pytest

import meeple
from meeple.__main__ import main

ROOT = Path(__file__).parents[2]

ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]
SETS = [(2, []), (3, ["river2", "king_robber"]), (4, ["count", "cult_places"]), (2, ["abbey_mayor"]), (5, ALL), (6, ALL)]
IDS = meeple.NUM_ACTION_IDS


def decisions(rules, games, seed):
    """Every decision node of `games` random games."""
    rng = random.Random(seed)
    for g in range(games):
        state, dealer = meeple.State(rules), meeple.Dealer(seed * 100 + g)
        while not state.is_terminal:
            if state.is_chance:
                state.apply(dealer.deal(state))
                continue
            yield state
            state.apply(rng.choice(state.legal_actions()))


def field(encoding, name):
    """Index of a flat field by its name (Encoding.flat_fields)."""
    return [n for n, _ in encoding.flat_fields()].index(name)


def plane(encoding, name):
    return [n for n, _ in encoding.plane_channels()].index(name)


def cell(state, x, y):
    """The window cell (row, column) of board cell (x, y): where a placement there would have its id."""
    place = meeple.Encoding.id_of(state, meeple.Action.place(x, y, 0))
    assert place >= 1, (x, y)
    return divmod((place - meeple.ACTION_ID_BLOCKS["place"]) // 4, meeple.WINDOW)


@pytest.mark.parametrize("players,expansions", SETS)
def test_every_legal_action_has_one_id_that_names_it_and_the_mask_has_exactly_those(players, expansions):
    rules = meeple.Rules(players=players, expansions=expansions)
    encoding, checked = meeple.Encoding(players), 0
    for state in decisions(rules, games=3, seed=players):
        legal = state.legal_actions()
        ids = [meeple.Encoding.id_of(state, a) for a in legal]
        assert all(0 <= i < IDS for i in ids), (state.phase, legal, ids)
        assert len(set(ids)) == len(ids), "two legal actions share an id"
        assert [meeple.Encoding.action_of(state, i) for i in ids] == legal
        mask = encoding.legal_mask(state)
        assert mask.dtype == np.bool_ and mask.shape == (IDS,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
        into = np.zeros(IDS, np.int8)
        assert encoding.legal_mask_into(state, into) == 0 and np.array_equal(into.astype(bool), mask)
        checked += 1
    assert checked > 3 * 60


def test_ids_of_other_decisions_are_not_legal_here():
    """An id names a legal action only where the mask says so: every other id either names nothing here or
    an action State.is_legal refuses (what the environments check)."""
    rules = meeple.Rules(players=2, expansions=["abbey_mayor", "count"])
    rng = np.random.default_rng(3)
    for n, state in enumerate(decisions(rules, games=1, seed=9)):
        if n % 7:
            continue
        mask = meeple.Encoding(2).legal_mask(state)
        for i in rng.choice(np.flatnonzero(~mask), 200, replace=False):
            a = meeple.Encoding.action_of(state, int(i))
            assert a is None or not state.is_legal(a) or meeple.Encoding.id_of(state, a) != i, (int(i), a)


@pytest.mark.parametrize("players,expansions", [(3, ["abbey_mayor", "count"]), (2, ALL)])
def test_the_observation_says_what_the_state_says(players, expansions):
    rules = meeple.Rules(players=players, expansions=expansions)
    e = meeple.Encoding(players)
    tile_ids = meeple.tile_ids()
    special_bit = {"mayor": 1, "wagon": 2, "barn": 4}
    for n, state in enumerate(decisions(rules, games=2, seed=4)):
        if n % 3:
            continue
        seat = n % players
        planes, flat, fits = e.observe(state, seat)
        assert fits and planes.shape == e.plane_shape == (e.num_planes, meeple.WINDOW, meeple.WINDOW)
        assert planes.dtype == np.uint8 and flat.dtype == np.float32 and flat.shape == (e.flat_size,)
        rel = [(seat + k) % players for k in range(players)]  # seat channels from the observer round the table
        for tile, x, y, _ in state.tiles():
            r, c = cell(state, x, y)
            assert planes[plane(e, "tile"), r, c] + planes[plane(e, "abbey"), r, c] == 1, (tile, x, y)
        assert planes[plane(e, "tile")].sum() + planes[plane(e, "abbey")].sum() == state.num_tiles
        last, x, y, rotation = state.tiles()[-1]
        if flat[field(e, "placed." + last)]:  # the tile placed this turn (none yet at a turn's start)
            assert planes[plane(e, "last_placed"), cell(state, x, y)[0], cell(state, x, y)[1]] == 1
        for k, p in enumerate(rel):
            on_board = [f for f in state.figures() if f[0] == p]
            followers = np.zeros((meeple.WINDOW, meeple.WINDOW), int)
            special = np.zeros((meeple.WINDOW, meeple.WINDOW), int)
            for _, kind, fx, fy, _ in on_board:
                r, c = cell(state, fx, fy)
                if kind == "follower":
                    followers[r, c] += 1
                else:
                    special[r, c] |= special_bit[kind]
            assert np.array_equal(planes[plane(e, f"seat{k}_followers")], followers), (seat, k)
            assert np.array_equal(planes[plane(e, f"seat{k}_special")], special), (seat, k)
            assert flat[field(e, f"score.{k}")] == state.scores[p]
        in_hand = np.zeros(len(tile_ids))
        if state.drawn_tile is not None:
            in_hand[tile_ids.index(state.drawn_tile)] = 1
        assert np.array_equal(flat[[field(e, "in_hand." + t) for t in tile_ids]], in_hand)
        assert np.array_equal(flat[[field(e, "remaining." + t) for t in tile_ids]], state.remaining_tiles())
        assert flat[field(e, "tiles_left")] == state.tiles_left
        assert flat[field(e, "phase." + state.phase)] == 1 and flat[e.flat_layout["phase"]:e.flat_layout["acting"]].sum() == 1
        acting = flat[e.flat_layout["acting"]:e.flat_layout["acting"] + players]
        assert acting.tolist() == [1.0 if p == state.current_player else 0.0 for p in rel]
        for x in ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]:
            assert flat[field(e, "expansion." + x)] == (x in expansions)
        assert flat[field(e, "outside_window")] == 0
        # Where the tile in hand fits: the planes of the placements' rotations at their cells.
        for a in state.legal_actions():
            if a.kind == "place":
                i = meeple.Encoding.id_of(state, a) - meeple.ACTION_ID_BLOCKS["place"]
                r, c = divmod(i // 4, meeple.WINDOW)
                assert planes[plane(e, f"fits_{90 * (i % 4)}"), r, c] == 1 and planes[plane(e, "frontier"), r, c] == 1
        # observe_into: the same, as one float vector
        out = np.full(e.tensor_size, np.nan, np.float32)
        assert e.observe_into(state, seat, out)
        assert np.array_equal(out[:planes.size], planes.ravel().astype(np.float32)) and np.array_equal(out[planes.size:], flat)


@pytest.mark.parametrize("players,expansions", [(2, ["river2", "abbey_mayor"]), (4, ALL)])
def test_turning_the_board_turns_observations_masks_and_ids_alike(players, expansions):
    rules = meeple.Rules(players=players, expansions=expansions)
    e, checked = meeple.Encoding(players), 0
    for n, state in enumerate(decisions(rules, games=2, seed=6)):
        if n % 4:
            continue
        seat = n % players
        planes, flat, _ = e.observe(state, seat)
        mask = e.legal_mask(state)
        ids = np.flatnonzero(mask)
        for k in range(4):
            turned_planes, turned_flat, fits = e.observe(state, seat, turns=k)
            assert fits
            assert np.array_equal(e.rotate_planes(planes, k), turned_planes), (state.phase, k)
            assert np.array_equal(e.rotate_flat(flat, k), turned_flat), (state.phase, k)
            turned_ids = [meeple.Encoding.rotate_id(int(i), k, state.drawn_tile) for i in ids]
            assert sorted(turned_ids) == np.flatnonzero(e.legal_mask(state, turns=k)).tolist(), (state.phase, k)
            for i, t in zip(ids, turned_ids):  # the same action, by either id
                assert meeple.Encoding.action_of(state, t, turns=k) == meeple.Encoding.action_of(state, int(i))
        assert np.array_equal(e.rotate_planes(e.rotate_planes(planes, 1), 3), planes)
        checked += 1
    assert checked > 30


def stretched_east(seed=5):
    """A 2-player game whose every placement takes the easternmost legal cell, up to the first decision
    whose board outgrew the window: (state, decisions before it)."""
    state, dealer, rng = meeple.State(meeple.Rules()), meeple.Dealer(seed), random.Random(seed)
    e, seen = meeple.Encoding(2), 0
    while not state.is_terminal:
        if state.is_chance:
            state.apply(dealer.deal(state))
            continue
        if not e.observe(state, 0)[2]:
            return state, seen
        seen += 1
        legal = state.legal_actions()
        places = [a for a in legal if a.kind == "place"]
        state.apply(max(places, key=lambda a: a.x) if places else rng.choice(legal))
    pytest.fail("the stretched game never left the window, so this tested nothing")


def test_a_board_that_outgrew_the_window_is_reported_not_cropped_silently():
    state, seen = stretched_east()
    assert seen > 30
    e = meeple.Encoding(2)
    planes, flat, fits = e.observe(state, 1)
    assert not fits and flat[field(e, "outside_window")] == 1
    assert not e.observe_into(state, 1, np.zeros(e.tensor_size, np.float32))
    # Play on (still east) to a placement with cells beyond the window: those have no id and are counted.
    dealer, outside = meeple.Dealer(1), 0
    while not outside and not state.is_terminal:
        if state.is_chance:
            state.apply(dealer.deal(state))
            continue
        legal = state.legal_actions()
        mask = np.zeros(IDS, np.uint8)
        outside = e.legal_mask_into(state, mask)
        assert outside == sum(meeple.Encoding.id_of(state, a) < 0 for a in legal)
        assert mask.sum() + outside == len(legal)
        places = [a for a in legal if a.kind == "place"]
        state.apply(max(places, key=lambda a: a.x) if places else legal[0])
    assert outside > 0


# ---- bad arguments: a TypeError or ValueError naming what is wrong, nothing written ----

def a_decision(players=2):
    state, dealer = meeple.State(meeple.Rules(players=players)), meeple.Dealer(1)
    while state.is_chance:
        state.apply(dealer.deal(state))
    return state


def test_bad_arguments_are_named():
    e, state = meeple.Encoding(2), a_decision()
    planes, flat, _ = e.observe(state, 0)
    for players in [1, 7, 0, -1]:
        with pytest.raises(ValueError, match=f"2 to 6 players, got {players}|argument 'players' is out of range"):
            meeple.Encoding(players)
    for call, name in [(lambda v: e.observe(v, 0), "state"), (lambda v: e.observe(state, v), "seat"),
                       (lambda v: e.observe(state, 0, turns=v), "turns"), (lambda v: e.legal_mask(v), "state"),
                       (lambda v: meeple.Encoding.id_of(state, v), "action"), (lambda v: meeple.Encoding.action_of(state, v), "id"),
                       (lambda v: e.rotate_planes(planes, v), "turns"), (lambda v: meeple.Encoding.rotate_id(1, 1, v), "in_hand"),
                       (lambda v: e.observe_into(state, v, np.zeros(e.tensor_size, np.float32)), "seat")]:
        for wrong in [None, "0", 1.0, [0], object()]:
            if name == "in_hand" and wrong in (None, "0"):
                continue  # None is "no tile in hand"; "0" is a string: its error is the next test's
            with pytest.raises(TypeError, match=name):
                call(wrong)
    # Values out of range
    for seat in [-1, 2, 5]:
        with pytest.raises(ValueError, match=f"seat must be 0 to 1, got {seat}|argument 'seat' is out of range"):
            e.observe(state, seat)
        with pytest.raises(ValueError, match=f"seat must be 0 to 1, got {seat}|argument 'seat' is out of range"):
            e.observe_into(state, seat, np.zeros(e.tensor_size, np.float32))
    for turns in [4, 5, -1, 100]:
        for call in [lambda: e.observe(state, 0, turns=turns), lambda: e.legal_mask(state, turns=turns),
                     lambda: e.rotate_planes(planes, turns), lambda: e.rotate_flat(flat, turns),
                     lambda: meeple.Encoding.rotate_id(1, turns, None), lambda: meeple.Encoding.id_of(state, state.legal_actions()[0], turns),
                     lambda: meeple.Encoding.action_of(state, 1, turns)]:
            with pytest.raises(ValueError, match=f"turns must be 0 to 3 quarter turns, got {turns}|argument 'turns' is out of range"):
                call()
    for i in [-1, IDS, IDS + 5]:
        with pytest.raises(ValueError, match=f"id must be 0 to {IDS - 1}, got {i}|argument 'id' is out of range"):
            meeple.Encoding.rotate_id(i, 1, None)
        assert meeple.Encoding.action_of(state, max(i, IDS)) is None  # names nothing: not an action, not Python's -1
    with pytest.raises(ValueError, match="in_hand: no tile 'XX.nope'"):
        meeple.Encoding.rotate_id(1, 1, "XX.nope")
    # A state of another player count
    with pytest.raises(ValueError, match="a state of 3 players given to an encoding for 2"):
        e.observe(a_decision(3), 0)
    with pytest.raises(ValueError, match="a state of 3 players given to an encoding for 2"):
        e.observe_into(a_decision(3), 0, np.zeros(e.tensor_size, np.float32))


def test_arrays_of_the_wrong_shape_or_dtype_are_named_and_left_alone():
    e, state = meeple.Encoding(2), a_decision()
    planes, flat, _ = e.observe(state, 0)
    n = e.tensor_size
    cases = [  # (call with the array, the name in the message, the array)
        *[(lambda a: e.observe_into(state, 0, a), "tensor", a) for a in [
            np.zeros(n, np.float64), np.zeros(n, np.float16), np.zeros(n, np.int32), np.zeros(n - 1, np.float32),
            np.zeros(n + 1, np.float32), np.zeros((1, n), np.float32), np.zeros((n, 1), np.float32),
            np.zeros(2 * n, np.float32)[::2], np.zeros(0, np.float32), np.zeros(n, np.float32).reshape(1, n).T.ravel()[:n - 1]]],
        *[(lambda a: e.legal_mask_into(state, a), "mask", a) for a in [
            np.zeros(IDS, np.float32), np.zeros(IDS, np.int16), np.zeros(IDS - 1, np.bool_), np.zeros((IDS, 1), np.uint8),
            np.zeros(2 * IDS, np.int8)[::2], np.zeros(0, np.bool_)]],
        *[(lambda a: e.rotate_planes(a, 1), "planes", a) for a in [
            planes.astype(np.float32), planes.astype(np.int8), planes[:-1], planes[None], planes.reshape(-1),
            np.asfortranarray(planes)]],
        *[(lambda a: e.rotate_flat(a, 1), "flat", a) for a in [flat.astype(np.float64), flat[:-1], flat[None], flat.astype(np.int32)]],
    ]
    for call, name, array in cases:
        before = array.copy()
        with pytest.raises((TypeError, ValueError), match=f"{name} must"):
            call(array)
        assert np.array_equal(array, before, equal_nan=array.dtype.kind == "f"), name
    for call, name in [(lambda a: e.observe_into(state, 0, a), "tensor"), (lambda a: e.legal_mask_into(state, a), "mask"),
                       (lambda a: e.rotate_planes(a, 1), "planes"), (lambda a: e.rotate_flat(a, 1), "flat")]:
        for wrong in [None, [0.0] * 10, "x", 3]:
            with pytest.raises(TypeError, match=name):
                call(wrong)
    read_only = np.zeros(n, np.float32)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="tensor must be a writeable C-contiguous array"):
        e.observe_into(state, 0, read_only)
    assert not read_only.any()


def test_tables_name_every_plane_and_flat_field():
    for players in range(2, 7):
        e = meeple.Encoding(players)
        planes, fields = e.plane_channels(), e.flat_fields()
        assert len(planes) == e.num_planes and len(fields) == e.flat_size
        assert len({n for n, _ in planes}) == len(planes) and len({n for n, _ in fields}) == len(fields)
        assert all(name and what for name, what in planes + fields)
        assert e.tensor_size == e.num_planes * meeple.WINDOW ** 2 + e.flat_size


def markdown_tables(text):
    """The Markdown tables of a text, each as its lines."""
    tables, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    return tables


def test_the_docs_hold_exactly_the_generated_tables(capsys):
    """docs/environments.md's tables of planes, flat fields and action ids are what `python -m meeple encoding
    --markdown` prints from the code (for 2 players): regenerate them when the encoding changes."""
    assert main(["encoding", "--markdown"]) == 0
    generated = markdown_tables(capsys.readouterr().out)
    assert [t[0] for t in generated] == ["| plane | name | what |", "| flat index | count | name | what |",
                                         "| ids | count | block | id | what |"]
    docs = markdown_tables((ROOT / "docs/environments.md").read_text())
    for table in generated:
        same_head = [t for t in docs if t[0] == table[0]]
        assert same_head == [table], f"docs/environments.md: the table '{table[0]}' is not the generated one"
    # The generated rows cover every plane, flat field and id, whatever the players.
    for players in (2, 3, 6):
        assert main(["encoding", "--markdown", "--players", str(players)]) == 0
        planes, flat, ids = markdown_tables(capsys.readouterr().out)
        e = meeple.Encoding(players)
        assert len(planes) - 2 == e.num_planes
        assert sum(int(row.split("|")[2]) for row in flat[2:]) == e.flat_size
        assert sum(int(row.split("|")[2]) for row in ids[2:]) == IDS
    assert main(["encoding"]) == 0 and "action ids (7525):" in capsys.readouterr().out
    for argv in (["encoding", "--players", "7"], ["encoding", "--players", "x"], ["encoding", "extra"]):
        with pytest.raises(SystemExit) as caught:
            main(argv)
        assert caught.value.code == 2 and "error:" in capsys.readouterr().err
