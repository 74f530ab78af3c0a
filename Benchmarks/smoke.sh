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

echo "== swift package benchmark (smoke sizes, one iteration each)"
swift package --allow-writing-to-directory "$results" benchmark \
    --format influx --path "$results" --no-progress

expected=$(grep -hoE '(^|[^A-Za-z])Benchmark\(("|$)' Benchmarks/KatanaBenchmarks/*.swift | grep -c .)
# Large state, the interceptor-chain reference and the start latency while others block register
# one benchmark per variant (one `Benchmark(` each in a loop: 2 + 2 + 2 variants).
expected=$((expected + 4))
found=$(python3 - "$results" <<'PY'
import csv, glob, sys
names = set()
for path in glob.glob(sys.argv[1] + "/*.influx.csv"):
    for row in csv.reader(open(path, newline="")):
        if len(row) > 8 and not row[0].startswith("#") and row[0] != "measurement":
            names.add(row[8])
print(len(names))
PY
)
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
