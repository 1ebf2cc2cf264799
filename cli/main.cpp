// The `meeple` command line: replay records, self-play, perft, info.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "meeple/ai/player.h"
#include "meeple/perft.h"
#include "meeple/random.h"
#include "meeple/record.h"

using nlohmann::json;
using namespace meeple;

namespace {

// Exit status for bad input (records, files, arguments), as the record spec asks for replay errors.
constexpr int kBadInput = 2;

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

Rules make_rules(int players, const std::string& expansions, const std::vector<std::string>& options) {
  Rules rules;
  rules.players = static_cast<uint8_t>(players);
  for (const std::string& e : split_commas(expansions)) rules.add_expansion(e);
  for (const std::string& o : options) {
    const auto eq = o.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("--option wants NAME=VALUE, got '" + o + "'");
    rules.set_option(o.substr(0, eq), o.substr(eq + 1));
  }
  rules.validate();
  return rules;
}

int run_replay(const std::string& path, bool as_json) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path);
    if (!file) {
      std::cerr << "meeple replay: cannot open '" << path << "'\n";
      return kBadInput;
    }
    in = &file;
  }
  std::string text((std::istreambuf_iterator<char>(*in)), std::istreambuf_iterator<char>());
  // One record, or JSON Lines with one record a line.
  std::vector<std::string> records;
  if (json::accept(text)) {
    records.push_back(text);
  } else {
    std::stringstream lines(text);
    for (std::string line; std::getline(lines, line);)
      if (line.find_first_not_of(" \t\r") != std::string::npos) records.push_back(line);
    if (records.empty()) records.push_back(text);
  }
  int status = 0;
  for (size_t r = 0; r < records.size(); ++r) {
    const std::string where = records.size() > 1 ? path + " line " + std::to_string(r + 1) : path;
    try {
      const State final_state = replay(parse_record(records[r]));
      if (as_json) {
        std::cout << scores_json(final_state).dump() << "\n";
      } else {
        std::cout << where << ": " << (final_state.is_terminal() ? "final" : "unfinished") << " scores";
        for (int p = 0; p < final_state.num_players(); ++p) std::cout << " " << final_state.score(p);
        std::cout << "\n";
      }
    } catch (const RecordError& e) {
      status = kBadInput;
      if (as_json) {
        std::cout << json{{"error", {{"action", e.action()}, {"message", e.what()}}}}.dump() << "\n";
      } else {
        std::cerr << where << ": " << e.what() << "\n";
      }
    }
  }
  return status;
}

struct SeatStats {
  double wins = 0;
  double score = 0;
  std::array<double, kNumCategories> categories{};
};

int run_selfplay(int players, int games, uint64_t seed, const std::vector<std::string>& bots, const std::string& expansions,
                 const std::vector<std::string>& options, const std::string& out_path) {
  const Rules rules = make_rules(players, expansions, options);
  if (bots.size() != 1 && static_cast<int>(bots.size()) != players)
    throw std::invalid_argument("--bot takes one bot for every seat or one per seat (" + std::to_string(players) + ")");
  for (const std::string& b : bots) (void)make_player(b, 0);  // validate names before playing
  std::ofstream out;
  if (!out_path.empty()) {
    out.open(out_path);
    if (!out) throw std::invalid_argument("cannot write '" + out_path + "'");
  }
  std::vector<SeatStats> stats(players);
  const bool progress = games >= 100 && isatty(fileno(stderr));
  for (int g = 0; g < games; ++g) {
    const uint64_t game_seed = seed + static_cast<uint64_t>(g);
    std::vector<std::unique_ptr<Player>> seats;
    std::vector<std::string> names;
    for (int p = 0; p < players; ++p) {
      names.push_back(bots.size() == 1 ? bots[0] : bots[p]);
      seats.push_back(make_player(names.back(), game_seed * 16 + static_cast<uint64_t>(p) + 1));
    }
    Dealer dealer(game_seed);
    State state(rules);
    RecordBuilder record(rules, names, static_cast<int64_t>(game_seed));
    while (!state.is_terminal()) {
      const Action a = state.is_chance() ? dealer.deal(state) : seats[state.current_player()]->choose(state);
      if (out) record.add(state, a);
      state.apply(a);
    }
    const auto winners = state.winners();
    int num_winners = 0;
    for (int p = 0; p < players; ++p) num_winners += winners[p];
    for (int p = 0; p < players; ++p) {
      stats[p].wins += winners[p] ? 1.0 / num_winners : 0.0;
      stats[p].score += state.score(p);
      for (int c = 0; c < kNumCategories; ++c) stats[p].categories[c] += state.score(p, c);
    }
    if (out) out << record.finish(state).to_line() << "\n" << std::flush;
    if (progress && (g + 1) % std::max(1, games / 100) == 0)
      std::cerr << "\r" << (g + 1) << "/" << games << " games" << std::flush;
  }
  if (progress) std::cerr << "\r" << std::string(30, ' ') << "\r";
  std::printf("%d games, %d players, rules: %s\n", games, players, rules.to_string().c_str());
  std::printf("%-5s %-8s %8s %7s %8s", "seat", "bot", "wins", "win%", "score");
  for (int c = 0; c < kNumCategories; ++c) std::printf(" %8s", category_name(c));
  std::printf("\n");
  for (int p = 0; p < players; ++p) {
    std::printf("%-5d %-8s %8.1f %6.1f%% %8.2f", p, (bots.size() == 1 ? bots[0] : bots[p]).c_str(), stats[p].wins,
                100.0 * stats[p].wins / games, stats[p].score / games);
    for (int c = 0; c < kNumCategories; ++c) std::printf(" %8.2f", stats[p].categories[c] / games);
    std::printf("\n");
  }
  return 0;
}

int run_perft(uint64_t seed, int depth, int players, const std::string& expansions) {
  if (depth < 1 || depth > 12) throw std::invalid_argument("--depth must be 1 to 12");
  const State root(make_rules(players, expansions, {}));
  const auto order = seeded_draw_order(root, seed);
  const auto counts = perft(root, order, depth);
  std::printf("perft seed %llu, rules: %s\nfirst draws:", static_cast<unsigned long long>(seed), root.rules().to_string().c_str());
  for (int i = 0; i < 6 && i < static_cast<int>(order.size()); ++i) std::printf(" %s", TileCatalog::get()[order[i]].id.c_str());
  std::printf("\n%-6s %16s\n", "depth", "nodes");
  for (int d = 0; d < depth; ++d) std::printf("%-6d %16llu\n", d + 1, static_cast<unsigned long long>(counts[d]));
  return 0;
}

int run_info(bool as_json) {
  const TileCatalog& c = TileCatalog::get();
  json info;
  info["version"] = MEEPLE_VERSION;
  info["record_format"] = kRecordFormat;
  json expansions = json::array();
  for (int i = 0; i < kNumExpansions; ++i) {
    const auto e = static_cast<Expansion>(1 << i);
    expansions.push_back({{"name", expansion_name(e)}, {"implemented", (kImplementedExpansions & e) != 0}});
  }
  info["expansions"] = expansions;
  json options = json::array();
  for (const OptionSpec& o : option_specs()) {
    json values = json::array();
    for (const char* v : o.values) values.push_back(v);
    options.push_back({{"name", o.name},
                       {"values", values},
                       {"default", o.is_set ? json::array({o.values[0]}) : json(o.values[0])},
                       {"expansion", o.expansion ? expansion_name(static_cast<Expansion>(o.expansion)) : "base"},
                       {"note", o.note}});
  }
  info["options"] = options;
  json sets = json::object();
  for (const TileSet& s : c.sets()) sets[s.name] = {{"tiles", s.total()}, {"types", s.counts.size()}};
  info["tile_sets"] = sets;
  info["tile_types"] = c.size();
  info["state_size_bytes"] = kStateBytes;
  info["max_players"] = kMaxPlayers;
  if (as_json) {
    std::cout << info.dump(2) << "\n";
    return 0;
  }
  std::cout << "meeple " << MEEPLE_VERSION << " (records: " << kRecordFormat << ")\n"
            << "state size: " << kStateBytes << " bytes\nexpansions:";
  for (const json& e : expansions) std::cout << " " << e["name"].get<std::string>() << (e["implemented"] ? "" : " (not yet)");
  std::cout << "\noptions:\n";
  for (const json& o : options) std::cout << "  " << o["name"].get<std::string>() << " = " << o["values"].dump() << "  " << o["note"].get<std::string>() << "\n";
  std::cout << "tile sets:\n";
  for (auto it = sets.begin(); it != sets.end(); ++it) std::cout << "  " << it.key() << ": " << it.value()["tiles"] << " tiles\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"meeple: a Carcassonne engine for AI research"};
  app.require_subcommand(1);

  auto* replay_cmd = app.add_subcommand("replay", "Replay a meeple-game/1 record (or a .jsonl of them) and print the scores");
  std::string replay_path;
  bool replay_json = false;
  replay_cmd->add_option("FILE", replay_path, "record file (.json or .jsonl; - for standard input)")->required();
  replay_cmd->add_flag("--json", replay_json, "print the spec's JSON output (scores and breakdown, or the error)");

  auto* selfplay_cmd = app.add_subcommand("selfplay", "Play games between built-in bots and print wins and mean scores");
  int players = 2, games = 100;
  uint64_t seed = 1;
  std::vector<std::string> bots{"random"};
  std::string expansions, out_path;
  std::vector<std::string> options;
  selfplay_cmd->add_option("--players", players, "number of players, 2 to 6")->capture_default_str();
  selfplay_cmd->add_option("--games", games, "number of games")->capture_default_str()->check(CLI::PositiveNumber);
  selfplay_cmd->add_option("--seed", seed, "seed of the first game (game g uses seed + g)")->capture_default_str();
  selfplay_cmd->add_option("--bot", bots, "random or greedy: one for all seats, or one per seat")->capture_default_str();
  selfplay_cmd->add_option("--expansions", expansions, "comma-separated: river2, count, king_robber, cult_places, abbey_mayor");
  selfplay_cmd->add_option("--option", options, "rule option NAME=VALUE (repeatable), e.g. small_city=two_points");
  selfplay_cmd->add_option("--out", out_path, "write every game as a meeple-game/1 record to this .jsonl file");

  auto* perft_cmd = app.add_subcommand("perft", "Count legal action sequences to a depth along a seeded draw order");
  int depth = 4;
  perft_cmd->add_option("--seed", seed, "seed of the draw order")->capture_default_str();
  perft_cmd->add_option("--depth", depth, "decisions deep, 1 to 12")->capture_default_str();
  perft_cmd->add_option("--players", players, "number of players")->capture_default_str();
  perft_cmd->add_option("--expansions", expansions, "comma-separated expansion names");

  auto* info_cmd = app.add_subcommand("info", "Version, expansions, options, tile sets, state size");
  bool info_json = false;
  info_cmd->add_flag("--json", info_json, "as JSON");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kBadInput;
  }
  try {
    if (replay_cmd->parsed()) return run_replay(replay_path, replay_json);
    if (selfplay_cmd->parsed()) return run_selfplay(players, games, seed, bots, expansions, options, out_path);
    if (perft_cmd->parsed()) return run_perft(seed, depth, players, expansions);
    if (info_cmd->parsed()) return run_info(info_json);
  } catch (const std::invalid_argument& e) {
    std::cerr << "meeple: " << e.what() << "\n";
    return kBadInput;
  }
  return 0;
}
