#!/usr/bin/env python3
"""Compare two builds of a benchmark program on this noisy machine: runs them in turns, several rounds,
and prints each row's median rate for both and their ratio, plus each row's ratio to a baseline row of
the new build (by default the placement-only kernel).

    python3 bench/compare.py OLD/bin/meeple_bench build/bin/meeple_bench --filter 'RandomPlayout|Kernel'

Build the old commit in a worktree first, e.g.
    git worktree add /tmp/old <commit> && cmake -S /tmp/old -B /tmp/old/build -DCMAKE_BUILD_TYPE=Release \\
        -DMEEPLE_BUILD_TESTS=OFF && cmake --build /tmp/old/build --target meeple_bench
"""
import argparse
import json
import statistics
import subprocess


def run(program, benchmark_filter, min_time):
    out = subprocess.run([program, f"--benchmark_filter={benchmark_filter}", f"--benchmark_min_time={min_time}",
                          "--benchmark_format=json"], check=True, capture_output=True, text=True).stdout
    return {b["name"]: b["items_per_second"] for b in json.loads(out)["benchmarks"] if "items_per_second" in b}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="benchmark program of the old build")
    parser.add_argument("new", help="benchmark program of the new build")
    parser.add_argument("--filter", default="RandomPlayout|Kernel", help="--benchmark_filter of both")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each program, in turns")
    parser.add_argument("--min-time", type=float, default=0.5, help="--benchmark_min_time of each run")
    parser.add_argument("--baseline", default="BM_PlacementKernel", help="row of the new build to divide by")
    args = parser.parse_args()

    rates = {"old": {}, "new": {}}
    for _ in range(args.rounds):
        for which in ("old", "new"):
            for name, rate in run(getattr(args, which), args.filter, args.min_time).items():
                rates[which].setdefault(name, []).append(rate)
    median = {which: {name: statistics.median(r) for name, r in rows.items()} for which, rows in rates.items()}
    base = median["new"].get(args.baseline)
    print(f"medians of {args.rounds} runs each, taken in turns (items per second)")
    print(f"| benchmark | old | new | new / old | new / {args.baseline} |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, new in median["new"].items():
        old = median["old"].get(name)
        print(f"| {name} | {f'{old:,.0f}' if old else '-'} | {new:,.0f} | {f'{new / old:.2f}' if old else '-'} | "
              f"{f'{new / base:.2f}' if base else '-'} |")


if __name__ == "__main__":
    main()
