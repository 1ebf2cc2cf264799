// Games between bots: one game, or many at once on oneTBB, and the statistics of a match. `meeple match`,
// `meeple selfplay` and the Python tournaments all play, rotate seats and count wins through here.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "meeple/random.h"
#include "meeple/record.h"
#include "meeple/state.h"

namespace meeple {

// One game to play: the bot spec of each seat, and the seed of the tile order (games with the same seed
// and seats swapped are paired: the same tiles come in the same order).
struct GameSpec {
  std::vector<std::string> bots;
  uint64_t seed = 0;
};

class Player;

// The seed of the bot in `seat` of the game with tile seed `game_seed`: every front end seats bots with it,
// so a game replays the same from C++, Python or OpenSpiel.
constexpr uint64_t seat_seed(uint64_t game_seed, int seat) { return game_seed * 16 + static_cast<uint64_t>(seat) + 1; }

// Called at every decision node of a game once the seat to act has chosen, before the choice is applied:
// the position, and the player who chose (whose statistics of the choice can then be read).
using DecisionSeen = std::function<void(const State&, const Player& chooser)>;

// Plays one game: seat p is make_player(bots[p], seed * 16 + p + 1), tiles come from Dealer(seed), every
// seat observes every action. Sets `record_line` to the game's meeple-game/1 record when given. When `stop`
// becomes true the game is abandoned between two actions (the returned state is then not terminal).
State play_game(const Rules& rules, const GameSpec& game, std::string* record_line = nullptr,
                const std::atomic<bool>* stop = nullptr, const DecisionSeen& on_decision = {});

// A choice that is not legal, by a player play_seated checks (one from outside the engine, e.g. Python).
struct IllegalChoice : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One game at a table, the one game loop: deal or choose, record, apply, tell every player (once, if it
// holds two seats). Seat p is played by seats[p], named names[p] in the record; tiles come from
// Dealer(seed). A seat whose player is nullptr is the caller's: advance() stops when it is to decide, and
// act() takes its decision. With check_choices, a player's choice that is not legal throws IllegalChoice
// naming the bot, its seat, the action and why; act() always checks. Neither changes the game then.
// play_seated plays whole games through it; the Gymnasium environment and the play page step one.
class Table {
 public:
  Table(const Rules& rules, std::vector<Player*> seats, std::vector<std::string> names, uint64_t seed,
        bool record = true, bool check_choices = false);
  const State& state() const { return state_; }
  // Called with the position and each action, before the action is applied.
  using ActionSeen = std::function<void(const State& before, Action a)>;
  // Deals and lets the seated players choose until a caller's seat is to decide, the game is over, or
  // `stop` is set (between two actions).
  void advance(const std::atomic<bool>* stop = nullptr, const DecisionSeen& on_decision = {}, const ActionSeen& on_action = {});
  // The decision of the caller's seat that is to decide now; throws IllegalChoice (why_illegal) if it is not
  // legal there, or std::logic_error if a seated player is to decide or it is a chance node.
  void act(Action a, const ActionSeen& on_action = {});
  // The game's meeple-game/1 record once it is over (made with record = true).
  std::string record_line();

 private:
  void step(Action a, const ActionSeen& on_action);
  std::vector<Player*> seats_;
  std::vector<std::string> names_;
  Dealer dealer_;
  State state_;
  RecordBuilder record_;
  bool recording_, check_choices_;
};

// The one game loop: deal or choose, record, apply, tell every player (once, if it holds two seats).
// Seat p is played by seats[p], named
// names[p] in the record; tiles come from Dealer(seed). With check_choices, a choice that is not legal
// throws IllegalChoice naming the bot, its seat, the action and why (the state is not changed). play_game
// seats bots made from specs and plays through here.
State play_seated(const Rules& rules, const std::vector<Player*>& seats, const std::vector<std::string>& names, uint64_t seed,
                  std::string* record_line = nullptr, const std::atomic<bool>* stop = nullptr,
                  const DecisionSeen& on_decision = {}, bool check_choices = false);

// Runs play(g) for g = 0 .. count - 1, `jobs` at a time on oneTBB; once `stop` is set, no more start.
void for_each_game(size_t count, int jobs, const std::atomic<bool>* stop, const std::function<void(size_t)>& play);

// Throws std::invalid_argument, before anything is played, if a game does not have one valid bot spec per
// seat or a bot cannot play these rules.
void check_games(const Rules& rules, const std::vector<GameSpec>& games);

// Called once per finished game, one call at a time, in the order games finish.
using GameFinished = std::function<void(int index, const State& final_state, const std::string& record_line)>;

// Plays games 0 .. count - 1, game g being game(g), `jobs` at a time, and keeps nothing: each finished game
// reaches `on_finished` (with its record when `records`), so memory does not grow with the number of
// games. Checks every game as check_games does before playing any. Setting `stop` abandons the games in
// progress and starts no more: only finished games reach `on_finished`.
void stream_games(const Rules& rules, size_t count, const std::function<GameSpec(size_t)>& game, int jobs, bool records,
                  const GameFinished& on_finished, const std::atomic<bool>* stop = nullptr);

// The seats of one scheduled game: seats[p] indexes the list of bots, and seed is the tile order.
struct Seating {
  std::vector<int> seats;
  uint64_t seed = 0;
  bool operator==(const Seating&) const = default;
};

// `games` games of a match between `bots` bots, `players` seats each. Every set of `players` bots (in lexicographic
// order, as Python's itertools.combinations) is a group; groups take turns, and each group plays `players`
// games on one tile order, seed + the group's turn, its bots rotated through the seats: in game r of a
// turn, seat p is played by the group's bot (p + r) % players. So game g always has the same seats and
// seed, whatever the number of games, and every tile order is played from every seat. Throws
// std::invalid_argument for fewer than 2 bots, players outside 2..kMaxPlayers, or more seats than bots.
std::vector<Seating> schedule(int bots, size_t games, int players, uint64_t seed);

// Wins with ties shared (B13: 1 / (number of winners) to each seat on top), counted in sixtieths of a win
// (1/k for k <= 6 winners is a whole number of them), so that sums are exact whatever the order of games.
constexpr int64_t kWinUnits = 60;
std::array<int64_t, kMaxPlayers> win_units(const std::array<int, kMaxPlayers>& scores, int players);
std::array<int64_t, kMaxPlayers> win_units(const State& final_state);

// A proportion's Wilson score interval: `successes` (may be fractional: shared wins) out of `trials`, at z
// standard deviations (1.96: 95%). The whole [0, 1] when there are no trials.
struct Interval {
  double lo = 0, hi = 1;
};
Interval wilson(double successes, double trials, double z = 1.96);

// The standings of a match, kept once for every front end (`meeple match`, meeple.tournament): per bot,
// in the order given, its games, wins (ties shared, in win units so that sums are exact), score
// and margin over the best other seat.
class Standings {
 public:
  struct Row {
    std::string bot;
    int64_t games = 0;
    double wins = 0;      // ties shared
    Interval win_rate_interval;  // Wilson, 95%
    double mean_score = 0, mean_margin = 0;
    double win_rate() const { return games ? wins / static_cast<double>(games) : 0; }
  };
  // The bots' rows in this order (a repeated name once), so that rows do not depend on which game finished
  // first; other bots get rows as they first play.
  explicit Standings(const std::vector<std::string>& bots = {});
  // One finished game: the bot of each seat and the final scores (as many as seats, 1 to kMaxPlayers).
  // A game where one bot holds two seats counts for it twice.
  void add(const std::vector<std::string>& seat_bots, const std::vector<int>& scores);
  void add(const std::vector<std::string>& seat_bots, const State& final_state);
  int64_t games() const { return games_; }
  std::vector<Row> rows() const;
  // The table `meeple match` prints: a header and a row per bot.
  std::string table() const;

 private:
  struct Totals {
    std::string bot;
    int64_t games = 0, win_units = 0, score = 0, margin = 0;
  };
  std::vector<Totals> totals_;
  int64_t games_ = 0;
};

}  // namespace meeple
