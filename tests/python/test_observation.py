"""Observations for learning: board planes and the action encoding with its legal mask."""
import random

import numpy as np
import pytest

import meeple

ALL = ["river2", "count", "king_robber", "cult_places", "abbey_mayor"]


def test_planes_of_the_start_position():
    state = meeple.State(meeple.Rules(players=2))
    state.apply(meeple.Action.draw("BA.C"))
    planes = meeple.board_planes(state, size=7)
    assert planes.shape == (18 + 2, 7, 7) and planes.dtype == np.float32
    assert planes[0].sum() == 1 and planes[0, 3, 3] == 1  # the start tile in the middle
    assert planes[1, 3, 3] == 1 and planes[5 + 1, 3, 3] == 1 and planes[5 + 3, 3, 3] == 1  # city N, road E-W
    assert planes[15].sum() == 4  # four empty cells around it
    assert planes[16, 2, 3] == planes[16, 4, 3] == 1 and planes[16].sum() == 2  # the city cap fits north and south
    assert planes[17].sum() == 1 and planes[17, 3, 3] == 1  # the last tile placed: the start tile
    with pytest.raises(ValueError, match="window size"):
        meeple.board_planes(state, size=1)


@pytest.mark.parametrize("expansions,players", [([], 2), (ALL, 4)])
def test_every_legal_action_has_its_own_index(expansions, players):
    state, dealer, rng = meeple.State(meeple.Rules(players=players, expansions=expansions)), meeple.Dealer(2), random.Random(2)
    size = 41
    while not state.is_terminal:
        if state.is_chance:
            state.apply(dealer.deal(state))
            continue
        mask, by_index = meeple.legal_action_mask(state, size)
        legal = state.legal_actions()
        assert mask.shape == (meeple.action_space_size(size),)
        assert mask.sum() == len(legal) == len(by_index)
        for action in legal:
            index = meeple.encode_action(state, action, size)
            assert mask[index] and by_index[index] == action
        planes = meeple.board_planes(state, size)
        assert planes[0].sum() == state.num_tiles
        assert planes[18:].sum() == len(state.figures())
        state.apply(rng.choice(legal))
