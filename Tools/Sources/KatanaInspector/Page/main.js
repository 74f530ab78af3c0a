// Start-up, last of the page's scripts: once the body is parsed, the other scripts' start-up steps
// run, then the keyboard and the address's #p= are wired, window.inspector (read-only hooks for
// tests and the console) is set, and the page loads the summary and every row, page by page.
(function (K) {
  "use strict";

  const { POS } = K.col;
  const model = K.model;

  // ---- keyboard and the address ----------------------------------------------------------------

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    const scroller = K.$("timeline-scroll");
    switch (event.key) {
      case "ArrowUp": case "k": event.preventDefault(); K.step(-1); break;
      case "ArrowDown": case "j": event.preventDefault(); K.step(1); break;
      case "Home":
        if (target === scroller && model.shown.length) { event.preventDefault(); K.select(model.rows[model.shown[0]][POS], { scroll: "nearest" }); }
        break;
      case "End":
        if (target === scroller && model.shown.length) { event.preventDefault(); K.select(model.rows[model.shown[model.shown.length - 1]][POS], { scroll: "nearest" }); }
        break;
      default: break;
    }
  }

  function positionFromHash() {
    const match = /^#p=(\d+)$/.exec(location.hash);
    return match ? Number(match[1]) : null;
  }

  function onHashChange() {
    const position = positionFromHash();
    if (position !== null && position !== model.selected && model.loaded) K.select(position, { scroll: "center" });
  }

  // ---- loading ---------------------------------------------------------------------------------

  async function load() {
    K.setConnection("connecting", "Loading…");
    let summary;
    for (let attempt = 1; ; attempt++) {
      try {
        summary = await K.api("/api/summary");
        K.clearError();
        break;
      } catch (error) {
        // A live store that has not started yet answers 503: wait for it, saying so.
        if (error.status === 503 && attempt < 120) {
          K.showError(error.message + " (trying again…)");
          await new Promise((done) => setTimeout(done, 1000));
          continue;
        }
        K.showError(error.message);
        K.setConnection("error", error.status === 401 ? "Token needed" : "Unavailable");
        model.loaded = true;
        return;
      }
    }
    model.summary = summary;
    model.total = summary.count || 0;
    K.renderSummary();
    for (const warning of summary.warnings || []) K.addNotice(warning);
    for (const gap of summary.gaps || []) {
      K.noteGap(gap.after, gap.dropped);
      K.addNotice(K.fmt(gap.dropped) + " items were dropped after #" + gap.after + ".");
    }

    let from = summary.firstPosition || 1;
    try {
      for (;;) {
        const page = await K.api("/api/items?from=" + from + "&limit=" + K.CHUNK);
        const rows = Array.isArray(page.rows) ? page.rows : [];
        // The first page's cursor: an end that came later reaches the page on the live stream.
        if (model.endCursor === null && typeof page.endCursor === "number") model.endCursor = page.endCursor;
        const added = K.ingest(rows);
        model.total = Math.max(page.count || 0, model.rows.length);
        for (const index of added) {
          if (K.passesFilter(model.rows[index])) model.shown.push(index);
        }
        // A live server may have let old items go while the page was loading.
        if (typeof page.firstPosition === "number") K.letGoBefore(page.firstPosition);
        K.renderSummary();
        K.renderCount();
        K.requestRender();
        // Pages may be shorter than asked for: stop when caught up with what the server has.
        if (!rows.length || model.lastPosition >= (page.lastPosition || 0)) break;
        from = model.lastPosition + 1;
      }
    } catch (error) {
      K.showError("Could not load the items: " + error.message);
      K.setConnection("error", "Unavailable");
    }
    model.loaded = true;
    model.loadMs = Math.round(performance.now() - model.loadStarted);
    K.renderSummary();
    K.renderCount();
    K.renderTimeline();
    K.updateStepButtons();
    document.body.dataset.loaded = "true";

    const wanted = positionFromHash();
    if (wanted !== null && K.indexOfPosition(wanted) >= 0) K.select(wanted, { scroll: "center" });
    else if (summary.live) K.scrollToEnd();

    if (summary.live) K.connectLive();
    else if (model.connection !== "error") K.setConnection("file", "Recording");
  }

  // ---- start -----------------------------------------------------------------------------------

  function start() {
    model.loadStarted = performance.now();
    K.runStartSteps();
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", onHashChange);

    // Read-only hooks for tests and the console.
    window.inspector = Object.freeze({
      isLoaded: () => model.loaded,
      loadTimeMs: () => model.loadMs,
      loadedCount: () => model.rows.length,
      totalCount: () => model.total,
      filteredCount: () => model.shown.length,
      visibleRowCount: () => K.rowElements().length,
      selectedPosition: () => model.selected,
      firstPosition: () => K.firstPosition(),
      lastPosition: () => model.lastPosition,
      connectionState: () => model.connection,
      newItemsCount: () => model.newItems,
    });

    load();
  }

  // The scripts are added by index.html's loader and may run before the body is parsed.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
  else start();
})(window.KatanaInspector);
