// The "In play now" ribbon (templates/campaigns/_running.html), live on every page: the viewer's
// own stream (data-running-stream) says "changed" when a table of one of their campaigns is set
// up or ends, and the ribbon fetches itself again (htmx: hx-trigger="running-changed"). Only a
// version travels on the stream, never a table.
//
// Only a page that is showing listens: a hidden tab closes its stream (browsers allow a handful
// of connections per site, and the page's own table stream needs one), and looks again the
// moment it is shown. A slow poll is the safety net for a nudge lost on the way.
(function () {
  "use strict";
  var POLL_MS = 60000;
  var source = null;

  function ribbon() {
    return document.getElementById("running-ribbon");
  }

  function refresh() {
    var el = ribbon();
    if (el && window.htmx && el.hasAttribute("hx-get")) window.htmx.trigger(el, "running-changed");
  }

  function open() {
    var el = ribbon();
    var url = el && el.getAttribute("data-running-stream");
    if (source || !url || !window.EventSource) return;
    source = new EventSource(url);
    source.addEventListener("changed", refresh);
    // <html data-running="live"> while the stream is open (the browser tests wait for it).
    source.addEventListener("open", function () {
      document.documentElement.setAttribute("data-running", "live");
    });
    source.addEventListener("error", function () {
      document.documentElement.removeAttribute("data-running");
    });
  }

  function close() {
    if (source) source.close();
    source = null;
    document.documentElement.removeAttribute("data-running");
  }

  function visible() {
    return document.visibilityState !== "hidden";
  }

  document.addEventListener("visibilitychange", function () {
    if (!visible()) {
      close();
      return;
    }
    refresh();
    open();
  });
  // bfcache: a page restored from the back-forward cache had its stream closed.
  window.addEventListener("pageshow", function (e) {
    if (e.persisted && visible()) {
      refresh();
      open();
    }
  });
  window.addEventListener("pagehide", close);
  document.addEventListener("DOMContentLoaded", function () {
    if (visible()) open();
  });
  window.setInterval(function () {
    if (visible()) refresh();
  }, POLL_MS);
})();
