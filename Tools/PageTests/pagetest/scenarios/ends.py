"""The ends scenario: in the fixture's recording, how each side effect ended. The two searches
that a newer one cancelled (#9 and #10, latest wins) are badged "cancelled" with what cancelled
them and how long they ran, the newer one (#11) and the import (#5) "succeeded", the sync (#12)
"failed"; other items have no end. A cancelled search's detail says the same; the "Ended" filter shows
exactly the cancelled ones, the failed one, the succeeded ones, and none still running."""

import json
import os
import re

from ..failure import log
from ..snippets import RECORDED, ROW_POSITIONS, row_sel, text_of

DURATION = r"[\d.]+ (µs|ms|s)|\d+ min \d+ s"
# Each shown row's end cell: [position, badge text, words], top to bottom.
END_CELLS = """Array.from(document.querySelectorAll('[data-testid=timeline-row]')).map(r => {
    const cell = r.querySelector('[data-testid=row-end]');
    const badge = cell.querySelector('[data-testid=end-badge]'), words = cell.querySelector('[data-testid=end-words]');
    return [Number(r.dataset.position), badge ? badge.textContent : null, words ? words.textContent : null];
})"""


def select(page, position):
    page.click(row_sel(position), f"row #{position}")
    page.wait_for(f"the detail of #{position}",
                  "document.querySelector('#detail-body').dataset.position === '%d'" % position)


def filter_ended(test, page, label, expected):
    page.choose("[data-testid=filter-ended]", label, "the Ended filter")
    page.wait_for(f"the Ended filter '{label}'", f"inspector.filteredCount() === {len(expected)}")
    rows = page.js(ROW_POSITIONS)
    test.expect(rows == expected, f"Ended '{label}': rows {expected}", repr(rows))


def run(test):
    log("ends: how each side effect ended, in the timeline, the detail and the Ended filter")
    path = os.path.join(test.work, "todos.jsonl")
    if not os.path.exists(path):
        path = test.record("todos.jsonl")
    server, url = test.serve("inspector-ends", path)
    page = test.page
    page.navigate("about:blank")
    test.devtools.exceptions.clear()
    test.devtools.problems.clear()
    test.open_page(url, "the recording")

    cells = {p: (badge, words) for p, badge, words in page.js(END_CELLS)}
    for search in (9, 10):
        badge, words = cells.get(search, (None, None))
        test.expect(badge == "cancelled" and words and re.fullmatch(r"latest wins · (%s)" % DURATION, words),
                    f"row #{search}, a search a newer one cancelled, reads 'cancelled', 'latest wins' and how long it ran",
                    repr(cells.get(search)))
    test.expect(cells.get(11, (None,))[0] == "succeeded" and re.fullmatch(DURATION, cells[11][1] or ""),
                "row #11, the newest search, reads 'succeeded' and how long it ran", repr(cells.get(11)))
    test.expect(cells.get(12, (None,))[0] == "failed", "row #12, the sync, reads 'failed'", repr(cells.get(12)))
    test.expect(cells.get(5, (None,))[0] == "succeeded",
                "row #5, the import (whose end was recorded before its item), reads 'succeeded'", repr(cells.get(5)))
    others = [p for p, (badge, _) in cells.items() if badge is not None and p not in (5, 9, 10, 11, 12)]
    test.expect(not others and cells.get(1) == (None, None), "items that are not side effects show no end", repr(others))
    hint = page.js("document.querySelector(%s).title" % json.dumps(row_sel(12) + " [data-testid=row-end]"))
    test.expect("503 Service Unavailable" in (hint or ""), "row #12's end says its error on hover", repr(hint))

    # A cancelled search's detail, and one time for the item in both places.
    select(page, 9)
    end = text_of(page, "[data-testid=detail-end]") or ""
    test.expect(re.match(r"cancelled by latest wins after (%s) · at \d\d:\d\d:\d\d\.\d\d\d$" % DURATION, end) is not None,
                "#9's detail: 'cancelled by latest wins after <duration> · at <time>'", repr(end))
    test.shot("ended-cancelled-detail")
    select(page, 3)
    test.expect(page.js("document.querySelector('[data-testid=detail-end]') === null"),
                "an updater's detail has no 'Ended' field")

    # The Ended filter.
    filter_ended(test, page, "Cancelled", [9, 10])
    count = text_of(page, "[data-testid=filter-count]") or ""
    test.expect(f"showing 2 of {RECORDED}" in count, f"the count reads 'showing 2 of {RECORDED}'", repr(count))
    test.shot("ended-filter-cancelled")
    filter_ended(test, page, "Failed", [12])
    select(page, 12)
    error = text_of(page, "[data-testid=detail-end-error]") or ""
    test.expect(error == "the sync server answered 503 Service Unavailable", "#12's detail shows its error", repr(error))
    filter_ended(test, page, "Succeeded", [5, 11])
    page.choose("[data-testid=filter-ended]", "Still running", "the Ended filter")
    page.wait_for("no side effect still running", "inspector.filteredCount() === 0")
    message = text_of(page, "[data-testid=timeline-message]") or ""
    test.expect("No item matches" in message, "every side effect of the recording ended: none is still running", repr(message))
    page.click("[data-testid=filter-clear]", "Clear filters")
    page.wait_for("the filters to clear", f"inspector.filteredCount() === {RECORDED}")
    test.expect(page.js("document.querySelector('[data-testid=filter-ended]').value") == "",
                "Clear filters resets the Ended filter")
    test.no_page_errors("the ends scenario")
    test.processes.stop(server)
