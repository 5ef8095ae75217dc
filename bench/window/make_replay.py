#!/usr/bin/env python3
"""Writes a replay file (JSON Lines, the format of tools/make-demo-recording.py) for bench/window/run.sh.

  make_replay.py OUT --beacons N --seconds S [--seed K]

N distinct iBeacons (one UUID; major 1.., minor 1..100; one address each) each advertise once per second for S
seconds, at a fixed slot inside the second plus a little jitter. Each beacon stands at its own distance (1 to 40 m);
the RSSI follows the log-distance model with 4 dB of noise, so distances and the nearest-first order move a little
every second, as they would in a crowded hall. With N <= 8 the beacons are the demo's catalogued ones
(data/demo/beacons.json: same UUID, majors and minors). Deterministic for a given seed.
"""
import argparse
import json
import math
import random

DEMO_UUID = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1"
DEMO_IDS = [(100, 1), (100, 2), (100, 3), (100, 4), (200, 1), (200, 2), (200, 3), (300, 1)]


def frame(uuid_hex, major, minor, tx):
    payload = bytes.fromhex(uuid_hex) + major.to_bytes(2, "big") + minor.to_bytes(2, "big") + (tx & 0xFF).to_bytes(1, "big")
    return bytes([0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]) + payload


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--beacons", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=70)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    uuid_hex = DEMO_UUID.replace("-", "")
    tx = -59
    beacons = []
    for i in range(args.beacons):
        major, minor = DEMO_IDS[i] if args.beacons <= len(DEMO_IDS) else (i // 100 + 1, i % 100 + 1)
        address = "C0:FF:EE:%02X:%02X:%02X" % ((i >> 16) & 0xFF, (i >> 8) & 0xFF, i & 0xFF)
        distance = 1 + 39 * rng.random()
        slot = (i + 0.5) / args.beacons
        beacons.append((address, frame(uuid_hex, major, minor, tx).hex(), distance, slot))
    lines = []
    for second in range(args.seconds):
        for address, data, distance, slot in beacons:
            t = second + slot + rng.uniform(-0.002, 0.002)
            rssi = int(round(tx - 22 * math.log10(distance) + rng.gauss(0, 4)))
            lines.append((max(t, 0.0), address, rssi, data))
    lines.sort(key=lambda line: line[0])
    with open(args.out, "w", encoding="utf-8") as f:
        for t, address, rssi, data in lines:
            f.write(json.dumps({"t": round(t, 4), "address": address, "rssi": rssi, "kind": "ad", "data": data}) + "\n")


if __name__ == "__main__":
    main()
