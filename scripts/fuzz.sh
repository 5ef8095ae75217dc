#!/usr/bin/env bash
# A bounded libFuzzer pass over the advertisement decoders (part of `make test`).
# The corpus grows in build/fuzz/corpus between runs; the seeds are in Tests/Fuzz/seeds. A crash leaves its input
# in build/fuzz/ and fails the run: copy it into Tests/Fuzz/regressions/ so the unit tests replay it forever.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-45}"
out=build/fuzz
mkdir -p "$out/corpus"
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FaroFuzz \
    Sources/FaroCore/Advertisement/*.swift Tests/Fuzz/DecoderFuzz.swift -o "$out/decoder-fuzz" 2>&1 \
    | grep -v -E "Cannot export local symbol|^$" || true
test -x "$out/decoder-fuzz"
echo "fuzz: decoders for ${seconds}s (corpus $out/corpus, seeds Tests/Fuzz/seeds, regressions Tests/Fuzz/regressions)"
"$out/decoder-fuzz" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -artifact_prefix="$out/" \
    -print_final_stats=1 "$out/corpus" Tests/Fuzz/seeds Tests/Fuzz/regressions > "$out/fuzz.log" 2>&1 || {
    tail -n 40 "$out/fuzz.log"
    echo "fuzz: FAILED — crash input saved under $out/ (add it to Tests/Fuzz/regressions/)"
    exit 1
}
grep -E "stat::number_of_executed_runs|stat::new_units_added" "$out/fuzz.log" | tr '\n' ' '
echo
echo "fuzz: no crash; corpus holds $(ls "$out/corpus" | wc -l) inputs"
