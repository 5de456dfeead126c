#!/usr/bin/env python3
"""Whole-process A/B timing with the standard library only.

Runs command A and command B in turn N times (after one untimed run of each) and prints the
median user, system, CPU and wall seconds and peak resident memory of each (the operating
system's accounting of the finished child, `getrusage`), and the median of the pairwise
ratios A/B: pairing keeps a ratio meaningful when the machine's speed drifts.

    scripts/ab-time.py N 'COMMAND A' 'COMMAND B'

Each command is split as a shell splits words and run without a shell, output discarded.
A child's peak memory cannot read below this script's own (the kernel counts the pages a
child shares with its parent until it runs the command): the floor is printed; for a peak
near it, use `/usr/bin/time -f %M COMMAND`.
"""

import os
import resource
import shlex
import statistics
import subprocess
import sys
import time


def run(argv):
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    return usage.ru_utime, usage.ru_stime, wall, usage.ru_maxrss / 1024


def main():
    if len(sys.argv) != 4:
        sys.exit(f"usage: {sys.argv[0]} N 'COMMAND A' 'COMMAND B'")
    n = int(sys.argv[1])
    a, b = shlex.split(sys.argv[2]), shlex.split(sys.argv[3])
    run(a)
    run(b)
    runs = {"A": [], "B": []}
    for _ in range(n):
        runs["A"].append(run(a))
        runs["B"].append(run(b))
    med = statistics.median
    print(f"{'':4} {'user s':>8} {'sys s':>8} {'cpu s':>8} {'wall s':>8} {'peak MiB':>9}")
    for label, rs in runs.items():
        print(f"{label:4} {med(r[0] for r in rs):8.3f} {med(r[1] for r in rs):8.3f} "
              f"{med(r[0] + r[1] for r in rs):8.3f} {med(r[2] for r in rs):8.3f} "
              f"{med(r[3] for r in rs):9.1f}")
    floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"(peak memory floor: {floor:.1f} MiB)")
    pairs = list(zip(runs["A"], runs["B"]))
    cpu = [(x[0] + x[1]) / (y[0] + y[1]) for x, y in pairs if y[0] + y[1] > 0]
    wall = [x[2] / y[2] for x, y in pairs if y[2] > 0]
    if cpu:
        print(f"A/B cpu  {med(cpu):.3f} (median of {len(cpu)} pairs; "
              f"{min(cpu):.3f}-{max(cpu):.3f})")
    if wall:
        print(f"A/B wall {med(wall):.3f}")


if __name__ == "__main__":
    main()
