#!/usr/bin/env python3
"""Times beacontools' packet parser on the `make bench` corpus and prints the same two lines as `faro-bench decode`.

    .venv-bench/bin/python bench/beacontools_decode.py FILE [--limit N] [--repeat R] [--show-differences]

beacontools (PyPI) takes the raw AD structures of an advertisement, as its scanner hands them over
(`parse_packet(payload)`, payload = the LE advertising report's data, see beacontools/scanner.py), and returns the
first beacon frame it recognises (iBeacon, Eddystone, Estimote, ...) or None. Only iBeacon results count here.

beacontools needs tens of microseconds per advertisement, so only the first N lines are timed (default 50,000; the
corpus is shuffled, so they have the same mix). The figures are per advertisement and comparable with the full run;
the summary line covers those N lines only. Only the parse loop is timed (median of R repetitions); turning the
results into the summary is not.

A third line says what was measured: `timed_adverts=N corpus_adverts=M repeats=R beacontools=<version>`.
"""

import argparse
import sys
import time
from importlib.metadata import version

from beacontools import IBeaconAdvertisement, parse_packet


def read_corpus(path):
    with open(path, "r", encoding="ascii") as f:
        text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    return [bytes.fromhex(line.strip()) for line in lines]


def uuid_bytes(text):
    return bytes.fromhex(text.replace("-", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--limit", type=int, default=50_000, help="lines to time (0: all)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--show-differences", metavar="SWIFT_OR_C_VALID_LINES",
                        help="file of 0/1 per line (1: Faro accepts); print up to 10 lines where beacontools differs")
    args = parser.parse_args()

    adverts = read_corpus(args.file)
    total = len(adverts)
    if args.limit > 0:
        adverts = adverts[: args.limit]
    n = len(adverts)

    times = []
    results = None
    for _ in range(max(1, args.repeat)):
        t0 = time.perf_counter()
        results = [parse_packet(a) for a in adverts]
        times.append(time.perf_counter() - t0)
    times.sort()
    median = times[len(times) // 2]

    valid = major_sum = minor_sum = tx_sum = 0
    uuid_xor = bytearray(16)
    for r in results:
        if isinstance(r, IBeaconAdvertisement):
            valid += 1
            major_sum += r.major
            minor_sum += r.minor
            tx_sum += r.tx_power
            for i, b in enumerate(uuid_bytes(r.uuid)):
                uuid_xor[i] ^= b

    per = max(n, 1)
    print(f"adverts_per_s={per / median:.1f} ns_per_advert={median * 1e9 / per:.3f}")
    print(f"valid={valid} major_sum={major_sum} minor_sum={minor_sum} tx_sum={tx_sum} uuid_xor={uuid_xor.hex()}")
    print(f"timed_adverts={n} corpus_adverts={total} repeats={len(times)} beacontools={version('beacontools')}")

    if args.show_differences:
        with open(args.show_differences, encoding="ascii") as f:
            faro = [line.strip() == "1" for line in f]
        shown = 0
        for i, (a, r) in enumerate(zip(adverts, results)):
            ours = faro[i] if i < len(faro) else False
            theirs = isinstance(r, IBeaconAdvertisement)
            if ours != theirs and shown < 10:
                print(f"line {i + 1}: faro={'accept' if ours else 'reject'} "
                      f"beacontools={'accept' if theirs else 'reject'} {a.hex()}", file=sys.stderr)
                shown += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
