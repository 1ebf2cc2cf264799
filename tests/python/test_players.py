"""Bots from Python: the C++ players, Python-defined players, evaluators, and batch play in C++ threads."""
import json
import random
import threading
import time

import pytest

import meeple


class FirstLegal(meeple.Player):
    """A Python bot: always the first legal action."""

    def __init__(self):
        super().__init__()
        self.seen = 0

    def choose(self, state):
        return state.legal_actions()[0]

    def observe(self, action):
        self.seen += 1


def play(rules, seats, seed):
    state, dealer = meeple.State(rules), meeple.Dealer(seed)
    while not state.is_terminal:
        action = dealer.deal(state) if state.is_chance else seats[state.current_player].choose(state)
        state.apply(action)
        for seat in seats:
            seat.observe(action)
    return state


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", "mcts:iterations=30", "mcts:iterations=30,threads=2",
                                  "expectimax:depth=1", "expectimax:depth=2,evals=3000"])
def test_cpp_and_python_bots_play_whole_games(spec):
    rules = meeple.Rules(players=3, expansions=["river2", "king_robber", "abbey_mayor"])
    python_bot = FirstLegal()
    final = play(rules, [meeple.make_player(spec, seed=1), python_bot, meeple.make_player("random", seed=2)], seed=4)
    assert final.is_terminal and python_bot.seen > 70


def test_bad_bot_specs_and_states_raise_value_error():
    with pytest.raises(ValueError, match="unknown bot 'alphazero'; bots are: random, greedy, heuristic"):
        meeple.make_player("alphazero")
    with pytest.raises(ValueError, match="unknown parameter 'depth' of bot mcts"):
        meeple.make_player("mcts:depth=2")
    with pytest.raises(ValueError, match="bot expectimax: bad value '9' for depth: must be 1 to 8"):
        meeple.make_player("expectimax:depth=9")
    with pytest.raises(ValueError, match="chance node"):
        meeple.make_player("greedy").choose(meeple.State(meeple.Rules()))


def test_mcts_completes_the_city_from_python():
    state = meeple.State(meeple.Rules())
    state.apply(meeple.Action.draw("BA.C"))
    bot = meeple.make_player("mcts:iterations=2000", seed=3)
    place = bot.choose(state)
    assert (place.x, place.y, place.rotation) == (0, -1, 180)


def test_evaluators():
    state = meeple.State(meeple.Rules(players=2))
    assert meeple.make_evaluator("endnow").evaluate(state) == [0, 0]
    for spec in ("trained", "handtuned"):
        values = meeple.make_evaluator(spec).evaluate(state)
        assert len(values) == 2 and values[0] == pytest.approx(values[1])
    with pytest.raises(ValueError, match="cannot read evaluator weights"):
        meeple.make_evaluator("missing.json")


def test_search_releases_the_gil():
    """While one thread searches in C++, Python code in another thread keeps running."""
    state = meeple.State(meeple.Rules())
    state.apply(meeple.Action.draw("BA.RFr"))
    bot = meeple.make_player("mcts:ms=400", seed=1)
    ticks = []
    worker = threading.Thread(target=lambda: bot.choose(state))
    worker.start()
    start = time.monotonic()
    while worker.is_alive():
        ticks.append(time.monotonic() - start)
        time.sleep(0.01)
    assert len(ticks) >= 10


def test_play_games_in_cpp_threads_matches_one_at_a_time():
    rules = meeple.Rules(players=2, expansions=["river2"])
    games = [(["greedy", "mcts:iterations=20"], seed) for seed in range(6)]
    parallel = meeple.play_games(rules, games, jobs=2, records=True)
    serial = meeple.play_games(rules, games, jobs=1, records=True)
    assert parallel == serial
    for (scores, record), _ in zip(parallel, games):
        assert meeple.replay(record).scores == scores
    with pytest.raises(ValueError, match="one bot per seat"):
        meeple.play_games(rules, [(["greedy"], 1)])


def test_a_table_plays_its_bots_and_takes_the_callers_checked_decisions():
    rules = meeple.Rules("players=3 expansions=abbey_mayor")
    table = meeple.Table(rules, [meeple.make_player("greedy", 1), None, meeple.make_player("random", 2)],
                         ["greedy", "you", "random"], 5)
    log = table.advance(log=True)
    assert log and all(isinstance(before, meeple.State) and isinstance(a, meeple.Action) for before, a in log)
    assert log[0][0].is_chance  # the first tile's draw, then the bots until seat 1 decides
    with pytest.raises(RuntimeError, match="the game is not over"):
        table.record_line()
    decisions = 0
    while not table.state.is_terminal:
        state = table.state
        assert state.current_player == 1
        with pytest.raises(meeple.RulesError, match="you at seat 1 chose"):
            table.act(meeple.Action.place(60, 60, 0) if state.phase != "place" else meeple.Action.pass_())
        assert table.state == state  # refused, nothing changed
        table.act(state.legal_actions()[-1])
        decisions += 1
        table.advance()
    assert decisions > 20
    record = json.loads(table.record_line())
    assert record["result"]["scores"] == table.state.scores
    with pytest.raises(RuntimeError, match="the game is over"):
        table.act(meeple.Action.pass_())


def test_a_table_refuses_a_second_thread_and_a_missing_seat():
    rules = meeple.Rules("players=2")
    with pytest.raises(ValueError, match="one name per player"):
        meeple.Table(rules, [None, None], ["you"], 1)
    with pytest.raises(ValueError, match="the rules seat 2 players"):
        meeple.Table(rules, [None], ["you"], 1)

    class Slow(meeple.Player):
        def choose(self, state):
            entered.set()
            release.wait(10)
            return state.legal_actions()[0]

    entered, release = threading.Event(), threading.Event()
    table = meeple.Table(rules, [Slow(), None], ["slow", "you"], 3)
    worker = threading.Thread(target=table.advance)
    worker.start()
    assert entered.wait(10)
    try:
        with pytest.raises(RuntimeError, match="is in use"):
            table.advance()
    finally:
        release.set()
        worker.join(10)
    assert table.state.current_player == 1
