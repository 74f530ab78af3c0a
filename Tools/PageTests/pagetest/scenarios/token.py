"""The token scenario: a server started with a token refuses requests without it (the API and the
page: 401), and a page opened with ?token= loads, its style sheet and scripts too, and item
details load. When the server goes away, the page's banner says so."""

import os

from ..failure import log
from ..programs import http_get
from ..snippets import RECORDED, row_sel, text_of


def run(test):
    log("token: the page passes the token; the API refuses requests without it")
    path = os.path.join(test.work, "todos.jsonl")
    if not os.path.exists(path):
        path = test.record("todos.jsonl")
    server, url = test.serve("inspector-token", path, token="s3cret-page-test-0123")
    test.expect(url.endswith("/?token=s3cret-page-test-0123"), "the printed address carries the token", url)
    base = url.split("?")[0]
    status, body = http_get(base + "api/summary")
    test.expect(status == 401 and isinstance(body, dict) and body.get("error"),
                "GET /api/summary without the token: 401 with an error", f"{status} {body!r}")
    status, _ = http_get(base)
    test.expect(status == 401, "GET / (the page) without the token: 401", str(status))
    status, _ = http_get(base + "api/summary?token=wrong")
    test.expect(status == 401, "a wrong token: 401", str(status))
    status, body = http_get(base + "api/summary?token=s3cret-page-test-0123")
    test.expect(status == 200 and body.get("count") == RECORDED, "with the token: 200", f"{status}")

    page = test.page
    page.navigate("about:blank")
    test.devtools.exceptions.clear()
    test.devtools.problems.clear()
    test.open_page(url, "the recording, with the token")
    test.expect(page.js("inspector.loadedCount()") == RECORDED and
                page.js("document.querySelector('[data-testid=error-banner]').hidden"),
                f"with ?token= in its address the page loads all {RECORDED} items, no error banner")
    styled = page.js("getComputedStyle(document.querySelector('.app-header')).display")
    test.expect(styled == "flex", "the stylesheet loaded with the token too", repr(styled))
    page.click(row_sel(3), "row #3")
    page.wait_for("the detail of #3 with the token", "document.querySelector('#detail-body').dataset.position === '3'")
    test.ok("item details load with the token")
    test.no_page_errors("the token scenario")

    # When the server goes away, the page says so in its banner.
    test.processes.stop(server)
    page.click(row_sel(6), "row #6")
    page.wait_for("the error banner", "!document.querySelector('[data-testid=error-banner]').hidden")
    banner = text_of(page, "[data-testid=error-banner]") or ""
    test.expect("Could not load item #6" in banner, "an API failure shows in a visible banner", repr(banner))
    test.devtools.problems.clear()    # the failed request is logged as a network error: expected
