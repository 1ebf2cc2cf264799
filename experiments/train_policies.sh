#!/usr/bin/env bash
# Trains the shipped policy networks (ai/weights/policy-*.json): self-play between MCTS bots (1,000
# simulations a move, the default search), each decision's root visits kept, and a small network fitted
# to them (python -m meeple train-policy; docs/strength.md has the fits and the strength of the result).
#   bash experiments/train_policies.sh     # about 25 min on 2 cores; reruns reuse the self-play data
# Then rebuild (the networks are embedded in the library).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}

$PY -m meeple train-policy --out runs/policy-base --games 300 --bot mcts:iterations=1000 --workers 2 --quiet
# Three seats: the setting of the all-expansions goal (a policy reads no player count).
$PY -m meeple train-policy --out runs/policy-all --players 3 --expansions river2 count king_robber cult_places abbey_mayor \
  --games 150 --bot mcts:iterations=1000 --workers 2 --quiet

for set in base all; do
  $PY - "$set" <<'PY'
import json, sys
name = sys.argv[1]
doc = json.load(open(f"runs/policy-{name}/policy.json"))
doc["name"] = f"trained-{name}"
open(f"ai/weights/policy-{name}.json", "w").write(json.dumps(doc, indent=1) + "\n")
print(f"ai/weights/policy-{name}.json <- runs/policy-{name}/policy.json ({doc['training']['command']})")
PY
done
