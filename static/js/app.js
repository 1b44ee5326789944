// Small behaviours every page may use, bound by data attributes: the Content-Security-Policy
// allows no inline script and no on*= handler in the templates (settings.py, tests/test_csp.py).
//
//   data-select-on-focus      an input whose text is selected when it gets the focus
//   data-copy-from="<id>"     a (hidden) button that copies the value of #<id>; shown only
//                             where the browser can copy
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

  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element && event.target.closest("[data-copy-from]");
    if (!button || !navigator.clipboard) return;
    var source = document.getElementById(button.getAttribute("data-copy-from"));
    if (!source) return;
    navigator.clipboard.writeText(source.value).then(function () {
      button.textContent = "Copied";
    });
  });

  document.addEventListener("DOMContentLoaded", function () { showCopyButtons(document); });
  // The invitations panel is swapped in by htmx.
  document.addEventListener("htmx:load", function (event) { showCopyButtons(event.target); });
})();
