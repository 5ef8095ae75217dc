#!/usr/bin/python3
"""One hour of background monitoring as a replay file (JSON Lines, the format of `faro --source replay`).

50 beacons come and go: each visits one to three times, for one to fifteen minutes, and is heard about once a
second while there (what bluetoothd reports for a beacon in range), with a drifting RSSI. The first eight are the
demo catalog's places (data/demo/beacons.json: zone notifications), the others are unknown to the catalog. Seeded:
the same file every run. Minutes 25 to 35 are empty (nothing in range at all).

Usage: make_recording.py OUT.jsonl   (prints "adverts=N beacons=50 seconds=3600" on stdout)
"""
import json
import random
import sys

UUID = "fa20de300b1e4c5a9b5ed3a0be0c0de1"
CATALOGUED = [(100, 1), (100, 2), (100, 3), (100, 4), (200, 1), (200, 2), (200, 3), (300, 1)]
HOUR = 3600.0
QUIET = (1500.0, 2100.0)


def main(out):
    rng = random.Random(20261129)
    beacons = CATALOGUED + [(400 + i // 10, i % 10 + 1) for i in range(50 - len(CATALOGUED))]
    records = []
    for index, (major, minor) in enumerate(beacons):
        address = "C0:FF:EE:%02X:%02X:%02X" % (index // 256, index % 256, minor)
        data = "0201061aff4c000215" + UUID + "%04x%04x" % (major, minor) + "c5"
        for _ in range(rng.randint(1, 3)):
            start = rng.uniform(0, HOUR - 60)
            end = min(HOUR, start + rng.uniform(60, 900))
            rssi = rng.uniform(-90, -55)
            t = start
            while t < end:
                if not QUIET[0] <= t < QUIET[1]:
                    rssi = min(-40.0, max(-100.0, rssi + rng.gauss(0, 2)))
                    records.append((round(t, 3), address, int(rssi), data))
                t += rng.uniform(0.9, 1.1)
    records.sort()
    with open(out, "w") as f:
        for t, address, rssi, data in records:
            f.write(json.dumps({"t": t, "address": address, "rssi": rssi, "kind": "ad", "data": data}) + "\n")
    print(f"adverts={len(records)} beacons={len(beacons)} seconds={int(HOUR)}")


if __name__ == "__main__":
    main(sys.argv[1])
