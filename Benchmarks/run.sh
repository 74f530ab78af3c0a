#!/usr/bin/env bash
# Full benchmark run: RUNS (default 5) runs of the whole suite plus the memory probe, then the
# report (figures as ratios to the floors measured in the same runs) in $OUT/report.md.
# Extra arguments go to `swift package benchmark` (for example `--filter "Updaters.*"`).
# Run it on a quiet machine: other builds running at the same time inflate every figure.
set -euo pipefail
cd "$(dirname "$0")"

RUNS="${RUNS:-5}"
OUT="${OUT:-$PWD/results/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$OUT"

echo "== building (release)"
swift build -c release

for run in $(seq 1 "$RUNS"); do
    echo "== run $run of $RUNS"
    # The load average before each run: a busy machine shows here (report.py prints it).
    echo "run $run: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/load.txt"
    mkdir -p "$OUT/run-$run"
    swift package --allow-writing-to-directory "$OUT/run-$run" benchmark \
        --format influx --path "$OUT/run-$run" --no-progress "$@" > "$OUT/run-$run/console.txt"
    .build/release/KatanaMemoryProbe > "$OUT/memory-$run.txt"
done

python3 report.py "$OUT" | tee "$OUT/report.md"
echo "== report written to $OUT/report.md"
