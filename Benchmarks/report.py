#!/usr/bin/env python3
"""Turns benchmark exports into the figures of docs/PERFORMANCE.md.

Usage: report.py RESULTS_DIR
RESULTS_DIR holds run-*/…influx.csv (one `swift package benchmark --format influx` export per run)
and memory-*.txt (KatanaMemoryProbe output). Every benchmark name ends in "×N", the number of
operations one iteration performs; per-operation figures are the iteration's median divided by N.
Each figure is the median over the runs of that per-run median.
"""
import csv
import glob
import os
import re
import statistics
import sys

WALL = "Time(wallclock)"
MALLOC = "Malloc(total)"

FLOOR_MUTEX = "Floor: mutex increment + closure call"
FLOOR_HOP = "Floor: serial queue hop"
FLOOR_RT = "Floor: serial queue round trip"
UPDATERS = "Updaters: back-to-back"
INTERCEPTORS = "Updaters: 10 pass-through interceptors"
ONCHANGE = "Updaters: observer with 100 OnChange rules (none firing)"
ONDISPATCH = "Updaters: observer with 100 OnDispatch rules for other types"
LISTENERS = "Updaters: 100 listeners (until every call delivered)"
SIDE = "Side effects: no-op SideEffect (all awaited)"
ASYNC_SIDE = "Side effects: no-op AsyncSideEffect (all awaited)"
ROUND_TRIP = "Round trip: dispatch one updater + wait"
LARGE_1K = "Large state: append to an array of 1000"
LARGE_1M = "Large state: append to an array of 1000000"
PROMISE_RESOLVED = "Promise: create resolved"
PROMISE_BODY = "Promise: create from a body that resolves"
PROMISE_CHAIN = "Promise: then chains of 10 (awaited)"
REF_HANDOFF = "Reference: minimal promise hand-off, no store"
REF_CHAIN_NONE = "Reference: StoreInterceptor chain of 0 pass-throughs, no store"
REF_CHAIN_ARRAY = "Reference: StoreInterceptor chain of 10 pass-throughs from an array, no store"
REF_CHAIN_VARIABLE = "Reference: StoreInterceptor chain of 10 pass-throughs held in a variable, no store"
REF_TASK = "Reference: empty Task per operation, all awaited"
LISTENER_COUNT = 100


def load_run(path):
    """{benchmark base name: {(metric, percentile): value, 'ops': N}} for one export."""
    results = {}
    with open(path, newline="") as handle:
        for row in csv.reader(handle):
            if len(row) < 11 or row[0].startswith("#") or row[0] == "measurement":
                continue
            metric, test, percentile, value = row[6], row[8], float(row[9]), float(row[10])
            match = re.match(r"^(.*) ×(\d+)$", test)
            if not match:
                continue
            name, ops = match.group(1), int(match.group(2))
            entry = results.setdefault(name, {"ops": ops})
            entry[(metric, percentile)] = value
    return results


def load_memory(path):
    with open(path) as handle:
        for line in handle:
            if line.startswith("MEMORY "):
                return {k: float(v) for k, v in (part.split("=") for part in line.split()[1:])}
    return None


def median_over_runs(runs, name, metric, percentile=50.0, per_op=True):
    values = []
    for run in runs:
        entry = run.get(name)
        if entry is None or (metric, percentile) not in entry:
            continue
        value = entry[(metric, percentile)]
        values.append(value / entry["ops"] if per_op else value)
    return statistics.median(values) if values else None


def fmt_ns(value):
    if value is None:
        return "n/a"
    if value >= 1_000_000:
        return f"{value / 1_000_000:.2f} ms"
    if value >= 10_000:
        return f"{value / 1_000:.1f} µs"
    if value >= 100:
        return f"{value:.0f} ns"
    return f"{value:.1f} ns"


def fmt_ratio(value):
    return "n/a" if value is None else f"{value:.2f}×"


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else "results"
    runs = [load_run(p) for p in sorted(glob.glob(os.path.join(directory, "run-*", "*.influx.csv")))]
    memories = [m for m in (load_memory(p) for p in sorted(glob.glob(os.path.join(directory, "memory-*.txt")))) if m]
    if not runs:
        sys.exit(f"no run-*/…influx.csv under {directory}")

    def ns(name, percentile=50.0):
        return median_over_runs(runs, name, WALL, percentile)

    def mallocs(name):
        return median_over_runs(runs, name, MALLOC)

    mutex, hop, rt_floor = ns(FLOOR_MUTEX), ns(FLOOR_HOP), ns(FLOOR_RT)
    out = []
    out.append(f"Runs: {len(runs)} benchmark runs, {len(memories)} memory-probe runs; every figure is the median over the runs.")
    load_path = os.path.join(directory, "load.txt")
    if os.path.exists(load_path):
        with open(load_path) as handle:
            loads = [line.strip() for line in handle if line.strip()]
        out.append(f"Load average (1, 5, 15 min) before each run on {os.cpu_count()} cores: " + "; ".join(loads) + ".")
    out.append("")
    out.append("#### Every benchmark")
    out.append("")
    out.append("| benchmark | per operation | mallocs / op | ÷ mutex floor | ÷ queue-hop floor |")
    out.append("| --- | ---: | ---: | ---: | ---: |")
    names = []
    for run in runs:
        for name in run:
            if name not in names and name.split(":")[0] != "Memory":
                names.append(name)
    order = ["Floor", "Reference", "Updaters", "Side effects", "Round trip", "Large state", "Promise"]
    first_seen = list(names)
    names.sort(key=lambda n: (order.index(n.split(":")[0]) if n.split(":")[0] in order else 99, first_seen.index(n)))
    chart = []
    for name in names:
        value = ns(name)
        ops = runs[0].get(name, {}).get("ops", 1)
        label = f"{name} (×{ops:,})" if ops > 1 else name
        if name in (ROUND_TRIP, FLOOR_RT):
            label = f"{name}, median (p99 {fmt_ns(ns(name, 99.0))})"
        malloc = mallocs(name)
        out.append(
            f"| {label} | {fmt_ns(value)} | {'n/a' if malloc is None else f'{malloc:.2f}'} | "
            f"{fmt_ratio(value / mutex if value and mutex else None)} | {fmt_ratio(value / hop if value and hop else None)} |"
        )
        if value and hop:
            chart.append((name, value / hop))
    out.append("")

    if memories:
        rss = statistics.median(m["rss_per_dispatch"] for m in memories)
        heap = statistics.median(m["heap_per_dispatch"] for m in memories)
        residual_trim = statistics.median(m["residual_trimmed_rss"] for m in memories)
        residual_untrim = statistics.median(m["residual_untrimmed_rss"] for m in memories)
        residual_heap = statistics.median(m["residual_heap"] for m in memories)
        settled_heap = statistics.median(m["settled_heap"] for m in memories)
        free_running = statistics.median(m.get("free_running_untrimmed_rss", 0) for m in memories)
        out.append("#### Memory")
        out.append("")
        out.append("KatanaMemoryProbe, 100,000 dispatches in flight behind a held queue, no malloc interposer:")
        out.append("")
        out.append(f"- resident memory per in-flight dispatch: {rss:.0f} bytes (heap in use: {heap:.0f} bytes)")
        out.append(f"- when the last promise settles: heap {settled_heap / 1024:.0f} KiB above baseline (what the store still holds at that moment)")
        out.append(f"- once the store is idle (0.5 s later): heap {residual_heap / 1024:.0f} KiB above baseline; RSS {residual_untrim / 1024:.0f} KiB above baseline without the program trimming the allocator, {residual_trim / 1024:.0f} KiB after `malloc_trim(0)`")
        out.append(f"- a free-running burst (no held queue, one listener), 1.5 s after its last promise settled: RSS {free_running / 1024:.0f} KiB above baseline, untrimmed")
        harness = {metric: median_over_runs(runs, "Memory: in-flight dispatch burst", metric, per_op=False)
                   for metric in ("RSSbytesperin-flightdispatch", "heapbytesperin-flightdispatch", "RSSKiBabovebaselineaftersettling")}
        if all(value is not None for value in harness.values()):
            out.append(
                f"- the same burst inside the benchmark harness, whose malloc interposer adds a header to every allocation: "
                f"{harness['RSSbytesperin-flightdispatch']:.0f} bytes resident and {harness['heapbytesperin-flightdispatch']:.0f} bytes of heap per in-flight dispatch, "
                f"{harness['RSSKiBabovebaselineaftersettling']:.0f} KiB above baseline once idle and trimmed"
            )
        out.append("")
    else:
        rss = residual_trim = residual_untrim = residual_heap = free_running = None

    out.append("#### Chart")
    out.append("")
    out.append("Ratio to the serial-queue hop floor (per operation; `|` marks 1×, each `#` is 0.25×, capped at 10×):")
    out.append("")
    out.append("```")
    width = max(len(name) for name, _ in chart) if chart else 0
    for name, ratio in chart:
        bar = "#" * min(40, max(1, round(ratio * 4)))
        bar = bar[:4] + "|" + bar[4:] if len(bar) > 4 else bar.ljust(4) + "|"
        suffix = "…" if ratio > 10 else ""
        out.append(f"{name.ljust(width)}  {ratio:7.2f}×  {bar}{suffix}")
    out.append("```")
    out.append("")

    def verdict(ok):
        return "n/a" if ok is None else ("met" if ok else "**not met**")

    updater, intercepted, onchange = ns(UPDATERS), ns(INTERCEPTORS), ns(ONCHANGE)
    side, async_side = ns(SIDE), ns(ASYNC_SIDE)
    rt = ns(ROUND_TRIP)
    large_1k, large_1m = ns(LARGE_1K), ns(LARGE_1M)
    listeners = ns(LISTENERS)
    per_call = listeners / LISTENER_COUNT if listeners else None
    handoff, task = ns(REF_HANDOFF), ns(REF_TASK)
    chain_none, chain_array, chain_variable = ns(REF_CHAIN_NONE), ns(REF_CHAIN_ARRAY), ns(REF_CHAIN_VARIABLE)
    rows = []
    if updater and hop:
        measured = f"{fmt_ns(updater)} = {updater / hop:.2f}× floor"
        if handoff:
            measured += f" (the minimal promise hand-off alone: {fmt_ns(handoff)} = {handoff / hop:.2f}×)"
        rows.append(("updater throughput ≤ 0.4 × queue-hop floor per dispatch", measured, updater <= 0.4 * hop))
    if updater and intercepted:
        added = intercepted - updater
        measured = f"+{fmt_ns(added)} ({added / hop:.2f}× floor)"
        if chain_none and chain_array and chain_variable:
            measured += (f" (ten `StoreInterceptor` closures alone, no store: +{fmt_ns(chain_array - chain_none)} taken from an array, "
                         f"+{fmt_ns(chain_variable - chain_none)} held in a variable)")
        rows.append(("10 interceptors add ≤ 50 ns per dispatch", measured, added <= 50))
    if updater and onchange:
        added = onchange - updater
        rows.append(("100 non-matching observer rules add ≤ 1 µs per dispatch", f"+{fmt_ns(added)} ({added / hop:.2f}× floor)", added <= 1000))
    if side and hop:
        rows.append(("side effects ≤ 2 × queue-hop floor each (SideEffect)", f"{fmt_ns(side)} = {side / hop:.2f}× floor", side <= 2 * hop))
    if async_side and hop:
        measured = f"{fmt_ns(async_side)} = {async_side / hop:.2f}× floor"
        if task:
            measured += f" (an empty task alone: {fmt_ns(task)} = {task / hop:.2f}×)"
        rows.append(("side effects ≤ 3 × queue-hop floor each (AsyncSideEffect)", measured, async_side <= 3 * hop))
    if rt and hop:
        rows.append(("round trip median ≤ 3 × queue-hop floor", f"{fmt_ns(rt)} = {rt / hop:.1f}× the hop floor; {rt / rt_floor:.2f}× the queue round-trip floor", rt <= 3 * hop))
    if large_1k and large_1m:
        rows.append(("large state: 1,000,000-element append ≤ 1.5 × 1,000-element append", f"{fmt_ns(large_1m)} vs {fmt_ns(large_1k)} = {large_1m / large_1k:.2f}×", large_1m <= 1.5 * large_1k))
    if rss is not None:
        back = residual_heap < 1024 * 1024 and residual_untrim < 1024 * 1024 and free_running < 1024 * 1024
        rows.append(("memory ≤ 300 bytes resident per in-flight dispatch (100,000 burst)", f"{rss:.0f} bytes", rss <= 300))
        rows.append((
            "memory back to the baseline after settling, without the program calling malloc_trim",
            f"heap +{residual_heap / 1024:.0f} KiB, RSS +{residual_untrim / 1024:.0f} KiB (held burst), +{free_running / 1024:.0f} KiB (free-running burst) (< 1 MiB counts as back)",
            back,
        ))
    if per_call is not None:
        rows.append(("100 listeners: every call delivered in ≤ 15 ns per call", f"{per_call:.1f} ns per call", per_call <= 15))
    out.append("#### Targets")
    out.append("")
    out.append("| target | measured | |")
    out.append("| --- | --- | --- |")
    for target, measured, ok in rows:
        out.append(f"| {target} | {measured} | {verdict(ok)} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
