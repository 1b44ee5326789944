/* The replay's slider: moving it goes to that step (without JavaScript the form's "Go" button
   does the same). The arrow keys step back and forth. */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-replay-slider]");
    if (form) form.submit();
  });
  document.addEventListener("keydown", function (event) {
    if (event.target && /INPUT|TEXTAREA|SELECT/.test(event.target.tagName)) return;
    var link = null;
    if (event.key === "ArrowLeft") link = document.querySelector("[data-replay-prev]");
    if (event.key === "ArrowRight") link = document.querySelector("[data-replay-next]");
    if (link) window.location.assign(link.href);
  });
})();
