// Small behaviours every page may use, bound by data attributes: the Content-Security-Policy
// allows no inline script and no on*= handler in the templates (settings.py, tests/test_csp.py).
//
//   data-select-on-focus      an input whose text is selected when it gets the focus
//   data-copy-from="<id>"     a (hidden) button that copies the value of #<id>; shown only
//                             where the browser can copy
//   data-submit-on-change     a select whose form is sent as soon as it changes (the language
//                             picker; its button stays for a browser without script)
// and a failed live stream logged in words.
(function () {
  "use strict";

  function showCopyButtons(root) {
    if (!navigator.clipboard) return;
    root.querySelectorAll("[data-copy-from]").forEach(function (button) {
      button.hidden = false;
    });
  }

  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (target instanceof HTMLInputElement && target.hasAttribute("data-select-on-focus")) {
      target.select();
    }
  });

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target instanceof HTMLSelectElement && target.hasAttribute("data-submit-on-change")) {
      target.form.requestSubmit();
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element && event.target.closest("[data-copy-from]");
    if (!button || !navigator.clipboard) return;
    var source = document.getElementById(button.getAttribute("data-copy-from"));
    if (!source) return;
    navigator.clipboard.writeText(source.value).then(function () {
      button.textContent = "Copied";
    });
  });

  // A live stream that fails (issue 36): htmx's SSE extension hands the browser's bare error
  // Event to htmx, which logs it as "[object Event]". Each stream's error handler gets an Error
  // in words instead (which stream, and that it reconnects); the extension does the rest as
  // before (htmx:sseError, the reconnection). htmx.createEventSource is htmx's own hook.
  if (window.htmx && typeof htmx.createEventSource === "function") {
    var open = htmx.createEventSource;
    htmx.createEventSource = function (url) {
      var source = open(url);
      var handler = null;
      source.addEventListener("error", function (event) {
        if (!handler) return;
        var closed = source.readyState === EventSource.CLOSED;
        var error = new Error("The live updates from " + url + (closed
          ? " stopped: reconnecting in a moment."
          : " were interrupted: reconnecting."));
        error.event = event;
        handler.call(source, error);
      });
      Object.defineProperty(source, "onerror", {
        configurable: true,
        get: function () { return handler; },
        set: function (fn) { handler = typeof fn === "function" ? fn : null; }
      });
      return source;
    };
  }

  document.addEventListener("DOMContentLoaded", function () { showCopyButtons(document); });
  // The invitations panel is swapped in by htmx.
  document.addEventListener("htmx:load", function (event) { showCopyButtons(event.target); });
})();
