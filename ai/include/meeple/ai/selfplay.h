// Labelled positions from self-play, for fitting evaluators (python -m meeple train writes them to
// compressed numpy chunks; docs/training.md describes the files).
//
// Every decision node of every finished game is a position: the evaluator features of every seat, the
// copies of each tile type still to come, and, per game, the final scores and ranks that label them.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "meeple/ai/match.h"

namespace meeple {

struct SelfPlayData {
  int players = 0;
  int tile_types = 0;  // TileCatalog size: columns of `remaining`
  // Per position, games one after the other, each game's positions in play order:
  std::vector<int32_t> game;       // index into the games given to generate_selfplay
  std::vector<int16_t> ply;        // decision number within the game, from 0
  std::vector<int8_t> to_move;     // seat deciding
  std::vector<float> features;     // players x kNumFeatures per position (seat-major)
  std::vector<uint8_t> remaining;  // tile_types per position
  // Per finished game, in the same order as their positions:
  std::vector<int32_t> finished;     // index into the games given
  std::vector<int16_t> final_scores;  // players per game
  std::vector<int8_t> ranks;          // players per game: 0 for the winners, 1 for the next score, ...

  size_t positions() const { return game.size(); }
  size_t games() const { return finished.size(); }
};

// Plays `games` (see stream_games: same seats, seeds and checks), `jobs` at a time, and returns the
// positions of the finished ones. Setting `stop` abandons the games in progress (they are left out, whole);
// `on_finished` is called after each finished game, one call at a time, with the number finished so far.
SelfPlayData generate_selfplay(const Rules& rules, const std::vector<GameSpec>& games, int jobs,
                               const std::atomic<bool>* stop = nullptr,
                               const std::function<void(int finished)>& on_finished = {});

// Decisions for training a policy network (policy.h) or a policy-value network (network.h) on search:
// self-play games whose seats are all mcts bots, and at every decision with two or more legal actions, the
// features of each legal action (extract_action_features) and its id in the board encoding with the visits
// the chooser's search gave it, and the evaluator features of every seat (for value targets); with
// `observations`, also the chooser's observation in the encoding (encoding.h), its planes kept sparse
// (about 400 of a 2-player position's 51,200 bytes are not zero).
struct PolicyData {
  int players = 0;
  // Per decision, games one after the other:
  std::vector<int32_t> game;           // index into the games given
  std::vector<int8_t> to_move;         // seat deciding
  std::vector<int16_t> in_hand;        // the tile type in hand (State::drawn_tile()), -1 for none
  std::vector<int32_t> first_action;   // its actions are rows first_action[i] .. first_action[i + 1] - 1
  std::vector<float> features;         // players x kNumFeatures per decision (seat-major)
  std::vector<float> leaf_points;      // players per decision: the shipped evaluator's leaf_points (absolute seats)
  // With observations: decision i's nonzero plane bytes are entries first_entry[i] .. first_entry[i + 1] - 1
  // (plane_index: offset in Encoding::observe's planes, plane_value: the byte), and its flat vector is
  // flat[i * flat_size ..]. Seat `to_move` observes, orientation 0.
  std::vector<int64_t> first_entry;
  std::vector<int32_t> plane_index;
  std::vector<uint8_t> plane_value;
  std::vector<float> flat;
  // Per action row:
  std::vector<float> action_features;  // kNumActionFeatures per row
  std::vector<int32_t> action_id;      // Encoding::id_of (orientation 0), -1 off the window
  std::vector<int32_t> visits;         // root visits of the search that chose
  std::vector<float> action_value;     // its mean reward for the chooser (0 if unvisited): search values as targets
  // Per finished game, in the order of the decisions:
  std::vector<int32_t> finished;
  std::vector<int16_t> final_scores;   // players per game

  size_t decisions() const { return game.size(); }
  size_t actions() const { return visits.size(); }
};

// Plays `games` as stream_games does (same seats, seeds and checks); every seat must be an mcts bot.
// first_action (and first_entry, with observations) has decisions() + 1 entries.
PolicyData generate_policy_data(const Rules& rules, const std::vector<GameSpec>& games, int jobs,
                                const std::atomic<bool>* stop = nullptr,
                                const std::function<void(int finished)>& on_finished = {},
                                bool observations = false);

}  // namespace meeple
