// What the page holds: the rows the server sent, in position order (`rows`), the indices of the
// rows the filters let through (`shown`, kept by filters.js), the names the filters offer, the
// gaps where items were dropped, and the selection. Plus the lookups in them, by binary search.
// A live server keeps only its newest items; the page lets go of the rows the server let go of.
(function (K) {
  "use strict";

  const { POS, SEQ, TYPE, KIND, FROM, ONAME, OSEQ, OUTCOME, CORR } = K.col;

  const model = (K.model = {
    summary: null,
    rows: [],                 // the rows held, by position (the oldest go when the server lets them go)
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
    loadStarted: performance.now(),   // set again when the page starts
    loadMs: null,
    newItems: 0,
    connection: "n/a",
    detailSeq: 0,
    endCursor: null,          // where the live stream's ends pick up (the API's endCursor)
  });

  // Rows repeat the same few type and origin names: keep one copy of each string.
  const interned = new Map();
  function intern(s) {
    if (typeof s !== "string") return s;
    const known = interned.get(s);
    if (known !== undefined) return known;
    if (interned.size < 100000) interned.set(s, s);
    return s;
  }

  // How a row's origin reads in the timeline (and what the search looks through).
  K.originText = function (row) {
    switch (row[FROM]) {
      case "outside": return "outside";
      case "sideEffect": {
        const index = model.bySequence.get(row[OSEQ]);
        const where = index !== undefined ? " #" + model.rows[index][POS] : " (seq " + row[OSEQ] + ")";
        return "side effect " + K.shortType(row[ONAME]) + where;
      }
      case "storeWork": return row[ONAME] || "store work";
      default: return row[FROM] || "";
    }
  };

  // ---- gaps ------------------------------------------------------------------------------------

  // `dropped` items were lost after position `after`: the next row the page has is marked.
  K.noteGap = function (after, dropped) {
    model.pendingGaps.push({ after: after, dropped: dropped });
    resolveGaps();
  };

  function resolveGaps() {
    if (!model.pendingGaps.length || !model.rows.length) return;
    const keep = [];
    for (const gap of model.pendingGaps) {
      const index = K.lowerBoundRows(gap.after + 1);
      if (index < model.rows.length) model.gapBefore.set(model.rows[index][POS], gap.dropped);
      else keep.push(gap);
    }
    model.pendingGaps = keep;
  }

  // ---- adding rows -----------------------------------------------------------------------------

  // Adds rows (in position order) that come after what the page has. Returns the indices added.
  K.ingest = function (rows) {
    const added = [];
    let newNames = false;
    for (const raw of rows) {
      if (!Array.isArray(raw) || raw[POS] <= model.lastPosition) continue;
      raw[TYPE] = intern(raw[TYPE]);
      raw[KIND] = intern(raw[KIND]);
      raw[FROM] = intern(raw[FROM]);
      raw[ONAME] = intern(raw[ONAME]);
      raw[OUTCOME] = intern(raw[OUTCOME]);
      raw[CORR] = intern(raw[CORR]);    // a request's items share it
      const index = model.rows.length;
      model.rows.push(raw);
      model.bySequence.set(raw[SEQ], index);
      model.lastPosition = raw[POS];
      added.push(index);
      if (!model.types.has(raw[TYPE])) { model.types.add(raw[TYPE]); newNames = true; }
      if (raw[FROM] === "sideEffect" && !model.sideEffectNames.has(raw[ONAME])) { model.sideEffectNames.add(raw[ONAME]); newNames = true; }
      if (raw[FROM] === "storeWork" && !model.storeWorkLabels.has(raw[ONAME] || "")) { model.storeWorkLabels.add(raw[ONAME] || ""); newNames = true; }
    }
    if (newNames) K.renderFilterChoices();
    resolveGaps();
    return added;
  };

  // ---- letting rows go ------------------------------------------------------------------------

  // The position of the oldest row the page holds; 0 when it holds none.
  K.firstPosition = () => (model.rows.length ? model.rows[0][POS] : 0);

  // Lets go of the rows before position `first`, and of everything kept about them here: their
  // sequences, the gaps marked on them or waiting for them, their entries in shown (the indices
  // of the rest move down). Returns how many rows went and how many of them were shown.
  K.dropRowsBefore = function (first) {
    const count = K.lowerBoundRows(first);
    if (count === 0) return { rows: 0, shown: 0 };
    const gone = model.rows.splice(0, count);
    for (const row of gone) {
      if (model.bySequence.get(row[SEQ]) < count) model.bySequence.delete(row[SEQ]);
      model.gapBefore.delete(row[POS]);
    }
    for (const [sequence, index] of model.bySequence) model.bySequence.set(sequence, index - count);
    // A gap still waiting for its next row, when that row was let go too, no longer marks anything.
    model.pendingGaps = model.pendingGaps.filter((gap) => gap.after + 1 >= first);
    let shownGone = 0;
    while (shownGone < model.shown.length && model.shown[shownGone] < count) shownGone++;
    const shown = model.shown.slice(shownGone);
    for (let i = 0; i < shown.length; i++) shown[i] -= count;
    model.shown = shown;
    return { rows: count, shown: shownGone };
  };

  // ---- lookups ---------------------------------------------------------------------------------

  // First index in rows whose position is >= position.
  K.lowerBoundRows = function (position) {
    let lo = 0, hi = model.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (model.rows[mid][POS] < position) lo = mid + 1; else hi = mid;
    }
    return lo;
  };

  // The index in rows of the row at position; -1 when the page does not have it.
  K.indexOfPosition = function (position) {
    const i = K.lowerBoundRows(position);
    return i < model.rows.length && model.rows[i][POS] === position ? i : -1;
  };

  // First index in shown whose row position is >= position.
  K.lowerBoundShown = function (position) {
    let lo = 0, hi = model.shown.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (model.rows[model.shown[mid]][POS] < position) lo = mid + 1; else hi = mid;
    }
    return lo;
  };

  // The index in shown of the row at position; -1 when the filters hide it (or there is none).
  K.shownIndexOf = function (position) {
    const i = K.lowerBoundShown(position);
    return i < model.shown.length && model.rows[model.shown[i]][POS] === position ? i : -1;
  };
})(window.KatanaInspector);
