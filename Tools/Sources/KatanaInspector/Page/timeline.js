// The virtual timeline. Rows have a fixed height, a spacer gives the scroll height, and only the
// rows in view (plus a few) are in the DOM, their elements reused as the view scrolls. Also the
// rows that arrive after the first load, and the "new items ↓" button. (A side effect's end
// cell is ends.js's.)
(function (K) {
  "use strict";

  const { $, el, fmt, clockTime, fullTime, shortType, ROW_HEIGHT, OVERSCAN } = K;
  const { POS, TIME, TYPE, KIND, FROM, ONAME, OSEQ, OUTCOME, PREVIEW, ERROR } = K.col;
  const model = K.model;

  let scroller, spacer, rowsBox, newItemsButton;
  const pool = [];          // row elements, reused
  let frameRequested = false;

  // The row elements in the DOM, top to bottom.
  K.rowElements = () => rowsBox.children;

  function makeRowElement() {
    const row = el("div", "row");
    row.setAttribute("role", "row");
    row.dataset.testid = "timeline-row";
    const cells = ["col-pos", "col-time", "col-type", "col-origin", "col-outcome", "col-end", "col-preview"].map((name) => {
      const cell = el("span", name);
      cell.setAttribute("role", "gridcell");
      row.appendChild(cell);
      return cell;
    });
    row._cells = cells;
    row._index = -1;
    row.addEventListener("animationend", () => row.classList.remove("fresh"));
    return row;
  }

  function fillRow(element, index, shownAt) {
    const row = model.rows[index];
    element.setAttribute("aria-rowindex", String(shownAt + 1));
    element.setAttribute("aria-selected", row[POS] === model.selected ? "true" : "false");
    // Re-fill only when the row changed, or when what its origin, gap mark or end shows has.
    // (Indices move down when old rows are let go, so the stamp names the row by its position.)
    element._index = index;
    const stamp = row[POS] + "|" + model.bySequence.has(row[OSEQ]) + "|" + model.gapBefore.has(row[POS]) + "|" + K.endStamp(row);
    if (element._stamp === stamp) return;
    element._stamp = stamp;
    element.classList.remove("fresh");
    element.dataset.position = String(row[POS]);
    element.classList.toggle("after-gap", model.gapBefore.has(row[POS]));
    element.title = model.gapBefore.has(row[POS]) ? fmt(model.gapBefore.get(row[POS])) + " items were dropped before this one" : "";
    const [pos, time, type, origin, outcome, end, preview] = element._cells;
    pos.textContent = String(row[POS]);
    time.textContent = clockTime(row[TIME]);
    time.title = fullTime(row[TIME]);
    type.textContent = shortType(row[TYPE]);
    type.title = row[TYPE] + " (" + row[KIND] + ")";
    origin.replaceChildren();
    const text = K.originText(row);
    if (row[FROM] === "sideEffect" && model.bySequence.has(row[OSEQ])) {
      const link = el("button", "link", text);
      link.type = "button";
      link.tabIndex = -1;
      link.dataset.testid = "row-origin-link";
      link.dataset.originSequence = String(row[OSEQ]);
      link.title = "Select the side effect that dispatched this: " + row[ONAME];
      origin.appendChild(link);
    } else {
      origin.textContent = text;
    }
    origin.title = row[FROM] === "sideEffect" ? "dispatched by the side effect " + row[ONAME] : text;
    outcome.replaceChildren(el("span", "badge " + row[OUTCOME], row[OUTCOME]));
    outcome.dataset.testid = "row-outcome";
    K.fillEndCell(end, row);
    end.dataset.testid = "row-end";
    preview.replaceChildren();
    if (row[ERROR]) {
      const error = el("span", "row-error", row[ERROR]);
      error.dataset.testid = "row-error";
      preview.appendChild(error);
    }
    preview.appendChild(document.createTextNode(row[PREVIEW] || ""));
    preview.title = (row[ERROR] ? row[ERROR] + "\n" : "") + (row[PREVIEW] || "");
  }

  // The spacer gives the scroll height: set it before scrolling, or the scroll is clamped.
  function sizeSpacer() {
    spacer.style.height = model.shown.length * ROW_HEIGHT + "px";
  }

  K.renderTimeline = function () {
    frameRequested = false;
    const count = model.shown.length;
    sizeSpacer();
    const top = scroller.scrollTop;
    const height = scroller.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(count, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const needed = Math.max(0, last - first);
    rowsBox.style.transform = "translateY(" + first * ROW_HEIGHT + "px)";
    while (pool.length < needed) pool.push(makeRowElement());
    for (let i = 0; i < needed; i++) {
      const element = pool[i];
      fillRow(element, model.shown[first + i], first + i);
      if (element.parentNode !== rowsBox || rowsBox.children[i] !== element) {
        if (rowsBox.children[i]) rowsBox.insertBefore(element, rowsBox.children[i]); else rowsBox.appendChild(element);
      }
    }
    while (rowsBox.children.length > needed) rowsBox.removeChild(rowsBox.lastChild);
    if (atBottom() && model.newItems) { model.newItems = 0; K.renderNewItems(); }
  };

  K.requestRender = function () {
    if (frameRequested) return;
    frameRequested = true;
    requestAnimationFrame(K.renderTimeline);
  };

  function atBottom() {
    return scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - ROW_HEIGHT / 2;
  }

  // Scrolls so that the i-th shown row is in view: "center" centres it, anything else scrolls as
  // little as needed.
  function scrollToShownIndex(i, how) {
    sizeSpacer();
    const rowTop = i * ROW_HEIGHT;
    const view = scroller.clientHeight;
    if (how === "center") {
      scroller.scrollTop = Math.max(0, rowTop - (view - ROW_HEIGHT) / 2);
    } else if (rowTop < scroller.scrollTop) {
      scroller.scrollTop = rowTop;
    } else if (rowTop + ROW_HEIGHT > scroller.scrollTop + view) {
      scroller.scrollTop = rowTop + ROW_HEIGHT - view;
    }
    K.renderTimeline();
  }

  K.scrollToPosition = function (position, how) {
    const i = K.shownIndexOf(position);
    if (i >= 0) scrollToShownIndex(i, how);
  };

  K.scrollToEnd = function () {
    sizeSpacer();
    scroller.scrollTop = scroller.scrollHeight;
    K.renderTimeline();
  };

  // ---- new items (live) ------------------------------------------------------------------------

  K.renderNewItems = function () {
    if (model.newItems > 0) {
      newItemsButton.textContent = fmt(model.newItems) + (model.newItems === 1 ? " new item ↓" : " new items ↓");
      newItemsButton.hidden = false;
    } else {
      newItemsButton.hidden = true;
    }
  };

  // Rows arrived after the first load: the view follows only when it was at the bottom.
  K.appendRows = function (rows) {
    const follow = atBottom();
    const added = K.ingest(rows);
    if (!added.length) return;
    model.total = Math.max(model.total, model.rows.length);
    let matched = 0;
    for (const index of added) {
      if (K.passesFilter(model.rows[index])) { model.shown.push(index); matched++; }
    }
    K.renderSummary();
    K.renderCount();
    K.updateStepButtons();
    if (!matched) return;
    if (follow) {
      K.scrollToEnd();
      for (const element of rowsBox.children) {
        if (added.indexOf(element._index) >= 0) {
          element.classList.remove("fresh"); void element.offsetWidth; element.classList.add("fresh");
        }
      }
    } else {
      K.requestRender();        // the spacer grows below; what the user reads stays where it is
      model.newItems += matched;
      K.renderNewItems();
    }
  };

  // ---- letting old rows go (live) --------------------------------------------------------------

  // A live server keeps only its newest items, from position `first` on: the page lets go of the
  // rows before it too. The rows the user reads stay where they are on the screen (the view moves
  // up by the height of the rows that went above it); at the bottom, the view stays at the bottom.
  // A selected item that went is unselected, saying so. Returns whether any row went.
  K.letGoBefore = function (first) {
    if (!(first > K.firstPosition()) || !model.rows.length) return false;
    const follow = atBottom();
    const top = scroller.scrollTop;
    const gone = K.dropRowsBefore(first);
    if (!gone.rows) return false;
    K.forgetDetailsBefore(first);
    sizeSpacer();
    scroller.scrollTop = follow ? scroller.scrollHeight : Math.max(0, top - gone.shown * ROW_HEIGHT);
    // The "new items" below the view cannot outnumber the rows below it.
    const below = Math.max(0, model.shown.length - Math.ceil((scroller.scrollTop + scroller.clientHeight) / ROW_HEIGHT));
    if (model.newItems > below) { model.newItems = below; K.renderNewItems(); }
    if (model.selected !== null && model.selected < first) {
      K.clearSelection("Item #" + model.selected + " is no longer kept by the live inspector: it keeps only the newest items.");
    }
    K.renderTimeline();
    K.renderSummary();
    K.renderCount();
    K.updateStepButtons();
    return true;
  };

  K.onStart(function () {
    scroller = $("timeline-scroll");
    spacer = $("timeline-spacer");
    rowsBox = $("timeline-rows");
    newItemsButton = $("new-items");

    scroller.addEventListener("scroll", K.requestRender, { passive: true });
    window.addEventListener("resize", K.requestRender);

    scroller.addEventListener("click", (event) => {
      const link = event.target.closest('[data-testid="row-origin-link"]');
      if (link) {
        event.stopPropagation();
        K.selectSequence(Number(link.dataset.originSequence));
        return;
      }
      const row = event.target.closest(".row");
      if (row) {
        K.select(Number(row.dataset.position), { scroll: "nearest" });
        scroller.focus({ preventScroll: true });
      }
    });

    newItemsButton.addEventListener("click", () => {
      model.newItems = 0;
      K.renderNewItems();
      K.scrollToEnd();
    });
  });
})(window.KatanaInspector);
