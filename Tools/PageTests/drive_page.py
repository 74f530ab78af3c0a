#!/usr/bin/env python3
"""End-to-end test of the inspector's page in a real headless Chromium.

Python standard library only; the test itself is the pagetest package beside this file (its
__init__.py says which part does what). Chromium is driven over the DevTools protocol on a pipe.
The test starts the programs it is given (katana-inspector and inspector-page-fixture), opens the
page, clicks and types through the DOM like a user, checks what the page shows, and saves a
screenshot of each view. Every process it starts is stopped at the end, also when a check fails.

Usage: drive_page.py --inspector BIN --fixture BIN [--out DIR] [--docs-image PNG] [--timeout S]
                     [--only recording|ends|large|token|live|live-trim ...] [--chromium BIN] [--large-timeout S]
"""

import os
import sys

sys.dont_write_bytecode = True    # no __pycache__ folders in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pagetest.cli import main  # noqa: E402  (needs the path above)

if __name__ == "__main__":
    sys.exit(main())
