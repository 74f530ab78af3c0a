// Katana inspector page. Plain JavaScript, no dependencies, nothing fetched but this server's API
// (Tools/Sources/KatanaInspector; the contract is the HTTP API the server documents).
//
// What it keeps: every row the server sent, in position order (`rows`), and the indices of the
// rows the filters let through (`shown`). The timeline is virtual: rows have a fixed height, a
// spacer gives the scroll height, and only the rows in view (plus a few) are in the DOM.
(function () {
  "use strict";

  // The script is added by index.html's loader and may run before the body is parsed.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main, { once: true });
  else main();

  function main() {

    // ---- constants -----------------------------------------------------------------------------

    const ROW_HEIGHT = 26;        // must match --row-h in inspector.css
    const OVERSCAN = 8;           // rows rendered above and below the visible ones
    const CHUNK = 50000;          // the API's largest page of rows
    const DETAIL_CACHE = 64;      // item details kept for quick stepping
    const TREE_PAGE = 100;        // children of an array or object shown before "show more"
    const SEARCH_DELAY = 120;     // ms of quiet typing before the search runs

    // ROW columns, as the API sends them.
    const POS = 0, SEQ = 1, TIME = 2, TYPE = 3, KIND = 4, FROM = 5, ONAME = 6, OSEQ = 7, OUTCOME = 8, PREVIEW = 9, ERROR = 10;

    // ---- token and API -------------------------------------------------------------------------

    const token = new URLSearchParams(location.search).get("token");

    function withToken(url) {
      if (!token) return url;
      return url + (url.indexOf("?") >= 0 ? "&" : "?") + "token=" + encodeURIComponent(token);
    }

    class ApiError extends Error {
      constructor(status, message) { super(message); this.status = status; }
    }

    async function api(path) {
      let response;
      try {
        response = await fetch(withToken(path), { cache: "no-store", headers: { Accept: "application/json" } });
      } catch (error) {
        throw new ApiError(0, "Cannot reach the inspector at " + location.host + ". Is katana-inspector (or the live store) still running?");
      }
      let body = null;
      try { body = await response.json(); } catch (_) { body = null; }
      if (!response.ok) {
        const said = body && typeof body.error === "string" ? body.error : response.status + " " + response.statusText;
        if (response.status === 401) {
          throw new ApiError(401, (token ? "The token in this page's address was not accepted" : "This inspector needs a token")
            + ": open the address katana-inspector printed (it ends with ?token=…). The server said: " + said);
        }
        throw new ApiError(response.status, said);
      }
      return body;
    }

    // ---- small DOM helpers ---------------------------------------------------------------------

    const $ = (id) => document.getElementById(id);

    function el(tag, className, text) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text !== undefined && text !== null) node.textContent = text;
      return node;
    }

    const numberFormat = new Intl.NumberFormat("en-US");
    const fmt = (n) => numberFormat.format(n);

    function pad(n, width) { const s = String(n); return s.length >= width ? s : "0".repeat(width - s.length) + s; }

    function clockTime(ms) {
      const d = new Date(ms);
      return pad(d.getHours(), 2) + ":" + pad(d.getMinutes(), 2) + ":" + pad(d.getSeconds(), 2) + "." + pad(d.getMilliseconds(), 3);
    }

    function fullTime(ms) {
      const d = new Date(ms);
      return d.getFullYear() + "-" + pad(d.getMonth() + 1, 2) + "-" + pad(d.getDate(), 2) + " " + clockTime(ms);
    }

    // "App.Feature.AddTodo" -> "Feature.AddTodo": the module prefix goes, nesting stays.
    function shortType(name) {
      if (!name) return "";
      const generic = name.indexOf("<");
      const head = generic >= 0 ? name.slice(0, generic) : name;
      const dot = head.indexOf(".");
      return dot >= 0 ? name.slice(dot + 1) : name;
    }

    function compactJSON(value) {
      if (value === undefined) return "";
      try { return JSON.stringify(value); } catch (_) { return String(value); }
    }

    function pathKey(path) { return path.join("."); }

    function pathLabel(path) {
      if (!path.length) return "(the whole state)";
      let out = "";
      for (const part of path) {
        if (typeof part === "number") out += "[" + part + "]";
        else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += (out ? "." : "") + part;
        else out += "[" + JSON.stringify(part) + "]";
      }
      return out;
    }

    // ---- state ---------------------------------------------------------------------------------

    const model = {
      summary: null,
      rows: [],                 // every row received, by position
      shown: [],                // indices into rows that pass the filters
      bySequence: new Map(),    // sequence -> index into rows
      types: new Set(),
      sideEffectNames: new Set(),
      storeWorkLabels: new Set(),
      gapBefore: new Map(),     // position of the first row after a gap -> items dropped
      pendingGaps: [],          // gaps whose next row has not arrived yet
      lastPosition: 0,
      total: 0,
      selected: null,           // selected position
      loaded: false,
      loadStarted: performance.now(),
      loadMs: null,
      newItems: 0,
      connection: "n/a",
      detailSeq: 0,
    };

    const interned = new Map();
    function intern(s) {
      if (typeof s !== "string") return s;
      const known = interned.get(s);
      if (known !== undefined) return known;
      if (interned.size < 100000) interned.set(s, s);
      return s;
    }

    // ---- banner and notices --------------------------------------------------------------------

    function showError(message) {
      $("banner-text").textContent = message;
      $("banner").hidden = false;
    }
    function clearError() { $("banner").hidden = true; }
    $("banner-close").addEventListener("click", clearError);

    function addNotice(text) {
      const list = $("notices");
      list.appendChild(el("li", null, text));
      list.hidden = false;
    }

    // ---- header --------------------------------------------------------------------------------

    function renderSummary() {
      const s = model.summary;
      if (!s) return;
      // A file's name, its full path on hover.
      $("summary-source").textContent = s.source ? s.source.split("/").pop() || s.source : "—";
      $("summary-source").title = s.source || "";
      $("summary-state").textContent = shortType(s.stateType || "—");
      $("summary-state").title = s.stateType || "";
      $("summary-count").textContent = fmt(model.total) + (s.statesRecorded === false ? " (states not recorded)" : "");
      $("summary-started").textContent = typeof s.started === "number" ? fullTime(s.started * 1000) : "—";
    }

    function setConnection(state, text) {
      model.connection = state;
      $("connection").dataset.state = state;
      $("connection-text").textContent = text;
    }

    // ---- rows ----------------------------------------------------------------------------------

    function originText(row) {
      switch (row[FROM]) {
        case "outside": return "outside";
        case "sideEffect": {
          const index = model.bySequence.get(row[OSEQ]);
          const where = index !== undefined ? " #" + model.rows[index][POS] : " (seq " + row[OSEQ] + ")";
          return "side effect " + shortType(row[ONAME]) + where;
        }
        case "storeWork": return row[ONAME] || "store work";
        default: return row[FROM] || "";
      }
    }

    function noteGap(after, dropped) {
      model.pendingGaps.push({ after: after, dropped: dropped });
      resolveGaps();
    }

    function resolveGaps() {
      if (!model.pendingGaps.length || !model.rows.length) return;
      const keep = [];
      for (const gap of model.pendingGaps) {
        const index = lowerBoundRows(gap.after + 1);
        if (index < model.rows.length) model.gapBefore.set(model.rows[index][POS], gap.dropped);
        else keep.push(gap);
      }
      model.pendingGaps = keep;
    }

    // Adds rows (in position order) that come after what the page has. Returns the indices added.
    function ingest(rows) {
      const added = [];
      let newNames = false;
      for (const raw of rows) {
        if (!Array.isArray(raw) || raw[POS] <= model.lastPosition) continue;
        raw[TYPE] = intern(raw[TYPE]);
        raw[KIND] = intern(raw[KIND]);
        raw[FROM] = intern(raw[FROM]);
        raw[ONAME] = intern(raw[ONAME]);
        raw[OUTCOME] = intern(raw[OUTCOME]);
        const index = model.rows.length;
        model.rows.push(raw);
        model.bySequence.set(raw[SEQ], index);
        model.lastPosition = raw[POS];
        added.push(index);
        if (!model.types.has(raw[TYPE])) { model.types.add(raw[TYPE]); newNames = true; }
        if (raw[FROM] === "sideEffect" && !model.sideEffectNames.has(raw[ONAME])) { model.sideEffectNames.add(raw[ONAME]); newNames = true; }
        if (raw[FROM] === "storeWork" && !model.storeWorkLabels.has(raw[ONAME] || "")) { model.storeWorkLabels.add(raw[ONAME] || ""); newNames = true; }
      }
      if (newNames) renderFilterChoices();
      resolveGaps();
      return added;
    }

    // First index in rows whose position is >= position.
    function lowerBoundRows(position) {
      let lo = 0, hi = model.rows.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (model.rows[mid][POS] < position) lo = mid + 1; else hi = mid;
      }
      return lo;
    }

    function indexOfPosition(position) {
      const i = lowerBoundRows(position);
      return i < model.rows.length && model.rows[i][POS] === position ? i : -1;
    }

    // First index in shown whose row position is >= position.
    function lowerBoundShown(position) {
      let lo = 0, hi = model.shown.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (model.rows[model.shown[mid]][POS] < position) lo = mid + 1; else hi = mid;
      }
      return lo;
    }

    function shownIndexOf(position) {
      const i = lowerBoundShown(position);
      return i < model.shown.length && model.rows[model.shown[i]][POS] === position ? i : -1;
    }

    // ---- filters -------------------------------------------------------------------------------

    const typeSelect = $("filter-type");
    const originSelect = $("filter-origin");
    const searchInput = $("filter-search");
    const outcomeBoxes = Array.from(document.querySelectorAll('input[name="outcome"]'));

    function sortedByShortName(names) {
      return Array.from(names).sort((a, b) => shortType(a).localeCompare(shortType(b)) || a.localeCompare(b));
    }

    function renderFilterChoices() {
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
    }

    function currentFilter() {
      const outcomes = {};
      for (const box of outcomeBoxes) outcomes[box.value] = box.checked;
      const origin = originSelect.value;
      let originFrom = null, originName = null;
      if (origin.startsWith("from:")) originFrom = origin.slice(5);
      else if (origin.startsWith("sideEffect:")) { originFrom = "sideEffect"; originName = origin.slice(11); }
      else if (origin.startsWith("storeWork:")) { originFrom = "storeWork"; originName = origin.slice(10); }
      const terms = searchInput.value.toLowerCase().split(/\s+/).filter(Boolean);
      return {
        type: typeSelect.value || null,
        outcomes: outcomes,
        originFrom: originFrom,
        originName: originName,
        terms: terms,
        active: !!(typeSelect.value || origin || terms.length || outcomeBoxes.some((b) => !b.checked)),
      };
    }

    function passes(row, f) {
      if (f.type !== null && row[TYPE] !== f.type) return false;
      if (f.outcomes[row[OUTCOME]] === false) return false;
      if (f.originFrom !== null) {
        if (row[FROM] !== f.originFrom) return false;
        if (f.originName !== null && (row[ONAME] || "") !== f.originName) return false;
      }
      if (f.terms.length) {
        const haystack = (row[TYPE] + "\n" + originText(row) + "\n" + (row[PREVIEW] || "") + "\n" + (row[ERROR] || "")).toLowerCase();
        for (const term of f.terms) if (haystack.indexOf(term) < 0) return false;
      }
      return true;
    }

    let filter = currentFilter();

    function applyFilters(keepSelectionInView) {
      filter = currentFilter();
      const shown = [];
      const rows = model.rows;
      if (!filter.active) {
        for (let i = 0; i < rows.length; i++) shown.push(i);
      } else {
        for (let i = 0; i < rows.length; i++) if (passes(rows[i], filter)) shown.push(i);
      }
      model.shown = shown;
      model.newItems = 0;
      renderNewItems();
      renderCount();
      if (keepSelectionInView && model.selected !== null && shownIndexOf(model.selected) >= 0) {
        renderTimeline();
        scrollToPosition(model.selected, "center");
      } else {
        scroller.scrollTop = 0;
        renderTimeline();
      }
      updateStepButtons();
    }

    function renderCount() {
      const node = $("filter-count");
      node.replaceChildren();
      const text = filter.active
        ? "showing " + fmt(model.shown.length) + " of " + fmt(model.rows.length)
        : fmt(model.rows.length) + " items";
      node.appendChild(document.createTextNode(text));
      if (!model.loaded && model.total > model.rows.length) {
        node.appendChild(document.createTextNode(" (loading " + fmt(model.rows.length) + " of " + fmt(model.total) + "…)"));
      }
      if (model.selected !== null && filter.active && shownIndexOf(model.selected) < 0) {
        node.appendChild(document.createTextNode(" · #" + model.selected + " is hidden by the filters"));
        const show = el("button", "secondary small", "Show it");
        show.type = "button";
        show.dataset.testid = "show-selected";
        show.addEventListener("click", () => { clearFilters(); });
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
    }

    function clearFilters() {
      typeSelect.value = "";
      originSelect.value = "";
      searchInput.value = "";
      for (const box of outcomeBoxes) box.checked = true;
      applyFilters(true);
    }

    typeSelect.addEventListener("change", () => applyFilters(true));
    originSelect.addEventListener("change", () => applyFilters(true));
    for (const box of outcomeBoxes) box.addEventListener("change", () => applyFilters(true));
    let searchTimer = 0;
    searchInput.addEventListener("input", () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => applyFilters(true), SEARCH_DELAY);
    });
    searchInput.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); clearTimeout(searchTimer); applyFilters(true); }
    });
    $("filters").addEventListener("submit", (event) => event.preventDefault());
    $("filter-clear").addEventListener("click", clearFilters);

    // ---- the virtual timeline ------------------------------------------------------------------

    const scroller = $("timeline-scroll");
    const spacer = $("timeline-spacer");
    const rowsBox = $("timeline-rows");
    const pool = [];          // row elements, reused
    let frameRequested = false;

    function makeRowElement() {
      const row = el("div", "row");
      row.setAttribute("role", "row");
      row.dataset.testid = "timeline-row";
      const cells = ["col-pos", "col-time", "col-type", "col-origin", "col-outcome", "col-preview"].map((name) => {
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
      // Re-fill only when the row changed, or when what its origin or gap mark shows has.
      const stamp = index + "|" + model.bySequence.has(row[OSEQ]) + "|" + model.gapBefore.has(row[POS]);
      if (element._stamp === stamp) return;
      element._stamp = stamp;
      element._index = index;
      element.classList.remove("fresh");
      element.dataset.position = String(row[POS]);
      element.classList.toggle("after-gap", model.gapBefore.has(row[POS]));
      element.title = model.gapBefore.has(row[POS]) ? fmt(model.gapBefore.get(row[POS])) + " items were dropped before this one" : "";
      const [pos, time, type, origin, outcome, preview] = element._cells;
      pos.textContent = String(row[POS]);
      time.textContent = clockTime(row[TIME]);
      time.title = fullTime(row[TIME]);
      type.textContent = shortType(row[TYPE]);
      type.title = row[TYPE] + " (" + row[KIND] + ")";
      origin.replaceChildren();
      const text = originText(row);
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

    function renderTimeline() {
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
      if (atBottom() && model.newItems) { model.newItems = 0; renderNewItems(); }
    }

    function requestRender() {
      if (frameRequested) return;
      frameRequested = true;
      requestAnimationFrame(renderTimeline);
    }

    function atBottom() {
      return scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - ROW_HEIGHT / 2;
    }

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
      renderTimeline();
    }

    function scrollToPosition(position, how) {
      const i = shownIndexOf(position);
      if (i >= 0) scrollToShownIndex(i, how);
    }

    function scrollToEnd() {
      sizeSpacer();
      scroller.scrollTop = scroller.scrollHeight;
      renderTimeline();
    }

    scroller.addEventListener("scroll", requestRender, { passive: true });
    window.addEventListener("resize", requestRender);

    scroller.addEventListener("click", (event) => {
      const link = event.target.closest('[data-testid="row-origin-link"]');
      if (link) {
        event.stopPropagation();
        selectSequence(Number(link.dataset.originSequence));
        return;
      }
      const row = event.target.closest(".row");
      if (row) {
        select(Number(row.dataset.position), { scroll: "nearest" });
        scroller.focus({ preventScroll: true });
      }
    });

    // ---- new items (live) ----------------------------------------------------------------------

    const newItemsButton = $("new-items");

    function renderNewItems() {
      if (model.newItems > 0) {
        newItemsButton.textContent = fmt(model.newItems) + (model.newItems === 1 ? " new item ↓" : " new items ↓");
        newItemsButton.hidden = false;
      } else {
        newItemsButton.hidden = true;
      }
    }

    newItemsButton.addEventListener("click", () => {
      model.newItems = 0;
      renderNewItems();
      scrollToEnd();
    });

    // Rows arrived after the first load: the view follows only when it was at the bottom.
    function appendRows(rows) {
      const follow = atBottom();
      const added = ingest(rows);
      if (!added.length) return;
      model.total = Math.max(model.total, model.rows.length);
      let matched = 0;
      for (const index of added) {
        if (!filter.active || passes(model.rows[index], filter)) { model.shown.push(index); matched++; }
      }
      renderSummary();
      renderCount();
      updateStepButtons();
      if (!matched) return;
      if (follow) {
        scrollToEnd();
        for (const element of rowsBox.children) {
          if (added.indexOf(element._index) >= 0) {
            element.classList.remove("fresh"); void element.offsetWidth; element.classList.add("fresh");
          }
        }
      } else {
        requestRender();        // the spacer grows below; what the user reads stays where it is
        model.newItems += matched;
        renderNewItems();
      }
    }

    // ---- selection and stepping ----------------------------------------------------------------

    function select(position, options) {
      const opts = options || {};
      if (indexOfPosition(position) < 0) {
        showError("There is no item at position " + position + " in what the page has loaded.");
        return;
      }
      model.selected = position;
      if (location.hash !== "#p=" + position) history.replaceState(null, "", "#p=" + position);
      if (opts.scroll) scrollToPosition(position, opts.scroll); else requestRender();
      for (const element of rowsBox.children) {
        element.setAttribute("aria-selected", model.rows[element._index][POS] === position ? "true" : "false");
      }
      renderCount();
      updateStepButtons();
      loadDetail(position);
    }

    function selectSequence(sequence) {
      const index = model.bySequence.get(sequence);
      if (index === undefined) {
        showError("The item with sequence " + sequence + " is not in the recording (it may have been dropped).");
        return;
      }
      select(model.rows[index][POS], { scroll: "center" });
    }

    function neighbour(direction) {
      if (!model.shown.length) return null;
      if (model.selected === null) {
        return model.rows[model.shown[direction < 0 ? model.shown.length - 1 : 0]][POS];
      }
      const i = lowerBoundShown(model.selected);
      const exact = i < model.shown.length && model.rows[model.shown[i]][POS] === model.selected;
      const target = direction < 0 ? i - 1 : (exact ? i + 1 : i);
      if (target < 0 || target >= model.shown.length) return null;
      return model.rows[model.shown[target]][POS];
    }

    function step(direction) {
      const position = neighbour(direction);
      if (position !== null) select(position, { scroll: "nearest" });
    }

    function updateStepButtons() {
      $("step-back").disabled = neighbour(-1) === null || model.selected === null;
      $("step-forward").disabled = neighbour(1) === null || model.selected === null;
    }

    $("step-back").addEventListener("click", () => step(-1));
    $("step-forward").addEventListener("click", () => step(1));

    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
      switch (event.key) {
        case "ArrowUp": case "k": event.preventDefault(); step(-1); break;
        case "ArrowDown": case "j": event.preventDefault(); step(1); break;
        case "Home":
          if (target === scroller && model.shown.length) { event.preventDefault(); select(model.rows[model.shown[0]][POS], { scroll: "nearest" }); }
          break;
        case "End":
          if (target === scroller && model.shown.length) { event.preventDefault(); select(model.rows[model.shown[model.shown.length - 1]][POS], { scroll: "nearest" }); }
          break;
        default: break;
      }
    });

    function positionFromHash() {
      const match = /^#p=(\d+)$/.exec(location.hash);
      return match ? Number(match[1]) : null;
    }

    window.addEventListener("hashchange", () => {
      const position = positionFromHash();
      if (position !== null && position !== model.selected && model.loaded) select(position, { scroll: "center" });
    });

    // ---- the detail panel ----------------------------------------------------------------------

    const detailCache = new Map();
    const treeOverrides = new Map();   // path -> expanded, what the user chose; kept while stepping

    async function fetchDetail(position) {
      if (detailCache.has(position)) return detailCache.get(position);
      const detail = await api("/api/items/" + position);
      detailCache.set(position, detail);
      if (detailCache.size > DETAIL_CACHE) detailCache.delete(detailCache.keys().next().value);
      return detail;
    }

    async function loadDetail(position) {
      const ticket = ++model.detailSeq;
      $("detail-title").textContent = "#" + position;
      $("detail-body").classList.add("stale");
      try {
        const detail = await fetchDetail(position);
        if (ticket !== model.detailSeq) return;
        renderDetail(detail);
        clearErrorIfAbout("detail");
      } catch (error) {
        if (ticket !== model.detailSeq) return;
        $("detail-body").classList.remove("stale");
        showError("Could not load item #" + position + ": " + error.message);
        lastErrorAbout = "detail";
      }
    }

    let lastErrorAbout = null;
    function clearErrorIfAbout(what) { if (lastErrorAbout === what) { clearError(); lastErrorAbout = null; } }

    function addField(list, label, content, testid) {
      const dt = el("dt", null, label);
      const dd = el("dd");
      if (typeof content === "string") dd.textContent = content; else dd.appendChild(content);
      if (testid) dd.dataset.testid = testid;
      list.append(dt, dd);
      return dd;
    }

    function renderDetail(d) {
      $("detail-empty").hidden = true;
      const body = $("detail-body");
      body.hidden = false;
      body.classList.remove("stale");
      body.dataset.position = String(d.position);

      const title = $("detail-title");
      title.textContent = "#" + d.position + " " + shortType(d.type);
      title.title = d.type;

      const header = $("detail-header");
      header.replaceChildren();
      addField(header, "Position", "#" + d.position + " of " + fmt(model.total) + " · sequence " + d.sequence, "detail-position");
      const type = addField(header, "Type", d.type + " (" + d.kind + ")", "detail-type");
      type.classList.add("mono");
      addField(header, "Time", typeof d.time === "number" ? fullTime(d.time * 1000) : "—", "detail-time");
      addField(header, "Origin", originContent(d.origin), "detail-origin");
      addField(header, "Outcome", el("span", "badge " + d.outcome, d.outcome), "detail-outcome");

      const error = $("detail-error");
      if (d.error) { error.textContent = "Rejected: " + d.error; error.hidden = false; }
      else { error.textContent = ""; error.hidden = true; }

      renderDiff(d);
      renderTree(d);

      const item = $("item-json");
      if (d.item !== null && d.item !== undefined) {
        item.textContent = JSON.stringify(d.item, null, 2);
      } else if (d.rendering) {
        item.textContent = d.rendering + "\n\n(not Encodable: this is its rendering, and it cannot be replayed)";
      } else {
        item.textContent = "(not recorded)";
      }
    }

    function originContent(origin) {
      if (!origin) return "—";
      if (origin.from === "outside") return "from outside the store";
      if (origin.from === "storeWork") return "store work: " + (origin.name || "(no label)");
      if (origin.from === "sideEffect") {
        let position = origin.position;
        if ((position === null || position === undefined) && model.bySequence.has(origin.sequence)) {
          position = model.rows[model.bySequence.get(origin.sequence)][POS];
        }
        const text = "side effect " + shortType(origin.name) + (position ? " #" + position : "") + " (sequence " + origin.sequence + ")";
        if (!position) return text + ", not in the recording";
        const link = el("button", "link", text);
        link.type = "button";
        link.dataset.testid = "detail-origin-link";
        link.title = "Select the side effect that dispatched this item: " + origin.name;
        link.addEventListener("click", () => select(position, { scroll: "center" }));
        return link;
      }
      return String(origin.from);
    }

    function renderDiff(d) {
      const list = $("diff-list");
      list.replaceChildren();
      const changes = Array.isArray(d.changes) ? d.changes : [];
      if (!changes.length) {
        let text = "Nothing: the state after it is the state before it.";
        if (d.stateAfter === null || d.stateAfter === undefined) text = "Unknown: the state was not recorded here.";
        else if (d.outcome === "rejected") text = "Nothing: it was rejected.";
        else if (d.outcome === "blocked") text = "Nothing: an interceptor blocked it.";
        const note = el("li", "note", text);
        note.dataset.testid = "diff-none";
        list.appendChild(note);
        return;
      }
      const opNames = { add: "added", remove: "removed", replace: "changed" };
      for (const change of changes) {
        const path = Array.isArray(change.path) ? change.path : [];
        const entry = el("li", "diff-entry " + change.op);
        entry.dataset.testid = "diff-entry";
        entry.dataset.op = change.op;
        entry.dataset.path = pathKey(path);
        entry.appendChild(el("span", "diff-op", opNames[change.op] || change.op));
        const pathButton = el("button", "diff-path", pathLabel(path));
        pathButton.type = "button";
        pathButton.title = "Show it in the state tree";
        pathButton.addEventListener("click", () => revealInTree(path));
        entry.appendChild(pathButton);
        const values = el("div", "diff-values");
        if (change.op !== "add") {
          const before = el("code", "val diff-before", compactJSON(change.before));
          before.dataset.testid = "diff-before";
          values.appendChild(before);
        }
        if (change.op === "replace") values.appendChild(el("span", "diff-arrow", "→"));
        if (change.op !== "remove") {
          const after = el("code", "val diff-after", compactJSON(change.after));
          after.dataset.testid = "diff-after";
          values.appendChild(after);
        }
        entry.appendChild(values);
        list.appendChild(entry);
      }
    }

    // ---- the state tree ------------------------------------------------------------------------

    let treeContext = null;

    function isContainer(value) { return value !== null && typeof value === "object"; }

    function renderTree(d) {
      const box = $("state-tree");
      box.replaceChildren();
      if (d.stateAfter === null || d.stateAfter === undefined) {
        const text = model.summary && model.summary.statesRecorded === false
          ? "States are not recorded in this recording."
          : "Unknown: items were dropped before this one, so the state here was not recorded.";
        box.appendChild(el("p", "note", text));
        treeContext = null;
        return;
      }
      const changed = new Set();
      const onTheWay = new Set();
      for (const change of d.changes || []) {
        const path = Array.isArray(change.path) ? change.path : [];
        if (change.op !== "remove") changed.add(pathKey(path));
        const depth = change.op === "remove" ? path.length : path.length;
        for (let i = 0; i < depth; i++) onTheWay.add(pathKey(path.slice(0, i)));
      }
      treeContext = { changed: changed, onTheWay: onTheWay };
      const root = el("ul", "tree");
      root.appendChild(treeNode("state", d.stateAfter, [], 0));
      box.appendChild(root);
    }

    function defaultExpanded(value, path, depth) {
      const key = pathKey(path);
      if (depth === 0) return true;
      if (treeContext.onTheWay.has(key)) return true;
      const size = Array.isArray(value) ? value.length : Object.keys(value).length;
      if (treeContext.changed.has(key)) return size <= 50;
      return depth === 1 && size <= 12;
    }

    function treeNode(label, value, path, depth) {
      const key = pathKey(path);
      const li = el("li");
      li.dataset.testid = "tree-node";
      li.dataset.path = key;
      if (treeContext.changed.has(key)) { li.classList.add("changed"); li.dataset.changed = "true"; }
      else if (treeContext.onTheWay.has(key)) li.classList.add("has-change");
      const line = el("div", "tree-line");
      li.appendChild(line);

      if (!isContainer(value)) {
        line.appendChild(el("span", "tree-leaf-pad"));
        line.appendChild(el("span", "tree-key", label));
        line.appendChild(document.createTextNode(": "));
        line.appendChild(leafValue(value));
        return li;
      }

      const isArray = Array.isArray(value);
      const keys = isArray ? null : Object.keys(value);
      const size = isArray ? value.length : keys.length;
      const toggle = el("button", "tree-toggle");
      toggle.type = "button";
      toggle.appendChild(el("span", "chevron", "▸"));
      toggle.appendChild(el("span", "tree-key", label));
      line.appendChild(toggle);
      line.appendChild(el("span", "tree-summary", isArray
        ? "[" + size + (size === 1 ? " item]" : " items]")
        : "{" + size + (size === 1 ? " field}" : " fields}")));

      let children = null;
      const setExpanded = (expanded) => {
        toggle.setAttribute("aria-expanded", expanded ? "true" : "false");
        if (expanded && !children) {
          children = el("ul");
          appendChildren(children, value, isArray, keys, path, depth, 0);
          li.appendChild(children);
        }
        if (children) children.hidden = !expanded;
      };
      li._setExpanded = setExpanded;
      toggle.addEventListener("click", () => {
        const expanded = toggle.getAttribute("aria-expanded") !== "true";
        treeOverrides.set(key, expanded);
        setExpanded(expanded);
      });
      const override = treeOverrides.get(key);
      setExpanded(override !== undefined ? override : defaultExpanded(value, path, depth));
      return li;
    }

    function appendChildren(list, value, isArray, keys, path, depth, start) {
      const size = isArray ? value.length : keys.length;
      const end = Math.min(size, start + TREE_PAGE);
      for (let i = start; i < end; i++) {
        const childKey = isArray ? i : keys[i];
        const label = isArray ? String(i) : childKey;
        list.appendChild(treeNode(label, value[childKey], path.concat([childKey]), depth + 1));
      }
      if (end < size) {
        const more = el("li", "tree-more");
        const button = el("button", "secondary small", "Show " + Math.min(TREE_PAGE, size - end) + " more of " + fmt(size - end));
        button.type = "button";
        button.addEventListener("click", () => {
          more.remove();
          appendChildren(list, value, isArray, keys, path, depth, end);
        });
        more.appendChild(button);
        list.appendChild(more);
      }
    }

    function leafValue(value) {
      if (value === null) return el("span", "v-null", "null");
      switch (typeof value) {
        case "string": return el("span", "v-string", JSON.stringify(value));
        case "number": return el("span", "v-number", String(value));
        case "boolean": return el("span", "v-boolean", String(value));
        default: return el("span", null, compactJSON(value));
      }
    }

    function treeNodeAt(key) {
      for (const node of $("state-tree").querySelectorAll('[data-testid="tree-node"]')) {
        if (node.dataset.path === key) return node;
      }
      return null;
    }

    function revealInTree(path) {
      // Expand each step of the way, then point at the node (or its nearest shown parent).
      let target = null;
      for (let i = 0; i <= path.length; i++) {
        const node = treeNodeAt(pathKey(path.slice(0, i)));
        if (!node) break;
        target = node;
        if (i < path.length && node._setExpanded) node._setExpanded(true);
      }
      if (!target) return;
      target.scrollIntoView({ block: "center" });
      target.classList.add("tree-flash");
      setTimeout(() => target.classList.remove("tree-flash"), 1200);
    }

    function setAllExpanded(expanded) {
      if (!treeContext) return;
      const box = $("state-tree");
      // Expanding everything is bounded: a large state would otherwise build a huge DOM.
      let budget = 2000;
      let progress = true;
      while (progress && budget > 0) {
        progress = false;
        for (const node of box.querySelectorAll('[data-testid="tree-node"]')) {
          const toggle = node.querySelector(":scope > .tree-line > .tree-toggle");
          if (!toggle || !node._setExpanded) continue;
          const isOpen = toggle.getAttribute("aria-expanded") === "true";
          if (expanded && !isOpen) {
            if (budget-- <= 0) break;
            node._setExpanded(true); treeOverrides.set(node.dataset.path, true); progress = true;
          } else if (!expanded && isOpen && node.dataset.path !== "") {
            node._setExpanded(false); treeOverrides.set(node.dataset.path, false);
          }
        }
        if (!expanded) break;
      }
    }

    $("tree-expand").addEventListener("click", () => setAllExpanded(true));
    $("tree-collapse").addEventListener("click", () => setAllExpanded(false));

    // ---- live updates --------------------------------------------------------------------------

    let socket = null;
    let retryDelay = 500;
    let retryTimer = 0;

    function connectLive() {
      clearTimeout(retryTimer);
      setConnection("connecting", "Connecting…");
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      let ws;
      try {
        ws = new WebSocket(scheme + location.host + withToken("/api/live?after=" + model.lastPosition));
      } catch (error) {
        scheduleReconnect();
        return;
      }
      socket = ws;
      ws.addEventListener("open", () => {
        if (socket !== ws) return;
        retryDelay = 500;
        setConnection("live", "Live");
      });
      ws.addEventListener("message", (event) => {
        if (socket !== ws) return;
        let message;
        try { message = JSON.parse(event.data); } catch (_) { return; }
        if (message.type === "items") {
          if (typeof message.count === "number") model.total = Math.max(model.total, message.count);
          appendRows(Array.isArray(message.rows) ? message.rows : []);
          if (typeof message.count === "number") { model.total = message.count; renderSummary(); renderCount(); }
        } else if (message.type === "gap") {
          noteGap(message.after, message.dropped);
          addNotice(fmt(message.dropped) + " items were dropped after #" + message.after + " (the recorder fell behind).");
        }
      });
      ws.addEventListener("close", () => {
        if (socket !== ws) return;
        socket = null;
        scheduleReconnect();
      });
      ws.addEventListener("error", () => { /* a close event follows */ });
    }

    function scheduleReconnect() {
      const seconds = Math.round(retryDelay / 100) / 10;
      setConnection("reconnecting", "Disconnected · retrying in " + seconds + " s");
      retryTimer = setTimeout(connectLive, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 10000);
    }

    // ---- loading -------------------------------------------------------------------------------

    async function load() {
      setConnection("connecting", "Loading…");
      let summary;
      for (let attempt = 1; ; attempt++) {
        try {
          summary = await api("/api/summary");
          clearError();
          break;
        } catch (error) {
          // A live store that has not started yet answers 503: wait for it, saying so.
          if (error.status === 503 && attempt < 120) {
            showError(error.message + " (trying again…)");
            await new Promise((done) => setTimeout(done, 1000));
            continue;
          }
          showError(error.message);
          setConnection("error", error.status === 401 ? "Token needed" : "Unavailable");
          model.loaded = true;
          return;
        }
      }
      model.summary = summary;
      model.total = summary.count || 0;
      renderSummary();
      for (const warning of summary.warnings || []) addNotice(warning);
      for (const gap of summary.gaps || []) {
        noteGap(gap.after, gap.dropped);
        addNotice(fmt(gap.dropped) + " items were dropped after #" + gap.after + ".");
      }

      let from = summary.firstPosition || 1;
      try {
        for (;;) {
          const page = await api("/api/items?from=" + from + "&limit=" + CHUNK);
          const rows = Array.isArray(page.rows) ? page.rows : [];
          const added = ingest(rows);
          model.total = Math.max(page.count || 0, model.rows.length);
          for (const index of added) {
            if (!filter.active || passes(model.rows[index], filter)) model.shown.push(index);
          }
          renderSummary();
          renderCount();
          requestRender();
          // Pages may be shorter than asked for: stop when caught up with what the server has.
          if (!rows.length || model.lastPosition >= (page.lastPosition || 0)) break;
          from = model.lastPosition + 1;
        }
      } catch (error) {
        showError("Could not load the items: " + error.message);
        setConnection("error", "Unavailable");
      }
      model.loaded = true;
      model.loadMs = Math.round(performance.now() - model.loadStarted);
      renderCount();
      renderTimeline();
      updateStepButtons();
      document.body.dataset.loaded = "true";

      const wanted = positionFromHash();
      if (wanted !== null && indexOfPosition(wanted) >= 0) select(wanted, { scroll: "center" });
      else if (summary.live) scrollToEnd();

      if (summary.live) connectLive();
      else if (model.connection !== "error") setConnection("file", "Recording");
    }

    // ---- read-only hooks for tests and the console ---------------------------------------------

    window.inspector = Object.freeze({
      isLoaded: () => model.loaded,
      loadTimeMs: () => model.loadMs,
      loadedCount: () => model.rows.length,
      totalCount: () => model.total,
      filteredCount: () => model.shown.length,
      visibleRowCount: () => rowsBox.children.length,
      selectedPosition: () => model.selected,
      lastPosition: () => model.lastPosition,
      connectionState: () => model.connection,
      newItemsCount: () => model.newItems,
    });

    load();
  }
})();
