#!/usr/bin/env python3
"""startup_order.py OBJECT_NAME CALLGRIND_OUT...: the functions callgrind saw run in OBJECT_NAME (the file name of
the executable), one symbol name a line, on stdout: the list that ld.lld's --symbol-ordering-file lays out first, in
this order. The first recording's functions come first (sorted by name), then those that only the next one ran,
and so on: the launch ahead of what the app runs later. The functions LLVM names with local labels
(`.L__unnamed_N`, `.Lobjectdestroy.N`) have no symbol to list; together they are ~10 KB.

Callgrind's output names each object once as `ob=(N) path` (later `ob=(N)`), each function as `fn=(M) name` (later
`fn=(M)`); the functions listed after an `ob=` line ran in that object. Recursion suffixes (`'2`) are dropped.
"""
import re
import sys


def functions(path, object_name):
    objects, names, current, seen = {}, {}, None, set()
    pattern = re.compile(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$")
    with open(path, errors="replace") as f:
        for line in f:
            m = pattern.match(line.rstrip("\n"))
            if not m:
                continue
            kind, number, name = m.groups()
            table = objects if kind.endswith("ob") else names
            if name:
                table[number] = name
            if kind == "ob":
                current = objects.get(number, "")
            elif kind == "fn" and current.rsplit("/", 1)[-1] == object_name:
                seen.add(re.sub(r"'\d+$", "", names[number]))
    return sorted(s for s in seen if not s.startswith("0x"))


def main():
    print("# The functions the window runs at launch, for ld.lld --symbol-ordering-file (Package.swift).")
    print("# Made by bench/window/startup-order.sh; do not edit by hand.")
    listed = set()
    for recording in sys.argv[2:]:
        for name in functions(recording, sys.argv[1]):
            if name not in listed:
                listed.add(name)
                print(name)


if __name__ == "__main__":
    main()
