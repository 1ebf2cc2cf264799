// The bot factory: every built-in bot from its spec "name[:key=value,...]", and the help listing them.
//
// The factory sits above the bots (it includes each of them); the bots include only player.h. Each bot's
// parameters are one table in ai/src/bots.cpp (key, values, default, meaning), from which the parser,
// bot_spec_help() and bot_parameters_help() all come: a new parameter is one row.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "meeple/ai/player.h"

namespace meeple {

// A bot from its spec: "random", "greedy", "heuristic[:eval=E]", "mcts[:key=value,...]" or
// "expectimax[:key=value,...]" (every key in bot_parameters_help() and ai/README.md). Throws
// std::invalid_argument naming the bot or parameter at fault and the valid ones.
std::unique_ptr<Player> make_player(const std::string& spec, uint64_t seed);

// One line: "bots are: random, greedy, heuristic[:eval=...], mcts[:iterations=N,...], ...", each bot
// with the syntax of its parameters. What a refused spec and the --bots help of the command lines show.
std::string bot_spec_help();

// A line per bot (what it does) and per parameter (its values, default and meaning).
std::string bot_parameters_help();

// What this build knows, as `meeple info` and `python -m meeple info` both print it: the version, the
// record format, the expansions, the options (values, default, expansion, note), the tile sets, the bots
// with their parameters (key, values, default, meaning), the evaluator features and score categories.
std::string info_json();  // indented JSON
std::string info_text();  // the same for a person

}  // namespace meeple
