#!/usr/bin/env bash
# Instructions per dispatched item, for each KatanaProfile workload named.
#
#   Benchmarks/instructions-per-item.sh [--check [--ceilings FILE]] [workload[:N]]...
#
# Why instructions: wall-clock figures on a shared or virtual machine move by 20 % or more from
# run to run, while the instructions an item costs move by about 1 %, so this is the figure to
# compare two versions of the engine with.
#
# How: KatanaProfile (this package's plain workload program) is built in release and run under
# `valgrind --tool=callgrind --fair-sched=yes` at N and at 2N items. (I(2N) - I(N)) / N is what one
# item costs, with the program's start-up and tear-down cancelled out. That difference is taken
# three times and the median printed. --fair-sched=yes makes valgrind hand its one lock to threads
# in turn, so that the store's threads take turns as they would on a real machine instead of one
# thread spinning while another holds the lock.
#
# Without arguments it measures the workloads that docs/PERFORMANCE.md tracks, at sizes large
# enough that the difference dwarfs the noise (a few minutes in all). `workload` alone takes its
# default size (25,000 for a workload not in the default list).
#
# --check compares each figure with its ceiling in cost-ceilings.txt (next to this script, or the
# file given with --ceilings) and exits 1 if any is above. A ceiling relative to another workload
# (`interceptors-fast updaters+300`) has that workload measured too, in the same session.
#
# Exit status: 0 when everything was measured (and, with --check, is within its ceiling); 1 when
# a figure is above its ceiling, the build fails or a workload gives no count; 2 for a usage error
# or a missing valgrind. Runs from anywhere: it finds the Benchmarks package from its own path.
set -euo pipefail

defaults="updaters:50000 interceptors:25000 interceptors-fast:25000 sideeffects:25000 asyncsideeffects:25000 listeners:25000"

usage() {
    sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//' >&2
    echo "default workloads: $defaults" >&2
    exit 2
}

here="$(cd "$(dirname "$0")" && pwd)"
check=false
ceilings="$here/cost-ceilings.txt"
specs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --check) check=true ;;
        --ceilings)
            [ $# -ge 2 ] || usage
            case "$2" in /*) ceilings="$2" ;; *) ceilings="$PWD/$2" ;; esac
            shift ;;
        -h|--help) usage ;;
        -*) echo "unknown option: $1" >&2; usage ;;
        *) specs+=("$1") ;;
    esac
    shift
done
[ ${#specs[@]} -gt 0 ] || read -r -a specs <<< "$defaults"

if ! command -v valgrind > /dev/null; then
    echo "valgrind is missing: it counts the instructions (on Debian or Ubuntu: apt-get install valgrind;" >&2
    echo "it runs on Linux only)." >&2
    exit 2
fi
if $check && [ ! -r "$ceilings" ]; then
    echo "--check: no ceilings file at $ceilings" >&2
    exit 2
fi

# The size a workload takes when none is given.
default_size() {
    local spec
    for spec in $defaults; do
        [ "${spec%%:*}" = "$1" ] && { echo "${spec#*:}"; return; }
    done
    echo 25000
}

# The program whose workloads are measured: KatanaProfile unless PROFILE_PROGRAM names another of
# this package's (KatanaTracingProfile: the dispatch context's and the tracing interceptor's cost).
program="${PROFILE_PROGRAM:-KatanaProfile}"

cd "$here"
echo "building $program (release)..." >&2
build_log="$(mktemp)"
trap 'rm -f "$build_log"' EXIT
if ! swift build -c release --product "$program" > "$build_log" 2>&1; then
    tail -n 30 "$build_log" >&2
    echo "$program does not build (cd Benchmarks && swift build -c release --product $program)" >&2
    exit 1
fi
bin="$(swift build -c release --show-bin-path)/$program"

# The instructions callgrind counted for one run of `workload` at `count` items.
collected() {
    local output status=0
    output="$(valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1)" || status=$?
    local count
    count="$(printf '%s\n' "$output" | sed -n 's/.*Collected : \([0-9][0-9]*\).*/\1/p' | tail -n 1)"
    if [ "$status" -ne 0 ] || [ -z "$count" ]; then
        printf '%s\n' "$output" | tail -n 15 >&2
        echo "$1: $program at $2 items gave no count (exit status $status; an unknown workload?)" >&2
        return 1
    fi
    echo "$count"
}

results=""   # lines of "workload figure"
figure_of() { printf '%s\n' "$results" | awk -v w="$1" '$1 == w { print $2; exit }'; }

measure() {
    local workload="$1" n="$2" values="" a b
    case "$n" in ''|*[!0-9]*|0) echo "$workload: the size must be a positive whole number, not '$n'" >&2; exit 2 ;; esac
    for _ in 1 2 3; do
        a="$(collected "$workload" "$n")" || exit 1
        b="$(collected "$workload" $((2 * n)))" || exit 1
        values="$values $(((b - a) / n))"
    done
    local median
    median="$(printf '%s\n' $values | sort -n | sed -n 2p)"
    results="$results
$workload $median"
    printf '%-28s %7s instructions per item (N = %s; runs:%s)\n' "$workload" "$median" "$n" "$values"
}

# The ceiling line for a workload, with blanks inside the value removed ("updaters + 300" too).
ceiling_of() {
    awk -v w="$1" '{ sub(/#.*/, "") } NF && $1 == w { $1 = ""; gsub(/[[:space:]]/, ""); print; exit }' "$ceilings"
}

# The limit a ceiling sets: a number, or `workload+number` (that workload's figure plus the number).
limit_of() {
    case "$1" in
        *[!0-9a-z+-]*|+*|*+|*+*+*) ;;
        *+*)
            local base="${1%%+*}" extra="${1#*+}"
            case "$extra" in *[!0-9]*) ;; *)
                [ -n "$(figure_of "$base")" ] && { echo $(($(figure_of "$base") + extra)); return; } ;;
            esac ;;
        *[!0-9]*) ;;
        *) echo "$1"; return ;;
    esac
    echo "$(basename "$ceilings"): cannot read the ceiling '$1'" >&2
    exit 2
}

# With --check, a relative ceiling needs the workload it is relative to: measure that one first.
if $check; then
    for spec in "${specs[@]}"; do
        ceiling="$(ceiling_of "${spec%%:*}")"
        case "$ceiling" in
            *+*)
                base="${ceiling%%+*}"
                needed=true
                for other in "${specs[@]}"; do [ "${other%%:*}" = "$base" ] && needed=false; done
                $needed && specs=("$base" "${specs[@]}")
                ;;
        esac
    done
fi

for spec in "${specs[@]}"; do
    workload="${spec%%:*}"
    if [ "$workload" = "$spec" ]; then n="$(default_size "$workload")"; else n="${spec#*:}"; fi
    [ -n "$(figure_of "$workload")" ] || measure "$workload" "$n"
done

$check || exit 0

echo
echo "against $(basename "$ceilings"):"
over=0
for spec in "${specs[@]}"; do
    workload="${spec%%:*}"
    figure="$(figure_of "$workload")"
    ceiling="$(ceiling_of "$workload")"
    if [ -z "$ceiling" ]; then
        printf '  %-26s %7s  no ceiling\n' "$workload" "$figure"
        continue
    fi
    limit="$(limit_of "$ceiling")" || exit 2
    if [ "$limit" = "$ceiling" ]; then shown="$ceiling"; else shown="$ceiling = $limit"; fi
    if [ "$figure" -le "$limit" ]; then verdict="within"; else verdict="ABOVE"; over=1; fi
    printf '  %-26s %7s  %s its ceiling (%s)\n' "$workload" "$figure" "$verdict" "$shown"
done
exit "$over"
