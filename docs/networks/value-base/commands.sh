# The measurements of docs/networks.md "A net that corrects the evaluator, in a tree shaped as the default's", run
# from the repository root with the package in .venv (bash scripts/python.sh) and its meeple command line.

# 1,000 teacher games (mcts, 1,000 simulations; seeds 400000-400999) with observations and leaf points:
python -c "
from meeple import policy, _meeple as m
policy.generate('runs/vb/teacher-400k.npz', m.Rules.parse('players=2'), 'mcts', 1000, seed=400000, workers=2, observations=True)"

# Two nets with a value base from those games, 5 epochs: value targets the outcomes (distill), or half the
# search's root value (sv); train-net reuses the games as its generation 0.
for run in distill sv; do
  mkdir -p runs/vb/$run && ln -f runs/vb/teacher-400k.npz runs/vb/$run/data-000.npz
done
python -m meeple train-net --out runs/vb/distill --generations 0 --teacher-games 1000 --seed 400000 --epochs 5 --value-base trained
python -m meeple train-net --out runs/vb/sv --generations 0 --teacher-games 1000 --seed 400000 --epochs 5 --value-base trained --search-value 0.5

# The distilled net with its value head zeroed: the net's priors, the evaluator's leaf values.
python -c "
import json
d = json.load(open('runs/vb/distill/best.json'))
for k in ('value/kernel', 'value/bias'):
    d['tensors'][k]['data'] = [0.0] * len(d['tensors'][k]['data'])
d['name'] = 'zero-head'
json.dump(d, open('runs/vb/zero-head.json', 'w'))"

# Three tree shapes, 200 paired games at 800 simulations against today's default. The tables were played by
# three builds, named in their files: *-full-* with a network searching as before this work (chance=full;
# the spec then had no chance key), *-deep-* at commit 21e4e76 (a first version of passing through: fresh
# tile draws and drawn tiles both passed through), *-sample-* at the commit that added this file (a fresh
# tile draw is a leaf, a drawn tile passed through: chance=sample, the default).
for net in runs/vb/distill/best.json runs/vb/zero-head.json; do
  meeple match --bots mcts:iterations=800 mcts:iterations=800,net=$net,chance=full --games 200 --seed 780000 --jobs 2
done
git checkout 21e4e76 && bash scripts/python.sh   # the deep version, then back to this commit
for seed in 780000 790000; do
  for net in runs/vb/distill/best.json runs/vb/zero-head.json runs/vb/sv/best.json; do
    meeple match --bots mcts:iterations=800 mcts:iterations=800,net=$net --games 200 --seed $seed --jobs 2
  done
done
git checkout - && bash scripts/python.sh
for seed in 780000 790000 810000; do
  meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/vb/sv/best.json --games 200 --seed $seed --jobs 2
done

# Speed, simulations/s on one thread (3,000 a search, six positions at tiles 10 and 40 of random games):
python docs/networks/value-base/speed.py "mcts:iterations=3000,reuse=0" \
  "mcts:iterations=3000,reuse=0,net=runs/vb/sv/best.json" "mcts:iterations=3000,reuse=0,net=runs/vb/sv/best.json,chance=full"
