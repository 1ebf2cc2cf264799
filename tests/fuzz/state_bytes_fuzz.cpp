// libFuzzer target: a State's bytes (what a pickle holds) corrupted. The input is a list of (offset,
// value) edits, 3 bytes each, applied to the bytes of a mid-game position with every expansion. Bytes are
// either refused by State::from_bytes with a message, or give a state that can be played: listing its
// actions and applying one of them keeps it consistent. A crash, hang or sanitizer report is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "meeple/random.h"
#include "meeple/state.h"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "finding: %s: %s\n", what, detail.c_str());
  std::abort();
}

const std::string& base_bytes() {
  static const std::string bytes = [] {
    using namespace meeple;
    Rules rules;
    rules.players = 3;
    rules.expansions = (1 << kNumExpansions) - 1;
    State s(rules);
    Rng rng(5);
    for (int i = 0; i < 120 && !s.is_terminal(); ++i) {
      if (s.is_chance()) {
        s.apply(Action::draw(s.sample_draw_tile(rng.below(static_cast<uint32_t>(s.drawable_now())))));
      } else {
        s.apply(s.sample_legal_action(rng));
      }
    }
    return s.to_bytes();
  }();
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meeple;
  std::string bytes = base_bytes();
  for (size_t i = 0; i + 3 <= size; i += 3) bytes[(data[i] | data[i + 1] << 8) % bytes.size()] = static_cast<char>(data[i + 2]);
  State s(Rules{});
  try {
    s = State::from_bytes(bytes);
  } catch (const std::invalid_argument&) {
    return 0;  // refused with a message
  }
  for (int step = 0; step < 4 && !s.is_terminal(); ++step) {
    Action a;
    if (s.is_chance()) {
      ChanceOutcomes outcomes;
      s.chance_outcomes(outcomes);
      if (outcomes.size == 0) finding("a chance node with no outcome", "");
      a = Action::draw(outcomes.items[0].tile);
    } else {
      ActionList actions;
      s.legal_actions(actions);
      if (actions.size == 0) finding("a decision with no legal action", "");
      a = actions[actions.size - 1];
    }
    if (const std::string error = s.try_apply(a); !error.empty()) finding("a listed action refused", a.to_string() + ": " + error);
    if (const std::string problem = s.check_consistency(); !problem.empty()) finding("inconsistent after an action", problem);
  }
  return 0;
}
