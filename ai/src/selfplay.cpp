#include "meeple/ai/selfplay.h"

#include <algorithm>
#include <mutex>

#include "meeple/ai/bots.h"
#include "meeple/ai/encoding.h"
#include "meeple/ai/features.h"
#include "meeple/ai/mcts.h"
#include "meeple/ai/policy.h"
#include "meeple/tiles.h"

namespace meeple {
namespace {

// Rank = how many distinct scores beat the player's, so tied players share a rank: scores 30, 50, 30, 20
// give ranks 1, 0, 1, 2.
void append_ranks(const State& final_state, std::vector<int8_t>& out) {
  const int n = final_state.num_players();
  for (int p = 0; p < n; ++p) {
    int rank = 0;
    for (int q = 0; q < n; ++q) {
      const int s = final_state.score(q);
      bool seen = false;
      for (int r = 0; r < q; ++r) seen |= final_state.score(r) == s;
      rank += s > final_state.score(p) && !seen;
    }
    out.push_back(static_cast<int8_t>(rank));
  }
}

}  // namespace

SelfPlayData generate_selfplay(const Rules& rules, const std::vector<GameSpec>& games, int jobs,
                               const std::atomic<bool>* stop, const std::function<void(int)>& on_finished) {
  check_games(rules, games);
  SelfPlayData data;
  data.players = rules.players;
  data.tile_types = TileCatalog::get().size();
  std::mutex mutex;
  for_each_game(games.size(), jobs, stop, [&](size_t g) {
    // This game's positions, kept apart until it ends so an abandoned game leaves nothing behind.
    std::vector<float> features;
    std::vector<uint8_t> remaining;
    std::vector<int8_t> to_move;
    const State final_state = play_game(rules, games[g], nullptr, stop, [&](const State& s, const Player&) {
      const size_t at = features.size();
      features.resize(at + static_cast<size_t>(s.num_players()) * kNumFeatures);
      extract_features(s, std::span<float>(features).subspan(at));
      for (int t = 0; t < data.tile_types; ++t) remaining.push_back(static_cast<uint8_t>(s.remaining(t)));
      to_move.push_back(static_cast<int8_t>(s.current_player()));
    });
    if (!final_state.is_terminal()) return;
    const std::lock_guard<std::mutex> lock(mutex);
    for (size_t i = 0; i < to_move.size(); ++i) {
      data.game.push_back(static_cast<int32_t>(g));
      data.ply.push_back(static_cast<int16_t>(i));
    }
    data.to_move.insert(data.to_move.end(), to_move.begin(), to_move.end());
    data.features.insert(data.features.end(), features.begin(), features.end());
    data.remaining.insert(data.remaining.end(), remaining.begin(), remaining.end());
    data.finished.push_back(static_cast<int32_t>(g));
    for (int p = 0; p < rules.players; ++p) data.final_scores.push_back(static_cast<int16_t>(final_state.score(p)));
    append_ranks(final_state, data.ranks);
    if (on_finished) on_finished(static_cast<int>(data.finished.size()));
  });
  return data;
}

PolicyData generate_policy_data(const Rules& rules, const std::vector<GameSpec>& games, int jobs,
                                const std::atomic<bool>* stop, const std::function<void(int)>& on_finished,
                                bool observations) {
  check_games(rules, games);
  std::vector<std::string> checked;  // each spec built once: a bot may load a weight file
  for (const GameSpec& g : games)
    for (const std::string& bot : g.bots) {
      if (std::find(checked.begin(), checked.end(), bot) != checked.end()) continue;
      if (!dynamic_cast<MctsPlayer*>(make_player(bot, 0).get()))
        throw std::invalid_argument("policy training needs search visits: bot '" + bot + "' is not an mcts bot");
      checked.push_back(bot);
    }
  // Each game's decisions, kept apart until it ends (an abandoned game leaves nothing behind) and joined
  // in the order given, so the data does not depend on the number of jobs.
  struct Game {
    bool finished = false;
    std::vector<int8_t> to_move;
    std::vector<int16_t> in_hand;
    std::vector<int32_t> counts;   // actions per decision
    std::vector<int64_t> entries;  // nonzero plane bytes per decision
    std::vector<float> features, leaf_points, action_features, flat;
    std::vector<int32_t> action_id, visits, plane_index;
    std::vector<float> action_value;
    std::vector<uint8_t> plane_value;
    std::vector<int16_t> final_scores;
  };
  std::vector<Game> played(games.size());
  const Encoding encoding(rules.players);
  const std::shared_ptr<const Evaluator> shipped = make_evaluator("trained");
  std::mutex mutex;
  int finished = 0;
  for_each_game(games.size(), jobs, stop, [&](size_t g) {
    Game& game = played[g];
    std::vector<uint8_t> planes(observations ? static_cast<size_t>(encoding.plane_size()) : 0);
    const State final_state = play_game(rules, games[g], nullptr, stop, [&](const State& s, const Player& chooser) {
      ActionList actions;
      s.legal_actions(actions);
      if (actions.size < 2) return;
      const auto& root = static_cast<const MctsPlayer&>(chooser).last_root();
      game.to_move.push_back(static_cast<int8_t>(s.current_player()));
      game.in_hand.push_back(static_cast<int16_t>(s.drawn_tile()));
      game.counts.push_back(actions.size);
      if (observations) {
        const size_t at = game.flat.size();
        game.flat.resize(at + static_cast<size_t>(encoding.flat_size()));
        encoding.observe(s, s.current_player(), planes.data(), game.flat.data() + at);
        const size_t before = game.plane_value.size();
        for (size_t i = 0; i < planes.size(); ++i)
          if (planes[i] != 0) {
            game.plane_index.push_back(static_cast<int32_t>(i));
            game.plane_value.push_back(planes[i]);
          }
        game.entries.push_back(static_cast<int64_t>(game.plane_value.size() - before));
      }
      size_t at = game.features.size();
      game.features.resize(at + static_cast<size_t>(s.num_players()) * kNumFeatures);
      extract_features(s, std::span<float>(game.features).subspan(at));
      const PlayerValues base = leaf_points(*shipped, s);
      for (int p = 0; p < s.num_players(); ++p) game.leaf_points.push_back(static_cast<float>(base[static_cast<size_t>(p)]));
      at = game.action_features.size();
      game.action_features.resize(at + static_cast<size_t>(actions.size) * kNumActionFeatures);
      extract_action_features(s, actions, std::span<float>(game.action_features).subspan(at));
      for (const Action a : actions) {
        const auto it = std::find_if(root.begin(), root.end(), [&](const MctsPlayer::RootChild& c) { return c.action == a; });
        game.visits.push_back(it == root.end() ? 0 : it->visits);
        game.action_value.push_back(it == root.end() || it->visits == 0 ? 0.0f : static_cast<float>(it->mean));
        game.action_id.push_back(Encoding::id_of(s, a));
      }
    });
    if (!final_state.is_terminal()) return;
    game.finished = true;
    for (int p = 0; p < rules.players; ++p) game.final_scores.push_back(static_cast<int16_t>(final_state.score(p)));
    const std::lock_guard<std::mutex> lock(mutex);
    if (on_finished) on_finished(++finished);
  });
  PolicyData data;
  data.players = rules.players;
  data.first_action.push_back(0);
  if (observations) data.first_entry.push_back(0);
  auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  for (size_t g = 0; g < played.size(); ++g) {
    const Game& game = played[g];
    if (!game.finished) continue;
    for (const int32_t count : game.counts) {
      data.game.push_back(static_cast<int32_t>(g));
      data.first_action.push_back(data.first_action.back() + count);
    }
    for (const int64_t entries : game.entries) data.first_entry.push_back(data.first_entry.back() + entries);
    append(data.to_move, game.to_move);
    append(data.in_hand, game.in_hand);
    append(data.features, game.features);
    append(data.leaf_points, game.leaf_points);
    append(data.flat, game.flat);
    append(data.plane_index, game.plane_index);
    append(data.plane_value, game.plane_value);
    append(data.action_features, game.action_features);
    append(data.action_id, game.action_id);
    append(data.visits, game.visits);
    append(data.action_value, game.action_value);
    append(data.final_scores, game.final_scores);
    data.finished.push_back(static_cast<int32_t>(g));
  }
  return data;
}

}  // namespace meeple
