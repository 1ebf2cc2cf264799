# The 3-player net with all five expansions of docs/networks.md "Three players, every expansion", run from the
# repository root with the package in .venv (bash scripts/python.sh) and its meeple command line.
RULES="players=3 expansions=river2,count,king_robber,cult_places,abbey_mayor"

# 500 teacher games (mcts, 1,000 simulations; seeds 910000-910499), distilled with a value base, 5 epochs,
# value targets half the search's root value. The first 150 games were played by an earlier script in
# chunks of 50 with the same data and names (data-000.npz.games-FIRST-LAST.npz), which this command read.
python -m meeple train-net --out runs/p3/run --rules "$RULES" --generations 0 --teacher-games 500 --seed 910000 \
  --epochs 5 --value-base trained --search-value 0.5 --jobs 2

# Shipped (the name inside the file set to net-all-3p), for mcts:net=trained in games of these rules:
sed 's/"name":"gen-0"/"name":"net-all-3p"/' runs/p3/run/net-000.json > ai/weights/net-all-3p.json

# The table of issue 29's goal: the net-guided search, today's default (both at 1,000 simulations) and
# heuristic, seats rotated over paired tile orders, seeds never used before (the first set was played before
# the net was shipped, with net=runs/p3/run/best.json, the same weights):
meeple match --bots mcts:iterations=1000,net=trained mcts:iterations=1000 heuristic --rules "$RULES" --games 300 \
  --seed 870000 --jobs 2 > docs/networks/three-players/table-870000.txt
meeple match --bots mcts:iterations=1000,net=trained mcts:iterations=1000 heuristic --rules "$RULES" --games 300 \
  --seed 880000 --jobs 2 > docs/networks/three-players/table-880000.txt

# At about equal time: the net at half the simulations (its speed is 0.5-0.6 of the default's in these games):
meeple match --bots mcts:iterations=500,net=trained mcts:iterations=1000 heuristic --rules "$RULES" --games 300 \
  --seed 890000 --jobs 2 > docs/networks/three-players/half-890000.txt

# Speed, simulations/s on one thread (3,000 a search, six positions at tiles 10 and 40 of random games):
python docs/networks/value-base/speed.py "--rules=$RULES" "mcts:iterations=3000,reuse=0" "mcts:iterations=3000,reuse=0,net=trained"
