#!/usr/bin/env bash
# Readings history and CSV (docs/beacon-page.md): the memory 1,000 beacons with 10 minutes of readings at 1 Hz cost
# above the session without history (`faro-bench history`, goal <= 16 MB), and `faro range --replay walk --csv`
# against `--json` on the demo walk, alternated over HISTORY_ROUNDS rounds (default 15), the best of each kept
# (goal: csv within 1.5x).
# Builds nothing: expects release `faro` and `faro-bench` in FARO_BIN_DIR (default: the folder of $FARO when
# scripts/bench.sh sets it, else $SCRATCH/release, else .build/release).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
bench_bin_dir
bench_require_binaries history faro faro-bench
"$FARO_BIN_DIR/faro-bench" history
"$FARO_BIN_DIR/faro-bench" visits
walk=data/demo/walk.jsonl
rounds=${HISTORY_ROUNDS:-15}
best_json=999 best_csv=999
now() { date +%s.%N; }
for _ in $(seq 1 "$rounds"); do
    a=$(now); "$FARO_BIN_DIR/faro" range --replay "$walk" --json >/dev/null; b=$(now)
    "$FARO_BIN_DIR/faro" range --replay "$walk" --csv >/dev/null; c=$(now)
    best_json=$(echo "$best_json $a $b" | awk '{ d = $3 - $2; print (d < $1 ? d : $1) }')
    best_csv=$(echo "$best_csv $b $c" | awk '{ d = $3 - $2; print (d < $1 ? d : $1) }')
done
echo "$best_json $best_csv" | awk '{ r = $2 / $1; printf "range_json_s=%.4f range_csv_s=%.4f range_csv_vs_json=%.2f range_csv_goal_1_5x=%s\n", $1, $2, r, (r <= 1.5 ? "yes" : "no") }'
