# The loop of docs/networks.md "Self-play generations from the value-base net", run from the repository root
# with the package in .venv (bash scripts/python.sh) and its meeple command line.

# Generation 0 is the shipped value-base net's run (docs/networks/value-base/commands.sh: 1,000 games of
# mcts, seeds 400000-400999, 5 epochs, --search-value 0.5); its folder is continued with more generations
# (--generations is one of the settings a rerun may change). The run hard-linked these files (ln -f), which
# shares them with runs/vb/sv; copies are the same and safer:
mkdir -p runs/loop-vb
for f in data-000.npz net-000.json generations.csv loop.json; do cp -n runs/vb/sv/$f runs/loop-vb/; done
# Each later generation: 200 self-play games of the best net (mcts:net=BEST,iterations=800, root noise 0.3,
# temperature 1 for the first 8 tiles), a candidate trained from the best for 5 epochs on the last 4
# generations' data, an SPRT match at 800 simulations (elo0 0, elo1 30, 20 pairs a look, at most 150 pairs).
# It was stopped after generation 4 at the end of a session; this command alone continues it:
python -m meeple train-net --out runs/loop-vb --generations 6 --teacher-games 1000 --seed 400000 --epochs 5 \
  --value-base trained --search-value 0.5

# The promoted generation 2 against today's default, 200 paired games at 800 simulations each, on seeds never
# used before (gen2-vs-default-820000.txt and -830000.txt):
for seed in 820000 830000; do
  meeple match --bots mcts:iterations=800 mcts:iterations=800,net=runs/loop-vb/net-002.json --games 200 \
    --seed $seed --jobs 2 > docs/networks/loop-vb/gen2-vs-default-$seed.txt
done
# Shipped as the trained net (the name inside the file set to net-base):
sed 's/"name":"gen-2"/"name":"net-base"/' runs/loop-vb/net-002.json > ai/weights/net-base.json

# At the goal's budget, 4,000 simulations each, 200 paired games on seeds never used before:
meeple match --bots mcts:iterations=4000 mcts:iterations=4000,net=trained --games 200 --seed 850000 --jobs 2 \
  > docs/networks/loop-vb/gen2-vs-default-4000-850000.txt
