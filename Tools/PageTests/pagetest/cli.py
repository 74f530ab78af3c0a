"""The command line of drive_page.py: its options, the overall timeout (and stopping cleanly on
SIGTERM or Ctrl-C), a screenshot when a check fails, and the summary at the end."""

import argparse
import os
import signal
import time

from .failure import Failure, log
from .harness import PageTest
from .scenarios import SCENARIOS

DESCRIPTION = "End-to-end test of the inspector's page in a real headless Chromium."


def main():
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--inspector", required=True, help="the katana-inspector executable")
    parser.add_argument("--fixture", required=True, help="the inspector-page-fixture executable")
    parser.add_argument("--out", default=os.environ.get("PAGE_TEST_OUTPUT", "Tools/.build/page-tests"),
                        help="folder for screenshots, measurements and logs")
    parser.add_argument("--docs-image", help="also copy the item-selected screenshot here")
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--timeout", type=int, default=900, help="seconds for the whole test")
    parser.add_argument("--only", action="append", choices=list(SCENARIOS),
                        help="run only this scenario (repeatable; for working on the page)")
    parser.add_argument("--large-timeout", type=int, default=180, help="seconds to load 100,000 items")
    args = parser.parse_args()

    test = PageTest(args)

    def give_up(signum, _frame):
        if signum == signal.SIGALRM:
            raise Failure(f"the page test took longer than {args.timeout} s in all")
        raise Failure(f"stopped by signal {signum}")

    signal.signal(signal.SIGALRM, give_up)
    signal.signal(signal.SIGTERM, give_up)
    signal.signal(signal.SIGINT, give_up)
    signal.alarm(args.timeout)
    started = time.monotonic()
    failure = None
    try:
        test.run()
    except Failure as error:
        failure = error
        if test.devtools is not None:
            for problem in (test.devtools.exceptions + test.devtools.problems)[:10]:
                log(f"  page: {problem}")
        if test.page is not None:
            try:
                path = os.path.join(test.out, "failure.png")
                test.page.screenshot(path)
                log(f"  (screenshot of the failure: {path})")
            except Exception:  # the browser may be the thing that failed
                pass
    finally:
        signal.alarm(0)
        test.cleanup()

    seconds = time.monotonic() - started
    if failure is not None:
        log(f"\nFAIL page tests: {failure}")
        log(f"  ({test.checks} checks passed before it; logs in {test.logs})")
        return 1
    log(f"\npage tests: {test.checks} checks passed in {seconds:.0f} s")
    if test.metrics:
        m = test.metrics
        log(f"  {m['items']:,} items: loaded in {m['loadMilliseconds']} ms (the page's own count:"
            f" {m['pageLoadMilliseconds']} ms), JS heap {m['jsHeapUsedBytes'] / 1e6:.1f} MB used,"
            f" scroll median {m['scroll']['medianMs']:.0f} ms per jump")
    log(f"  screenshots in {test.out}: " + ", ".join(os.path.basename(p) for p in test.screens))
    return 0
