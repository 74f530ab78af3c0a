// Talking to the server: the token the page was opened with, requests to the API and what their
// failures say, the error banner and notices, and the header (summary and connection state).
(function (K) {
  "use strict";

  const { $, el, fmt, fullTime, shortType } = K;

  // ---- token and API ---------------------------------------------------------------------------

  const token = new URLSearchParams(location.search).get("token");

  K.withToken = function (url) {
    if (!token) return url;
    return url + (url.indexOf("?") >= 0 ? "&" : "?") + "token=" + encodeURIComponent(token);
  };

  class ApiError extends Error {
    constructor(status, message) { super(message); this.status = status; }
  }

  // The JSON the API answers at path; an ApiError (with the HTTP status, 0 when the server could
  // not be reached) that says what went wrong otherwise.
  K.api = async function (path) {
    let response;
    try {
      response = await fetch(K.withToken(path), { cache: "no-store", headers: { Accept: "application/json" } });
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
  };

  // ---- banner and notices ----------------------------------------------------------------------

  let lastErrorAbout = null;    // what a banner message was about, for clearErrorIfAbout

  // Shows message in the banner; about (optional) names what it is about, so that a later success
  // at the same thing can take it away.
  K.showError = function (message, about) {
    $("banner-text").textContent = message;
    $("banner").hidden = false;
    if (about !== undefined) lastErrorAbout = about;
  };

  K.clearError = function () { $("banner").hidden = true; };

  K.clearErrorIfAbout = function (what) {
    if (lastErrorAbout === what) { K.clearError(); lastErrorAbout = null; }
  };

  K.addNotice = function (text) {
    const list = $("notices");
    list.appendChild(el("li", null, text));
    list.hidden = false;
  };

  // ---- header ----------------------------------------------------------------------------------

  K.renderSummary = function () {
    const model = K.model;
    const s = model.summary;
    if (!s) return;
    // A file's name, its full path on hover.
    $("summary-source").textContent = s.source ? s.source.split("/").pop() || s.source : "—";
    $("summary-source").title = s.source || "";
    $("summary-state").textContent = shortType(s.stateType || "—");
    $("summary-state").title = s.stateType || "";
    // Once loaded, the items the page holds (a live server lets the oldest go; so does the page).
    const count = model.loaded ? model.rows.length : model.total;
    $("summary-count").textContent = fmt(count) + (s.statesRecorded === false ? " (states not recorded)" : "");
    $("summary-started").textContent = typeof s.started === "number" ? fullTime(s.started * 1000) : "—";
  };

  K.setConnection = function (state, text) {
    K.model.connection = state;
    $("connection").dataset.state = state;
    $("connection-text").textContent = text;
  };

  K.onStart(function () {
    $("banner-close").addEventListener("click", K.clearError);
  });
})(window.KatanaInspector);
