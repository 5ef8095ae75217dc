#!/usr/bin/env bash
# A bounded libFuzzer pass over the advertisement decoders, the MHT reader, the JSON reader and the page charset step
# (part of `make test`). FUZZ_SECONDS (default 45) is split between the four targets. Each corpus grows in
# build/fuzz/<target>/corpus between runs; seeds are in Tests/Fuzz/seeds, Tests/Fuzz/seeds-mht, Tests/Fuzz/seeds-json
# and Tests/Fuzz/seeds-charset (whose first byte picks the declared charset). A crash leaves its input in
# build/fuzz/<target>/ and fails the run: copy it into Tests/Fuzz/regressions/ (decoders) or
# Tests/Fuzz/regressions-mht/ (MHT) so the unit tests replay it forever (a JSON crash: add it to JSONStringTests; a
# charset one: to Tests/FaroWebTests/PageReadingTests).
set -euo pipefail
cd "$(dirname "$0")/.."
total="${FUZZ_SECONDS:-45}"
mht_seconds=$(( total / 3 ))
json_seconds=$(( total / 3 ))
charset_seconds=$(( total / 6 ))
decoder_seconds=$(( total - mht_seconds - json_seconds - charset_seconds ))
out=build/fuzz

# build NAME ENTRY SOURCES...: one fuzz binary from core sources plus its entry file.
build() {
    local name="$1"; shift
    mkdir -p "$out/$name/corpus"
    rm -f "$out/$name/fuzz"  # never fuzz a binary left by an earlier build
    local status=0
    swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FaroFuzz "$@" -o "$out/$name/fuzz" \
        > "$out/$name/build.log" 2>&1 || status=$?
    grep -v -E "Cannot export local symbol|^$" "$out/$name/build.log" || true
    [ "$status" = 0 ] && [ -x "$out/$name/fuzz" ] || { echo "fuzz: $name does not build"; exit 1; }
}

# run NAME SECONDS DIRS...: a bounded run; a crash prints the log tail and fails.
run() {
    local name="$1" seconds="$2"; shift 2
    echo "fuzz: $name for ${seconds}s (corpus $out/$name/corpus, seeds and regressions: $*)"
    "$out/$name/fuzz" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -artifact_prefix="$out/$name/" \
        -print_final_stats=1 "$out/$name/corpus" "$@" > "$out/$name/fuzz.log" 2>&1 || {
        tail -n 40 "$out/$name/fuzz.log"
        echo "fuzz: $name FAILED — crash input saved under $out/$name/ (add it to the regressions folder)"
        exit 1
    }
    grep -E "stat::number_of_executed_runs|stat::new_units_added" "$out/$name/fuzz.log" | tr '\n' ' '
    echo
    echo "fuzz: $name: no crash; corpus holds $(ls "$out/$name/corpus" | wc -l) inputs"
}

build decoders Sources/FaroCore/Advertisement/*.swift Tests/Fuzz/DecoderFuzz.swift
build mht Sources/FaroCore/Archive/*.swift Sources/FaroCore/Privacy/*.swift Sources/FaroCore/Text/*.swift \
    Tests/Fuzz/MHTFuzz.swift
build json Sources/FaroCore/Outbox/JSONValue.swift Sources/FaroCore/Text/*.swift Tests/Fuzz/JSONFuzz.swift
# HTMLEncoding.swift, UTF8Check.swift and Iconv.swift are FaroWeb's: compiled here in one module with the FaroCore text
# helpers they use.
mkdir -p "$out/charset/src"
sed '/^import FaroCore$/d' Sources/FaroWeb/HTML/HTMLEncoding.swift > "$out/charset/src/HTMLEncoding.swift"
build charset Sources/FaroCore/Text/*.swift "$out/charset/src/HTMLEncoding.swift" Sources/FaroWeb/HTML/UTF8Check.swift \
    Sources/FaroWeb/HTML/Iconv.swift Tests/Fuzz/CharsetFuzz.swift
run decoders "$decoder_seconds" Tests/Fuzz/seeds Tests/Fuzz/regressions
run mht "$mht_seconds" Tests/Fuzz/seeds-mht Tests/Fuzz/regressions-mht
run json "$json_seconds" Tests/Fuzz/seeds-json
run charset "$charset_seconds" Tests/Fuzz/seeds-charset
