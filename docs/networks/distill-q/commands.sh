# The measurements of docs/networks.md "Where the distilled net loses", run from the repository root with
# build/bin/meeple (Release) and the package in .venv (PYTHONPATH=bindings/python for a dev build).
# runs/net-base/net-ab.json is the net distilled from 1,200 teacher games (docs/networks.md, Distillation).

# The two halves, and tile draws passed through (this build) or valued (meeple at 31551c5), seeds 710000-:
meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/net-base/net-ab.json --games 200 --seed 710000 --jobs 2
for half in eval=trained policy=trained; do
  meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/net-base/net-ab.json,$half --games 200 --seed 710000 --jobs 2
done

# 1,000 teacher games with search values, then three nets (value targets weighing the search value 0, 0.5, 1):
python -c "
from meeple import policy, _meeple as m
policy.generate('runs/q/teacher-q.npz', m.Rules.parse('players=2'), 'mcts', 1000, seed=300000, workers=2, observations=True)"
for sv in 0 0.5 1; do
  mkdir -p runs/q/sv$sv && ln runs/q/teacher-q.npz runs/q/sv$sv/data-000.npz   # train-net reuses the same games
  python -m meeple train-net --out runs/q/sv$sv --generations 0 --teacher-games 1000 --seed 300000 --epochs 5 --search-value $sv
  meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/q/sv$sv/best.json --games 200 --seed 720000 --jobs 2
done

# PUCT's constant with the net: tuned on seeds 730000-, the choice checked on 740000-:
for c in 2 1 0.5 0.25; do
  meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/q/sv0/best.json,c=$c --games 200 --seed 730000 --jobs 2
done
meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/q/sv0/best.json,c=0.5 --games 200 --seed 740000 --jobs 2
