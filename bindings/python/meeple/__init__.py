"""meeple: a Carcassonne engine, bots and tournaments for AI research.

    import meeple
    state = meeple.State(meeple.Rules(players=2, expansions=["river2"]))
    dealer, bot = meeple.Dealer(seed=1), meeple.make_player("mcts:iterations=500", seed=1)
    while not state.is_terminal:
        action = dealer.deal(state) if state.is_chance else bot.choose(state)
        state.apply(action)
    print(state.scores)

Training evaluators from self-play: meeple.training (python -m meeple train). Policy networks for guided
search, trained on MCTS visit counts: meeple.policy (python -m meeple train-policy).
"""

from ._meeple import (
    ACTION_FEATURE_NAMES,
    ACTION_ID_BLOCKS,
    ENCODING_VERSION,
    NUM_ACTION_IDS,
    WINDOW,
    Encoding,
    FEATURE_NAMES,
    EXPANSION_NAMES,
    MAX_PLAYERS,
    OPTION_NAMES,
    PHASES,
    SCORE_CATEGORIES,
    Action,
    Dealer,
    Evaluator,
    FittedEvaluator,
    LinearEvaluator,
    MlpEvaluator,
    Player,
    PolicyNet,
    PolicyValueNet,
    RecordBuilder,
    Rules,
    RulesError,
    Standings,
    State,
    Table,
    TrainedEvaluator,
    __version__,
    action_features,
    action_json,
    generate_policy_data,
    generate_selfplay,
    leaf_points,
    load_network,
    make_evaluator,
    make_player,
    play_games,
    play_seated,
    random_network_json,
    replay,
    schedule,
    seat_seed,
    tile_geometry,
    tile_ids,
    win_shares,
    wilson,
)

from .environment import as_rules, make_rules
from .render import position_of_record, render_svg
from .sprt import SprtResult, sprt
from .tournament import TournamentResult, tournament
from .viewer import viewer_html, write_viewer

__all__ = [
    "ACTION_ID_BLOCKS", "ENCODING_VERSION", "NUM_ACTION_IDS", "WINDOW", "Encoding",
    "ACTION_FEATURE_NAMES", "PolicyNet", "PolicyValueNet", "leaf_points", "load_network", "random_network_json", "action_features", "action_json", "generate_policy_data",
    "FEATURE_NAMES", "MAX_PLAYERS", "PHASES", "SCORE_CATEGORIES", "Action", "Dealer", "Evaluator", "FittedEvaluator",
    "LinearEvaluator", "MlpEvaluator", "Player", "TrainedEvaluator",
    "RecordBuilder", "Rules", "RulesError", "Standings", "State", "Table", "as_rules", "make_rules", "EXPANSION_NAMES", "OPTION_NAMES",
    "generate_selfplay", "make_evaluator", "make_player", "play_games", "play_seated", "seat_seed", "replay",
    "position_of_record", "render_svg", "sprt", "SprtResult", "tile_geometry", "tile_ids", "tournament",
    "TournamentResult", "wilson", "win_shares", "schedule", "__version__",
]
