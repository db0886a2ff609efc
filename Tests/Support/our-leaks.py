#!/usr/bin/env python3
"""Reads LeakSanitizer output and lists the leaks whose allocation stack runs through this
project's code (a frame in Sources/, Tests/ or Apps/ of the repository). Exit 1 if there is any.

Leaks allocated entirely by the toolchain's libraries (XCTest keeps its suite objects until
exit, for example) are counted and named, but do not fail the run.

Nor do the side tables of weak references (allocated by the runtime's formWeakReference when
code takes a weak reference, `[weak self]`). An object's side table is pointed to only from the
object's reference-count word, shifted, which LeakSanitizer cannot read as a pointer: when the
object is still alive at exit (a server a test left running, reachable from its thread), its
side table is reported as a direct leak (rehearsal 11: 32 bytes "allocated in
SessionSocket.hello", a [weak self] capture). If the object itself leaked, it is reported on its
own, with its own allocation, and that fails the run.

Usage: our-leaks.py REPO_ROOT LOGFILE
       our-leaks.py --self-test
"""
import re
import sys


def classify(root, text):
    """(ours, theirs, side_tables): the leak reports through our code, and the counts of the others."""
    ours, theirs, side_tables = [], 0, 0
    for block in re.split(r"\n(?=(?:Direct|Indirect) leak of)", text)[1:]:
        block = block.split("\n\n")[0]
        frames = [line.strip() for line in block.splitlines() if re.match(r"\s*#\d+ ", line)]
        if any("formWeakReference" in frame for frame in frames[:4]):
            side_tables += 1
        elif any(any(f"{root}/{d}/" in frame for d in ("Sources", "Tests", "Apps")) for frame in frames):
            ours.append(block)
        else:
            theirs += 1
    return ours, theirs, side_tables


def self_test():
    """The rules above on three reports: one through our code, one of a side table, one of XCTest."""
    report = """
Direct leak of 48 byte(s) in 1 object(s) allocated from:
    #0 0x1 in malloc
    #1 0x2 in swift_slowAlloc (/opt/swift/usr/lib/swift/linux/libswiftCore.so+0x46fa93)
    #2 0x3 in swift_allocObject (/opt/swift/usr/lib/swift/linux/libswiftCore.so+0x46fb00)
    #3 0x4 in $s9WebServer7HandlerC4openyyF /repo/Sources/WebServer/Handler.swift:12:5

Direct leak of 32 byte(s) in 1 object(s) allocated from:
    #0 0x1 in malloc
    #1 0x2 in swift_slowAlloc (/opt/swift/usr/lib/swift/linux/libswiftCore.so+0x46fa93)
    #2 0x3 in swift::RefCounts<swift::RefCountBitsT<(swift::RefCountInlinedness)1> >::formWeakReference() crtstuff.c
    #3 0x4 in swift_weakInit (/opt/swift/usr/lib/swift/linux/libswiftCore.so+0x471c69)
    #4 0x5 in $s9WebServer13SessionSocketC5helloySbSSF /repo/Sources/WebServer/SessionSocket.swift

Indirect leak of 64 byte(s) in 1 object(s) allocated from:
    #0 0x1 in malloc
    #1 0x2 in XCTestCase.init (/opt/swift/usr/lib/libXCTest.so+0x100)
"""
    ours, theirs, side_tables = classify("/repo", report)
    assert len(ours) == 1 and "Handler.swift" in ours[0], ours
    assert (theirs, side_tables) == (1, 1), (theirs, side_tables)
    print("our-leaks: self-test passed (one leak through our code, one side table, one of XCTest)")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    root, log = sys.argv[1].rstrip("/"), sys.argv[2]
    text = open(log, errors="replace").read()
    ours, theirs, side_tables = classify(root, text)
    reports = len(re.findall(r"ERROR: LeakSanitizer", text))
    print(f"LeakSanitizer: {reports} report(s); {len(ours)} leak(s) through our code, {theirs} in the toolchain's "
          f"libraries only, {side_tables} side table(s) of weak references to objects alive at exit")
    for block in ours[:20]:
        head = block.splitlines()[0]
        where = [line.strip() for line in block.splitlines() if f"{root}/" in line][:4]
        print("  " + head)
        for line in where:
            print("      " + re.sub(r"^#\d+ 0x[0-9a-f]+ in ", "", line)[:220])
    if len(ours) > 20:
        print(f"  … and {len(ours) - 20} more")
    sys.exit(1 if ours else 0)


if __name__ == "__main__":
    main()
