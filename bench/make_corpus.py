#!/usr/bin/env python3
"""Writes the fixed `make bench` corpus: one advertisement per line, lowercase hex of the raw AD structures.

An empty line is an empty advertisement. The generator is seeded, so every run writes the same file (same bytes,
same checksum) for the same arguments:

    python3 bench/make_corpus.py OUT [--count N] [--seed S] [--hci]

With --hci each advertisement is wrapped in a whole HCI LE Advertising Report event (`04 3e ...`, a random
address, event type and RSSI), as a raw HCI socket hands it over: the same AD data as without --hci (the same
seed gives the same AD lines), 10 % of the events carrying a second report, 2 % of them broken (parameter length
longer than what follows, a report data length overrunning the event, another subevent, a report count of 0).

Mix (of N lines, default 1,000,000):
- 80 % iBeacon frames the Faro decoder accepts:
    60 %  canonical 30 bytes `02 01 06 1a ff 4c 00 02 15 | uuid | major | minor | power`
     5 %  no flags structure (27 bytes)
     5 %  extra bytes after the power byte, the MSD length grown to match
     2 %  a scan response glued on (local name / service data / TX power), more than 31 bytes in all
     2 %  the advertisement zero-padded to 31 bytes, then a scan response holding the iBeacon (62 bytes)
     3 %  a truncated structure after the complete iBeacon (the cut scan response)
     3 %  the iBeacon after other structures (16-bit service UUIDs, another company's data, TX power)
- 20 % other advertisements:
     3 %  manufacturer data from other companies (some shaped exactly like an iBeacon)
     3 %  Eddystone service data (UID, URL, TLM)
     3 %  Apple manufacturer data that is not an iBeacon (Nearby, Find My, AirPods, ...)
     2 %  an iBeacon with a wrong length byte (0x14, 0x16, 0x00, 0xff)
     3 %  truncated frames (cut anywhere, or the MSD length claiming more bytes than follow)
     1 %  MSD structure too short for the payload (well formed AD, truncated iBeacon)
     1 %  empty lines and zero-padded data (zero length bytes first, an iBeacon after them or not)
     4 %  random garbage of 1 to 62 bytes
"""

import argparse
import random
import sys
import time

FLAGS = bytes.fromhex("020106")
IBEACON_PREFIX = bytes.fromhex("4c000215")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="file to write")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--hci", action="store_true", help="wrap every advertisement in an HCI event")
    args = parser.parse_args()

    started = time.monotonic()
    rng = random.Random(args.seed)
    rand = rng.random
    randint = rng.randint
    randbytes = rng.randbytes
    choice = rng.choice

    uuids = [randbytes(16) for _ in range(64)]
    names = [b"Faro", b"Kontakt", b"Estimote", b"BlueCharm BC011", b"Minew E8", b"Jaalee", b"Govee_H5075_1A2B"]
    other_companies = [b"\x59\x00", b"\x75\x00", b"\x06\x00", b"\x5d\x01", b"\xe0\x00", b"\x0d\x00", b"\x4d\x00"]
    apple_types = [0x10, 0x12, 0x07, 0x09, 0x0C, 0x0F, 0x05, 0x01]
    eddystone_urls = [b"\x03goo.gl/abc", b"\x01example\x07", b"\x02faro\x00", b"\x00a.co/x"]

    def ibeacon_payload() -> bytes:
        # UUID, major, minor (big-endian), measured power (signed, mostly -50 .. -80 dBm, some odd values).
        power = randint(-80, -50) & 0xFF if rand() < 0.95 else randint(0, 255)
        return choice(uuids) + randint(0, 0xFFFF).to_bytes(2, "big") + randint(0, 0xFFFF).to_bytes(2, "big") \
            + bytes((power,))

    def msd(body: bytes) -> bytes:
        return bytes((len(body) + 1, 0xFF)) + body

    def ibeacon_msd(extra: bytes = b"") -> bytes:
        return msd(IBEACON_PREFIX + ibeacon_payload() + extra)

    def scan_response() -> bytes:
        r = rand()
        if r < 0.5:
            name = choice(names)
            return bytes((len(name) + 1, 0x09)) + name
        if r < 0.8:
            data = b"\xaa\xfe" + randbytes(randint(2, 12))
            return bytes((len(data) + 1, 0x16)) + data
        return bytes((0x02, 0x0A, randint(0, 255)))

    def other_structures() -> bytes:
        parts = []
        for _ in range(randint(1, 2)):
            r = rand()
            if r < 0.4:
                parts.append(bytes((0x03, 0x03)) + randbytes(2))
            elif r < 0.7:
                parts.append(bytes((0x02, 0x0A, randint(0, 255))))
            else:
                parts.append(msd(choice(other_companies) + randbytes(randint(0, 8))))
        return b"".join(parts)

    def eddystone() -> bytes:
        head = bytes.fromhex("0303aafe")
        r = rand()
        if r < 0.5:
            data = b"\xaa\xfe\x00" + bytes((randint(-30, 0) & 0xFF,)) + randbytes(16) + b"\x00\x00"
        elif r < 0.8:
            data = b"\xaa\xfe\x10" + bytes((randint(-30, 0) & 0xFF,)) + choice(eddystone_urls)
        else:
            data = b"\xaa\xfe\x20\x00" + randbytes(12)
        return FLAGS + head + bytes((len(data) + 1, 0x16)) + data

    lines = []
    append = lines.append
    for _ in range(args.count):
        r = rand()
        if r < 0.60:
            advert = FLAGS + ibeacon_msd()
        elif r < 0.65:
            advert = ibeacon_msd()
        elif r < 0.70:
            advert = FLAGS + ibeacon_msd(randbytes(randint(1, 4)))
        elif r < 0.72:
            advert = FLAGS + ibeacon_msd() + scan_response() + scan_response()
        elif r < 0.74:
            first = FLAGS + other_structures()
            advert = first + b"\x00" * (31 - len(first)) + ibeacon_msd()
        elif r < 0.77:
            tail = scan_response()
            advert = FLAGS + ibeacon_msd() + tail[: randint(1, len(tail) - 1)]
        elif r < 0.80:
            advert = FLAGS + other_structures() + ibeacon_msd()
        elif r < 0.83:
            body = choice(other_companies) + (b"\x02\x15" + ibeacon_payload() if rand() < 0.5 else randbytes(randint(0, 24)))
            advert = FLAGS + msd(body)
        elif r < 0.86:
            advert = eddystone()
        elif r < 0.89:
            kind = choice(apple_types)
            data = randbytes(randint(0, 20))
            advert = FLAGS + msd(b"\x4c\x00" + bytes((kind, len(data))) + data)
        elif r < 0.91:
            advert = FLAGS + msd(b"\x4c\x00\x02" + bytes((choice((0x14, 0x16, 0x00, 0xFF)),)) + ibeacon_payload())
        elif r < 0.94:
            whole = FLAGS + ibeacon_msd()
            if rand() < 0.5:
                advert = whole[: randint(1, len(whole) - 1)]
            else:
                # Length byte of the MSD structure larger than what follows it.
                advert = FLAGS + bytes((randint(0x1B, 0x30), 0xFF)) + IBEACON_PREFIX + ibeacon_payload()[: randint(0, 20)]
        elif r < 0.95:
            short = randint(0, 20)
            advert = FLAGS + msd(IBEACON_PREFIX + ibeacon_payload()[:short])
        elif r < 0.96:
            advert = b"" if rand() < 0.5 else b"\x00" * randint(1, 31) + (FLAGS + ibeacon_msd() if rand() < 0.5 else b"")
        else:
            advert = randbytes(randint(1, 62))
        append(advert)

    if args.hci:
        lines = hci_events(lines, random.Random(args.seed + 1))
    lines = [line.hex() for line in lines]

    with open(args.out, "w", encoding="ascii") as out:
        out.write("\n".join(lines))
        out.write("\n")
    print(f"corpus={args.out} adverts={args.count} seed={args.seed} seconds={time.monotonic() - started:.1f}",
          file=sys.stderr)
    return 0


def hci_events(adverts: list, rng: random.Random) -> list:
    """Each advertisement as a legacy LE Advertising Report event; some with two reports, some broken."""
    def report(data: bytes) -> bytes:
        event_type = rng.choice((0, 0, 0, 3, 4))
        rssi = rng.randint(-100, -30) & 0xFF if rng.random() < 0.97 else 127
        return bytes((event_type, rng.randint(0, 1))) + rng.randbytes(6) + bytes((len(data),)) + data + bytes((rssi,))

    events = []
    for advert in adverts:
        advert = advert[:150]  # two reports must fit the 255 parameter bytes
        reports = [report(advert)]
        if rng.random() < 0.10:
            reports.append(report(rng.choice(adverts)[:40]))
        params = bytes((0x02, len(reports))) + b"".join(reports)
        event = bytes((0x04, 0x3E, len(params))) + params
        r = rng.random()
        if r < 0.005:
            event = event[: rng.randint(3, len(event) - 1)]  # parameter length longer than what follows
        elif r < 0.010:
            event = event[:13] + bytes((len(params),)) + event[14:]  # report data length overruns the event
        elif r < 0.015:
            event = event[:3] + bytes((rng.choice((0x01, 0x03, 0x0B)),)) + event[4:]  # another subevent
        elif r < 0.020:
            event = event[:4] + b"\x00" + event[5:]  # no reports
        events.append(event)
    return events


if __name__ == "__main__":
    sys.exit(main())
