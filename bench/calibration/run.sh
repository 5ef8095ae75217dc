#!/usr/bin/env bash
# Calibration and sparse-cadence benchmark (docs/calibration.md): `faro-bench calibration` on the evaluation data in
# data/evaluation, side by side in one run.
# Goals: with every beacon advertising -59 dBm, one beacon per receiver calibrated near 1 m with its adapter offset
# applied to all brings the median distance error within 1.1x of Faro with each beacon's true 1 m power; a simulated
# calibration at 1 m over the dialog's 15 s at one report a second leaves at most 1.1x the error of the true power,
# and no more than the plain median of the same raw readings; at one reading every 8-10 s, no spurious exit over
# 10-minute walks and a distance error within 1.3x of 1 Hz.
#
# Builds nothing: expects a release `faro-bench` beside `faro` in FARO_BIN_DIR (default: the folder of $FARO when
# scripts/bench.sh sets it, else $SCRATCH/release, else .build/release).
# Prints key=value lines (see bench/README.md) and calibration_goal_1_1x=yes|no, sparse_goal_1_3x=yes|no.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
bench_bin_dir
bench_require_binaries calibration faro-bench
BENCH="$FARO_BIN_DIR/faro-bench"
out="$("$BENCH" calibration --data data/evaluation)"
echo "$out"
value() { echo "$out" | sed -n "s/^$1=//p"; }
ratio=$(value calibration_ratio_calibrated_to_true_power)
sim=$(value calibration_sim_1hz_ratio_faro)
plain=$(value calibration_sim_1hz_ratio_raw_median)
walk=$(value sparse_sim_walk_error_ratio)
real=$(value sparse_real_error_ratio)
exits=$(value sparse_sim_spurious_exits)
awk -v r="$ratio" -v s="$sim" -v p="$plain" \
    'BEGIN { print "calibration_goal_1_1x=" (r != "" && s != "" && r <= 1.1 && s <= 1.1 && s <= p ? "yes" : "no") }'
awk -v w="$walk" -v s="$real" -v e="$exits" \
    'BEGIN { print "sparse_goal_1_3x=" (w != "" && s != "" && w <= 1.3 && s <= 1.3 && e == 0 ? "yes" : "no") }'
