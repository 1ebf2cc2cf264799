// The `meeple` command line: replay records, self-play, perft, info.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "meeple/ai/match.h"
#include "meeple/ai/mcts.h"
#include "meeple/ai/player.h"
#include "meeple/checked.h"
#include "meeple/perft.h"
#include "meeple/random.h"
#include "meeple/record.h"
#include "meeple/version.h"


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
  try {
    rules.players = checked<uint8_t>(players, 2, kMaxPlayers);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--players ") + e.what());
  }
  for (const std::string& e : split_commas(expansions)) rules.add_expansion(e);
  for (const std::string& o : options) {
    const auto eq = o.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("--option wants NAME=VALUE, got '" + o + "'");
    rules.set_option(o.substr(0, eq), o.substr(eq + 1));
  }
  rules.validate();
  return rules;
}

// Records keep seeds as signed 64-bit numbers: the last game's must fit too.
void check_last_seed(uint64_t first, uint64_t offset) {
  if (first > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - offset)
    throw std::invalid_argument("--seed: the last game's seed (" + std::to_string(first) + " + " + std::to_string(offset) +
                                ") must be at most " + std::to_string(std::numeric_limits<int64_t>::max()));
}

// JSON for the terminal: bytes that are not UTF-8 (from a bad record, quoted in an error) become U+FFFD
// instead of stopping the output.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string read_all(const std::string& path) {
  if (path == "-") return std::string((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::invalid_argument("'" + path + "' is a directory, not a record file");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::invalid_argument("cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw std::invalid_argument("cannot read '" + path + "': " + std::strerror(errno));
  return text.str();
}

int run_replay(const std::string& path, bool as_json) {
  std::string text;
  try {
    text = read_all(path);
  } catch (const std::invalid_argument& e) {
    if (!as_json) throw;
    std::cout << dump(json{{"error", {{"action", -1}, {"message", e.what()}}}}) << "\n";
    return kBadInput;
  }
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
        std::cout << dump(scores_json(final_state)) << "\n";
      } else {
        std::cout << where << ": " << (final_state.is_terminal() ? "final" : "unfinished") << " scores";
        for (int p = 0; p < final_state.num_players(); ++p) std::cout << " " << final_state.score(p);
        std::cout << "\n";
      }
    } catch (const RecordError& e) {
      status = kBadInput;
      if (as_json) {
        std::cout << dump(json{{"error", {{"action", e.action()}, {"message", e.what()}}}}) << "\n";
      } else {
        std::cerr << where << ": " << e.what() << "\n";
      }
    }
  }
  return status;
}

struct SeatStats {
  int64_t win_units = 0;
  int64_t score = 0;
  std::array<int64_t, kNumCategories> categories{};
};

// Where --out records go. A regular file (new or not) is written under a temporary name beside it and
// renamed over it only once the run has finished well, so a failed run leaves an existing file as it
// was; anything else (a pipe, /dev/stdout) is written in place. A write error is an error.
class RecordFile {
 public:
  explicit RecordFile(const std::string& path) : path_(path) {
    if (path.empty()) return;
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (fs::is_directory(status)) throw std::invalid_argument("--out '" + path + "' is a directory; give a file name");
    const bool in_place = fs::exists(status) && !fs::is_regular_file(status);
    if (!in_place) temp_ = path + ".partial-" + std::to_string(getpid());
    out_.open(in_place ? path : temp_, std::ios::out | std::ios::trunc | std::ios::binary);
    if (!out_) throw std::invalid_argument("cannot write '" + path + "': " + std::strerror(errno));
  }
  RecordFile(const RecordFile&) = delete;
  RecordFile& operator=(const RecordFile&) = delete;
  ~RecordFile() {
    if (temp_.empty()) return;
    out_.close();
    std::remove(temp_.c_str());  // the run failed: the file it would have replaced stays
  }
  explicit operator bool() const { return !path_.empty(); }
  void write(const std::string& line) {
    out_ << line << '\n';
    out_.flush();
    if (!out_) throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
  }
  // Every record written: the file takes its place.
  void commit() {
    if (path_.empty()) return;
    out_.close();
    if (out_.fail()) throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
    if (temp_.empty()) return;
    std::error_code ec;
    std::filesystem::rename(temp_, path_, ec);
    if (ec) throw std::runtime_error("cannot write '" + path_ + "': " + ec.message());
    temp_.clear();
  }

 private:
  std::string path_, temp_;
  std::ofstream out_;
};

// Plays game(0) .. game(count - 1) with a progress line (on a terminal), keeping none of them: each
// finished game goes to `finished` and its record to `out`.
void play_streaming(const Rules& rules, size_t count, const std::function<GameSpec(size_t)>& game, int jobs, RecordFile& out,
                    const std::function<void(size_t, const State&)>& finished) {
  const bool progress = count >= 20 && isatty(fileno(stderr));
  size_t done = 0;
  stream_games(rules, count, game, jobs, static_cast<bool>(out), [&](int g, const State& final_state, const std::string& line) {
    if (out) out.write(line);
    finished(static_cast<size_t>(g), final_state);
    ++done;
    if (progress && (done % std::max<size_t>(1, count / 100) == 0 || done == count))
      std::cerr << "\r" << done << "/" << count << " games" << std::flush;
  });
  if (progress) std::cerr << "\r" << std::string(30, ' ') << "\r";
  out.commit();
}

int run_selfplay(int players, int games, int jobs, uint64_t seed, const std::vector<std::string>& bots, const std::string& expansions,
                 const std::vector<std::string>& options, const std::string& out_path) {
  const Rules rules = make_rules(players, expansions, options);
  check_last_seed(seed, static_cast<uint64_t>(games - 1));
  if (bots.size() != 1 && static_cast<int>(bots.size()) != players)
    throw std::invalid_argument("--bot takes one bot for every seat or one per seat (" + std::to_string(players) + ")");
  for (const std::string& b : bots) (void)make_player(b, 0);  // validate names before playing
  std::vector<std::string> seat_bots(players);
  for (int p = 0; p < players; ++p) seat_bots[p] = bots.size() == 1 ? bots[0] : bots[p];
  RecordFile out(out_path);
  std::vector<SeatStats> stats(players);
  play_streaming(rules, static_cast<size_t>(games), [&](size_t g) { return GameSpec{seat_bots, seed + g}; }, jobs, out,
                 [&](size_t, const State& state) {
                   const auto units = win_units(state);
                   for (int p = 0; p < players; ++p) {
                     stats[p].win_units += units[p];
                     stats[p].score += state.score(p);
                     for (int c = 0; c < kNumCategories; ++c) stats[p].categories[c] += state.score(p, c);
                   }
                 });
  const double n = games;
  std::printf("%d games, %d players, rules: %s\n", games, players, rules.to_string().c_str());
  std::printf("%-5s %-22s %8s %7s %8s", "seat", "bot", "wins", "win%", "score");
  for (int c = 0; c < kNumCategories; ++c) std::printf(" %8s", category_name(c));
  std::printf("\n");
  for (int p = 0; p < players; ++p) {
    const double wins = static_cast<double>(stats[p].win_units) / kWinUnits;
    std::printf("%-5d %-22s %8.1f %6.1f%% %8.2f", p, seat_bots[p].c_str(), wins, 100.0 * wins / n,
                static_cast<double>(stats[p].score) / n);
    for (int c = 0; c < kNumCategories; ++c) std::printf(" %8.2f", static_cast<double>(stats[p].categories[c]) / n);
    std::printf("\n");
  }
  return 0;
}

// The bots, one per seat, rotate through the seats over each tile order (ai/match.h schedule: with as many
// bots as seats there is one group).
int run_match(const std::vector<std::string>& bots, int games, int players, int jobs, uint64_t seed, const std::string& expansions,
              const std::vector<std::string>& options, const std::string& out_path) {
  if (players == 0) players = static_cast<int>(bots.size());
  const Rules rules = make_rules(players, expansions, options);
  if (static_cast<int>(bots.size()) != players)
    throw std::invalid_argument("--bots needs one bot per seat (" + std::to_string(players) +
                                "); repeat a bot to fill seats, e.g. --bots mcts greedy greedy");
  if (games % players != 0)
    throw std::invalid_argument("--games must be a multiple of --players (" + std::to_string(players) +
                                ") so that every tile order is played from every seat");
  check_last_seed(seed, static_cast<uint64_t>(games / players - 1));
  for (const std::string& b : bots) (void)make_player(b, 0);
  std::vector<std::string> names;  // distinct bots, in the order given
  for (const std::string& b : bots)
    if (std::find(names.begin(), names.end(), b) == names.end()) names.push_back(b);
  struct BotStats {
    int games = 0;
    int64_t win_units = 0, score = 0, margin = 0;
  };
  std::vector<BotStats> stats(names.size());
  RecordFile out(out_path);
  const std::vector<Seating> plan = schedule(players, static_cast<size_t>(games), players, seed);
  auto seat_bots_of = [&](size_t g) {
    std::vector<std::string> seat_bots;
    for (int bot : plan[g].seats) seat_bots.push_back(bots[static_cast<size_t>(bot)]);
    return seat_bots;
  };
  play_streaming(rules, static_cast<size_t>(games), [&](size_t g) { return GameSpec{seat_bots_of(g), plan[g].seed}; },
                 jobs, out, [&](size_t g, const State& state) {
    const auto seat_bots = seat_bots_of(g);
    const auto units = win_units(state);
    for (int p = 0; p < players; ++p) {
      BotStats& st = stats[std::find(names.begin(), names.end(), seat_bots[p]) - names.begin()];
      int best_other = -1000000;
      for (int q = 0; q < players; ++q)
        if (q != p) best_other = std::max(best_other, state.score(q));
      ++st.games;
      st.win_units += units[p];
      st.score += state.score(p);
      st.margin += state.score(p) - best_other;
    }
  });
  std::printf("%d games (%d tile orders, seats rotated), %d players, rules: %s\n", games, games / players, players,
              rules.to_string().c_str());
  std::printf("%-28s %6s %8s %7s %17s %8s %8s\n", "bot", "games", "wins", "win%", "95% interval", "score", "margin");
  for (size_t i = 0; i < names.size(); ++i) {
    const BotStats& st = stats[i];
    const double wins = static_cast<double>(st.win_units) / kWinUnits, n = st.games;
    const auto [lo, hi] = wilson(wins, st.games);
    std::printf("%-28s %6d %8.1f %6.1f%% [%5.1f%%, %5.1f%%] %8.2f %+8.2f\n", names[i].c_str(), st.games, wins,
                100.0 * wins / n, 100 * lo, 100 * hi, static_cast<double>(st.score) / n, static_cast<double>(st.margin) / n);
  }
  return 0;
}

// Where an MCTS bot's simulations go: positions with a tile in hand from heuristic self-play (turns 10, 30
// and 50 of each game), searched afresh with each budget; one row per budget, figures averaged over the
// positions. See MctsPlayer::Profile.
int run_analyze(const std::string& bot, const std::vector<int>& budgets, int games, int players, uint64_t seed,
                const std::string& expansions, const std::vector<std::string>& options) {
  if (bot.substr(0, bot.find(':')) != "mcts") throw std::invalid_argument("--bot must be an mcts spec, e.g. mcts:c=0.4");
  const Rules rules = make_rules(players, expansions, options);
  const std::string sep = bot.find(':') == std::string::npos ? ":" : bot.back() == ':' ? "" : ",";
  for (int b : budgets)
    if (b < 1) throw std::invalid_argument("--iterations must be positive");
  // A bad spec fails before any game is played.
  auto mcts_bot = [&](int iterations, uint64_t bot_seed) {
    auto player = make_player(bot + sep + "iterations=" + std::to_string(iterations) + ",reuse=0", bot_seed);
    return std::unique_ptr<MctsPlayer>(static_cast<MctsPlayer*>(player.release()));  // an mcts spec makes one
  };
  (void)mcts_bot(1, 0);
  std::vector<State> positions;
  for (int g = 0; g < games; ++g) {
    int placements = 0;
    std::vector<std::string> heuristic(static_cast<size_t>(players), "heuristic");
    play_game(rules, {heuristic, seed + static_cast<uint64_t>(g)}, nullptr, nullptr, [&](const State& s, const Player&) {
      if (s.phase() != Phase::kPlace) return;
      ++placements;
      if (placements == 10 || placements == 30 || placements == 50) positions.push_back(s);
    });
  }
  std::printf("%zu positions (turns 10, 30, 50 of %d heuristic games), rules: %s, bot: %s\n", positions.size(), games,
              rules.to_string().c_str(), bot.c_str());
  std::printf("%9s %7s %6s %6s %6s %6s %6s %6s %6s %6s %6s  %s\n", "sims", "root", "best", "leafD", "leafT", "pvD",
              "pvT", "draw%", "wide%", "root%", "maxD", "share of simulations reaching depth 1, 2, 3, ...");
  for (int budget : budgets) {
    const int kDepths = 12;
    double root = 0, best = 0, leaf_depth = 0, leaf_turns = 0, pv_depth = 0, pv_turns = 0, draw = 0, wide = 0,
           at_root = 0, max_depth = 0;
    std::vector<double> reach(kDepths, 0);
    for (size_t i = 0; i < positions.size(); ++i) {
      const auto mcts = mcts_bot(budget, seed + i);
      mcts->choose(positions[i]);
      const MctsPlayer::Profile p = mcts->profile();
      const double sims = static_cast<double>(std::max<int64_t>(1, p.simulations));
      root += p.root_children;
      best += p.best_share;
      leaf_depth += p.mean_leaf_depth;
      leaf_turns += p.mean_leaf_turns;
      pv_depth += p.principal_depth;
      pv_turns += p.principal_turns;
      draw += static_cast<double>(p.ended_after_draw) / sims;
      wide += static_cast<double>(p.ended_in_wide) / sims;
      at_root += static_cast<double>(p.ended_at_root) / sims;
      max_depth += static_cast<double>(p.depths.size()) - 1;
      for (size_t d = 1; d < p.depths.size() && d <= kDepths; ++d) reach[d - 1] += static_cast<double>(p.depths[d].visits) / sims;
    }
    const double n = static_cast<double>(std::max<size_t>(1, positions.size()));
    std::printf("%9d %7.1f %6.2f %6.2f %6.2f %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f ", budget, root / n, best / n,
                leaf_depth / n, leaf_turns / n, pv_depth / n, pv_turns / n, 100 * draw / n, 100 * wide / n,
                100 * at_root / n, max_depth / n);
    for (int d = 0; d < kDepths; ++d) std::printf(" %.2f", reach[static_cast<size_t>(d)] / n);
    std::printf("\n");
    std::fflush(stdout);
  }
  std::printf("root: root children; best: the chosen child's share of root visits; leafD/leafT: mean steps and tile draws\n"
              "below the root where simulations ended; pvD/pvT: the same along the principal line (nodes with >= %d\n"
              "visits); draw%%/wide%%/root%%: simulations ended at a drawn tile's first visit / at a first visit below a\n"
              "decision with >= %d children / at a root child; maxD: deepest node\n",
              MctsPlayer::Profile::kPrincipalVisits, MctsPlayer::Profile::kWide);
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
    expansions.push_back({{"name", expansion_name(e)}});
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
  for (const json& e : expansions) std::cout << " " << e["name"].get<std::string>();
  std::cout << "\noptions:\n";
  for (const json& o : options) std::cout << "  " << o["name"].get<std::string>() << " = " << o["values"].dump() << "  " << o["note"].get<std::string>() << "\n";
  std::cout << "tile sets:\n";
  for (auto it = sets.begin(); it != sets.end(); ++it) std::cout << "  " << it.key() << ": " << it.value()["tiles"] << " tiles\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"meeple: a Carcassonne engine for AI research"};
  // Records keep seeds as signed 64-bit numbers.
  const CLI::Range kSeedRange(uint64_t{0}, uint64_t{std::numeric_limits<int64_t>::max()});
  app.require_subcommand(1);

  auto* replay_cmd = app.add_subcommand("replay", "Replay a meeple-game/1 record (or a .jsonl of them) and print the scores");
  std::string replay_path;
  bool replay_json = false;
  replay_cmd->add_option("FILE", replay_path, "record file (.json or .jsonl; - for standard input)")->required();
  replay_cmd->add_flag("--json", replay_json, "print the spec's JSON output (scores and breakdown, or the error)");

  auto* selfplay_cmd = app.add_subcommand("selfplay", "Play games between built-in bots and print wins and mean scores");
  int players = 2, games = 100, jobs = 1;
  uint64_t seed = 1;
  std::vector<std::string> bots{"random"};
  std::string expansions, out_path;
  std::vector<std::string> options;
  selfplay_cmd->add_option("--players", players, "number of players, 2 to 6")->capture_default_str();
  selfplay_cmd->add_option("--games", games, "number of games")->capture_default_str()->check(CLI::PositiveNumber);
  selfplay_cmd->add_option("--seed", seed, "seed of the first game (game g uses seed + g)")->capture_default_str()->check(kSeedRange);
  selfplay_cmd->add_option("--bot", bots, "one bot spec for all seats, or one per seat; " + bot_spec_help())->capture_default_str();
  selfplay_cmd->add_option("--expansions", expansions, "comma-separated: river2, count, king_robber, cult_places, abbey_mayor");
  selfplay_cmd->add_option("--option", options, "rule option NAME=VALUE (repeatable), e.g. small_city=two_points");
  selfplay_cmd->add_option("--jobs", jobs, "games played at once (threads)")->capture_default_str()->check(CLI::Range(1, 256));
  selfplay_cmd->add_option("--out", out_path, "write every game as a meeple-game/1 record to this .jsonl file");

  auto* match_cmd = app.add_subcommand("match", "Bots against each other: seats rotated over paired tile orders, win rates with Wilson intervals");
  std::vector<std::string> match_bots;
  int match_players = 0, match_games = 100;
  match_cmd->add_option("--bots", match_bots, "one bot spec per seat; " + bot_spec_help())->required();
  match_cmd->add_option("--games", match_games, "number of games (a multiple of the players)")->capture_default_str()->check(CLI::PositiveNumber);
  match_cmd->add_option("--players", match_players, "number of players (default: one per bot)");
  match_cmd->add_option("--seed", seed, "seed of the first tile order")->capture_default_str()->check(kSeedRange);
  match_cmd->add_option("--expansions", expansions, "comma-separated: river2, count, king_robber, cult_places, abbey_mayor");
  match_cmd->add_option("--option", options, "rule option NAME=VALUE (repeatable)");
  match_cmd->add_option("--jobs", jobs, "games played at once (threads); results do not depend on it")->capture_default_str()->check(CLI::Range(1, 256));
  match_cmd->add_option("--out", out_path, "write every game as a meeple-game/1 record (names are the bot specs)");

  auto* perft_cmd = app.add_subcommand("perft", "Count legal action sequences to a depth along a seeded draw order");
  int depth = 4;
  perft_cmd->add_option("--seed", seed, "seed of the draw order")->capture_default_str()->check(kSeedRange);
  perft_cmd->add_option("--depth", depth, "decisions deep, 1 to 12")->capture_default_str();
  perft_cmd->add_option("--players", players, "number of players")->capture_default_str();
  perft_cmd->add_option("--expansions", expansions, "comma-separated expansion names");

  auto* analyze_cmd = app.add_subcommand("analyze", "Where an MCTS bot's simulations go (depths, principal line, chance and wide nodes) at several budgets");
  std::string analyze_bot = "mcts";
  std::vector<int> analyze_budgets{1000, 4000, 16000, 64000};
  int analyze_games = 4;
  analyze_cmd->add_option("--bot", analyze_bot, "an mcts bot spec (iterations are set per row)")->capture_default_str();
  analyze_cmd->add_option("--iterations", analyze_budgets, "simulation budgets, one row each")->capture_default_str()->delimiter(',');
  analyze_cmd->add_option("--games", analyze_games, "heuristic games to take positions from (3 each)")->capture_default_str()->check(CLI::Range(1, 1000));
  analyze_cmd->add_option("--players", players, "number of players")->capture_default_str();
  analyze_cmd->add_option("--seed", seed, "seed of the first game")->capture_default_str()->check(kSeedRange);
  analyze_cmd->add_option("--expansions", expansions, "comma-separated expansion names");
  analyze_cmd->add_option("--option", options, "rule option NAME=VALUE (repeatable)");

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
    if (selfplay_cmd->parsed()) return run_selfplay(players, games, jobs, seed, bots, expansions, options, out_path);
    if (match_cmd->parsed()) return run_match(match_bots, match_games, match_players, jobs, seed, expansions, options, out_path);
    if (perft_cmd->parsed()) return run_perft(seed, depth, players, expansions);
    if (info_cmd->parsed()) return run_info(info_json);
    if (analyze_cmd->parsed()) return run_analyze(analyze_bot, analyze_budgets, analyze_games, players, seed, expansions, options);
  } catch (const std::exception& e) {  // bad input, or a file that cannot be read or written
    std::cerr << "meeple: " << e.what() << "\n";
    return kBadInput;
  }
  return 0;
}
