#include "meeple/ai/match.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <stdexcept>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "meeple/ai/bots.h"
#include "meeple/ai/player.h"
#include "meeple/random.h"
#include "meeple/record.h"

namespace meeple {

namespace {

// One game's seats; specs already in `checked` are not built again (weight files load once).
void check_game(const Rules& rules, const GameSpec& game, std::vector<std::string>& checked) {
  if (static_cast<int>(game.bots.size()) != rules.players)
    throw std::invalid_argument("a game needs one bot per seat (" + std::to_string(rules.players) + "), got " +
                                std::to_string(game.bots.size()));
  for (const std::string& b : game.bots) {
    if (std::find(checked.begin(), checked.end(), b) != checked.end()) continue;
    make_player(b, 0)->check_rules(rules);
    checked.push_back(b);
  }
}

}  // namespace


Table::Table(const Rules& rules, std::vector<Player*> seats, std::vector<std::string> names, uint64_t seed, bool record,
             bool check_choices)
    : seats_(std::move(seats)),
      names_(std::move(names)),
      dealer_(seed),
      state_(rules),
      record_(rules, names_, static_cast<int64_t>(seed)),
      recording_(record),
      check_choices_(check_choices) {
  if (static_cast<int>(seats_.size()) != rules.players || names_.size() != seats_.size())
    throw std::invalid_argument("a game needs one player and one name per seat (" + std::to_string(rules.players) + "), got " +
                                std::to_string(seats_.size()) + " players and " + std::to_string(names_.size()) + " names");
}

void Table::advance(const std::atomic<bool>* stop, const DecisionSeen& on_decision, const ActionSeen& on_action) {
  while (!state_.is_terminal()) {
    if (stop && stop->load(std::memory_order_relaxed)) return;
    if (state_.is_chance()) {
      step(dealer_.deal(state_), on_action);
      continue;
    }
    const int seat = state_.current_player();
    Player* chooser = seats_[static_cast<size_t>(seat)];
    if (!chooser) return;  // the caller's seat
    const Action a = chooser->choose(state_);
    if (check_choices_ && !state_.is_legal(a))
      throw IllegalChoice("bot " + names_[static_cast<size_t>(seat)] + " at seat " + std::to_string(seat) + " chose " +
                          a.to_string() + ": " + state_.why_illegal(a));
    if (on_decision) on_decision(state_, *chooser);
    step(a, on_action);
  }
}

void Table::act(Action a, const ActionSeen& on_action) {
  if (state_.is_terminal() || state_.is_chance() || seats_[static_cast<size_t>(state_.current_player())])
    throw std::logic_error(state_.is_terminal() ? "the game is over"
                           : state_.is_chance() ? "the tiles are dealt by the table, not by act()"
                                                : "seat " + std::to_string(state_.current_player()) + " (" +
                                                      names_[static_cast<size_t>(state_.current_player())] +
                                                      ") is played by its bot: advance() first");
  if (!state_.is_legal(a))
    throw IllegalChoice(names_[static_cast<size_t>(state_.current_player())] + " at seat " + std::to_string(state_.current_player()) +
                        " chose " + a.to_string() + ": " + state_.why_illegal(a));
  step(a, on_action);
}

void Table::step(Action a, const ActionSeen& on_action) {
  if (on_action) on_action(state_, a);
  if (recording_) record_.add(state_, a);
  state_.apply(a);
  for (size_t p = 0; p < seats_.size(); ++p)  // a player in two seats is told once
    if (seats_[p] && std::find(seats_.begin(), seats_.begin() + static_cast<std::ptrdiff_t>(p), seats_[p]) ==
                         seats_.begin() + static_cast<std::ptrdiff_t>(p))
      seats_[p]->observe(a);
}

std::string Table::record_line() {
  if (!recording_) throw std::logic_error("this table keeps no record");
  if (!state_.is_terminal()) throw std::logic_error("the game is not over: its record has no result yet");
  return record_.finish_line(state_);
}

State play_seated(const Rules& rules, const std::vector<Player*>& seats, const std::vector<std::string>& names, uint64_t seed,
                  std::string* record_line, const std::atomic<bool>* stop, const DecisionSeen& on_decision, bool check_choices) {
  for (size_t p = 0; p < seats.size(); ++p)
    if (!seats[p]) throw std::invalid_argument("play_seated: seat " + std::to_string(p) + " has no player");
  Table table(rules, seats, names, seed, record_line != nullptr, check_choices);
  table.advance(stop, on_decision);
  if (record_line && table.state().is_terminal()) *record_line = table.record_line();
  return table.state();
}

State play_game(const Rules& rules, const GameSpec& game, std::string* record_line, const std::atomic<bool>* stop,
                const DecisionSeen& on_decision) {
  std::vector<std::unique_ptr<Player>> players;
  std::vector<Player*> seats;
  for (int p = 0; p < rules.players; ++p) {
    players.push_back(make_player(game.bots[static_cast<size_t>(p)], seat_seed(game.seed, p)));
    seats.push_back(players.back().get());
  }
  return play_seated(rules, seats, game.bots, game.seed, record_line, stop, on_decision);
}

void stream_games(const Rules& rules, size_t count, const std::function<GameSpec(size_t)>& game, int jobs, bool records,
                  const GameFinished& on_finished, const std::atomic<bool>* stop) {
  std::vector<std::string> checked;
  for (size_t g = 0; g < count; ++g) check_game(rules, game(g), checked);
  std::mutex mutex;
  // Without a stop flag of the caller's, a failing on_finished (a write error) stops the games in progress
  // instead of waiting for them.
  std::atomic<bool> failed{false};
  const std::atomic<bool>* halt = stop ? stop : &failed;
  for_each_game(count, jobs, halt, [&](size_t g) {
    std::string line;
    const State final_state = play_game(rules, game(g), records ? &line : nullptr, halt);
    if (on_finished && final_state.is_terminal()) {
      const std::lock_guard<std::mutex> lock(mutex);
      try {
        on_finished(static_cast<int>(g), final_state, line);
      } catch (...) {
        failed = true;
        throw;
      }
    }
  });
}

void for_each_game(size_t count, int jobs, const std::atomic<bool>* stop, const std::function<void(size_t)>& play) {
  tbb::task_arena arena(std::max(1, jobs));
  arena.execute([&] {
    tbb::parallel_for(size_t{0}, count, size_t{1}, [&](size_t g) {
      if (!stop || !stop->load(std::memory_order_relaxed)) play(g);
    });
  });
}

void check_games(const Rules& rules, const std::vector<GameSpec>& games) {
  std::vector<std::string> checked;
  for (const GameSpec& g : games) check_game(rules, g, checked);
}

std::vector<Seating> schedule(int bots, size_t games, int players, uint64_t seed) {
  if (bots < 2) throw std::invalid_argument("a match needs at least 2 bots, got " + std::to_string(bots));
  if (players < 2 || players > kMaxPlayers)
    throw std::invalid_argument("players must be 2 to " + std::to_string(kMaxPlayers) + ", got " + std::to_string(players));
  if (players > bots)
    throw std::invalid_argument(std::to_string(players) + " seats but only " + std::to_string(bots) +
                                " bots: repeat a bot to fill seats");
  std::vector<std::vector<int>> groups;  // combinations of `players` bots, lexicographic
  std::vector<int> group(static_cast<size_t>(players));
  for (int p = 0; p < players; ++p) group[p] = p;
  for (;;) {
    groups.push_back(group);
    int i = players - 1;
    while (i >= 0 && group[i] == bots - players + i) --i;
    if (i < 0) break;
    ++group[i];
    for (int j = i + 1; j < players; ++j) group[j] = group[j - 1] + 1;
  }
  std::vector<Seating> out(games);
  for (size_t g = 0; g < games; ++g) {
    const size_t turn = g / static_cast<size_t>(players), rotation = g % static_cast<size_t>(players);
    const std::vector<int>& bots_of = groups[turn % groups.size()];
    out[g].seed = seed + turn;
    for (int p = 0; p < players; ++p) out[g].seats.push_back(bots_of[(static_cast<size_t>(p) + rotation) % players]);
  }
  return out;
}

std::array<int64_t, kMaxPlayers> win_units(const std::array<int, kMaxPlayers>& scores, int players) {
  const int best = *std::max_element(scores.begin(), scores.begin() + players);
  const auto winners = std::count(scores.begin(), scores.begin() + players, best);
  std::array<int64_t, kMaxPlayers> units{};
  for (int p = 0; p < players; ++p) units[p] = scores[p] == best ? kWinUnits / winners : 0;
  return units;
}

std::array<int64_t, kMaxPlayers> win_units(const State& final_state) {
  std::array<int, kMaxPlayers> scores{};
  for (int p = 0; p < final_state.num_players(); ++p) scores[p] = final_state.score(p);
  return win_units(scores, final_state.num_players());
}

Interval wilson(double successes, double trials, double z) {
  if (trials <= 0) return {};
  const double p = successes / trials, z2 = z * z / trials;
  const double centre = (p + z2 / 2) / (1 + z2);
  const double half = z * std::sqrt(p * (1 - p) / trials + z2 / (4 * trials)) / (1 + z2);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

Standings::Standings(const std::vector<std::string>& bots) {
  for (const std::string& b : bots)
    if (std::none_of(totals_.begin(), totals_.end(), [&](const Totals& t) { return t.bot == b; })) totals_.push_back({b});
}

void Standings::add(const std::vector<std::string>& seat_bots, const std::vector<int>& scores) {
  const int players = static_cast<int>(scores.size());
  if (players < 1 || players > kMaxPlayers || seat_bots.size() != scores.size())
    throw std::invalid_argument("standings: a game needs a bot for each of its 1 to " + std::to_string(kMaxPlayers) +
                                " scores, got " + std::to_string(seat_bots.size()) + " bots and " + std::to_string(players) + " scores");
  std::array<int, kMaxPlayers> a{};
  std::copy(scores.begin(), scores.end(), a.begin());
  const auto units = win_units(a, players);
  for (int p = 0; p < players; ++p) {
    auto it = std::find_if(totals_.begin(), totals_.end(), [&](const Totals& t) { return t.bot == seat_bots[p]; });
    if (it == totals_.end()) it = totals_.insert(totals_.end(), Totals{seat_bots[p]});
    int best_other = std::numeric_limits<int>::min();
    for (int q = 0; q < players; ++q)
      if (q != p) best_other = std::max(best_other, a[q]);
    ++it->games;
    it->win_units += units[p];
    it->score += a[p];
    it->margin += players > 1 ? a[p] - best_other : 0;
  }
  ++games_;
}

void Standings::add(const std::vector<std::string>& seat_bots, const State& final_state) {
  std::vector<int> scores;
  for (int p = 0; p < final_state.num_players(); ++p) scores.push_back(final_state.score(p));
  add(seat_bots, scores);
}

std::vector<Standings::Row> Standings::rows() const {
  std::vector<Row> out;
  for (const Totals& t : totals_) {
    Row r;
    r.bot = t.bot;
    r.games = t.games;
    r.wins = static_cast<double>(t.win_units) / kWinUnits;
    r.win_rate_interval = wilson(r.wins, static_cast<double>(t.games));
    r.mean_score = t.games ? static_cast<double>(t.score) / static_cast<double>(t.games) : 0;
    r.mean_margin = t.games ? static_cast<double>(t.margin) / static_cast<double>(t.games) : 0;
    out.push_back(r);
  }
  return out;
}

std::string Standings::table() const {
  size_t width = 28;
  for (const Totals& t : totals_) width = std::max(width, t.bot.size());
  const int w = static_cast<int>(width);
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %6s %8s %7s %17s %8s %8s\n", w, "bot", "games", "wins", "win%", "95% interval", "score", "margin");
  out += line;
  for (const Row& r : rows()) {
    out += r.bot + std::string(width - r.bot.size(), ' ');
    std::snprintf(line, sizeof line, " %6lld %8.1f %6.1f%% [%5.1f%%, %5.1f%%] %8.2f %+8.2f\n", static_cast<long long>(r.games),
                  r.wins, 100 * r.win_rate(), 100 * r.win_rate_interval.lo, 100 * r.win_rate_interval.hi, r.mean_score,
                  r.mean_margin);
    out += line;
  }
  return out;
}

}  // namespace meeple
