"""The inspector's page test, driven in a real headless Chromium (Python's standard library only).

    failure.py    Failure (a check that did not hold) and log
    programs.py   the programs the test starts (katana-inspector, the fixture, Chromium), one-off runs, GET
    cdp.py        the DevTools protocol over a pipe
    browser.py    Chromium: launching it, and a page to evaluate in, click, type and screenshot
    snippets.py   JavaScript expressions and selectors the scenarios share
    harness.py    PageTest: the checks' bookkeeping, recording and serving, running the scenarios
    scenarios/    one module per scenario (recording, large, token, live, live_trim)
    cli.py        the command line, the overall timeout, and the summary at the end
"""
