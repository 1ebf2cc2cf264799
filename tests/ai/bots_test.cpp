// The bot factory (ai/src/bots.cpp): its one-line help, its listing of parameters and its parser come from
// one table per bot, so they name the same bots and parameters.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "meeple/ai/bots.h"

namespace meeple {
namespace {

struct HelpBot {
  std::string name;
  std::vector<std::string> params;  // "key=values", in the help's order
};

// The bots of bot_spec_help(): "bots are: random, greedy, heuristic[:eval=...], ...".
std::vector<HelpBot> bots_of_the_help() {
  const std::string help = bot_spec_help();
  const std::string prefix = "bots are: ";
  EXPECT_EQ(help.substr(0, prefix.size()), prefix);
  std::vector<HelpBot> out;
  const std::regex bot(R"(([a-z]+)(\[:([^\]]*)\])?(, |$))");
  for (auto m = std::sregex_iterator(help.begin() + static_cast<long>(prefix.size()), help.end(), bot);
       m != std::sregex_iterator(); ++m) {
    HelpBot b{(*m)[1], {}};
    const std::string params = (*m)[3];
    size_t start = 0;
    while (start < params.size()) {
      const size_t comma = std::min(params.find(',', start), params.size());
      b.params.push_back(params.substr(start, comma - start));
      start = comma + 1;
    }
    out.push_back(b);
  }
  return out;
}

std::string refusal(const std::string& spec) {
  try {
    make_player(spec, 1);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Bots, TheHelpTheListingAndTheParserAgree) {
  const std::vector<HelpBot> bots = bots_of_the_help();
  std::vector<std::string> names;
  for (const HelpBot& b : bots) names.push_back(b.name);
  EXPECT_EQ(names, (std::vector<std::string>{"random", "greedy", "heuristic", "mcts", "expectimax"}));
  const std::string listing = bot_parameters_help();
  size_t listed_params = 0;
  for (size_t at = listing.find("\n  "); at != std::string::npos; at = listing.find("\n  ", at + 1)) ++listed_params;
  size_t help_params = 0;
  for (const HelpBot& b : bots) {
    SCOPED_TRACE(b.name);
    EXPECT_NE(listing.find(b.name + ": "), std::string::npos);
    std::vector<std::string> keys;
    for (const std::string& p : b.params) {
      EXPECT_NE(listing.find("\n  " + p + " (default "), std::string::npos) << p;
      keys.push_back(p.substr(0, p.find('=')));
      ++help_params;
    }
    // The parser knows exactly these keys, and lists them sorted when refusing another.
    std::sort(keys.begin(), keys.end());
    std::string list;
    for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
    EXPECT_EQ(refusal(b.name + ":nokey=1"),
              "unknown parameter 'nokey' of bot " + b.name + "; its parameters are " + (list.empty() ? "none" : list));
  }
  EXPECT_EQ(listed_params, help_params);
  EXPECT_GT(help_params, 30u);
}

}  // namespace
}  // namespace meeple
