"""The live scenario: against the fixture's live store, an item dispatched while the page is open
appears without a reload; at the bottom the view follows new items; scrolled up, the view stays
where it is and a "1 new item ↓" button shows. A side effect's row shows it running, then, when
it ends long after its row arrived, how it ended (the row and the selected item's detail)."""

import json
import os
import re

from ..failure import log
from ..snippets import ROW_POSITIONS, ROWS_IN_VIEW, SESSION, row_sel, text_of


def run(test):
    log("live: new items arrive without a reload; the view stays still while the user reads")
    fixture = test.processes.start("inspector-page-fixture-live", [test.args.fixture, "live", "--port", "0"],
                                   os.path.join(test.logs, "fixture-live.log"), stdin=True)
    match = fixture.expect_line(r"inspector-page-fixture: live at (http://127\.0\.0\.1:\d+/\S*)",
                                "the 'live at http://…' line", timeout=60)
    url = match.group(1)
    page = test.page
    page.navigate("about:blank")
    test.devtools.exceptions.clear()
    test.devtools.problems.clear()
    test.open_page(url, "the live store")
    page.wait_for("the live connection", "inspector.connectionState() === 'live'", timeout=20)
    test.expect(page.js("inspector.loadedCount()") == SESSION and page.js(ROW_POSITIONS) == list(range(1, SESSION + 1)),
                f"the live page shows the {SESSION} items", repr(page.js(ROW_POSITIONS)))
    status = text_of(page, "[data-testid=live-status]") or ""
    test.expect("Live" in status, "the header shows the live connection", repr(status))
    test.shot("live-before")

    page.js("window.__notReloaded = true")
    fixture.send("add Live item")
    position = int(fixture.expect_line(r"^dispatched (\d+)$", "'dispatched <position>'", timeout=20).group(1))
    new = SESSION + 1
    test.expect(position == new, f"the fixture dispatched the new item at #{new}", str(position))
    page.wait_for(f"row #{new} to appear", "(() => { const r = document.querySelector(%s);"
                  " return !!r && r.textContent.includes('Live item'); })()" % json.dumps(row_sel(new)), timeout=10)
    test.expect(page.js("window.__notReloaded === true"), f"row #{new} 'Live item' appears within 10 s, without a reload")
    test.shot("live-after-new-item")

    # Fill the timeline past its height: at the bottom, the view follows.
    for i in range(1, 41):
        fixture.send(f"add Filler {i}")
        fixture.expect_line(r"^dispatched \d+$", f"'dispatched' for filler {i}", timeout=20)
    filled = new + 40
    page.wait_for("the filler rows", f"inspector.loadedCount() === {filled}", timeout=15)
    page.wait_for(f"the view to follow to #{filled}", "(%s).includes(%d)" % (ROWS_IN_VIEW, filled), timeout=10)
    test.ok(f"at the bottom, the view follows new items (#{filled} in view)")

    # Scroll up a little: the view must not move when an item arrives.
    page.wheel("[data-testid=timeline-scroll]", -300)
    page.wait_for("the wheel to scroll up", "document.querySelector('[data-testid=timeline-scroll]').scrollTop > 0 &&"
                  " !(%s).includes(%d)" % (ROWS_IN_VIEW, filled), timeout=10)
    page.wait_for("the scrolling to settle", """new Promise(done => {
        const box = document.querySelector('[data-testid=timeline-scroll]'); const top = box.scrollTop;
        setTimeout(() => done(box.scrollTop === top), 300); })""", timeout=10)
    before = page.js("({top: document.querySelector('[data-testid=timeline-scroll]').scrollTop, rows: %s})" % ROWS_IN_VIEW)
    fixture.send("add While reading")
    reading = filled + 1
    fixture.expect_line(rf"^dispatched {reading}$", f"'dispatched {reading}'", timeout=20)
    page.wait_for(f"#{reading} to reach the page", f"inspector.loadedCount() === {reading}", timeout=10)
    page.wait_for("the new items button", "!document.querySelector('[data-testid=new-items]').hidden", timeout=5)
    page.frames(3)
    after = page.js("({top: document.querySelector('[data-testid=timeline-scroll]').scrollTop, rows: %s})" % ROWS_IN_VIEW)
    test.expect(before == after, f"scrolled away from the bottom, the view does not move when #{reading} arrives",
                f"before {before}, after {after}")
    label = text_of(page, "[data-testid=new-items]") or ""
    test.expect("1 new item" in label, "a '1 new item ↓' button shows", repr(label))
    test.shot("live-new-items-button")
    page.click("[data-testid=new-items]", "the new items button")
    page.wait_for(f"#{reading} in view after the button", "(%s).includes(%d)" % (ROWS_IN_VIEW, reading), timeout=5)
    test.expect(page.js("document.querySelector('[data-testid=new-items]').hidden"),
                "the button scrolls to the new item and goes away")

    # A side effect that ends after its row arrived: the row, and its detail, say so when it does.
    fixture.send("refresh")
    refresh = int(fixture.expect_line(r"^dispatched (\d+)$", "'dispatched <position>' for the refresh", timeout=20).group(1))
    end_sel = row_sel(refresh) + " [data-testid=row-end]"
    page.wait_for(f"row #{refresh} to show the refresh running",
                  "(() => { const c = document.querySelector(%s); return !!c && c.textContent === 'running'; })()"
                  % json.dumps(end_sel), timeout=10)
    test.ok(f"row #{refresh}, the refresh, is badged 'running'")
    page.click(row_sel(refresh), f"row #{refresh}")
    page.wait_for(f"the detail of #{refresh}", "document.querySelector('#detail-body').dataset.position === '%d'" % refresh)
    running = text_of(page, "[data-testid=detail-end]") or ""
    test.expect(running.startswith("running"), "its detail says it is running", repr(running))
    fixture.send("cancel-refresh")
    fixture.expect_line(r"^ended$", "'ended' after cancel-refresh", timeout=20)
    page.wait_for(f"row #{refresh} to show how it ended",
                  "(() => { const b = document.querySelector(%s); return !!b && b.textContent === 'cancelled'; })()"
                  % json.dumps(end_sel + " [data-testid=end-badge]"), timeout=10)
    words = text_of(page, end_sel + " [data-testid=end-words]") or ""
    test.expect(re.fullmatch(r"its id · [\d.]+ (µs|ms|s|min \d+ s)", words) is not None,
                f"when it is cancelled, row #{refresh} updates in place: 'cancelled', 'its id' and how long it ran",
                repr(words))
    page.wait_for("the detail to show the end", "(document.querySelector('[data-testid=detail-end]') || {}).textContent"
                  " && document.querySelector('[data-testid=detail-end]').textContent.startsWith('cancelled by its id')",
                  timeout=10)
    test.expect(page.js("window.__notReloaded === true"), "the selected item's detail shows the end too, without a reload")
    test.shot("live-end-arrived")
    test.no_page_errors("the live scenario")
    fixture.send("quit")
    test.processes.stop(fixture)
