#!/usr/bin/env python3
"""Writes data/demo/walk.jsonl: the demo's recorded walk past the beacons of data/demo/beacons.json.

A walker goes along a 120 m street at about 1 m/s (pausing twice in front of shops). Each beacon advertises at
5 Hz; what a laptop would receive is simulated with the log-distance path-loss model (exponent 2.2), slow
log-normal shadowing (an AR(1) process, sigma 4 dB), fast fading (Rayleigh, in dB) and packet loss that grows with
distance; samples below -98 dBm are not received. A couple of other devices (a phone's Apple "nearby" frames, an
Eddystone URL beacon) advertise too, as they would in a real street, and must be skipped by the ranging engine.
The lines mix the three replay kinds (ad, msd, hci) so that the demo exercises every decoding path.

The one beacon no catalog names (7/42, "uncatalogued" with a "desk" entry) is not on the street: it sits on the user's
desk about 1 m from the laptop (0.9-1.1 m as the laptop is moved a little) and is heard once a second, every second,
for the whole recording, so "Calibrar a 1 m" can be tried in the demo. It advertises -59 dBm but its real 1 m power is
-63 dBm; its noise is what a line of sight at 1 m gives: slow shadowing (AR(1), sigma 2 dB) and a little fast fading
(sigma 1 dB). It draws from a random generator of its own.

Deterministic: the same seed always writes the same file. Usage: make-demo-recording.py [OUT]
"""
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SEED = 20261129
RATE_HZ = 5
DURATION_S = 130.0


def walker_x(t):
    """Position along the street at time t: walk, pause at the bakery and the gallery, walk on."""
    pauses = [(33.0, 10.0), (62.0, 8.0)]  # (x where the walker stops, seconds)
    x, clock, speed = -5.0, 0.0, 1.0
    for stop_x, stop_s in pauses:
        reach = clock + (stop_x - x) / speed
        if t < reach:
            return x + (t - clock) * speed
        if t < reach + stop_s:
            return stop_x
        x, clock = stop_x, reach + stop_s
    return x + (t - clock) * speed


def ad_frame(uuid_hex, major, minor, tx):
    payload = bytes.fromhex(uuid_hex) + major.to_bytes(2, "big") + minor.to_bytes(2, "big") + (tx & 0xFF).to_bytes(1, "big")
    return bytes([0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]) + payload


def hci_event(address, rssi, ad):
    addr = bytes.fromhex(address.replace(":", ""))[::-1]
    report = bytes([0x00, 0x00]) + addr + bytes([len(ad)]) + ad + bytes([rssi & 0xFF])
    params = bytes([0x02, 0x01]) + report
    return bytes([0x04, 0x3E, len(params)]) + params


def replay_kind(rng, ad, address, rssi):
    """One of the three replay kinds, mostly "ad", as a mix of D-Bus and raw HCI sources would give."""
    pick = rng.random()
    if pick < 0.75:
        return "ad", ad
    if pick < 0.92:
        return "msd", ad[5:]
    return "hci", hci_event(address, rssi, ad)


def desk_beacon(b, rng):
    """The desk beacon's advertisements: one a second at about `distance_m` for the whole recording."""
    desk = b["desk"]
    ad = ad_frame(b["uuid"].replace("-", ""), b["major"], b["minor"], b["tx_power"])
    period = 1.0 / desk["rate_hz"]
    shadow, lines = 0.0, []
    for k in range(int(DURATION_S / period)):
        t = 0.37 + k * period + rng.uniform(0, 0.01)
        d = desk["distance_m"] * (1 + 0.1 * math.sin(2 * math.pi * t / 47))
        shadow = 0.9 * shadow + math.sqrt(1 - 0.81) * rng.gauss(0, 2.0)
        rssi = int(round(desk["power_at_1m"] - 10 * 2.2 * math.log10(d) + shadow + rng.gauss(0, 1.0)))
        kind, data = replay_kind(rng, ad, b["address"], rssi)
        lines.append((t, b["address"], rssi, kind, data))
    return lines


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "data", "demo", "walk.jsonl")
    with open(os.path.join(ROOT, "data", "demo", "beacons.json"), encoding="utf-8") as f:
        spec = json.load(f)
    rng = random.Random(SEED)
    beacons = []
    for b in spec["beacons"]:
        beacons.append(dict(b, uuid=spec["uuid"]))
    desks = [b for b in spec["uncatalogued"] if "desk" in b]
    beacons += [dict(b) for b in spec["uncatalogued"] if "desk" not in b]
    shadow = {b["address"]: 0.0 for b in beacons}
    lines = []
    steps = int(DURATION_S * RATE_HZ)
    for step in range(steps):
        for b in beacons:
            # Advertising jitter: each beacon's 200 ms slot shifts by up to 10 ms, as BLE's advDelay does.
            t = step / RATE_HZ + rng.uniform(0, 0.01) + (int(b["address"][-2:], 16) * 0.013) % 0.2
            d = math.hypot(walker_x(t) - b["x"], b["y"])
            shadow[b["address"]] = 0.9 * shadow[b["address"]] + math.sqrt(1 - 0.81) * rng.gauss(0, 4.0)
            fading = 10 * math.log10(max(rng.expovariate(1.0), 1e-3))
            rssi = b["tx_power"] - 10 * 2.2 * math.log10(max(d, 0.1)) + shadow[b["address"]] + 0.5 * fading
            rssi = int(round(rssi))
            if rssi < -98 or rng.random() < min(0.6, d / 60):
                continue
            ad = ad_frame(b["uuid"].replace("-", ""), b["major"], b["minor"], b["tx_power"])
            kind, data = replay_kind(rng, ad, b["address"], rssi)
            lines.append((t, b["address"], rssi, kind, data))
        # Other devices nearby: not iBeacons, skipped by the engine.
        if step % 5 == 0:
            t = step / RATE_HZ + 0.05
            phone = bytes.fromhex("02011a0aff4c001005031c2a9f1e")
            lines.append((t, "5A:11:22:33:44:55", -70 + rng.randint(-6, 6), "ad", phone))
        if step % 7 == 0:
            t = step / RATE_HZ + 0.07
            eddystone = bytes.fromhex("0201060303aafe0d16aafe10ee03676f6f676c6507")
            lines.append((t, "E1:DD:57:00:00:01", -80 + rng.randint(-6, 6), "ad", eddystone))
    for b in desks:
        lines += desk_beacon(b, random.Random(SEED + int(b["address"][-2:], 16)))
    lines.sort(key=lambda line: line[0])
    with open(out_path, "w", encoding="utf-8") as f:
        for t, address, rssi, kind, data in lines:
            f.write(json.dumps({"t": round(t, 3), "address": address, "rssi": rssi, "kind": kind, "data": data.hex()}) + "\n")
    print(f"wrote {len(lines)} advertisements to {out_path}")


if __name__ == "__main__":
    main()
