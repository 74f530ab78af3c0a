// A live store's new items: a WebSocket to /api/live that sends the rows after the last one the
// page has, the gaps where the recorder fell behind, and the ends of side effects whose rows the
// page already has (after the end cursor it was given with its rows). When it closes, the page reconnects,
// waiting longer each time (up to 10 s), and picks up after the last row it has. Each batch says
// the oldest item the server still keeps; the page lets go of the rows before it (timeline.js).
(function (K) {
  "use strict";

  const model = K.model;

  let socket = null;
  let retryDelay = 500;
  let retryTimer = 0;

  K.connectLive = function () {
    clearTimeout(retryTimer);
    K.setConnection("connecting", "Connecting…");
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    let ws;
    try {
      ws = new WebSocket(scheme + location.host + K.withToken("/api/live?after=" + model.lastPosition
        + "&ends=" + (model.endCursor || 0)));
    } catch (error) {
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.addEventListener("open", () => {
      if (socket !== ws) return;
      retryDelay = 500;
      K.setConnection("live", "Live");
    });
    ws.addEventListener("message", (event) => {
      if (socket !== ws) return;
      let message;
      try { message = JSON.parse(event.data); } catch (_) { return; }
      if (message.type === "items") {
        // The server keeps items from firstPosition on: the page lets go of the older ones too.
        if (typeof message.firstPosition === "number") K.letGoBefore(message.firstPosition);
        if (typeof message.count === "number") model.total = Math.max(model.total, message.count);
        K.appendRows(Array.isArray(message.rows) ? message.rows : []);
        if (typeof message.count === "number") { model.total = message.count; K.renderSummary(); K.renderCount(); }
      } else if (message.type === "ends") {
        if (Array.isArray(message.ends)) K.applyEnds(message.ends);
        if (typeof message.endCursor === "number") model.endCursor = message.endCursor;
      } else if (message.type === "gap") {
        K.noteGap(message.after, message.dropped);
        K.addNotice(K.fmt(message.dropped) + " items were dropped after #" + message.after + " (the recorder fell behind).");
      }
    });
    ws.addEventListener("close", () => {
      if (socket !== ws) return;
      socket = null;
      scheduleReconnect();
    });
    ws.addEventListener("error", () => { /* a close event follows */ });
  };

  function scheduleReconnect() {
    const seconds = Math.round(retryDelay / 100) / 10;
    K.setConnection("reconnecting", "Disconnected · retrying in " + seconds + " s");
    retryTimer = setTimeout(K.connectLive, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 10000);
  }
})(window.KatanaInspector);
