"""The correlation scenario: in the fixture's recording, #1 to #6 were dispatched for two requests
(request-1: #1, #3 and the import #5 with the AddTodo it dispatched, #4; request-2: #2 and #6), and
the recorder kept each one's request id. The detail shows an item's request; its button filters the
timeline down to exactly that request's items, the Request filter does the same when typed into,
the search finds a request id, and an item of no request shows no Request field."""

import os

from ..failure import log
from ..snippets import RECORDED, ROW_POSITIONS, row_sel, text_of

# TodoApp.requests in the fixture.
REQUESTS = {"request-1": [1, 3, 4, 5], "request-2": [2, 6]}


def select(page, position):
    page.click(row_sel(position), f"row #{position}")
    page.wait_for(f"the detail of #{position}",
                  "document.querySelector('#detail-body').dataset.position === '%d'" % position)


def expect_rows(test, page, what, expected):
    page.wait_for(what, f"inspector.filteredCount() === {len(expected)}")
    rows = page.js(ROW_POSITIONS)
    test.expect(rows == expected, f"{what}: rows {expected}", repr(rows))


def run(test):
    log("correlation: an item's request in the detail, and every item of a request in the timeline")
    path = os.path.join(test.work, "todos.jsonl")
    if not os.path.exists(path):
        path = test.record("todos.jsonl")
    server, url = test.serve("inspector-correlation", path)
    page = test.page
    page.navigate("about:blank")
    test.devtools.exceptions.clear()
    test.devtools.problems.clear()
    test.open_page(url, "the recording")

    # #4 was dispatched by the import's side effect, inside the import's request.
    select(page, 4)
    value = text_of(page, "[data-testid=detail-correlation] [data-testid=detail-correlation-value]")
    test.expect(value == "request-1", "#4's detail shows its request, request-1 (its side effect's)", repr(value))
    label = page.js("(() => { const d = document.querySelector('[data-testid=detail-correlation]');"
                    " return d && d.previousElementSibling ? d.previousElementSibling.textContent : null; })()")
    test.expect(label == "Request", "the field is labelled 'Request'", repr(label))

    # Its button: every item of request-1, and only those; the selection stays.
    page.click("[data-testid=detail-correlation-filter]", "the detail's 'Show its items' button")
    expect_rows(test, page, "the request filter from the detail", REQUESTS["request-1"])
    test.expect(page.js("document.querySelector('[data-testid=filter-correlation]').value") == "request-1",
                "the Request filter reads request-1")
    count = text_of(page, "[data-testid=filter-count]") or ""
    test.expect(f"showing 4 of {RECORDED}" in count, f"the count reads 'showing 4 of {RECORDED}'", repr(count))
    test.expect(page.js("inspector.selectedPosition()") == 4 and "hidden by the filters" not in count,
                "#4 stays selected and shown", f"selected {page.js('inspector.selectedPosition()')}, count {count!r}")
    test.shot("correlation-filtered")

    # Stepping stays within the request: from #4 forward to #5, the import.
    page.click("[data-testid=step-forward]", "step forward")
    page.wait_for("the detail of #5", "document.querySelector('#detail-body').dataset.position === '5'")
    value = text_of(page, "[data-testid=detail-correlation-value]")
    test.expect(value == "request-1", "stepping forward within the request selects #5, of request-1", repr(value))

    # Typed into the Request filter: the other request.
    page.type_into("[data-testid=filter-correlation]", "request-2", "the Request filter")
    expect_rows(test, page, "the Request filter 'request-2'", REQUESTS["request-2"])
    page.type_into("[data-testid=filter-correlation]", "request", "the Request filter")
    page.wait_for("no item of a request named just 'request'", "inspector.filteredCount() === 0")
    test.ok("the Request filter matches a request id exactly: 'request' shows none")

    # Cleared: every item again, and the filter empty.
    page.click("[data-testid=filter-clear]", "Clear filters")
    page.wait_for("the filters to clear", f"inspector.filteredCount() === {RECORDED}")
    test.expect(page.js("document.querySelector('[data-testid=filter-correlation]').value") == "",
                "Clear filters empties the Request filter")

    # The search looks through the request ids too.
    page.type_into("[data-testid=filter-search]", "request-2", "the search box")
    expect_rows(test, page, "the search 'request-2'", REQUESTS["request-2"])
    page.click("[data-testid=filter-clear]", "Clear filters")
    page.wait_for("the filters to clear", f"inspector.filteredCount() === {RECORDED}")

    # An item dispatched outside any request has no Request field.
    select(page, 7)
    test.expect(page.js("document.querySelector('[data-testid=detail-correlation]') === null"),
                "#7, dispatched outside any request, has no 'Request' field")
    test.no_page_errors("the correlation scenario")
    test.processes.stop(server)
