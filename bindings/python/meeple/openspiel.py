"""meeple in OpenSpiel: importing this module registers the game "meeple_carcassonne" with pyspiel.

    import pyspiel, meeple.openspiel
    game = pyspiel.load_game("meeple_carcassonne", {"players": 3, "expansions": "river2+king_robber",
                                                     "options": "small_city:two_points;count_move:clockwise"})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    same = pyspiel.load_game(str(game))   # meeple_carcassonne(expansions=river2+king_robber,...)

Parameters: players (2-6), expansions (names joined with "+", as in `meeple info`), options
("name:value;name:value", a set option's values joined with "+"). OpenSpiel's game strings separate
parameters with "," and "=", so the parameters use "+", ":" and ";" (meeple.environment.make_rules).

The tile draw is an explicit chance node: outcome t is tile type t of meeple.tile_ids(), with the
probabilities of the rules (the River's fixed order included). Player actions are the board encoding's ids
(meeple.Encoding, see meeple.environment), meeple.NUM_ACTION_IDS of them, legal ones read from its mask. The
game has perfect information; the observation and information-state tensors are both the encoding of the
seat's view as one float32 vector, the planes (as floats) then the flat vector (the position is a
sufficient statistic of the history; the information-state string is the action history, the observation
string spells out the position). Returns are zero-sum win utilities: 1 to a sole winner, -1 / (n - 1) to
each loser, shared wins in between.

Speed: state.observation_tensor(player) and state.information_state_tensor(player) called from Python return
a new float32 numpy array (OpenSpiel's own C++ path returns a list, one Python float per entry: some 50,000
of them, a millisecond a call); C++ callers (random_sim_test, C++ algorithms) go through the observer, whose
set_from writes into its tensor in place. Both are filled by Encoding.observe_into, in C++.

A board that outgrows the encoding's window. OpenSpiel has no truncation: a game goes on to its terminal
state, and every legal action must have an id. When the board grows past the window (never in 40,000 random
games of any expansion set; only play that stretches the board on purpose gets there), the tensors and the
legal actions of that state raise meeple.environment.BoardOutgrewWindow saying so, rather than crop the
board or drop legal moves. Ending the game there instead (a draw, or the scores so far) would change the
game: a player behind could stretch the board to end it. The state itself stays usable (strings, clone,
serialize, returns, meeple_state); catch the error and discard the episode.

state.serialize() is plain JSON (the action history) and game.deserialize_state(text) replays it, so
loading a string runs no code (OpenSpiel's default for Python games unpickles). Action ids and chance
outcomes are integers in range only: a negative outcome is not counted from the end.

`MeepleBot(spec)` plays any meeple bot as a pyspiel.Bot, and `python -m meeple.openspiel` plays OpenSpiel's
own MCTS against meeple bots (seats rotated over paired tile orders) and prints a table.
"""
from __future__ import annotations

import argparse
import json

import numpy as np
import pyspiel

from . import _meeple, files
from .checks import MAX_SEED, integer, number, shown
from .environment import BoardOutgrewWindow, SeatView, make_rules

GAME_NAME = "meeple_carcassonne"
SERIALIZED_FORMAT = "meeple-openspiel-history/1"  # CarcassonneState.serialize()
_DEFAULTS = {"players": 2, "expansions": "", "options": ""}
_TILES = _meeple.tile_ids()

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Carcassonne (meeple engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_meeple.MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS)


class CarcassonneGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        unknown = set(params) - set(_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown {GAME_NAME} parameters {sorted(unknown)}; they are {sorted(_DEFAULTS)}")
        rules = make_rules(params["players"], params["expansions"], params["options"])
        self.view = SeatView(rules)
        n = rules.players
        # A turn is at most: the abbey choice, the placement, a deploy, a Count deploy, a wagon move per
        # player and the Count's redeploys (one per follower); the deck has fewer than 134 tiles.
        turn = 4 + n + 7 * n
        super().__init__(_GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=_meeple.NUM_ACTION_IDS,
            max_chance_outcomes=len(_TILES),
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=134 * turn), params)

    def new_initial_state(self):
        return CarcassonneState(self, _meeple.State(self.view.rules))

    def deserialize_state(self, serialized):
        """The state of CarcassonneState.serialize()'s text: its action history, replayed from the start
        (every id checked as apply_action checks it). Only JSON is read, so loading a string runs nothing;
        anything else is a ValueError or TypeError naming what is wrong."""
        if not isinstance(serialized, str):
            raise TypeError(f"a serialized {GAME_NAME} state is a string, got {shown(serialized)}")
        data = files.loads(serialized, f"serialized {GAME_NAME} state")
        if not isinstance(data, dict) or data.get("format") != SERIALIZED_FORMAT or not isinstance(data.get("history"), list):
            raise ValueError(f"not a serialized {GAME_NAME} state: expected {{\"format\": \"{SERIALIZED_FORMAT}\", "
                             f"\"history\": [action ids]}}, got {shown(serialized)}")
        state = self.new_initial_state()
        for i, action in enumerate(data["history"]):
            if state.is_terminal():
                raise ValueError(f"serialized {GAME_NAME} state: history[{i}] comes after the end of the game")
            try:
                state.apply_action(integer("an action id", action, 0))
            except (TypeError, ValueError, _meeple.RulesError) as e:
                raise type(e)(f"serialized {GAME_NAME} state: history[{i}]: {e}") from None
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"{GAME_NAME} observers take no parameters, got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SeatObserver(self.view, perfect_recall)


class CarcassonneState(pyspiel.State):
    def __init__(self, game: CarcassonneGame, state):
        super().__init__(game)
        self.view = game.view
        self.meeple_state = state  # the meeple.State: what meeple's bots and functions take
        self._legal = None  # (mask, ids) of the current decision: OpenSpiel lists, checks, then applies

    def current_player(self):
        s = self.meeple_state
        if s.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if s.is_chance else s.current_player

    def legal(self) -> tuple[np.ndarray, list[int]]:
        """(mask bool [NUM_ACTION_IDS], ascending legal ids) of the current decision, computed once per
        position; BoardOutgrewWindow if a legal action has no id."""
        if self._legal is None:
            mask, outside = self.view.mask(self.meeple_state)
            if outside:
                raise BoardOutgrewWindow(f"{GAME_NAME}: {self.view.truncation(False, outside)} (see meeple.openspiel)")
            self._legal = mask, np.flatnonzero(mask).tolist()
        return self._legal

    def _legal_actions(self, player):
        return self.legal()[1]

    def chance_outcomes(self):
        return [(_TILE_INDEX[a.tile], p) for a, p in self.meeple_state.chance_outcomes()]

    def _apply_action(self, action):
        s = self.meeple_state
        if s.is_chance:
            # An outcome is a tile index: a negative one is an error, not Python's count from the end.
            s.apply(_meeple.Action.draw(_TILES[integer("chance outcome", action, 0, len(_TILES) - 1)]))
        else:
            s.apply(self.view.action(s, action, self.legal()[0]))  # its error, nothing changed, if not legal
        self._legal = None

    def observation_tensor(self, player=None):
        """The seat's observation as a new float32 numpy array (see the module's doc)."""
        out = np.empty(self.view.tensor_size, np.float32)
        write_tensor(self, player, out)
        return out

    information_state_tensor = observation_tensor

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw({_TILES[action]})" if 0 <= action < len(_TILES) else f"draw(#{action})"
        s = self.meeple_state
        # Ids name actions of one decision only: an id of another decision (logged after it was applied) is
        # shown as a number.
        legal = 0 <= action < self.view.num_actions and not s.is_chance and not s.is_terminal and self.legal()[0][action]
        return repr(self.view.encoding.action_of(s, action)) if legal else f"action id {action}"

    def is_terminal(self):
        return self.meeple_state.is_terminal

    def returns(self):
        return self.view.returns(self.meeple_state)

    def __str__(self):
        return position_text(self.meeple_state)

    def serialize(self):
        """The state as plain JSON text, {"format": ..., "history": [action ids]}, which
        CarcassonneGame.deserialize_state reads back. (OpenSpiel's own serialization of Python states
        pickles their attributes, and unpickling a string can run any code; this text is only data. C++
        callers such as pyspiel.deserialize_game_and_state still use OpenSpiel's: load only trusted text
        through them.)"""
        return json.dumps({"format": SERIALIZED_FORMAT, "history": [int(a) for a in self.history()]})

    def __deepcopy__(self, memo):
        # What OpenSpiel's clone() runs: the engine's state is copied (a few KiB), the view is shared.
        return CarcassonneState(self.get_game(), self.meeple_state.copy())


class SeatObserver:
    """OpenSpiel's observer of a seat: `tensor` (the encoding, as CarcassonneState.observation_tensor gives
    it), with named views into it in `dict` ("observation": the planes, "flat")."""

    def __init__(self, view: SeatView, perfect_recall: bool):
        self.view, self.perfect_recall = view, perfect_recall
        self.tensor = np.zeros(view.tensor_size, np.float32)
        self.dict = view.split(self.tensor)

    def set_from(self, state, player):
        write_tensor(state, player, self.tensor)

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.history_str()
        return f"seat {player}: {position_text(state.meeple_state)}"


def write_tensor(state: CarcassonneState, player, out: np.ndarray) -> None:
    """Seat `player`'s (None: the seat to move) encoding over `out`; BoardOutgrewWindow if the board
    outgrew the window."""
    n = state.view.players
    if player is None:
        s = state.meeple_state
        if s.is_chance or s.is_terminal:
            raise ValueError(f"{GAME_NAME}: no seat is to move at a {'chance' if s.is_chance else 'terminal'} node: "
                             "give the player whose tensor you want")
        player = s.current_player
    if not state.view.observe_into(state.meeple_state, integer("player", player, 0, n - 1), out):
        raise BoardOutgrewWindow(f"{GAME_NAME}: {state.view.truncation(False)} (see meeple.openspiel)")


_TILE_INDEX = {tile: i for i, tile in enumerate(_TILES)}


def position_text(s) -> str:
    """The position in words: whose decision, the tile in hand, every tile and figure, scores, Count,
    remaining tiles. Two positions with the same text allow the same play."""
    quarters, count = s.quarters()
    remaining = " ".join(f"{_TILES[t]}x{n}" for t, n in enumerate(s.remaining_tiles()) if n)
    return (f"{s.phase}, seat {s.current_player}, tile in hand {s.drawn_tile}; tiles {s.tiles()}; figures "
            f"{s.figures()}; scores {s.scores}; quarters {quarters}, Count {count}; to come {remaining}")

pyspiel.register_game(_GAME_TYPE, CarcassonneGame)


class MeepleBot(pyspiel.Bot):
    """A meeple bot (a spec as for meeple.make_player) playing in OpenSpiel. It searches afresh each
    decision (it is not told the moves in between)."""

    def __init__(self, spec: str, seed: int = 1):
        pyspiel.Bot.__init__(self)
        self.spec, self._player = spec, _meeple.make_player(spec, seed)

    def step(self, state):
        chosen = self._player.choose(state.meeple_state)
        action_id = _meeple.Encoding.id_of(state.meeple_state, chosen)
        if action_id < 0:
            raise BoardOutgrewWindow(f"{GAME_NAME}: {state.view.truncation(False, 1)} (see meeple.openspiel)")
        return action_id

    def restart_at(self, state):
        pass


def openspiel_mcts(game, simulations: int, rollouts: int = 1, seed: int = 1, uct_c: float = 2.0):
    """OpenSpiel's MCTSBot with random-rollout evaluation, its returns in [-1, 1] as the game gives them."""
    from open_spiel.python.algorithms import mcts

    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng)
    return mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=False, random_state=rng)


def play_game(game, bots, seed: int) -> list[int]:
    """One game, bots[p] at seat p, tiles dealt by meeple.Dealer(seed) (the tile order of meeple's own
    matches with that seed); returns the final scores."""
    state, dealer = game.new_initial_state(), _meeple.Dealer(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_TILE_INDEX[dealer.deal(state.meeple_state).tile])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.meeple_state.scores


def match(game, bots: dict, games: int, seed: int = 1, progress: bool = True) -> _meeple.Standings:
    """Plays `games` games between named bot factories (name -> function(seed) returning a pyspiel.Bot), one
    seat each, rotated over paired tile orders as meeple's tournaments (meeple.schedule). Returns the
    standings (rows(): games, wins with ties shared, win_rate, win_lo and win_hi (Wilson 95%), mean_score,
    mean_margin; table())."""
    names = list(bots)
    players = game.num_players()
    games = integer("games", games, 1)
    if games % players:
        raise ValueError(f"games must be a multiple of the players ({players}), so that every tile order is "
                         "played from every seat")
    standings = _meeple.Standings(names)
    plan = _meeple.schedule(len(names), games, players, seed)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game", desc="openspiel match")
    for g, (seats, game_seed) in enumerate(plan):
        seated = [bots[names[b]](_meeple.seat_seed(game_seed, p)) for p, b in enumerate(seats)]
        standings.add([names[b] for b in seats], play_game(game, seated, game_seed))
        if bar:
            bar.update(1)
    if bar:
        bar.close()
    return standings


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m meeple.openspiel",
                                     description="OpenSpiel's MCTS (random rollouts) against meeple bots, seats rotated "
                                                 "over paired tile orders.")
    parser.add_argument("--against", nargs="+", default=["greedy"],
                        help="meeple bot specs (default: greedy); repeat one to fill more seats")
    parser.add_argument("--simulations", type=number(1), default=100, help="OpenSpiel MCTS simulations per decision")
    parser.add_argument("--rollouts", type=number(1), default=1, help="random rollouts per OpenSpiel MCTS leaf")
    parser.add_argument("--games", type=number(1), default=4)
    parser.add_argument("--players", type=number(2, _meeple.MAX_PLAYERS), default=2)
    parser.add_argument("--expansions", default="", help="names joined with +, e.g. river2+king_robber")
    parser.add_argument("--seed", type=number(0, MAX_SEED), default=1)
    args = parser.parse_args(argv)
    if args.players > 1 + len(args.against):
        parser.error(f"--players {args.players} needs {args.players - 1} meeple bots in --against")
    try:
        game = pyspiel.load_game(GAME_NAME, {"players": args.players, "expansions": args.expansions})
        for spec in args.against:
            _meeple.make_player(spec, 0)
    except ValueError as e:
        parser.error(str(e))
    name = f"openspiel-mcts:sims={args.simulations},rollouts={args.rollouts}"
    bots = {name: lambda seed: openspiel_mcts(game, args.simulations, args.rollouts, seed)}
    for spec in args.against:
        name = spec if spec not in bots else f"{spec}#{sum(n.split('#')[0] == spec for n in bots) + 1}"
        bots[name] = lambda seed, spec=spec: MeepleBot(spec, seed)
    try:
        standings = match(game, bots, args.games, args.seed)
    except ValueError as e:
        parser.error(str(e))
    print(f"{args.games} games, {args.players} players, expansions: {args.expansions or 'none'}")
    print(standings.table(), end="")


if __name__ == "__main__":
    main()
