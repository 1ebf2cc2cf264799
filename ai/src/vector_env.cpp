#include "meeple/ai/vector_env.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "meeple/ai/bots.h"
#include "meeple/ai/match.h"
#include "meeple/random.h"

namespace meeple {

struct VectorEnv::Game {
  State state;
  Dealer dealer{0};
  std::vector<std::unique_ptr<Player>> seats;  // null at the learner's seat, and everywhere in self-play
  int learner = -1;                             // -1 in self-play
  uint64_t episode = 0;
  bool ended = false;  // the last step ended the game: the next one starts another
  explicit Game(const Rules& rules) : state(rules) {}
};

namespace {

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a ^ (b + 0x9E3779B97F4A7C15ull + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

VectorEnv::VectorEnv(const Rules& rules, int num_envs, std::vector<std::string> opponents, uint64_t seed, int threads)
    : rules_(rules), encoding_(rules.players), opponents_(std::move(opponents)), threads_(threads), seed_(seed) {
  rules_.validate();
  if (num_envs < 1 || num_envs > 65536) throw std::invalid_argument("num_envs must be 1 to 65536, got " + std::to_string(num_envs));
  if (threads < 1 || threads > 256) throw std::invalid_argument("threads must be 1 to 256, got " + std::to_string(threads));
  if (opponents_.size() == 1) opponents_.assign(static_cast<size_t>(num_envs), opponents_[0]);
  if (!opponents_.empty() && static_cast<int>(opponents_.size()) != num_envs)
    throw std::invalid_argument("opponents: give none (self-play), one bot spec for every game, or one per game (" +
                                std::to_string(num_envs) + "), not " + std::to_string(opponents_.size()));
  std::vector<std::string> checked;
  for (size_t i = 0; i < opponents_.size(); ++i) {
    if (std::find(checked.begin(), checked.end(), opponents_[i]) != checked.end()) continue;
    try {
      make_player(opponents_[i], 0)->check_rules(rules_);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("opponents[" + std::to_string(i) + "] '" + opponents_[i] + "': " + e.what());
    }
    checked.push_back(opponents_[i]);
  }
  for (int i = 0; i < num_envs; ++i) games_.push_back(std::make_unique<Game>(rules_));
}

VectorEnv::~VectorEnv() = default;

const State& VectorEnv::state(int i) const {
  if (i < 0 || i >= num_envs()) throw std::out_of_range("env index must be 0 to " + std::to_string(num_envs() - 1) + ", got " + std::to_string(i));
  return games_[static_cast<size_t>(i)]->state;
}

void VectorEnv::win_utilities(const State& final_state, float* out) {
  const int n = final_state.num_players();
  const auto units = meeple::win_units(final_state);
  for (int p = 0; p < n; ++p) {
    const double share = static_cast<double>(units[static_cast<size_t>(p)]) / static_cast<double>(kWinUnits);
    out[p] = static_cast<float>(n / (n - 1.0) * share - 1.0 / (n - 1));
  }
}

template <typename Work>
void VectorEnv::for_each_game(Work&& work) {
  tbb::task_arena arena(threads_);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<int>(0, num_envs(), 4), [&](const tbb::blocked_range<int>& r) {
      for (int i = r.begin(); i < r.end(); ++i) work(i);
    });
  });
}

void VectorEnv::reset(uint64_t seed, const VectorEnvArrays& out) {
  seed_ = seed;
  for (auto& g : games_) g->episode = 0;
  for_each_game([&](int i) { start(i, out); });
}

void VectorEnv::start(int i, const VectorEnvArrays& out) {
  Game& g = *games_[static_cast<size_t>(i)];
  const uint64_t game_seed = mix(mix(seed_, static_cast<uint64_t>(i)), g.episode);
  g.state = State(rules_);
  g.dealer = Dealer(game_seed);
  g.seats.clear();
  g.learner = self_play() ? -1 : static_cast<int>((static_cast<uint64_t>(i) + g.episode) % rules_.players);
  for (int p = 0; p < rules_.players; ++p)
    g.seats.push_back(self_play() || p == g.learner ? nullptr
                                                    : make_player(opponents_[static_cast<size_t>(i)], mix(game_seed, static_cast<uint64_t>(p) + 1)));
  ++g.episode;
  g.ended = false;
  advance_and_write(i, -1, out);
}

void VectorEnv::step(const int64_t* actions, const VectorEnvArrays& out) {
  // Every id first (on the threads too): a bad one stops the step before any game moves.
  std::vector<Action> chosen(static_cast<size_t>(num_envs()), Action::none());
  std::vector<uint8_t> bad(static_cast<size_t>(num_envs()), 0);
  for_each_game([&](int i) {
    const Game& g = *games_[static_cast<size_t>(i)];
    if (g.ended) return;
    const int64_t id = actions[i];
    const Action a = id >= 0 && id < Encoding::num_action_ids() ? Encoding::action_of(g.state, static_cast<int>(id)) : Action::none();
    if (a == Action::none() || !g.state.is_legal(a) || Encoding::id_of(g.state, a) != id) bad[static_cast<size_t>(i)] = 1;
    chosen[static_cast<size_t>(i)] = a;
  });
  if (const auto first = std::find(bad.begin(), bad.end(), 1); first != bad.end()) {
    const int i = static_cast<int>(first - bad.begin());
    const State& s = games_[static_cast<size_t>(i)]->state;
    const int64_t id = actions[i];
    const std::string where = "env " + std::to_string(i) + ": action id " + std::to_string(id);
    if (id < 0 || id >= Encoding::num_action_ids())
      throw std::invalid_argument(where + " is out of range (0 to " + std::to_string(Encoding::num_action_ids() - 1) + ")");
    throw std::invalid_argument(where + " is not legal here (phase " + to_string(s.phase()) + ", seat " +
                                std::to_string(s.current_player()) + "): pick an id where action_mask is true");
  }
  for_each_game([&](int i) {
    Game& g = *games_[static_cast<size_t>(i)];
    if (g.ended) {
      start(i, out);
      return;
    }
    const int acted = g.state.current_player();
    const Action a = chosen[static_cast<size_t>(i)];
    g.state.apply(a);
    for (auto& seat : g.seats)
      if (seat) seat->observe(a);
    advance_and_write(i, acted, out);
  });
}

// Deals and lets the opponents play until the learner (or, in self-play, anyone) decides or the game ends;
// then writes the game's row. `acted`: the seat whose action this step applied (-1 at a start).
void VectorEnv::advance_and_write(int i, int acted, const VectorEnvArrays& out) {
  Game& g = *games_[static_cast<size_t>(i)];
  State& s = g.state;
  while (!s.is_terminal() && (s.is_chance() || (!self_play() && s.current_player() != g.learner))) {
    const Action a = s.is_chance() ? g.dealer.deal(s) : g.seats[static_cast<size_t>(s.current_player())]->choose(s);
    s.apply(a);
    for (auto& seat : g.seats)
      if (seat) seat->observe(a);
  }
  const size_t row = static_cast<size_t>(i);
  const int players = rules_.players;
  float* returns = out.returns + row * static_cast<size_t>(players);
  std::fill(returns, returns + players, 0.0f);
  out.reward[row] = 0;
  out.terminated[row] = 0;
  out.truncated[row] = 0;
  // Whose view: the learner's, or in self-play the seat to move (at the end, the seat that moved last).
  const int seat = !self_play() ? g.learner : s.is_terminal() ? std::max(acted, 0) : s.current_player();
  out.to_play[row] = s.is_terminal() ? -1 : s.current_player();
  uint8_t* mask = out.mask + row * static_cast<size_t>(Encoding::num_action_ids());
  const bool fits = encoding_.observe(s, seat, out.planes + row * static_cast<size_t>(encoding_.plane_size()),
                                      out.flat + row * static_cast<size_t>(encoding_.flat_size()));
  if (s.is_terminal()) {
    std::memset(mask, 0, static_cast<size_t>(Encoding::num_action_ids()));
    win_utilities(s, returns);
    out.reward[row] = returns[seat];
    out.terminated[row] = 1;
    g.ended = true;
    return;
  }
  const int outside = encoding_.legal_mask(s, mask);
  if (!fits || outside > 0) {  // the board outgrew the window: ended as truncated, never cropped silently
    out.truncated[row] = 1;
    g.ended = true;
  }
}

}  // namespace meeple
