#!/usr/bin/env bash
# CI smoke mode: builds the benchmark package and runs every benchmark once with tiny sizes
# (KATANA_BENCH_SMOKE=1), then the memory probe with a small burst. Exits non-zero if the build
# fails, a benchmark fails its checks or crashes, or a benchmark is missing from the results.
# It does not judge speed.
set -euo pipefail
cd "$(dirname "$0")"
export KATANA_BENCH_SMOKE=1

results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT

# The benchmark executable is run directly rather than through `swift package benchmark`: on its
# own it runs every benchmark once and prints "Debug results for <name>:" for each, and it spares
# CI the plugin's debug build of its driver, BenchmarkTool (about 80 s; Benchmarks/run.sh, which
# measures, still goes through the plugin). A failed check stops the process (fatalError), so any
# failure is a non-zero exit.
echo "== the benchmarks, built in release and each run once at smoke sizes"
swift build -c release --product KatanaBenchmarks
if ! .build/release/KatanaBenchmarks > "$results/run.log" 2>&1; then
    tail -n 40 "$results/run.log" >&2
    echo "error: the benchmarks stopped (the last 40 lines of their output are above)" >&2
    exit 1
fi

expected=$(grep -hoE '(^|[^A-Za-z])Benchmark\(("|$)' Benchmarks/KatanaBenchmarks/*.swift | grep -c .)
# Large state, the interceptor-chain reference and the start latency while others block register
# one benchmark per variant (one `Benchmark(` each in a loop: 2 + 2 + 2 variants).
expected=$((expected + 4))
found=$(grep -E '^Debug results for .*:$' "$results/run.log" | sort -u | grep -c .)
echo "== benchmarks with results: $found (expected $expected)"
if [ "$found" -ne "$expected" ]; then
    echo "error: some benchmarks produced no results" >&2
    exit 1
fi

echo "== memory probe (1,000 in-flight dispatches)"
swift build -c release --product KatanaMemoryProbe
.build/release/KatanaMemoryProbe 1000
echo "== the dispatch context's and the tracing interceptor's workloads (1,000 items each)"
swift build -c release --product KatanaTracingProfile
for workload in updaters updaters-context traced-noop traced-memory; do
    .build/release/KatanaTracingProfile "$workload" 1000
done
echo "== smoke run passed"
