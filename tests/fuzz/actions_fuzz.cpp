// libFuzzer target: bytes as a game. The first bytes choose the players and expansions; then each step
// either takes a legal action (chance outcomes included) chosen by the next byte, or tries four bytes as
// any action at all. A legal action must apply and leave a consistent state (checked every 16 actions
// and at the end); anything else must be refused with a message and leave the state exactly as it was.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "meeple/state.h"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "finding: %s: %s\n", what, detail.c_str());
  std::abort();
}

// The input, read front to back; zeros once it is used up.
struct Bytes {
  const uint8_t* data;
  size_t size;
  uint8_t next() { return size ? (--size, *data++) : 0; }
  uint32_t next32() { return next() | next() << 8 | next() << 16 | static_cast<uint32_t>(next()) << 24; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meeple;
  Bytes in{data, size};
  Rules rules;
  rules.players = static_cast<uint8_t>(2 + in.next() % (kMaxPlayers - 1));
  rules.expansions = static_cast<uint8_t>(in.next() & ((1 << kNumExpansions) - 1));
  State state(rules);
  int applied = 0;
  while (in.size && !state.is_terminal()) {
    const uint8_t choice = in.next();
    if (choice & 0x80) {  // any 32 bits as an action
      const Action a = Action::from_bits(in.next32());
      const State before = state;
      const bool legal = state.is_legal(a);
      const std::string error = state.try_apply(a);
      if (legal != error.empty()) finding("is_legal and try_apply disagree", a.to_string() + ": " + error);
      if (!legal && !(state == before)) finding("a refused action changed the state", a.to_string());
      if (!legal) continue;
    } else if (state.is_chance()) {
      ChanceOutcomes outcomes;
      state.chance_outcomes(outcomes);
      state.apply(Action::draw(outcomes.items[choice % outcomes.size].tile));
    } else {
      ActionList actions;
      state.legal_actions(actions);
      const Action a = actions[choice % actions.size];
      if (const std::string error = state.try_apply(a); !error.empty()) finding("a listed action refused", a.to_string() + ": " + error);
    }
    // The full check costs a thousand actions: every 16 actions, and at the end.
    if (++applied % 16 == 0)
      if (const std::string problem = state.check_consistency(); !problem.empty()) finding("inconsistent state", problem);
  }
  if (const std::string problem = state.check_consistency(); !problem.empty()) finding("inconsistent state", problem);
  return 0;
}
