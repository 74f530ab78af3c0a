// The selected item's panel: its header (position, type, time, origin, the request it was
// dispatched for, outcome, and how a side effect ended: ends.js), its error, what it changed (diff.js), the state after it (tree.js) and
// the item itself. Details are fetched from the API and the last few kept, so that stepping back
// and forth is quick.
(function (K) {
  "use strict";

  const { $, el, fmt, fullTime, shortType } = K;
  const { POS } = K.col;
  const model = K.model;

  const detailCache = new Map();    // position -> detail, oldest first

  async function fetchDetail(position) {
    if (detailCache.has(position)) return detailCache.get(position);
    const detail = await K.api("/api/items/" + position);
    if (position < K.firstPosition()) return detail;    // let go of while it loaded: not kept
    detailCache.set(position, detail);
    if (detailCache.size > K.DETAIL_CACHE) detailCache.delete(detailCache.keys().next().value);
    return detail;
  }

  // Loads the item at position again, when it is still the one shown (its side effect ended).
  K.reloadDetail = function (position) {
    detailCache.delete(position);
    if (model.selected === position) K.loadDetail(position);
  };

  // The live server let go of the items before `first`: so do the kept details.
  K.forgetDetailsBefore = function (first) {
    for (const position of Array.from(detailCache.keys())) {
      if (position < first) detailCache.delete(position);
    }
  };

  // Shows nothing selected: the empty panel, with `note` (why) when given.
  K.clearDetail = function (note) {
    ++model.detailSeq;                  // a detail still loading is not shown
    $("detail-title").textContent = "No item selected";
    $("detail-title").title = "";
    $("detail-body").hidden = true;
    $("detail-body").classList.remove("stale");
    delete $("detail-body").dataset.position;
    const empty = $("detail-empty");
    empty.textContent = note || emptyText;
    empty.hidden = false;
  };

  let emptyText = "";
  K.onStart(function () { emptyText = $("detail-empty").textContent; });

  // Shows the item at position once its detail is in, unless another was selected meanwhile.
  K.loadDetail = async function (position) {
    const ticket = ++model.detailSeq;
    $("detail-title").textContent = "#" + position;
    $("detail-body").classList.add("stale");
    try {
      const detail = await fetchDetail(position);
      if (ticket !== model.detailSeq) return;
      renderDetail(detail);
      K.clearErrorIfAbout("detail");
    } catch (error) {
      if (ticket !== model.detailSeq) return;
      $("detail-body").classList.remove("stale");
      K.showError("Could not load item #" + position + ": " + error.message, "detail");
    }
  };

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
    // A live store's count changes as items come and old ones go: it is in the header instead.
    const of = model.summary && model.summary.live ? "" : " of " + fmt(model.total);
    addField(header, "Position", "#" + d.position + of + " · sequence " + d.sequence, "detail-position");
    const type = addField(header, "Type", d.type + " (" + d.kind + ")", "detail-type");
    type.classList.add("mono");
    addField(header, "Time", typeof d.time === "number" ? fullTime(d.time) : "—", "detail-time");
    addField(header, "Origin", originContent(d.origin), "detail-origin");
    if (typeof d.correlation === "string" && d.correlation) {
      addField(header, "Request", correlationContent(d.correlation), "detail-correlation");
    }
    addField(header, "Outcome", el("span", "badge " + d.outcome, d.outcome), "detail-outcome");
    const end = K.endContent(d);
    if (end) addField(header, "Ended", end, "detail-end");

    const error = $("detail-error");
    if (d.error) { error.textContent = "Rejected: " + d.error; error.hidden = false; }
    else { error.textContent = ""; error.hidden = true; }

    K.renderDiff(d);
    K.renderTree(d);

    const item = $("item-json");
    if (d.item !== null && d.item !== undefined) {
      item.textContent = JSON.stringify(d.item, null, 2);
    } else if (d.rendering) {
      item.textContent = d.rendering + "\n\n(not Encodable: this is its rendering, and it cannot be replayed)";
    } else {
      item.textContent = "(not recorded)";
    }
  }

  // The request the item was dispatched for, and a button that filters the timeline down to
  // every item of it.
  function correlationContent(correlation) {
    const span = el("span");
    const value = el("span", "mono", correlation);
    value.dataset.testid = "detail-correlation-value";
    const button = el("button", "secondary small", "Show its items");
    button.type = "button";
    button.dataset.testid = "detail-correlation-filter";
    button.title = "Show every item dispatched for this request, and only those";
    button.addEventListener("click", () => K.filterByCorrelation(correlation));
    span.append(value, " ", button);
    return span;
  }

  // Where the item came from: text, or for a side effect the page has, a link that selects it.
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
      link.addEventListener("click", () => K.select(position, { scroll: "center" }));
      return link;
    }
    return String(origin.from);
  }
})(window.KatanaInspector);
