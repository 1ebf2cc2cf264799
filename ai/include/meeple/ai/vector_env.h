// Many games stepped together for learners: the engine side of meeple.vector.VectorEnv. Each step applies
// one action id per game, lets the dealer and the opponent bots play until the learner must decide again,
// and writes every game's observation (the board encoding), legal-action mask, reward and flags into arrays
// the caller owns, the games spread over oneTBB threads.
//
// Two modes. Against opponents: in game i the learner sits at one seat (it moves round the table from one
// episode to the next, so every seat is learned) and bots built from opponents[i] play the others.
// Self-play (no opponents): the caller acts for whichever seat is to move; to_play says which.
// Episodes restart as Gymnasium's vector environments do by default ("next step"): the step after the one
// that ended game i starts a new game there, ignoring that step's action for it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meeple/ai/encoding.h"
#include "meeple/ai/player.h"

namespace meeple {

// Rows of the caller's arrays, game i at row i: planes [n][Encoding::plane_size()], flat [n][flat_size()],
// mask [n][num_action_ids()], reward, terminated, truncated, to_play [n], returns [n][players].
struct VectorEnvArrays {
  uint8_t* planes;
  float* flat;
  uint8_t* mask;
  float* reward;
  uint8_t* terminated;
  uint8_t* truncated;
  int32_t* to_play;
  float* returns;
};

class VectorEnv {
 public:
  // `opponents`: empty for self-play, else one bot spec for every game or one per game. Throws
  // std::invalid_argument for a bad count, spec or rules (before anything is played).
  VectorEnv(const Rules& rules, int num_envs, std::vector<std::string> opponents, uint64_t seed, int threads);
  ~VectorEnv();
  VectorEnv(const VectorEnv&) = delete;
  VectorEnv& operator=(const VectorEnv&) = delete;

  int num_envs() const { return static_cast<int>(games_.size()); }
  bool self_play() const { return opponents_.empty(); }
  const Encoding& encoding() const { return encoding_; }
  const Rules& rules() const { return rules_; }

  // Starts a new game everywhere (episode numbering restarts from `seed`).
  void reset(uint64_t seed, const VectorEnvArrays& out);
  // One action id per game. Every id is checked before any game moves: an id that is not legal in game i
  // throws std::invalid_argument naming i, the id and what is legal, and no game changes. Ids of games
  // that ended at the previous step are ignored (those games restart).
  void step(const int64_t* actions, const VectorEnvArrays& out);

  // Game i's position (for rendering and tests).
  const State& state(int i) const;

  // The reward a seat gets when a game ends: n / (n - 1) * its share of the win - 1 / (n - 1) (1 to a sole
  // winner, -1 / (n - 1) to each loser; zero-sum).
  static void win_utilities(const State& final_state, float* out);

 private:
  struct Game;
  void start(int i, const VectorEnvArrays& out);
  void advance_and_write(int i, int acted, const VectorEnvArrays& out);
  template <typename Work>
  void for_each_game(Work&& work);

  Rules rules_;
  Encoding encoding_;
  std::vector<std::string> opponents_;
  int threads_;
  uint64_t seed_ = 0;
  std::vector<std::unique_ptr<Game>> games_;
};

}  // namespace meeple
