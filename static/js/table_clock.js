/* The table kit's clock in the browser (tables/clock.py): the same instant on every phone.

   TableClock.sync() asks GET /time ten times and keeps the offset of the round trip that was
   shortest (server time minus the midpoint of the local send and receive), so Date.now() +
   offset is the server's clock to within half that trip. Any element with data-clock-at="<ms of
   the server's clock>" then gets the class "is-now" and the attribute data-clock-now at that
   instant (a countdown in its [data-clock-count] child meanwhile), and fires "clock-now" on
   itself: a duel's "Via!" shows on both phones at once, and its buttons come alive. Elements
   added later (a morph, a live update) are scheduled too. window.TableClock.offset() and
   data-clock-local (the local clock when it fired) for tests. */
(function () {
  "use strict";
  var SAMPLES = 10; // round trips: the shortest one's error is at most half of it
  var SPIN = 12; // ms: the last stretch is waited in a loop, not a timer that may fire late
  var offset = 0, best = Infinity, synced = false, waiting = [];
  var url = (document.querySelector("meta[name=table-clock]") || {}).content || "/time";

  function once() {
    var sent = Date.now();
    return fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        var got = Date.now(), trip = got - sent;
        if (trip < best) { best = trip; offset = data.now - (sent + got) / 2; }
      });
  }

  function sync() {
    var p = Promise.resolve();
    for (var i = 0; i < SAMPLES; i++) p = p.then(once).catch(function () {});
    return p.then(function () { synced = true; waiting.forEach(function (f) { f(); }); waiting = []; });
  }

  function now() { return Date.now() + offset; }

  function arm(el) {
    if (el.dataset.clockArmed === el.dataset.clockAt) return;
    el.dataset.clockArmed = el.dataset.clockAt;
    var at = parseInt(el.dataset.clockAt, 10);
    if (isNaN(at)) return;
    var count = el.querySelector("[data-clock-count]");
    function fire() {
      el.classList.add("is-now");
      el.setAttribute("data-clock-now", String(Math.round(now())));
      el.setAttribute("data-clock-local", String(Date.now())); // this machine's clock, for tests
      el.querySelectorAll("button[data-clock-enable]").forEach(function (b) { b.disabled = false; });
      el.dispatchEvent(new CustomEvent("clock-now", { bubbles: true }));
    }
    function tick() {
      var left = at - now();
      if (left <= SPIN) {
        while (at - now() > 0) { /* the last few ms: no timer's lateness */ }
        if (count) count.textContent = "";
        fire();
        return;
      }
      if (count) count.textContent = String(Math.ceil(left / 1000));
      setTimeout(tick, Math.min(left - SPIN, 100));
    }
    var start = function () { tick(); };
    if (synced) start(); else waiting.push(start);
  }

  function scan(root) {
    (root || document).querySelectorAll("[data-clock-at]").forEach(arm);
  }

  window.TableClock = { sync: sync, now: now, offset: function () { return offset; } };
  document.addEventListener("DOMContentLoaded", function () { scan(); sync(); });
  document.addEventListener("htmx:afterSettle", function () { scan(); });
  document.addEventListener("htmx:sseMessage", function () { setTimeout(scan, 0); });
})();
