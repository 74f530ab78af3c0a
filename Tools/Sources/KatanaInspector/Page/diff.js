// "What it changed": the selected item's changes to the state, one entry per changed path, with
// the value before and after. A path's button shows it in the state tree.
(function (K) {
  "use strict";

  const { $, el, compactJSON, pathKey, pathLabel } = K;

  const opNames = { add: "added", remove: "removed", replace: "changed" };

  // Why nothing changed, when nothing did.
  function noChangeText(d) {
    if (d.stateAfter === null || d.stateAfter === undefined) return "Unknown: the state was not recorded here.";
    if (d.outcome === "rejected") return "Nothing: it was rejected.";
    if (d.outcome === "blocked") return "Nothing: an interceptor blocked it.";
    return "Nothing: the state after it is the state before it.";
  }

  K.renderDiff = function (d) {
    const list = $("diff-list");
    list.replaceChildren();
    const changes = Array.isArray(d.changes) ? d.changes : [];
    if (!changes.length) {
      const note = el("li", "note", noChangeText(d));
      note.dataset.testid = "diff-none";
      list.appendChild(note);
      return;
    }
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
      pathButton.addEventListener("click", () => K.revealInTree(path));
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
  };
})(window.KatanaInspector);
