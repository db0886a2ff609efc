#!/usr/bin/env python3
"""Instructions per operation of W1–W7, toolkit and closures, counted by callgrind.

Timings move with the machine's load; instruction counts do not, so a change to the core can be
compared on them. Builds Bench in release mode, strips its debug info (valgrind cannot read the
DWARF Swift 6.3 writes), runs `Bench count Wn column` under callgrind once per workload and
column, subtracts `Bench count none` (the process's start-up), and divides by the workload's
operations. The set-up of the column (building its chain) is counted too; it is a few thousand
instructions against hundreds of thousands of operations.

    python3 Benchmarks/count-instructions.py [W1 W4 ...]
"""
import os, re, shutil, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
subprocess.run(["swift", "build", "-c", "release", "--package-path", here, "--product", "Bench"], check=True, stdout=subprocess.DEVNULL)
binary = os.path.join(here, ".build", "release", "Bench")
work = tempfile.mkdtemp()
copy = os.path.join(work, "Bench")
shutil.copy(binary, copy)
subprocess.run(["strip", "--strip-debug", copy], check=True)


def count(*arguments):
    out = os.path.join(work, "callgrind.out")
    result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", copy, "count", *arguments],
                            capture_output=True, text=True)
    refs = re.search(r"refs:\s+([\d,]+)", result.stderr)
    if not refs:
        sys.exit(f"callgrind failed for {arguments}: {result.stderr[-2000:]}")
    operations = re.search(r"operations (\d+)", result.stdout)
    return int(refs.group(1).replace(",", "")), int(operations.group(1)) if operations else None


startup, _ = count("none")
workloads = sys.argv[1:] or ["W1", "W2", "W3", "W4", "W5", "W6", "W7"]
print("| id | toolkit instructions/op | closures instructions/op | toolkit / closures |")
print("|---|---:|---:|---:|")
for workload in workloads:
    cells = []
    for column in ("toolkit", "closures"):
        total, operations = count(workload, column)
        cells.append((total - startup) / operations)
    print(f"| {workload} | {cells[0]:,.1f} | {cells[1]:,.1f} | {cells[0] / cells[1]:.2f}× |")
shutil.rmtree(work)
