#!/usr/bin/env bash
# End-to-end test of the inspector's page in a real headless Chromium (Debian's package).
# Run from anywhere; .ci/run calls it. Installs Chromium with apt-get when it is missing, builds
# katana-inspector and inspector-page-fixture, and runs drive_page.py against them.
#
#   PAGE_TEST_OUTPUT            screenshots, measurements and logs (default Tools/.build/page-tests)
#   PAGE_TEST_UPDATE_DOCS_IMAGE=1  also copy the item-selected screenshot to docs/images/inspector.png
#   KATANA_INSPECTOR_BIN, INSPECTOR_PAGE_FIXTURE_BIN  use these programs instead of building them
set -euo pipefail
cd "$(dirname "$0")/../.."

install_packages() {
    local runner=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || { echo "run-page-tests: need root (or sudo) to install $*" >&2; exit 1; }
        runner=(sudo)
    fi
    "${runner[@]}" apt-get update
    "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v python3 >/dev/null || missing+=(python3)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "== installing ${missing[*]} with apt-get"
    install_packages "${missing[@]}"
fi

inspector="${KATANA_INSPECTOR_BIN:-}"
fixture="${INSPECTOR_PAGE_FIXTURE_BIN:-}"
if [ -z "$inspector" ] || [ -z "$fixture" ]; then
    echo "== building katana-inspector and inspector-page-fixture"
    swift build --package-path Tools --product katana-inspector
    swift build --package-path Tools --product inspector-page-fixture
    bin="$(swift build --package-path Tools --show-bin-path)"
    inspector="${inspector:-$bin/katana-inspector}"
    fixture="${fixture:-$bin/inspector-page-fixture}"
fi

args=(--inspector "$inspector" --fixture "$fixture" --out "${PAGE_TEST_OUTPUT:-Tools/.build/page-tests}")
if [ "${PAGE_TEST_UPDATE_DOCS_IMAGE:-0}" = 1 ]; then
    args+=(--docs-image docs/images/inspector.png)
fi

echo "== the inspector's page in headless $(chromium --version 2>/dev/null | head -n 1)"
exec python3 Tools/PageTests/drive_page.py "${args[@]}"
