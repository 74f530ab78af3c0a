// The filter bar: type, origin, outcome, how a side effect ended, the request an item was
// dispatched for (its correlation, matched exactly) and a text search. It keeps
// model.shown, the indices of the rows that pass, and the count beside the filters ("showing 1
// of 308").
(function (K) {
  "use strict";

  const { $, el, fmt, shortType } = K;
  const { TYPE, FROM, ONAME, OUTCOME, PREVIEW, ERROR, CORR } = K.col;
  const model = K.model;

  let typeSelect, originSelect, endedSelect, correlationInput, searchInput, outcomeBoxes;
  let filter = null;            // what the filters say, read from the form by currentFilter
  let searchTimer = 0;

  function sortedByShortName(names) {
    return Array.from(names).sort((a, b) => shortType(a).localeCompare(shortType(b)) || a.localeCompare(b));
  }

  // Fills the type and origin menus with the names seen so far, keeping what is chosen.
  K.renderFilterChoices = function () {
    const keepType = typeSelect.value;
    const keepOrigin = originSelect.value;

    typeSelect.replaceChildren(new Option("All types", ""));
    for (const name of sortedByShortName(model.types)) {
      const option = new Option(shortType(name), name);
      option.title = name;
      typeSelect.appendChild(option);
    }
    typeSelect.value = keepType;
    if (typeSelect.value !== keepType) typeSelect.value = "";

    originSelect.replaceChildren(
      new Option("All origins", ""),
      new Option("From outside", "from:outside"),
      new Option("From any side effect", "from:sideEffect"),
      new Option("From store work (rules…)", "from:storeWork"));
    if (model.sideEffectNames.size) {
      const group = el("optgroup");
      group.label = "From the side effect";
      for (const name of sortedByShortName(model.sideEffectNames)) {
        const option = new Option(shortType(name), "sideEffect:" + name);
        option.title = name;
        group.appendChild(option);
      }
      originSelect.appendChild(group);
    }
    if (model.storeWorkLabels.size) {
      const group = el("optgroup");
      group.label = "From the store work";
      for (const label of Array.from(model.storeWorkLabels).sort()) {
        group.appendChild(new Option(label || "(no label)", "storeWork:" + label));
      }
      originSelect.appendChild(group);
    }
    originSelect.value = keepOrigin;
    if (originSelect.value !== keepOrigin) originSelect.value = "";
  };

  function currentFilter() {
    const outcomes = {};
    for (const box of outcomeBoxes) outcomes[box.value] = box.checked;
    const origin = originSelect.value;
    let originFrom = null, originName = null;
    if (origin.startsWith("from:")) originFrom = origin.slice(5);
    else if (origin.startsWith("sideEffect:")) { originFrom = "sideEffect"; originName = origin.slice(11); }
    else if (origin.startsWith("storeWork:")) { originFrom = "storeWork"; originName = origin.slice(10); }
    const terms = searchInput.value.toLowerCase().split(/\s+/).filter(Boolean);
    const correlation = correlationInput.value;     // exactly: the detail's button puts it here as recorded
    return {
      type: typeSelect.value || null,
      outcomes: outcomes,
      originFrom: originFrom,
      originName: originName,
      ended: endedSelect.value || null,
      correlation: correlation || null,
      terms: terms,
      active: !!(typeSelect.value || origin || endedSelect.value || correlation || terms.length || outcomeBoxes.some((b) => !b.checked)),
    };
  }

  function passes(row, f) {
    if (f.type !== null && row[TYPE] !== f.type) return false;
    if (f.outcomes[row[OUTCOME]] === false) return false;
    if (f.ended !== null && K.endState(row) !== f.ended) return false;
    if (f.correlation !== null && row[CORR] !== f.correlation) return false;
    if (f.originFrom !== null) {
      if (row[FROM] !== f.originFrom) return false;
      if (f.originName !== null && (row[ONAME] || "") !== f.originName) return false;
    }
    if (f.terms.length) {
      const haystack = (row[TYPE] + "\n" + K.originText(row) + "\n" + (row[PREVIEW] || "") + "\n" + (row[ERROR] || "") + "\n" +
        (row[CORR] || "")).toLowerCase();
      for (const term of f.terms) if (haystack.indexOf(term) < 0) return false;
    }
    return true;
  }

  // Whether a row (one that just arrived) belongs in shown under the current filters.
  K.passesFilter = (row) => !filter.active || passes(row, filter);

  // Reads the filters again and rebuilds shown; the selection stays in view when asked and shown.
  K.applyFilters = function (keepSelectionInView) {
    filter = currentFilter();
    rebuildShown();
    model.newItems = 0;
    K.renderNewItems();
    K.renderCount();
    if (keepSelectionInView && model.selected !== null && K.shownIndexOf(model.selected) >= 0) {
      K.renderTimeline();
      K.scrollToPosition(model.selected, "center");
    } else {
      $("timeline-scroll").scrollTop = 0;
      K.renderTimeline();
    }
    K.updateStepButtons();
  };

  function rebuildShown() {
    const shown = [];
    const rows = model.rows;
    if (!filter.active) {
      for (let i = 0; i < rows.length; i++) shown.push(i);
    } else {
      for (let i = 0; i < rows.length; i++) if (passes(rows[i], filter)) shown.push(i);
    }
    model.shown = shown;
  }

  // Ends came (live) for the rows at `positions`: under the "Ended" filter they may now be shown
  // or hidden, the view staying where it is; the selected item's detail is loaded again.
  K.refreshAfterEnds = function (positions) {
    if (filter.active && filter.ended !== null) {
      rebuildShown();
      K.renderCount();
      K.updateStepButtons();
    }
    K.renderTimeline();
    if (model.selected !== null && positions.indexOf(model.selected) >= 0) K.reloadDetail(model.selected);
  };

  // The count beside the filters, and the timeline's message when it has nothing to show.
  K.renderCount = function () {
    const node = $("filter-count");
    node.replaceChildren();
    const text = filter.active
      ? "showing " + fmt(model.shown.length) + " of " + fmt(model.rows.length)
      : fmt(model.rows.length) + " items";
    node.appendChild(document.createTextNode(text));
    if (!model.loaded && model.total > model.rows.length) {
      node.appendChild(document.createTextNode(" (loading " + fmt(model.rows.length) + " of " + fmt(model.total) + "…)"));
    }
    if (model.selected !== null && filter.active && K.shownIndexOf(model.selected) < 0) {
      node.appendChild(document.createTextNode(" · #" + model.selected + " is hidden by the filters"));
      const show = el("button", "secondary small", "Show it");
      show.type = "button";
      show.dataset.testid = "show-selected";
      show.addEventListener("click", () => { K.clearFilters(); });
      node.appendChild(show);
    }
    $("timeline").setAttribute("aria-rowcount", String(model.shown.length));
    const message = $("timeline-message");
    if (model.loaded && model.rows.length === 0) {
      message.textContent = model.summary && model.summary.live ? "No items yet: they appear here as the store handles them." : "The recording has no items.";
      message.hidden = false;
    } else if (model.loaded && model.shown.length === 0) {
      message.textContent = "No item matches the filters.";
      message.hidden = false;
    } else {
      message.hidden = true;
    }
  };

  // Shows every item dispatched for the request `correlation` (the detail's button), and only
  // those: the other filters are cleared, and the selection stays in view.
  K.filterByCorrelation = function (correlation) {
    clearTimeout(searchTimer);
    typeSelect.value = "";
    originSelect.value = "";
    endedSelect.value = "";
    searchInput.value = "";
    for (const box of outcomeBoxes) box.checked = true;
    correlationInput.value = correlation;
    K.applyFilters(true);
  };

  K.clearFilters = function () {
    typeSelect.value = "";
    originSelect.value = "";
    endedSelect.value = "";
    correlationInput.value = "";
    searchInput.value = "";
    for (const box of outcomeBoxes) box.checked = true;
    K.applyFilters(true);
  };

  K.onStart(function () {
    typeSelect = $("filter-type");
    originSelect = $("filter-origin");
    endedSelect = $("filter-ended");
    searchInput = $("filter-search");
    correlationInput = $("filter-correlation");
    outcomeBoxes = Array.from(document.querySelectorAll('input[name="outcome"]'));
    filter = currentFilter();

    typeSelect.addEventListener("change", () => K.applyFilters(true));
    originSelect.addEventListener("change", () => K.applyFilters(true));
    endedSelect.addEventListener("change", () => K.applyFilters(true));
    for (const box of outcomeBoxes) box.addEventListener("change", () => K.applyFilters(true));
    for (const input of [searchInput, correlationInput]) {
      input.addEventListener("input", () => {
        clearTimeout(searchTimer);
        searchTimer = setTimeout(() => K.applyFilters(true), K.SEARCH_DELAY);
      });
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") { event.preventDefault(); clearTimeout(searchTimer); K.applyFilters(true); }
      });
    }
    $("filters").addEventListener("submit", (event) => event.preventDefault());
    $("filter-clear").addEventListener("click", K.clearFilters);
  });
})(window.KatanaInspector);
