/* The conflict screens' small helpers. Everything works without this file (plain forms, PRG).

   1. The discard picker shows "2 of 4" against the chosen knack's limit (R13), also after the
      panel was morphed (a move, a live update). What the player ticked or typed stays through
      those morphs by itself (static/js/moves.js).
   2. "Recompute in this browser": SHA-256 of salt:order, with the browser's own crypto (R10).
*/
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form.draw-form");
    if (form) countPicks(form);
  });

  document.addEventListener("htmx:afterSettle", function () {
    // The page's own messages (from the last full load) are stale once the panel moved on.
    var stale = document.querySelector("main > .messages");
    if (stale) stale.remove();
    document.querySelectorAll("form.draw-form").forEach(countPicks);
  });

  function countPicks(form) {
    var out = form.querySelector("[data-pick-count]");
    var allowed = form.querySelector("[data-limit]");  // R13: the approved knack, R17's Devil
    if (!out || !allowed) return;
    var limit = Number(allowed.dataset.limit || 0);
    var chip = form.querySelector("input[name=extra_chip]");
    if (chip && chip.checked) limit += 1;
    var picked = form.querySelectorAll("input[name=discards]:checked").length;
    out.hidden = false;
    out.textContent = picked + " of " + limit + " discards chosen";
    out.classList.toggle("pick__count--over", picked > limit);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form.draw-form").forEach(countPicks);
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-verify]");
    if (!button) return;
    var box = button.closest("[data-audit]");
    var result = box.querySelector("[data-verify-result]");
    if (!window.crypto || !window.crypto.subtle) {
      result.textContent = "This browser can't hash here (it needs HTTPS); use the command line.";
      return;
    }
    var salt = box.querySelector("[data-salt]").textContent.trim();
    var order = box.querySelector("[data-deck-order]").textContent.trim();
    var expected = box.querySelector("[data-commitment]").textContent.trim();
    var bytes = new TextEncoder().encode(salt + ":" + order);
    window.crypto.subtle.digest("SHA-256", bytes).then(function (digest) {
      var hex = Array.prototype.map.call(new Uint8Array(digest), function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
      result.textContent = hex === expected ? "✓ matches: " + hex : "✗ got " + hex;
    });
  });
})();
