// Game records: structure checks before any action, rule errors with the action's index, result checks.
#include <gtest/gtest.h>

#include "meeple/ai/player.h"
#include "meeple/random.h"
#include "meeple/record.h"

namespace meeple {
namespace {

const char* kHeader = R"("format":"meeple-game/1","rules":{"expansions":[]},"players":2)";

std::string record_with(const std::string& actions, const std::string& extra = "") {
  return std::string("{") + kHeader + extra + R"(,"actions":[)" + actions + "]}";
}

void expect_error(const std::string& text, int action, const std::string& needle) {
  try {
    replay(parse_record(text));
    FAIL() << "accepted: " << text;
  } catch (const RecordError& e) {
    EXPECT_EQ(e.action(), action) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(Record, ReplaysAShortGame) {
  // The start tile's city N is closed by a city cap placed north of it: a completed 2-tile city.
  const State s = replay(parse_record(record_with(
      R"({"draw":"BA.C"},{"place":[0,-1,180],"p":0},{"deploy":{"figure":"follower","at":"S"},"p":0},{"draw":"BA.RFr"})")));
  EXPECT_EQ(s.score(0, kCityPoints), 4);
  EXPECT_EQ(s.phase(), Phase::kPlace);
  EXPECT_EQ(s.current_player(), 1);
}

TEST(Record, RejectsMalformedRecordsBeforeAnyAction) {
  expect_error("{not json", -1, "not valid JSON");
  expect_error(record_with("", R"(,"colour":"red")"), -1, "colour: unknown key");
  expect_error(R"({"format":"meeple-game/2","rules":{},"players":2,"actions":[]})", -1, "format");
  expect_error(R"({"format":"meeple-game/1","rules":{},"players":"two","actions":[]})", -1, "players");
  expect_error(R"({"format":"meeple-game/1","rules":{},"players":7,"actions":[]})", -1, "2 to 6");
  expect_error(R"({"format":"meeple-game/1","rules":{"expansions":["dragons"]},"players":2,"actions":[]})", -1, "unknown expansion");
  expect_error(R"({"format":"meeple-game/1","rules":{"options":{"small_city":"tiny"}},"players":2,"actions":[]})", -1,
               "rules.options.small_city");
  expect_error(R"({"format":"meeple-game/1","rules":{"options":{"speed":"fast"}},"players":2,"actions":[]})", -1, "unknown option");
  expect_error(R"({"format":"meeple-game/1","rules":{"deck":{"BA.ZZ":1}},"players":2,"actions":[]})", -1, "rules.deck.BA.ZZ");
  // A malformed later action is found before the first one is applied.
  expect_error(record_with(R"({"draw":"BA.C"},{"place":[0,"x",0]})"), -1, "actions[1].place");
  expect_error(record_with(R"({"draw":"BA.C"},{"teleport":[0,0]})"), -1, "actions[1]");
}

TEST(Record, NamesTheFirstActionThatBreaksARule) {
  // Index 1: the cap's city edge faces the start tile's road.
  expect_error(record_with(R"({"draw":"BA.C"},{"place":[1,0,0]})"), 1, "does not match");
  expect_error(record_with(R"({"draw":"BA.C"},{"place":[5,5,0]})"), 1, "does not touch the board");
  expect_error(record_with(R"({"draw":"BA.C"},{"place":[0,-1,45]})"), 1, "rotation");
  expect_error(record_with(R"({"draw":"BA.C"},{"place":[0,-1,180],"p":1})"), 1, "seat 0 is to act");
  expect_error(record_with(R"({"place":[0,-1,180]})"), 0, "not a placement");
  expect_error(record_with(R"({"draw":"BA.NOPE"})"), 0, "unknown tile");
  expect_error(record_with(R"({"draw":"RI2.III"})"), 0, "no copy of it is left");
  // Deploy on the start tile's city after it was claimed: both caps join it.
  expect_error(record_with(R"({"draw":"BA.Cc"},{"place":[0,-1,180]},{"deploy":{"figure":"follower","at":"S"}},)"
                           R"({"draw":"BA.C"},{"place":[1,-1,270]},{"deploy":{"figure":"follower","at":"W"}})"),
               5, "already occupied");
  expect_error(record_with(R"({"draw":"BA.C"},{"place":[0,-1,180]},{"deploy":{"figure":"follower","at":"Q"}})"), 2,
               "unknown location");
  expect_error(record_with(R"({"draw":"BA.C"},{"place":[0,-1,180]},{"deploy":{"figure":"mayor","at":"S"}})"), 2,
               "abbey_mayor");
}

TEST(Record, ChecksTheResult) {
  const std::string game = R"({"draw":"BA.C"},{"place":[0,-1,180]},{"deploy":{"figure":"follower","at":"S"}})";
  const std::string deck = R"("format":"meeple-game/1","rules":{"expansions":[],"deck":{"BA.C":1}},"players":2)";
  const State s = replay(parse_record("{" + deck + R"(,"actions":[)" + game + R"(],"result":{"scores":[4,0]}})"));
  EXPECT_TRUE(s.is_terminal());
  expect_error("{" + deck + R"(,"actions":[)" + game + R"(],"result":{"scores":[5,0]}})", -1, "differ");
  expect_error(record_with(R"({"draw":"BA.C"})", R"(,"result":{"scores":[1,2]})"), -1, "end before the game");
}

TEST(Record, RoundTripKeepsRulesDeckAndOptions) {
  GameRecord r = parse_record(
      R"({"format":"meeple-game/1","rules":{"expansions":["river2","king_robber"],"options":{"small_city":"two_points","pig_herd":"off"}},"players":3,"names":["a","b","c"],"seed":5,"actions":[]})");
  const GameRecord back = parse_record(r.to_line());
  EXPECT_EQ(back.rules, r.rules);
  EXPECT_EQ(back.names, r.names);
  EXPECT_EQ(back.seed, r.seed);
  EXPECT_EQ(back.rules.option_value(Option::kSmallCity), "two_points");
}

TEST(Record, ReplayJsonHasScoresAndBreakdown) {
  const State s = replay(parse_record(record_with(R"({"draw":"BA.C"},{"place":[0,-1,180]},{"deploy":{"figure":"follower","at":"S"}})")));
  const auto j = scores_json(s);
  EXPECT_EQ(j["terminal"], false);
  EXPECT_EQ(j["scores"], nlohmann::json::array({4, 0}));
  EXPECT_EQ(j["breakdown"][0]["city"], 4);
  EXPECT_EQ(j["breakdown"][1]["field"], 0);
}

}  // namespace
}  // namespace meeple

namespace meeple {
namespace {

// Records are written from text (RecordBuilder::finish_line); the text must be exactly what the JSON
// library writes for the same record, every kind of action of every expansion included, with names that
// need escaping.
TEST(Record, LinesWrittenFromTextEqualTheJsonLibrarysDump) {
  const uint8_t all = kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor;
  for (const uint8_t expansions : {uint8_t{0}, all}) {
    for (const char* count_move : {"free", "follow"}) {
      Rules rules;
      rules.players = 3;
      rules.expansions = expansions;
      rules.set_option("count_move", count_move);
      for (uint64_t seed = 1; seed <= 12; ++seed) {
        Dealer dealer(seed);
        RandomPlayer bot(seed);
        State s(rules);
        RecordBuilder builder(rules, {"random", "quote \" and \\ and \xC3\xA9", "greedy"}, static_cast<int64_t>(seed));
        while (!s.is_terminal()) {
          const Action a = s.is_chance() ? dealer.deal(s) : bot.choose(s);
          builder.add(s, a);
          s.apply(a);
        }
        const std::string line = builder.finish_line(s);
        ASSERT_EQ(line, builder.finish(s).to_line()) << "seed " << seed;
        ASSERT_EQ(nlohmann::json::parse(line).dump(), line) << "seed " << seed;
        ASSERT_TRUE(replay(parse_record(line)) == s) << "seed " << seed;
      }
    }
  }
}

}  // namespace
}  // namespace meeple
