// Katana inspector page. Plain JavaScript, no dependencies, nothing fetched but this server's API
// (Tools/Sources/KatanaInspector; the contract is the HTTP API the server documents).
//
// The page is a few classic scripts that index.html's loader runs in order; they share one global,
// `window.KatanaInspector` (called K inside them). This one comes first: the constants and the
// small helpers everything uses, and the list of start-up steps. The others add their parts:
//
//   api.js       the token, requests to the API, the error banner and notices, the header
//   model.js     the rows the page holds (`rows`, in position order) and lookups in them
//   ends.js      how side effects ended: end badges, the detail's "Ended", ends from the live stream
//   filters.js   the filter bar; `shown`, the indices of the rows the filters let through
//   timeline.js  the virtual timeline and the "new items" button
//   selection.js selecting an item and stepping back and forth
//   detail.js    the selected item's panel; diff.js and tree.js fill its two main sections
//   live.js      the WebSocket that brings a live store's new items
//   main.js      loading, the keyboard and the address's #p=, window.inspector; starts the page
//
// Scripts may run before the body is parsed: anything that touches the DOM at start-up goes in a
// step given to K.onStart, and main.js runs the steps, in the order the scripts ran, once it is.
(function () {
  "use strict";

  const K = (window.KatanaInspector = {});

  // ---- constants -------------------------------------------------------------------------------

  K.ROW_HEIGHT = 26;        // must match --row-h in inspector.css
  K.OVERSCAN = 8;           // rows rendered above and below the visible ones
  K.CHUNK = 50000;          // the API's largest page of rows
  K.DETAIL_CACHE = 64;      // item details kept for quick stepping
  K.TREE_PAGE = 100;        // children of an array or object shown before "show more"
  K.SEARCH_DELAY = 120;     // ms of quiet typing before the search runs

  // The columns of a row, as the API sends them.
  K.col = Object.freeze({
    POS: 0, SEQ: 1, TIME: 2, TYPE: 3, KIND: 4, FROM: 5, ONAME: 6, OSEQ: 7, OUTCOME: 8, PREVIEW: 9, ERROR: 10, END: 11,
    CORR: 12,     // the request the item was dispatched for (its correlation), or null
  });

  // ---- start-up steps --------------------------------------------------------------------------

  const startSteps = [];

  K.onStart = function (step) { startSteps.push(step); };

  K.runStartSteps = function () {
    for (const step of startSteps) step();
  };

  // ---- small DOM helpers -----------------------------------------------------------------------

  K.$ = (id) => document.getElementById(id);

  K.el = function (tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  };

  // ---- formatting ------------------------------------------------------------------------------

  const numberFormat = new Intl.NumberFormat("en-US");
  K.fmt = (n) => numberFormat.format(n);

  function pad(n, width) { const s = String(n); return s.length >= width ? s : "0".repeat(width - s.length) + s; }

  // Every time the page shows (a row's, a detail's, an end's) is whole milliseconds from the API,
  // formatted here, so that one item shows one time wherever it appears.
  K.clockTime = function (ms) {
    const d = new Date(Math.round(ms));
    return pad(d.getHours(), 2) + ":" + pad(d.getMinutes(), 2) + ":" + pad(d.getSeconds(), 2) + "." + pad(d.getMilliseconds(), 3);
  };

  K.fullTime = function (ms) {
    const d = new Date(Math.round(ms));
    return d.getFullYear() + "-" + pad(d.getMonth() + 1, 2) + "-" + pad(d.getDate(), 2) + " " + K.clockTime(ms);
  };

  // "App.Feature.AddTodo" -> "Feature.AddTodo": the module prefix goes, nesting stays.
  K.shortType = function (name) {
    if (!name) return "";
    const generic = name.indexOf("<");
    const head = generic >= 0 ? name.slice(0, generic) : name;
    const dot = head.indexOf(".");
    return dot >= 0 ? name.slice(dot + 1) : name;
  };

  K.compactJSON = function (value) {
    if (value === undefined) return "";
    try { return JSON.stringify(value); } catch (_) { return String(value); }
  };

  // A path into the state (keys and indices): as a key for maps and data attributes, and as a label.
  K.pathKey = (path) => path.join(".");

  K.pathLabel = function (path) {
    if (!path.length) return "(the whole state)";
    let out = "";
    for (const part of path) {
      if (typeof part === "number") out += "[" + part + "]";
      else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += (out ? "." : "") + part;
      else out += "[" + JSON.stringify(part) + "]";
    }
    return out;
  };
})();
