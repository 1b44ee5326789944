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
    // The words in the page's language, from the pill's own attributes (issue 39).
    pill.textContent = state === "live"
      ? pill.getAttribute("data-word-live") || "live"
      : pill.getAttribute("data-word-reconnecting") || "reconnecting…";
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
  // What changed, said politely (issue 36 #5): when a swap brings new lines to the timeline
  // this viewer sees, the live wrapper's polite region ([data-news]) says those lines alone (the
  // last three at most), not the whole panel. Read from the page itself, so it never says what
  // the viewer could not read; cards by their names in words, not their glyphs.
  function words(line) {
    var copy = line.cloneNode(true);
    copy.querySelectorAll("[data-card][aria-label]").forEach(function (card) {
      card.replaceWith(card.getAttribute("aria-label"));
    });
    copy.querySelectorAll("[aria-hidden='true'], time, form, button, small, .muted, .timeline__who")
      .forEach(function (extra) { extra.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }
  function lines(root) {  // newest first
    var list = root.querySelector("[data-timeline]");
    if (!list) return [];
    var items = Array.prototype.slice.call(list.querySelectorAll(":scope > li:not(.muted)"));
    if (list.dataset.timeline === "oldest-first") items.reverse();
    return items.map(words);
  }
  function fresh(now, before) {  // the lines of ``now`` above where ``before`` begins
    for (var i = 0; i < now.length; i++) {
      var m = Math.min(3, before.length, now.length - i), same = m > 0;
      for (var j = 0; same && j < m; j++) same = now[i + j] === before[j];
      if (same) return now.slice(0, i);
    }
    return now;
  }
  function announce(root) {
    var region = root.querySelector("[data-news]");
    if (!region) return;
    var now = lines(root), before = region.seenLines;
    region.seenLines = now;
    if (!before) return;  // the page as it opened: nothing changed yet
    var said = fresh(now, before).slice(0, 3).reverse();
    if (said.length) region.textContent = said.join(" ");
  }
  function announceAll() {
    document.querySelectorAll("[data-live]").forEach(announce);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", announceAll);
  } else {
    announceAll();
  }
  document.addEventListener("htmx:afterSettle", function (e) {
    var root = e.target.closest ? e.target.closest("[data-live]") : null;
    if (root) announce(root);
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
