// Input that is too deep, too large, given twice or never ends (issue 27): generated cases for every
// field of a record, a weight file and a policy file, and for every kind of file that is not a regular
// one. Each must be refused with a short message naming what was wrong, or (for a value of the right
// kind) taken; never a crash, a hang or a message that copies the input.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <string>
#include <vector>

#include "meeple/ai/bots.h"
#include "meeple/ai/evaluator.h"
#include "meeple/ai/match.h"
#include "meeple/ai/player.h"
#include "meeple/ai/policy.h"
#include "meeple/input.h"
#include "meeple/record.h"

namespace meeple {
namespace {

using nlohmann::json;

// A message quotes at most kMaxQuoted bytes of each piece of input, and has a few of them at most.
constexpr size_t kLongestMessage = 1000;

// Every place a value sits in `doc` (object members and array elements at any depth), as JSON pointers.
std::vector<json::json_pointer> slots(const json& doc) {
  std::vector<json::json_pointer> out, todo{json::json_pointer()};
  while (!todo.empty()) {
    const json::json_pointer at = todo.back();
    todo.pop_back();
    const json& v = doc[at];
    if (v.is_object())
      for (auto it = v.begin(); it != v.end(); ++it) out.push_back(at / it.key()), todo.push_back(at / it.key());
    if (v.is_array())
      for (size_t i = 0; i < v.size(); ++i) out.push_back(at / i), todo.push_back(at / i);
  }
  return out;
}

// The objects of `doc` (the whole included), as JSON pointers.
std::vector<json::json_pointer> objects(const json& doc) {
  std::vector<json::json_pointer> out{json::json_pointer()};
  for (const auto& at : slots(doc))
    if (doc[at].is_object()) out.push_back(at);
  return out;
}

// `doc` as text with the value at `at` replaced by the text `payload`, which need not be JSON.
std::string with_text_at(json doc, const json::json_pointer& at, const std::string& payload) {
  const std::string marker = "@@payload@@";
  doc[at] = marker;
  std::string text = doc.dump();
  text.replace(text.find('"' + marker + '"'), marker.size() + 2, payload);
  return text;
}

// Arrays ("[[[1]]]") or objects ("{"a":{"a":1}}") nested `depth` deep.
std::string nested(int depth, bool arrays) {
  std::string text;
  text.reserve(static_cast<size_t>(depth) * 6);
  for (int i = 0; i < depth; ++i) text += arrays ? "[" : "{\"a\":";
  text += "1";
  text.append(static_cast<size_t>(depth), arrays ? ']' : '}');
  return text;
}

// The object at `at` with its first member given a second time.
std::string with_first_key_twice(const json& doc, const json::json_pointer& at) {
  const json& object = doc[at];
  std::string twice = object.dump();
  twice.pop_back();
  twice += "," + json(object.begin().key()).dump() + ":" + object.begin().value().dump() + "}";
  return with_text_at(doc, at, twice);
}

// A finished 3-player game with every expansion, options and a deck: every kind of field a record has.
const json& full_record() {
  static const json doc = [] {
    Rules rules = Rules::parse("players=3 expansions=river2,count,king_robber,cult_places,abbey_mayor small_city=two_points shrine_sets=ckr+csc");
    std::string line;
    play_game(rules, GameSpec{{"random", "random", "random"}, 7}, &line);
    json j = json::parse(line);
    j["names"] = {"ann", "bob", "cy"};
    j["rules"]["deck"] = {{"BA.C", 2}};
    return j;
  }();
  return doc;
}

// The record's slots outside the actions, and those of its first and last few actions.
std::vector<json::json_pointer> record_slots() {
  std::vector<json::json_pointer> out;
  const size_t actions = full_record()["actions"].size();
  for (const auto& at : slots(full_record())) {
    const std::string path = at.to_string();
    if (!path.starts_with("/actions/")) {
      out.push_back(at);
      continue;
    }
    const size_t i = std::stoul(path.substr(9));
    if (i < 30 || i + 5 >= actions) out.push_back(at);
  }
  return out;
}

// What the record `text` gets: "" when it replays, otherwise RecordError's message (any other exception
// fails the test).
std::string record_outcome(const std::string& text) {
  try {
    replay(parse_record(text));
    return "";
  } catch (const RecordError& e) {
    return e.what();
  }
}

TEST(InputLimits, NestingInEveryFieldOfARecordIsRefused) {
  const auto at = record_slots();
  ASSERT_GT(at.size(), 150u);
  int cases = 0;
  for (const auto& slot : at) {
    for (const int depth : {kMaxJsonDepth + 1, 1000, 100000}) {
      for (const bool arrays : {true, false}) {
        const std::string message = record_outcome(with_text_at(full_record(), slot, nested(depth, arrays)));
        EXPECT_NE(message.find("not valid JSON: nesting deeper than 64 at offset "), std::string::npos)
            << slot.to_string() << " depth " << depth << ": " << message;
        ++cases;
      }
    }
    // Nesting within the cap is taken as JSON and then refused (or taken) by what the field must be.
    const std::string message = record_outcome(with_text_at(full_record(), slot, nested(20, true)));
    EXPECT_LT(message.size(), kLongestMessage) << slot.to_string();
  }
  EXPECT_GT(cases, 900);
}

TEST(InputLimits, HugeValuesInEveryFieldOfARecordGiveShortMessages) {
  const std::string huge = '"' + std::string(1 << 16, 'x') + '"';
  int refused = 0;
  for (const auto& slot : record_slots()) {
    const std::string message = record_outcome(with_text_at(full_record(), slot, huge));
    refused += !message.empty();
    EXPECT_LT(message.size(), kLongestMessage) << slot.to_string();
    EXPECT_EQ(message.find(std::string(kMaxQuoted + 1, 'x')), std::string::npos) << slot.to_string();
  }
  EXPECT_GT(refused, 150);  // only a name may be any string
  // A huge key in every object.
  for (const auto& object : objects(full_record())) {
    json doc = full_record();
    doc[object][std::string(1 << 16, 'k')] = 1;
    const std::string message = record_outcome(doc.dump());
    EXPECT_FALSE(message.empty()) << object.to_string();
    EXPECT_LT(message.size(), kLongestMessage) << object.to_string();
  }
  // 10 MB in one field: a message of a few hundred bytes.
  const std::string message = record_outcome(with_text_at(full_record(), json::json_pointer("/seed"), '"' + std::string(10 << 20, '7') + '"'));
  EXPECT_NE(message.find("seed must be an integer"), std::string::npos) << message.substr(0, 300);
  EXPECT_LT(message.size(), 400u);
}

TEST(InputLimits, AKeyGivenTwiceInAnyObjectOfARecordIsRefused) {
  int cases = 0;
  for (const auto& object : objects(full_record())) {
    const std::string path = object.to_string();
    if (path.starts_with("/actions/") && std::stoul(path.substr(9)) >= 30) continue;
    if (full_record()[object].empty()) continue;
    const std::string key = full_record()[object].begin().key();
    const std::string message = record_outcome(with_first_key_twice(full_record(), object));
    EXPECT_NE(message.find("not valid JSON: key '" + key + "' given twice"), std::string::npos) << path << ": " << message;
    ++cases;
  }
  EXPECT_GT(cases, 40);
  // The message says in which object.
  EXPECT_NE(record_outcome(with_first_key_twice(full_record(), json::json_pointer("/rules/options"))).find("given twice in rules.options"),
            std::string::npos);
  EXPECT_NE(record_outcome(with_first_key_twice(full_record(), json::json_pointer("/actions/1"))).find("given twice in actions[1]"),
            std::string::npos);
}

// Weight and policy files: the linear and MLP evaluators' and the policy network's written forms.
std::vector<std::pair<std::string, json>> weight_files() {
  MlpEvaluator::Layer hidden, out;
  hidden.weights = Eigen::MatrixXf::Constant(3, kNumFeatures, 0.25f);
  hidden.bias = Eigen::VectorXf::Constant(3, 0.5f);
  out.weights = Eigen::MatrixXf::Constant(1, 3, 1.0f);
  out.bias = Eigen::VectorXf::Zero(1);
  const MlpEvaluator mlp({hidden, out}, "mlp", Rules::parse("players=2"));
  return {{"linear", json::parse(TrainedEvaluator().weights_for(0)->to_json())},
          {"mlp", json::parse(mlp.to_json())},
          {"policy", json::parse(TrainedPolicy().weights_for(0)->to_json())}};
}

// What loading `text` as `kind` gets: "" when it loads, else the std::invalid_argument's message.
std::string weight_outcome(const std::string& kind, const std::string& text) {
  try {
    if (kind == "policy") (void)PolicyNet::from_json(text, "p.json");
    else (void)evaluator_from_json(text, "w.json");
    return "";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

TEST(InputLimits, WeightAndPolicyFilesRefuseNestingHugeValuesAndKeysGivenTwice) {
  const std::string huge = '"' + std::string(1 << 16, 'x') + '"';
  for (const auto& [kind, doc] : weight_files()) {
    ASSERT_EQ(weight_outcome(kind, doc.dump()), "") << kind;
    int cases = 0;
    for (const auto& slot : slots(doc)) {
      // Of the policy's hidden layer, the first two rows stand for the others.
      const std::string path = slot.to_string();
      if (path.starts_with("/layers/0/weights/") && std::stoul(path.substr(18)) >= 2) continue;
      for (const int depth : {kMaxJsonDepth + 1, 100000}) {
        for (const bool arrays : {true, false}) {
          const std::string message = weight_outcome(kind, with_text_at(doc, slot, nested(depth, arrays)));
          EXPECT_NE(message.find("not JSON: nesting deeper than 64 at offset"), std::string::npos) << kind << slot.to_string() << message;
          ++cases;
        }
      }
      const std::string message = weight_outcome(kind, with_text_at(doc, slot, huge));
      EXPECT_LT(message.size(), kLongestMessage) << kind << slot.to_string();
      EXPECT_LT(weight_outcome(kind, with_text_at(doc, slot, nested(10, false))).size(), kLongestMessage) << kind << slot.to_string();
      // A number beyond a float where a weight goes is refused (converting it would be undefined).
      if (doc[slot].is_number_float()) {
        EXPECT_NE(weight_outcome(kind, with_text_at(doc, slot, "1e39")).find("beyond a 32-bit float"), std::string::npos)
            << kind << slot.to_string();
      }
    }
    EXPECT_GT(cases, 60) << kind;
    const std::string message = weight_outcome(kind, with_text_at(doc, json::json_pointer("/name"), '"' + std::string(10 << 20, 'n') + '"'));
    EXPECT_LT(message.size(), 400u) << kind;
    for (const auto& object : objects(doc)) {
      const std::string key = doc[object].begin().key();
      EXPECT_NE(weight_outcome(kind, with_first_key_twice(doc, object)).find("key '" + key + "' given twice"), std::string::npos)
          << kind << object.to_string();
    }
  }
}

TEST(InputLimits, LayersWiderOrMoreThanANetworkHoldsAreRefused) {
  for (const auto& [kind, doc] : weight_files()) {
    if (kind == "linear") continue;
    for (const char* list : {"/layers/0/bias", "/layers/1/weights", "/layers/1/weights/0", "/layers/0/weights"}) {
      json wide = doc;
      const json::json_pointer at(list);
      while (wide[at].size() <= SmallMlp::kMaxWidth + 5) wide[at].push_back(wide[at][0]);
      const std::string message = weight_outcome(kind, wide.dump());
      // "layer 1 has 70x3 weights and 1 biases; expected 3 inputs, 1 output (the last layer)" and the like
      EXPECT_TRUE(std::regex_search(message, std::regex("layer [01] has [0-9]+x[0-9]+ weights and [0-9]+ biases; expected .*"))) << message;
      EXPECT_NE(message.find(std::to_string(SmallMlp::kMaxWidth + 6)), std::string::npos) << kind << list << ": " << message;
    }
    // Layers that chain (the hidden one to 1 output, then 1 to 1): each holds 16 KB, so many would take
    // gigabytes; they are counted before any is read.
    const size_t hidden = doc["layers"][0]["bias"].size();
    for (const size_t count : {SmallMlp::kMaxLayers, SmallMlp::kMaxLayers + 1, size_t{20000}}) {
      json many = doc;
      many["layers"] = {doc["layers"][0], {{"weights", {std::vector<double>(hidden, 0.5)}}, {"bias", {0.0}}}};
      while (many["layers"].size() < count) many["layers"].push_back({{"weights", {{0.5}}}, {"bias", {0.0}}});
      const std::string message = weight_outcome(kind, many.dump());
      if (count <= SmallMlp::kMaxLayers) EXPECT_EQ(message, "") << kind;
      else EXPECT_NE(message.find("has " + std::to_string(count) + " layers; a network has at most 16"), std::string::npos) << kind << ": " << message;
    }
  }
}

// A temporary folder, removed with what it holds.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char name[] = "/tmp/meeple-input-XXXXXX";
    path = ::mkdtemp(name);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
};

// What reading `path` whole gets: its text, or "error: MESSAGE".
std::string read_outcome(const std::string& path, size_t cap) {
  try {
    return InputFile(path, "test file").read_all(cap);
  } catch (const std::invalid_argument& e) {
    return std::string("error: ") + e.what();
  }
}

TEST(InputLimits, OnlyRegularFilesAreReadAndNeverWaitedFor) {
  const TempDir dir;
  // Named FILE.json so that bot specs take them as weight files too.
  const std::string fifo = (dir.path / "fifo.json").string(), folder = (dir.path / "folder.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::filesystem::create_directory(folder);
  for (const char* device : {"zero", "urandom", "null"})
    std::filesystem::create_symlink(std::string("/dev/") + device, dir.path / (std::string(device) + ".json"));
  // A FIFO with no writer would block an ordinary open(); /dev/zero and /dev/urandom never end.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {folder, "it is a directory, not a regular file"},
      {fifo, "it is a FIFO (a pipe), not a regular file"},
      {(dir.path / "zero.json").string(), "it is a character device, not a regular file"},
      {(dir.path / "urandom.json").string(), "it is a character device, not a regular file"},
      {(dir.path / "null.json").string(), "it is a character device, not a regular file"},
      {(dir.path / "missing.json").string(), "No such file or directory"},
  };
  for (const auto& [path, why] : refused) {
    EXPECT_EQ(read_outcome(path, 100), "error: cannot read test file '" + path + "': " + why);
    for (const auto& load : {std::function<void()>([&] { load_evaluator(path); }), std::function<void()>([&] { load_policy(path); }),
                             std::function<void()>([&] { make_player("heuristic:eval=" + path, 1); }),
                             std::function<void()>([&] { make_player("mcts:iterations=5,policy=" + path, 1); })}) {
      try {
        load();
        ADD_FAILURE() << path << " was read";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("cannot read"), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_NE(read_outcome(fifo, 100).find("FIFO"), std::string::npos);
}

TEST(InputLimits, FilesAreReadWithACap) {
  const TempDir dir;
  for (const size_t cap : {size_t{0}, size_t{1}, size_t{100}, size_t{65535}, size_t{65536}, size_t{200000}}) {
    const std::string fits = dir.file("fits", std::string(cap, 'a')), over = dir.file("over", std::string(cap + 1, 'a'));
    EXPECT_EQ(read_outcome(fits, cap).size(), cap);
    EXPECT_EQ(read_outcome(over, cap), "error: cannot read test file '" + over + "': it holds more than " + size_text(cap) +
                                           ", the most meeple reads of it");
  }
  // A weight file just over the cap (a sparse file: no disk used) is refused, not read whole.
  const std::string big = (dir.path / "big.json").string();
  ASSERT_EQ(::truncate(dir.file("big.json", "").c_str(), static_cast<off_t>(kMaxWeightFileBytes + 1)), 0);
  for (const auto& load : {std::function<void()>([&] { load_evaluator(big); }), std::function<void()>([&] { load_policy(big); })}) {
    try {
      load();
      ADD_FAILURE() << "a file over the cap was read";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("it holds more than 64 MiB"), std::string::npos) << e.what();
    }
  }
}

TEST(InputLimits, LinesAreReadWithACapNamingTheLine) {
  const TempDir dir;
  // Lines of every length around the cap and around the 64 KiB chunks the file is read in.
  for (const size_t cap : {size_t{3}, size_t{1000}, size_t{65536}, size_t{70000}}) {
    std::vector<std::string> lines;
    for (const size_t n : {size_t{0}, cap / 2, cap, size_t{1}, cap - 1}) lines.push_back(std::string(n, 'a' + static_cast<char>(lines.size())));
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    text.pop_back();  // the last line without "\n"
    InputFile in(dir.file("lines", text), "test file");
    std::string line;
    for (size_t i = 0; i < lines.size(); ++i) {
      ASSERT_TRUE(in.read_line(line, cap)) << cap << " " << i;
      EXPECT_EQ(line, lines[i]);
      EXPECT_EQ(in.line_number(), i + 1);
    }
    EXPECT_FALSE(in.read_line(line, cap));
    for (const size_t bad_line : {size_t{1}, size_t{3}}) {
      std::string over;
      for (size_t i = 1; i <= 4; ++i) over += std::string(i == bad_line ? cap + 1 : 2, 'x') + "\n";
      InputFile file(dir.file("over", over), "test file");
      try {
        while (file.read_line(line, cap)) {
        }
        ADD_FAILURE() << "a line over the cap was read";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("line " + std::to_string(bad_line) + " is longer than " + size_text(cap)), std::string::npos)
            << e.what();
      }
    }
  }
  // A record file of one endless line (sparse) is refused after kMaxRecordBytes, not read whole.
  const std::string endless = dir.file("endless.jsonl", "");
  ASSERT_EQ(::truncate(endless.c_str(), static_cast<off_t>(4 * kMaxRecordBytes)), 0);
  InputFile in(endless, "record file");
  std::string line;
  EXPECT_THROW(in.read_line(line, kMaxRecordBytes), std::invalid_argument);
}

TEST(InputLimits, ExcerptsAreShortWhateverTheyQuote) {
  for (const size_t n : {size_t{0}, size_t{10}, kMaxQuoted, kMaxQuoted + 1, size_t{10} << 20}) {
    const std::string text(n, 'q');
    const std::string e = excerpt(text);
    EXPECT_LE(e.size(), kMaxQuoted + 40);
    if (n <= kMaxQuoted) EXPECT_EQ(e, text);
    else EXPECT_EQ(e, std::string(kMaxQuoted, 'q') + "... (" + std::to_string(n) + " bytes)");
    EXPECT_LE(excerpt_json(json(text)).size(), kMaxQuoted + 10);
    EXPECT_LE(excerpt_json(json::array({text, text})).size(), kMaxQuoted + 10);
  }
  // Cut at a character boundary: what is left is still UTF-8 (a message is JSON in replay --json).
  for (size_t pad = 0; pad < 4; ++pad) {
    std::string text(pad, 'a');
    for (int i = 0; i < 200; ++i) text += "\xe2\x82\xac";  // the euro sign: 3 bytes
    EXPECT_NO_THROW((void)json(excerpt(text)).dump()) << pad;
    EXPECT_NO_THROW((void)json(excerpt_json(json(text))).dump()) << pad;
  }
  // Large and deep values: a prefix of their text, without writing the rest.
  json wide = json::array();
  for (int i = 0; i < 1000000; ++i) wide.push_back(i);
  EXPECT_EQ(excerpt_json(wide).substr(0, 10), "[0,1,2,3,4");
  EXPECT_LE(excerpt_json(wide).size(), kMaxQuoted + 10);
  json deep = 1;
  for (int i = 0; i < 10000; ++i) {  // built here, not parsed: no cap
    json outer = json::array();
    outer.push_back(std::move(deep));
    deep = std::move(outer);
  }
  EXPECT_EQ(excerpt_json(deep), std::string(kMaxQuoted, '[') + "...");
  EXPECT_EQ(excerpt_json(json{{"a", {1, "b", nullptr}}}), R"({"a":[1,"b",null]})");
  // The parser's own messages quote the input too ("last read: ..."): capped as well.
  try {
    (void)parse_json('"' + std::string(1 << 20, 'z') + "\x01\"");
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_LT(std::string(e.what()).size(), 2 * kMaxQuoted + 40);
  }
}

TEST(InputLimits, NamesGivenTwiceInRulesAndBotSpecsAreRefused) {
  std::vector<std::string> names = {"players", "expansions"};
  for (const OptionSpec& o : option_specs()) names.push_back(o.name);
  for (const std::string& name : names) {
    for (const std::string& text : {name + "=a " + name + "=b", "players=2 " + name + "=x " + name + "=x"}) {
      if (name == "players" && text.starts_with("players=2 ")) continue;
      try {
        Rules::parse(text);
        ADD_FAILURE() << text;
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "rules: " + name + " given twice") << text;
      }
    }
  }
  for (const char* e : {"river2", "count", "king_robber", "cult_places", "abbey_mayor"}) {
    const std::string text = std::string("expansions=count,") + e + "," + e;
    const std::string want = "expansion '" + std::string(e) + "' given twice";
    try {
      Rules::parse(text);
      ADD_FAILURE() << text;
    } catch (const std::invalid_argument& err) {
      EXPECT_EQ(std::string(err.what()), want) << text;
    }
  }
  EXPECT_THROW(Rules::parse("expansions=cult_places shrine_sets=ckr+csc+ckr"), std::invalid_argument);
  // Every parameter of every bot, from the help text that lists them.
  const std::string help = bot_spec_help();
  const std::regex bot(R"(([a-z]+)\[:([^\]]*)\])");
  int cases = 0;
  for (auto m = std::sregex_iterator(help.begin(), help.end(), bot); m != std::sregex_iterator(); ++m) {
    const std::string name = (*m)[1];
    const std::regex param(R"(([a-z_]+)=)");
    const std::string params = (*m)[2];
    for (auto p = std::sregex_iterator(params.begin(), params.end(), param); p != std::sregex_iterator(); ++p) {
      const std::string key = (*p)[1];
      const std::string spec = name + ":" + key + "=1," + key + "=2";
      try {
        make_player(spec, 1);
        ADD_FAILURE() << spec;
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "bot " + name + ": parameter " + key + " given twice") << spec;
      }
      ++cases;
    }
  }
  EXPECT_GT(cases, 25);
}

}  // namespace
}  // namespace meeple
