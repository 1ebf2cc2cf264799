// The turn's table of phases (core/src/turn.cpp) seen through the API: at every node of random games of
// every expansion set, the phase lists only its own kind of action (and the pass where it has one),
// refuses every other kind with a message saying what it expected, and leaves the state as it was.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>

#include "meeple/ai/player.h"
#include "meeple/random.h"

namespace meeple {
namespace {

// One action of every kind, none of them legal anywhere but in its own phase.
std::array<Action, 8> one_of_each_kind() {
  return {Action::pass(),
          Action::draw(0),
          Action::place(40, 40, 0),
          Action::deploy(Figure::kFollower, 0),
          Action::count_deploy(Figure::kFollower, kCastle, kCountStays),
          Action::redeploy(kCastle, Figure::kFollower, 0),
          Action::abbey(cell_key(40, 40)),
          Action::wagon(0)};
}

// What each phase says it expects when given another kind of action.
const char* expected(Phase p) {
  switch (p) {
    case Phase::kTurnStart: return "an abbey placement or a draw";
    case Phase::kDraw: return "a tile draw";
    case Phase::kPlace: return "the placement of the tile in hand";
    case Phase::kDeploy: return "a deploy or a pass";
    case Phase::kWagonMove: return "a wagon move or taking the wagon back";
    case Phase::kAbbeyRound: return "an abbey placement or a pass";
    case Phase::kRedeploy:
    case Phase::kFinalRedeploy: return "a redeploy or a pass";
    case Phase::kCountDeploy: return "a Count deploy or a pass";
    case Phase::kGameOver: break;
  }
  return "";
}

TEST(Turn, EveryPhaseTakesItsOwnKindOfActionAndRefusesTheOthersSayingWhatItExpects) {
  std::set<Phase> reached;
  for (int combination = 0; combination < 32; ++combination) {
    Rules rules;
    rules.players = static_cast<uint8_t>(2 + combination % 5);
    rules.expansions = static_cast<uint8_t>(combination);
    for (int game = 0; game < 3; ++game) {
      SCOPED_TRACE(rules.to_string() + ", game " + std::to_string(game));
      const uint64_t seed = 7000 + 31 * static_cast<uint64_t>(combination) + static_cast<uint64_t>(game);
      Dealer dealer(seed);
      RandomPlayer bot(seed + 1);
      State s(rules);
      while (true) {
        reached.insert(s.phase());
        // The kinds this phase lists (a chance node: the draw).
        std::set<Action::Kind> kinds;
        ActionList legal;
        s.legal_actions(legal);
        for (Action a : legal) kinds.insert(a.kind());
        if (s.is_chance()) kinds.insert(Action::kDraw);
        ASSERT_LE(kinds.size(), 2u) << to_string(s.phase()) << " lists more than its action and the pass";
        if (kinds.size() == 2) {
          ASSERT_TRUE(kinds.count(Action::kPass)) << to_string(s.phase());
        }
        for (Action other : one_of_each_kind()) {
          if (kinds.count(other.kind())) continue;
          State copy = s;
          const std::string why = copy.try_apply(other);
          if (s.is_terminal()) {
            EXPECT_EQ(why, "the game is over");
          } else {
            EXPECT_EQ(why, std::string("expected ") + expected(s.phase()) + ", got " + other.to_string()) << to_string(s.phase());
          }
          ASSERT_TRUE(copy == s) << "a refused " << other.to_string() << " changed the state";
        }
        // A pass is written in a record under the phase's key, or not at all where the draw stands for it.
        EXPECT_EQ(pass_record_key(s.phase()) != nullptr, kinds.count(Action::kPass) == 1) << to_string(s.phase());
        // The phase's own kind is what the table says (a record's keys are read by it).
        for (Action::Kind k : kinds) {
          if (k != Action::kPass) {
            EXPECT_EQ(k, action_kind(s.phase())) << to_string(s.phase());
          }
        }
        if (s.is_terminal()) break;
        s.apply(s.is_chance() ? dealer.deal(s) : bot.choose(s));
      }
    }
  }
  // Every phase came up (these seeds reach them all), so every row of the table was read.
  EXPECT_EQ(reached.size(), static_cast<size_t>(Phase::kGameOver) + 1);
}

TEST(Turn, PhasesHaveDistinctNames) {
  std::set<std::string> names;
  for (int p = 0; p <= static_cast<int>(Phase::kGameOver); ++p) names.insert(to_string(static_cast<Phase>(p)));
  EXPECT_EQ(names.size(), static_cast<size_t>(Phase::kGameOver) + 1);
  EXPECT_STREQ(to_string(Phase::kDeploy), "deploy");
  EXPECT_STREQ(pass_record_key(Phase::kFinalRedeploy), "redeploy");
  EXPECT_STREQ(pass_record_key(Phase::kTurnStart), "");
  EXPECT_EQ(pass_record_key(Phase::kPlace), nullptr);
}

}  // namespace
}  // namespace meeple
