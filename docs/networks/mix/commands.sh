# The measurements of docs/networks.md "The net's values mixed with the evaluator's", run from the repository
# root with build/bin/meeple (Release) and the package in .venv (PYTHONPATH=bindings/python for a dev build).
# runs/net-base/net-ab.json is the net distilled from 1,200 teacher games (docs/networks.md, Distillation);
# the teacher data are runs/net-base/distill-a.npz, distill-b.npz (seeds 100000-, 200000-) and
# runs/q/teacher-q.npz (seeds 300000-), made as docs/networks/distill-q/commands.sh says.

# W tuned on seeds 750000-, the better W checked on seeds never used (760000-):
for w in 0.5 0.25; do
  meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/net-base/net-ab.json,eval=trained,net_value=$w \
    --games 200 --seed 750000 --jobs 2
done
meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/net-base/net-ab.json,eval=trained,net_value=0.5 \
  --games 200 --seed 760000 --jobs 2

# One net from all 2,200 teacher games (fit_all.py: the default shape, 5 epochs; its log is fit-all.log),
# mixed and alone, on seeds never used (770000-):
python docs/networks/mix/fit_all.py     # writes runs/mix/net-2200.json
meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/mix/net-2200.json,eval=trained,net_value=0.5 \
  --games 200 --seed 770000 --jobs 2
meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/mix/net-2200.json --games 200 --seed 770000 --jobs 2
