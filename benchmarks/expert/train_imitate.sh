#!/bin/sh
# Trains every shipped expert network with the imitation recipe (docs/expert.md, "The
# imitation recipe"): value-only games of the heuristic on every seat, each decision teaching
# the value head the game's outcome and the policy head the heuristic's move, two passes.
# The game counts keep a lane's replay buffer within a few GB (a decision's policy target is
# dense over the game's distinct actions: 1366 in Kingpins, 2923 in Kingpin). Two lanes run
# side by side:
#   sh benchmarks/expert/train_imitate.sh a
#   sh benchmarks/expert/train_imitate.sh b
# Each line writes $OUT/<game>-<n>p.npz (default src/kingmaker/agents/nets) and
# benchmarks/expert/<game>-<n>p-imitate.csv (its row) and .log (the row and the CPU time).
set -e
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
OUT="${OUT:-src/kingmaker/agents/nets}"
T="${PY:-.venv/bin/python} -m kingmaker.agents.train_expert"
run() { g=$1; n=$2; k=$3; $T "$g" -p "$n" --seed 0 --generations 1 --games 0 --value-games "$k" --imitate --epochs 2 \
  --out "$OUT/$g-${n}p.npz" --curve "benchmarks/expert/$g-${n}p-imitate.csv" > "benchmarks/expert/$g-${n}p-imitate.log"; }
case "$1" in
a)
  run kings-kilt 2 30000
  run kings-kilt 3 15000
  run kings-kilt 4 8000
  run kingpin 2 3000
  run gangs-of-green-city 2 3000
  run gangs-of-green-city 3 3000
  run gangs-of-green-city 4 3000 ;;
b)
  run kingpins 2 1000
  run kingpins 3 1200
  run kingpins 4 1200
  run san-quentin-kings 3 2000
  run san-quentin-kings 4 1500
  run san-quentin-kings 5 1500
  run gangs-of-green-city 5 3000 ;;
esac
