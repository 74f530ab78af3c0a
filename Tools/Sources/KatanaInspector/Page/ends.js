// How side effects ended. A row's last column is its end as the API sends it, [outcome,
// durationMicroseconds, error or canceller, began], or null: a side effect the store took that has
// not ended (running, or, in a file, never ended before the recording stopped), or another item.
// Here: the words for an end, the timeline's end cell, the detail's "Ended" field, which end a
// row is in for the "Ended" filter, and the ends the live stream brings for rows the page has.
(function (K) {
  "use strict";

  const { el, clockTime } = K;
  const { POS, KIND, OUTCOME, END } = K.col;
  const model = K.model;

  const CANCELLERS = { promise: "its promise", id: "its id", latestWins: "latest wins", shutdown: "a shutdown" };
  const CANCELLER_HINTS = {
    promise: "its promise was cancelled",
    id: "cancelSideEffects(id:) named its id",
    latestWins: "a newer side effect with the same id started (latest wins)",
    shutdown: "the store shut down",
  };

  // A duration in microseconds as people read it: "420 µs", "2.4 ms", "38 ms", "1.2 s", "3 min 5 s".
  K.durationText = function (micros) {
    if (!(micros >= 0)) return "—";
    if (micros < 1000) return Math.round(micros) + " µs";
    const ms = micros / 1000;
    if (ms < 9.95) return ms.toFixed(1) + " ms";
    if (ms < 999.5) return Math.round(ms) + " ms";
    const seconds = ms / 1000;
    if (seconds < 59.95) return seconds.toFixed(1) + " s";
    const whole = Math.round(seconds);
    return Math.floor(whole / 60) + " min " + (whole % 60) + " s";
  };

  // Which end a row is in: "succeeded", "failed" or "cancelled"; "running" for a side effect the
  // store took that has no end yet; null for anything else.
  K.endState = function (row) {
    const end = row[END];
    if (Array.isArray(end)) return end[0];
    return row[KIND] === "sideEffect" && row[OUTCOME] === "handled" ? "running" : null;
  };

  // A live store's side effect without an end is running; a file's never ended before it stopped.
  function runningLabel() {
    return model.summary && model.summary.live ? "running" : "no end";
  }

  function runningHint() {
    return model.summary && model.summary.live
      ? "Running: it has not ended yet."
      : "No end in the recording: it was still running when recording stopped (or the recording predates side-effect ends).";
  }

  // The words after an end's badge in the timeline: what cancelled it, and how long it ran.
  function rowWords(end) {
    const ran = end[3] === false ? "before it began" : K.durationText(end[1]);
    if (end[0] === "cancelled") return (CANCELLERS[end[2]] || String(end[2])) + " · " + ran;
    return ran;
  }

  // The whole story of an end, for a tooltip.
  function hint(end) {
    const ran = end[3] === false ? "before its body began" : "after running " + K.durationText(end[1]);
    if (end[0] === "succeeded") return "Succeeded " + ran + ".";
    if (end[0] === "failed") return "Failed " + ran + ": " + (end[2] || "(no description)");
    return "Cancelled " + ran + ": " + (CANCELLER_HINTS[end[2]] || String(end[2])) + ".";
  }

  function badge(state, text) {
    const node = el("span", "badge end-" + state, text);
    node.dataset.testid = "end-badge";
    return node;
  }

  // Fills a timeline row's end cell.
  K.fillEndCell = function (cell, row) {
    cell.replaceChildren();
    const state = K.endState(row);
    cell.title = "";
    if (state === null) return;
    if (state === "running") {
      cell.appendChild(badge("running", runningLabel()));
      cell.title = runningHint();
      return;
    }
    const end = row[END];
    cell.append(badge(state, state), document.createTextNode(" "));
    const words = el("span", "end-words", rowWords(end));
    words.dataset.testid = "end-words";
    cell.appendChild(words);
    cell.title = hint(end);
  };

  // What changes in a row's end cell: the timeline re-fills a row when this does.
  K.endStamp = (row) => (Array.isArray(row[END]) ? row[END].join("/") : String(K.endState(row)));

  // The detail's "Ended" field for the item d (the API's detail); null when it is not a side
  // effect the store took.
  K.endContent = function (d) {
    const end = d.end;
    if (!end && !(d.kind === "sideEffect" && d.outcome === "handled")) return null;
    const box = el("span", "end-detail");
    if (!end) {
      const live = model.summary && model.summary.live;
      box.append(badge("running", runningLabel()), document.createTextNode(live
        ? " it has not ended yet"
        : " the recording has no end for it: it was still running when recording stopped (or the recording predates side-effect ends)"));
      return box;
    }
    const ran = end.began === false ? "before it began" : "after " + K.durationText(end.durationMicroseconds);
    let words = ran;
    if (end.outcome === "cancelled") {
      words = "by " + (CANCELLERS[end.cancelledBy] || String(end.cancelledBy)) + " " + ran;
    }
    if (typeof end.time === "number") words += " · at " + clockTime(end.time);
    box.append(badge(end.outcome, end.outcome), document.createTextNode(" " + words));
    if (end.outcome === "cancelled") box.title = CANCELLER_HINTS[end.cancelledBy] || "";
    if (end.outcome === "failed") {
      const error = el("span", "end-error", end.error || "(no description)");
      error.dataset.testid = "detail-end-error";
      box.appendChild(error);
    }
    return box;
  };

  // Ends from the live stream, [sequence, outcome, durationMicroseconds, detail, began] each, for
  // rows the page has: the rows take them, and what shows them is brought up to date.
  K.applyEnds = function (ends) {
    const positions = [];
    for (const entry of ends) {
      if (!Array.isArray(entry)) continue;
      const index = model.bySequence.get(entry[0]);
      if (index === undefined) continue;
      model.rows[index][END] = entry.slice(1);
      positions.push(model.rows[index][POS]);
    }
    if (!positions.length) return;
    K.refreshAfterEnds(positions);
  };
})(window.KatanaInspector);
