"""The live-trim scenario: a live store whose inspector keeps at most 200 items (`--limit 200`; it
lets the oldest quarter go when it goes over). The page lets go of the rows the server let go of:
it holds about as many rows as the server keeps, row #1 leaves the DOM and the page's model, the
newest rows still show; while the user reads, a selected item that is still kept stays selected
and the rows in view stay where they are; a selected item that is let go is unselected, saying so.

The numbers follow from the limit: the server keeps between 151 and 200 items (at 201 it lets 50
go), so once its last item is L, every item from L - 150 on is still kept and every item before
L - 199 is gone. Adding 200 items while the user reads would let go of every row in view, so the
reading check adds 60 (one trim, the rows in view kept); 200 more then let the selection go."""

import json
import os

from ..failure import Failure, log
from ..snippets import ROW_POSITIONS, SESSION, row_sel, text_of

LIMIT = 200
HELD_AT_MOST = LIMIT + 60      # the limit plus one batch the page may hold before the next trim
SCROLLER = "[data-testid=timeline-scroll]"
# The rows wholly inside the timeline's visible area: [position, top in px], top to bottom.
ROW_TOPS_IN_VIEW = """(() => {
    const box = document.querySelector('[data-testid=timeline-scroll]').getBoundingClientRect();
    return Array.from(document.querySelectorAll('[data-testid=timeline-row]')).map(r => [r, r.getBoundingClientRect()])
        .filter(([r, b]) => b.top >= box.top - 1 && b.bottom <= box.bottom + 1)
        .map(([r, b]) => [Number(r.dataset.position), Math.round(b.top)]);
})()"""
AT_BOTTOM = ("(() => { const s = document.querySelector('[data-testid=timeline-scroll]');"
             " return s.scrollTop + s.clientHeight >= s.scrollHeight - 13; })()")


def add_many(fixture, count, title):
    """Has the fixture dispatch count items; returns the last one's position."""
    fixture.send(f"add-many {count} {title}")
    match = fixture.expect_line(r"^dispatched (\d+)$", f"'dispatched <position>' after add-many {count}", timeout=90)
    return int(match.group(1))


def held(page):
    """What the page holds: its first and last positions, its row count and its filtered count."""
    return page.js("({first: inspector.firstPosition(), last: inspector.lastPosition(),"
                   " count: inspector.loadedCount(), shown: inspector.filteredCount()})")


def expect_held_rows(test, page, last, what):
    """The page holds a contiguous run of at most HELD_AT_MOST rows ending at last, all shown."""
    h = held(page)
    test.expect(h["last"] == last and 1 < h["first"] and h["count"] == last - h["first"] + 1,
                f"{what}: the page holds rows #{h['first']} to #{last} ({h['count']} rows, one per position)", repr(h))
    test.expect(h["count"] <= HELD_AT_MOST,
                f"{what}: it holds {h['count']} rows, no more than the server's limit and a batch ({HELD_AT_MOST})", repr(h))
    test.expect(h["shown"] == h["count"], f"{what}: the filtered list holds the same {h['count']} rows", repr(h))
    dom = page.js(ROW_POSITIONS)
    test.expect(dom and 0 < len(dom) < 100 and min(dom) >= h["first"],
                f"{what}: the timeline shows {len(dom or [])} row elements, none before #{h['first']}",
                f"rows: {dom[:5] if dom else dom}…")
    return h


def wait_for_settled_scroll(page):
    page.wait_for("the scrolling to settle", """new Promise(done => {
        const box = document.querySelector('[data-testid=timeline-scroll]'); const top = box.scrollTop;
        setTimeout(() => done(box.scrollTop === top), 300); })""", timeout=10)


def run(test):
    log("live-trim: the page lets go of the rows the live server let go of (--limit 200)")
    fixture = test.processes.start(
        "inspector-page-fixture-live-trim",
        [test.args.fixture, "live", "--port", "0", "--limit", str(LIMIT)],
        os.path.join(test.logs, "fixture-live-trim.log"), stdin=True)
    match = fixture.expect_line(r"inspector-page-fixture: live at (http://127\.0\.0\.1:\d+/\S*)",
                                "the 'live at http://…' line", timeout=60)
    page = test.page
    page.navigate("about:blank")
    test.devtools.exceptions.clear()
    test.devtools.problems.clear()
    test.open_page(match.group(1), "the live store that keeps 200 items")
    page.wait_for("the live connection", "inspector.connectionState() === 'live'", timeout=20)
    test.expect(page.js("inspector.loadedCount()") == SESSION and page.js("inspector.firstPosition()") == 1,
                f"the page starts with the session's {SESSION} items, from #1", repr(held(page)))
    page.js("window.__notReloaded = true")

    # 1. Twice the limit: the server lets the oldest go, and so does the page.
    last = add_many(fixture, 400, "Bulk")
    test.expect(last == SESSION + 400, f"the fixture dispatched 400 items, up to #{SESSION + 400}", str(last))
    page.wait_for(f"the page to let #1 go and reach #{last}",
                  f"inspector.firstPosition() > 1 && inspector.lastPosition() === {last}", timeout=20)
    page.frames(2)
    h = expect_held_rows(test, page, last, "after 400 items")
    test.expect(page.js("document.querySelector(%s) === null" % json.dumps(row_sel(1))),
                "row #1 is gone from the DOM")
    test.expect(page.js("inspector.firstPosition()") > 1 and h["first"] > SESSION,
                f"row #1 is gone from the page's model (its first row is #{h['first']})", repr(h))
    summary = (text_of(page, "[data-testid=summary-count]") or "").strip()
    test.expect(summary == f"{h['count']:,}", f"the header's count shows the {h['count']} rows held", repr(summary))
    tops = page.js(ROW_TOPS_IN_VIEW)
    test.expect(tops and tops[-1][0] == last and page.js(AT_BOTTOM),
                f"at the bottom, the view followed: the newest row #{last} shows last", repr(tops[-3:]))
    test.expect(page.js("window.__notReloaded === true") and page.js("inspector.connectionState()") == "live",
                "the page did this live, without a reload")

    # 2. Reading near the end: the items still kept stay selected and in place while older ones go.
    selected = last - 20                      # near the end, in view at the bottom and after scrolling up
    page.click(row_sel(selected), f"row #{selected}")
    page.wait_for(f"#{selected} to be selected and its detail to load",
                  "inspector.selectedPosition() === %d && document.querySelector('#detail-body').dataset.position === '%d'"
                  % (selected, selected), timeout=10)
    page.wheel(SCROLLER, -300)
    page.wait_for("the wheel to scroll up", "!%s" % AT_BOTTOM, timeout=10)
    wait_for_settled_scroll(page)
    before = page.js(ROW_TOPS_IN_VIEW)
    first_before = page.js("inspector.firstPosition()")
    more = 60
    kept_from = last + more - 150             # the server keeps at least the items from this one on
    if not before or before[0][0] < kept_from or before[-1][0] >= last:
        raise Failure(f"the view after scrolling up does not suit the test: rows {before!r}"
                      f" (wanted rows from #{kept_from} on, not the last one)")
    last = add_many(fixture, more, "More")
    page.wait_for(f"the page to reach #{last} and let more rows go",
                  f"inspector.lastPosition() === {last} && inspector.firstPosition() > {first_before}", timeout=20)
    page.frames(3)
    after = page.js(ROW_TOPS_IN_VIEW)
    h = held(page)
    test.expect(before == after,
                f"scrolled up, the rows in view stay put while #{first_before} to #{h['first'] - 1} go",
                f"before {before}, after {after}")
    test.expect(page.js("inspector.selectedPosition()") == selected and
                page.js("location.hash") == f"#p={selected}" and
                page.js("document.querySelector('#detail-body').dataset.position") == str(selected),
                f"#{selected} is still selected, in the address and the detail panel")
    selected_row = page.js("(() => { const r = document.querySelector(%s); return r ? r.getAttribute('aria-selected') : null; })()"
                           % json.dumps(row_sel(selected)))
    test.expect(selected_row == "true", f"row #{selected} is marked selected", repr(selected_row))
    label = text_of(page, "[data-testid=new-items]") or ""
    test.expect(page.js("!document.querySelector('[data-testid=new-items]').hidden") and f"{more} new items" in label,
                f"a '{more} new items ↓' button shows", repr(label))
    test.expect(page.js("document.querySelector('#banner').hidden"), "no error banner")
    expect_held_rows(test, page, last, f"after {more} more")
    test.shot("live-trimmed")

    # 3. The selected item is let go: the selection clears, and the page says why.
    last = add_many(fixture, 200, "Later")
    page.wait_for(f"the page to reach #{last} and let #{selected} go",
                  f"inspector.lastPosition() === {last} && inspector.firstPosition() > {selected}", timeout=20)
    page.frames(2)
    note = f"#{selected} is no longer kept by the live inspector"
    notices = text_of(page, "[data-testid=notices]") or ""
    empty = page.js("(() => { const e = document.querySelector('[data-testid=detail-empty]'); return e.hidden ? null : e.textContent; })()")
    test.expect(page.js("inspector.selectedPosition()") is None and page.js("location.hash") == "",
                f"#{selected}, let go, is no longer selected (nor in the address)")
    test.expect(note in notices and empty and note in empty,
                f"a notice and the detail panel say '{note}'", f"notices {notices!r}, detail {empty!r}")
    test.expect(page.js("document.querySelector('#banner').hidden"), "no error banner")
    expect_held_rows(test, page, last, "after 200 more")

    # What is held still works: the newest row, its detail, stepping back.
    if page.js("!document.querySelector('[data-testid=new-items]').hidden"):
        page.click("[data-testid=new-items]", "the new items button")
    page.wait_for(f"#{last} in view", "(%s).some(([p]) => p === %d)" % (ROW_TOPS_IN_VIEW, last), timeout=5)
    page.click(row_sel(last), f"row #{last}")
    page.wait_for(f"the detail of #{last}",
                  "document.querySelector('#detail-body').dataset.position === '%d'" % last, timeout=10)
    position_text = text_of(page, "[data-testid=detail-position]") or ""
    test.expect(position_text.startswith(f"#{last} "), f"the newest row's detail loads (#{last})", repr(position_text))
    page.press("k")
    page.wait_for(f"the detail of #{last - 1}",
                  "document.querySelector('#detail-body').dataset.position === '%d'" % (last - 1), timeout=10)
    test.expect(page.js("inspector.selectedPosition()") == last - 1, f"k steps back to #{last - 1}")
    test.no_page_errors("the live-trim scenario")
    fixture.send("quit")
    test.processes.stop(fixture)
