"""The large scenario: 100,000 items load, scrolling across them keeps a few dozen rows in the DOM
and stays smooth, End shows the last row, a search finds one item. The load time, the JS heap and
the scroll timings are written to large-recording.json."""

import json
import os
import time

from ..failure import log
from ..snippets import ROWS_IN_VIEW, SESSION


def run(test):
    count = 100000
    log(f"large recording: {count:,} items")
    started = time.monotonic()
    path = test.record("large.jsonl", extra=count - SESSION)
    record_seconds = time.monotonic() - started
    server, url = test.serve("inspector-large", path)
    page = test.page
    page.navigate("about:blank")
    page.call("HeapProfiler.collectGarbage")
    started = time.monotonic()
    test.open_page(url, f"{count:,} items", timeout=test.args.large_timeout)
    load_ms = round((time.monotonic() - started) * 1000)
    loaded = page.js("inspector.loadedCount()")
    test.expect(loaded == count, f"{count:,} items load in {load_ms} ms", f"loaded {loaded}")
    in_dom = page.js("document.querySelectorAll('[data-testid=timeline-row]').length")
    test.expect(0 < in_dom < 200, f"only {in_dom} row elements are in the DOM")

    # Scroll through the whole list in steps, timing frames, then to the end.
    scroll = page.js("""(async () => {
        const box = document.querySelector('[data-testid=timeline-scroll]');
        const frame = () => new Promise(r => requestAnimationFrame(r));
        const times = []; let most = 0;
        for (let i = 1; i <= 60; i++) {
            const t0 = performance.now();
            box.scrollTop = (box.scrollHeight - box.clientHeight) * i / 60;
            await frame(); await frame();
            times.push(performance.now() - t0);
            most = Math.max(most, document.querySelectorAll('[data-testid=timeline-row]').length);
        }
        times.sort((a, b) => a - b);
        return {steps: times.length, medianMs: times[30], p95Ms: times[56], maxMs: times[59], mostRows: most};
    })()""", timeout=120)
    test.expect(scroll["mostRows"] < 200, f"scrolling keeps fewer than 200 row elements (at most {scroll['mostRows']})")
    test.expect(scroll["medianMs"] < 250,
                f"scrolling is smooth: 60 jumps across the list, median {scroll['medianMs']:.0f} ms for two frames,"
                f" 95th percentile {scroll['p95Ms']:.0f} ms", repr(scroll))
    page.click("[data-testid=timeline-scroll]", "the timeline")
    page.press("End")
    page.wait_for("the last row to show", "(%s).includes(%d)" % (ROWS_IN_VIEW, count), timeout=20)
    test.expect(page.js("inspector.selectedPosition()") == count,
                f"End selects the last item, and row #{count:,} shows at the end of the timeline")
    page.wait_for("the detail of the last item", "document.querySelector('#detail-body').dataset.position === '%d'" % count)
    title = page.js("(() => { const n = document.querySelector('[data-testid=tree-node][data-path=\"todos.1.title\"]');"
                    " return n && n.textContent; })()")
    test.expect(title and f"Write report v{count - SESSION}" in title, "its state shows the last rename", repr(title))

    search_started = time.monotonic()
    page.type_into("[data-testid=filter-search]", f"v{count - SESSION}", "the search box")
    page.wait_for("the search over 100,000 items", "inspector.filteredCount() === 1", timeout=30)
    search_ms = round((time.monotonic() - search_started) * 1000)
    test.ok(f"a search over {count:,} items finds the one match ({search_ms} ms including typing)")
    test.shot("large-recording")
    page.click("[data-testid=filter-clear]", "Clear filters")
    page.wait_for("the filters to clear", f"inspector.filteredCount() === {count}", timeout=30)

    page.call("HeapProfiler.collectGarbage")
    metrics = {m["name"]: m["value"] for m in page.call("Performance.getMetrics")["metrics"]}
    memory = page.js("performance.memory ? {used: performance.memory.usedJSHeapSize,"
                     " total: performance.memory.totalJSHeapSize} : null")
    test.metrics = {
        "items": count,
        "recordingBytes": os.path.getsize(path),
        "fixtureRecordSeconds": round(record_seconds, 2),
        "loadMilliseconds": load_ms,
        "pageLoadMilliseconds": page.js("inspector.loadTimeMs()"),
        "jsHeapUsedBytes": int(metrics.get("JSHeapUsedSize", 0)),
        "jsHeapTotalBytes": int(metrics.get("JSHeapTotalSize", 0)),
        "performanceMemory": memory,
        "domNodes": int(metrics.get("Nodes", 0)),
        "rowElementsInDOM": in_dom,
        "scroll": scroll,
        "searchMilliseconds": search_ms,
        "measuredAt": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "cpus": os.cpu_count(),
    }
    metrics_path = os.path.join(test.out, "large-recording.json")
    with open(metrics_path, "w") as handle:
        json.dump(test.metrics, handle, indent=2)
    log(f"  JS heap after load: {test.metrics['jsHeapUsedBytes'] / 1e6:.1f} MB used"
        f" ({test.metrics['jsHeapTotalBytes'] / 1e6:.1f} MB allocated); written to {metrics_path}")
    test.no_page_errors("the large recording scenario")
    test.processes.stop(server)
