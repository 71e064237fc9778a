"""Cold start: `unobot --help` against a bare `python -c pass` in the same run.

    .venv/bin/python bench/startup.py [--runs 15]

Prints the median wall time of each and their difference (what unobot's own
imports cost). Goal: `unobot --help` under 0.2 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def median_seconds(args: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    bare = median_seconds([sys.executable, "-c", "pass"], args.runs)
    helped = median_seconds([str(BIN / "unobot"), "--help"], args.runs)
    print(f"python -c pass   {bare:.3f} s")
    print(f"unobot --help    {helped:.3f} s   (unobot's own start: {helped - bare:.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
