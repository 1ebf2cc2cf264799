"""Distil all 2,200 teacher games (mcts, 1,000 simulations; seeds 100000-, 200000-, 300000-) into one net,
the default shape, 5 epochs; held out: tile seeds that are multiples of 10."""
import sys, time
from meeple import _meeple, files
from meeple import net

rules = _meeple.Rules.parse("players=2")
config = net.NetConfig()
paths = ["runs/net-base/distill-a.npz", "runs/net-base/distill-b.npz", "runs/q/teacher-q.npz"]
positions = net.load_positions(paths, rules, config.reward_scale)
train_idx, valid_idx = net.split_games(positions)
print("decisions", positions.size, "train", len(train_idx), "valid", len(valid_idx), flush=True)
linear = net.shipped_linear_weights(rules)
print("linear value error (valid)", net.linear_value_error(positions, valid_idx, linear, config.reward_scale), flush=True)
start = time.time()
params, history = net.fit(positions, config, train_idx=train_idx, valid_idx=valid_idx, epochs=5, progress=False,
                          log=lambda s: print(s, flush=True))
print("fit seconds", time.time() - start, flush=True)
files.write_atomic("runs/mix/net-2200.json", net.to_json(params, config, rules, "distill-2200", positions=positions.size,
                                                         **{k: round(v, 5) for k, v in history[-1].items()}))
