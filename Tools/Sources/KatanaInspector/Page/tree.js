// "State after it": the selected item's state as a tree. Nodes are built when first expanded;
// what changed is highlighted and the way to it open. What the user opens or closes is kept by
// path while stepping from item to item.
(function (K) {
  "use strict";

  const { $, el, fmt, compactJSON, pathKey } = K;
  const model = K.model;

  const treeOverrides = new Map();   // path -> expanded, what the user chose; kept while stepping
  let treeContext = null;            // the shown item's changed paths, and the paths leading to them

  function isContainer(value) { return value !== null && typeof value === "object"; }

  K.renderTree = function (d) {
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
      for (let i = 0; i < path.length; i++) onTheWay.add(pathKey(path.slice(0, i)));
    }
    treeContext = { changed: changed, onTheWay: onTheWay };
    const root = el("ul", "tree");
    root.appendChild(treeNode("state", d.stateAfter, [], 0));
    box.appendChild(root);
  };

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

  // Adds the children from start on, a page of them at a time behind a "Show … more" button.
  function appendChildren(list, value, isArray, keys, path, depth, start) {
    const size = isArray ? value.length : keys.length;
    const end = Math.min(size, start + K.TREE_PAGE);
    for (let i = start; i < end; i++) {
      const childKey = isArray ? i : keys[i];
      const label = isArray ? String(i) : childKey;
      list.appendChild(treeNode(label, value[childKey], path.concat([childKey]), depth + 1));
    }
    if (end < size) {
      const more = el("li", "tree-more");
      const button = el("button", "secondary small", "Show " + Math.min(K.TREE_PAGE, size - end) + " more of " + fmt(size - end));
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

  K.revealInTree = function (path) {
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
  };

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

  K.onStart(function () {
    $("tree-expand").addEventListener("click", () => setAllExpanded(true));
    $("tree-collapse").addEventListener("click", () => setAllExpanded(false));
  });
})(window.KatanaInspector);
