#!/usr/bin/env python3
"""Reads LeakSanitizer output and lists the leaks whose allocation stack runs through this
project's code (a frame in Sources/, Tests/ or Apps/ of the repository). Exit 1 if there is any.

Leaks allocated entirely by the toolchain's libraries (XCTest keeps its suite objects until
exit, for example) are counted and named, but do not fail the run.

Usage: our-leaks.py REPO_ROOT LOGFILE
"""
import re
import sys

root, log = sys.argv[1].rstrip("/"), sys.argv[2]
text = open(log, errors="replace").read()
ours, theirs = [], 0
for block in re.split(r"\n(?=(?:Direct|Indirect) leak of)", text)[1:]:
    block = block.split("\n\n")[0]
    frames = [line.strip() for line in block.splitlines() if re.match(r"\s*#\d+ ", line)]
    if any(any(f"{root}/{d}/" in frame for d in ("Sources", "Tests", "Apps")) for frame in frames):
        ours.append(block)
    else:
        theirs += 1
reports = len(re.findall(r"ERROR: LeakSanitizer", text))
print(f"LeakSanitizer: {reports} report(s); {len(ours)} leak(s) through our code, {theirs} in the toolchain's libraries only")
for block in ours[:20]:
    head = block.splitlines()[0]
    where = [line.strip() for line in block.splitlines() if f"{root}/" in line][:4]
    print("  " + head)
    for line in where:
        print("      " + re.sub(r"^#\d+ 0x[0-9a-f]+ in ", "", line)[:220])
if len(ours) > 20:
    print(f"  … and {len(ours) - 20} more")
sys.exit(1 if ours else 0)
