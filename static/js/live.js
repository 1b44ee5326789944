// The live pill on the conflict screens: "live" while the SSE stream is open and Redis delivers,
// "reconnecting…" while the browser reconnects or the server falls back to polling (its
// `status` event). The panel itself is swapped by htmx's SSE extension (sse-swap).
(function () {
  "use strict";
  function show(source, state) {
    var root = source && source.closest ? source.closest("[data-live]") : null;
    var pill = root ? root.querySelector("[data-live-status]") : null;
    if (!pill) return;
    pill.hidden = false;
    pill.dataset.state = state;
    pill.textContent = state === "live" ? "live" : "reconnecting…";
  }
  // A panel already at (or past) the event's version keeps what it shows: after your own move
  // the answer to your POST (with its message) is that version already, and a reconnect's
  // snapshot of an unchanged table would only reset the forms and the scroll.
  document.addEventListener("htmx:sseBeforeMessage", function (e) {
    var message = e.detail;
    if (!message || (message.type !== "update" && message.type !== "snapshot")) return;
    var panel = e.target.querySelector ? e.target.querySelector("[data-version]") : null;
    var have = panel ? parseInt(panel.getAttribute("data-version"), 10) : NaN;
    var got = parseInt(message.lastEventId, 10);
    if (!isNaN(have) && !isNaN(got) && got <= have) e.preventDefault();
  });
  document.addEventListener("htmx:sseOpen", function (e) { show(e.target, "live"); });
  document.addEventListener("htmx:sseError", function (e) { show(e.target, "reconnecting"); });
  document.addEventListener("htmx:sseMessage", function (e) {
    var message = e.detail;
    if (message && message.type === "status") {
      show(e.target, message.data === "live" ? "live" : "reconnecting");
    }
  });
})();
