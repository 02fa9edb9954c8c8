#!/bin/sh
# Trains every shipped expert network (docs/expert.md). Two lanes run side by side:
#   sh benchmarks/expert/train_all.sh a   # the two-player games
#   sh benchmarks/expert/train_all.sh b   # three players
#   sh benchmarks/expert/train_all.sh c   # four and five players (trained 2026-12-01)
# Each line writes src/kingmaker/agents/nets/<game>-<n>p.npz and benchmarks/expert/<game>-<n>p.csv
# (the learning curve) and .log (its rows and the CPU time).
set -e
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
T="${PY:-.venv/bin/python} -m kingmaker.agents.train_expert"
run() { g=$1; n=$2; shift 2; $T "$g" -p "$n" --seed 0 --curve "benchmarks/expert/$g-${n}p.csv" "$@" > "benchmarks/expert/$g-${n}p.log"; }
COMMON="--generations 2 --expert-iterations 200 --epochs 10"
KK="$COMMON --games 30 --value-games 600 --teacher-iterations 100 --search-share 0.3 --expert-share 0.5"
KP="$COMMON --games 12 --value-games 150 --teacher-iterations 100 --search-share 0.25 --expert-share 0.3"
KPS="$COMMON --games 10 --value-games 300 --teacher-iterations 200 --search-share 0.08 --expert-share 0.15"
LONG="$COMMON --games 8 --value-games 150 --teacher-iterations 100 --search-share 0.05 --expert-share 0.1"
case "$1" in
a)
  run kings-kilt 2 $KK
  run kingpin 2 $KP
  run kingpins 2 $KPS
  run gangs-of-green-city 2 $LONG ;;
b)
  run kings-kilt 3 $KK
  run kingpins 3 $KPS
  run san-quentin-kings 3 $LONG ;;
c)
  run kings-kilt 4 $KK
  run kingpins 4 $KPS
  run san-quentin-kings 4 $LONG
  run gangs-of-green-city 3 $LONG
  run gangs-of-green-city 4 $LONG
  run san-quentin-kings 5 $LONG
  run gangs-of-green-city 5 $LONG ;;
esac
