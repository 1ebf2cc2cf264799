// Game records in the `meeple-game/1` format (docs/game-record.md): read, write, replay.
//
// A record names the rules and lists every action, chance draws included, so a game replays exactly
// without any random generator. Tournaments write one record per line (JSON Lines).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "meeple/rules.h"
#include "meeple/state.h"

namespace meeple {

inline constexpr const char* kRecordFormat = "meeple-game/1";

// A problem with a record: `action` is the 0-based index of the offending action, or -1 for the record
// as a whole (bad JSON, unknown key, wrong type, result mismatch).
class RecordError : public std::runtime_error {
 public:
  RecordError(int action, const std::string& message) : std::runtime_error(message), action_(action) {}
  int action() const { return action_; }

 private:
  int action_;
};

struct GameRecord {
  Rules rules;
  std::vector<uint8_t> deck;  // copies per tile type when the record has `rules.deck`, else empty
  std::vector<std::string> names;
  std::optional<int64_t> seed;
  std::vector<nlohmann::json> actions;
  std::optional<std::vector<int>> result_scores;

  State initial_state() const { return State(rules, deck); }
  nlohmann::json to_json() const;
  std::string to_line() const { return to_json().dump(); }  // one line of a .jsonl file
};

// Parses and checks the structure of a record (keys, types, rule names) without applying any action.
// Throws RecordError(-1, "...") naming the bad field.
GameRecord parse_record(std::string_view text);
GameRecord record_from_json(const nlohmann::json& j);

// Replays every action; throws RecordError(i, ...) at the first action that is malformed or breaks a
// rule (saying which rule and what was expected), and RecordError(-1, ...) if `check_result` and the
// record's result differs from the replayed scores.
State replay(const GameRecord& record, bool check_result = true);

// The record form of `a` taken in state `before` (the state it is applied to), and back. Choosing to draw
// instead of placing the abbey has no record form of its own (null): the `draw` that follows stands for it.
nlohmann::json action_to_json(const State& before, Action a);
// The same as compact JSON text appended to `out` (nothing for that choice): what records are written from.
void append_action_json(const State& before, Action a, std::string& out);
// Throws std::invalid_argument with a message naming the problem (unknown location, wrong phase, ...).
Action action_from_json(const State& state, const nlohmann::json& j);

// Builds a record while a game is played: call add() before applying each action. The actions are kept
// as JSON text, not as a JSON tree: a tree per action cost self-play nine tenths of its speed.
class RecordBuilder {
 public:
  RecordBuilder(const Rules& rules, std::vector<std::string> names = {}, std::optional<int64_t> seed = {},
                std::vector<uint8_t> deck = {});
  void add(const State& before, Action a);
  // The record with the final scores as its result (when the game is over)...
  GameRecord finish(const State& final_state);
  // ...or directly its line of a .jsonl file (the same text as finish(final_state).to_line(), faster).
  std::string finish_line(const State& final_state);

 private:
  void set_result(const State& final_state);
  GameRecord record_;               // everything but the actions
  std::string actions_ = "[";       // the actions' JSON, comma-separated, the closing bracket missing
};

// `replay --json` output: {"terminal":..,"scores":[..],"breakdown":[{"city":..,...},..]}.
nlohmann::json scores_json(const State& state);

}  // namespace meeple
