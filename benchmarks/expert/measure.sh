#!/bin/sh
# The expert's strength rows (benchmarks/expert.md): iteration budgets, no time cap.
#   GAMES=40 JOBS=2 sh benchmarks/expert/measure.sh two     # expert vs hard, two players
#   GAMES=40 JOBS=2 sh benchmarks/expert/measure.sh multi   # expert / hard vs heuristic bots, 3-4 players
# Each row's statistics (win rates with 95% Wilson intervals, time per move) go to
# benchmarks/expert/arena-<name>.json.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
K="${KM:-.venv/bin/kingmaker}"
G="${GAMES:-40}"
J="${JOBS:-2}"
row() { name=$1; shift; $K arena "$@" --games "$G" -j "$J" --seed 16 --json -q > "benchmarks/expert/arena-$name.json"; }
HARD="ismcts:hard/seconds=none"
case "$1" in
two)
  row kk2-expert-hard kings-kilt -p 2 --agents "ismcts:expert,$HARD"
  row kingpin2-expert-hard kingpin -p 2 --agents "ismcts:expert,$HARD"
  row kingpins2-expert-hard kingpins -p 2 --agents "ismcts:expert,$HARD" ;;
multi)
  for n in 3 4; do
    row kk$n-expert-heur kings-kilt -p $n --agents "ismcts:expert,heuristic"
    row kk$n-hard-heur kings-kilt -p $n --agents "$HARD,heuristic"
    row kingpins$n-expert-heur kingpins -p $n --agents "ismcts:expert,heuristic"
    row sqk$n-expert-heur san-quentin-kings -p $n --agents "ismcts:expert,heuristic"
  done ;;
coop)
  for n in 2 3 4; do row ggc$n-team-expert gangs-of-green-city -p $n --agents team:expert; done ;;
esac
