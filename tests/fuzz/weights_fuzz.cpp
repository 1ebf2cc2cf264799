// libFuzzer target: any bytes as an evaluator weight file and as a policy file. Each is either refused
// with std::invalid_argument (a message naming what is wrong) or loaded; a loaded one evaluates a
// position (or gives its actions priors) and its written form loads again to the same text. Any other
// exception, a crash, a hang or a sanitizer report is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "meeple/ai/evaluator.h"
#include "meeple/ai/policy.h"
#include "meeple/input.h"
#include "meeple/random.h"
#include "meeple/state.h"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "finding: %s: %s\n", what, detail.c_str());
  std::abort();
}

// A position with a tile in hand under `rules`: something to evaluate and actions to give priors to.
meeple::State position(const meeple::Rules& rules) {
  using namespace meeple;
  State s(rules);
  Rng rng(3);
  auto step = [&] {
    if (s.is_chance()) s.apply(Action::draw(s.sample_draw_tile(rng.below(static_cast<uint32_t>(s.drawable_now())))));
    else s.apply(s.sample_legal_action(rng));
  };
  for (int i = 0; i < 40 && !s.is_terminal(); ++i) step();
  while (!s.is_terminal() && s.phase() != Phase::kPlace) step();
  return s;
}

void check_message(const std::invalid_argument& e) {
  // What a message quotes of the input is capped: a message is never a copy of a large input.
  if (std::string_view(e.what()).size() > 8 * meeple::kMaxQuoted) finding("message too long", std::string(e.what()).substr(0, 400));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meeple;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto evaluator = evaluator_from_json(text, "fuzz.json");
    const State s = position(evaluator->trained_on().value_or(Rules{}));
    (void)evaluator->evaluate(s);
    const std::string written = evaluator->to_json();
    try {
      if (evaluator_from_json(written, "written.json")->to_json() != written) finding("evaluator written differently", written);
    } catch (const std::invalid_argument& e) {
      finding("written evaluator refused", e.what());
    }
  } catch (const std::invalid_argument& e) {
    check_message(e);
  }
  try {
    const PolicyNet policy = PolicyNet::from_json(text, "fuzz.json");
    const State s = position(policy.trained_on().value_or(Rules{}));
    ActionList actions;
    s.legal_actions(actions);
    std::vector<float> priors(static_cast<size_t>(actions.size));
    policy.priors(s, actions, priors);
    const std::string written = policy.to_json();
    try {
      if (PolicyNet::from_json(written, "written.json").to_json() != written) finding("policy written differently", written);
    } catch (const std::invalid_argument& e) {
      finding("written policy refused", e.what());
    }
  } catch (const std::invalid_argument& e) {
    check_message(e);
  }
  return 0;
}
