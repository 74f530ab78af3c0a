// Selecting an item (by position, or by the sequence an origin names) and stepping to the shown
// item before or after it. The selection is kept in the address (#p=<position>).
(function (K) {
  "use strict";

  const { $ } = K;
  const { POS } = K.col;
  const model = K.model;

  // Selects the item at position and shows its detail; options.scroll ("center" or "nearest")
  // brings its row into view.
  K.select = function (position, options) {
    const opts = options || {};
    if (K.indexOfPosition(position) < 0) {
      K.showError(position < K.firstPosition()
        ? "Item #" + position + " is no longer kept by the live inspector (it keeps only the newest items)."
        : "There is no item at position " + position + " in what the page has loaded.");
      return;
    }
    model.selected = position;
    if (location.hash !== "#p=" + position) history.replaceState(null, "", "#p=" + position);
    if (opts.scroll) K.scrollToPosition(position, opts.scroll); else K.requestRender();
    for (const element of K.rowElements()) {
      element.setAttribute("aria-selected", model.rows[element._index][POS] === position ? "true" : "false");
    }
    K.renderCount();
    K.updateStepButtons();
    K.loadDetail(position);
  };

  // Selects nothing; `note` says why (in the detail panel and the notices).
  K.clearSelection = function (note) {
    model.selected = null;
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    for (const element of K.rowElements()) element.setAttribute("aria-selected", "false");
    K.clearDetail(note);
    if (note) K.addNotice(note);
    K.renderCount();
    K.updateStepButtons();
  };

  K.selectSequence = function (sequence) {
    const index = model.bySequence.get(sequence);
    if (index === undefined) {
      K.showError("The item with sequence " + sequence + " is not in the recording (it may have been dropped).");
      return;
    }
    K.select(model.rows[index][POS], { scroll: "center" });
  };

  // The position of the shown item before (direction < 0) or after the selection; with nothing
  // selected, the last or the first shown item. Null when there is none.
  function neighbour(direction) {
    if (!model.shown.length) return null;
    if (model.selected === null) {
      return model.rows[model.shown[direction < 0 ? model.shown.length - 1 : 0]][POS];
    }
    const i = K.lowerBoundShown(model.selected);
    const exact = i < model.shown.length && model.rows[model.shown[i]][POS] === model.selected;
    const target = direction < 0 ? i - 1 : (exact ? i + 1 : i);
    if (target < 0 || target >= model.shown.length) return null;
    return model.rows[model.shown[target]][POS];
  }

  K.step = function (direction) {
    const position = neighbour(direction);
    if (position !== null) K.select(position, { scroll: "nearest" });
  };

  K.updateStepButtons = function () {
    $("step-back").disabled = neighbour(-1) === null || model.selected === null;
    $("step-forward").disabled = neighbour(1) === null || model.selected === null;
  };

  K.onStart(function () {
    $("step-back").addEventListener("click", () => K.step(-1));
    $("step-forward").addEventListener("click", () => K.step(1));
  });
})(window.KatanaInspector);
