.venv/bin/python -m meeple train-net --out runs/loop-base --generations 6 --teacher-games 600 --games 150 \
  --selfplay-bot "mcts:net={net},iterations=400" --match-bot "mcts:net={net},iterations=400" \
  --window 3 --epochs 2 --elo1 50 --batch-pairs 20 --max-pairs 80 --seed 100000 --workers 2
