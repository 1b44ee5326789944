/* The conflict screens' small helpers. Everything works without this file (plain forms, PRG).

   1. Keep what a player is in the middle of choosing (ticked discards, a lay, an allocation)
      when the main panel refreshes because somebody else moved: forms marked data-keep get
      their user-changed fields back after the swap (the hidden version is the new one).
   2. The discard picker shows "2 of 4" against the chosen knack's limit (R13).
   3. "Recompute in this browser": SHA-256 of salt:order, with the browser's own crypto (R10).
*/
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var dirty = {}; // data-keep -> {name: [values]} for forms the user changed

  function snapshot(form) {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") return;
      if ((el.type === "checkbox" || el.type === "radio")) {
        if (!out[el.name]) out[el.name] = [];
        if (el.checked) out[el.name].push(el.value);
      } else {
        out[el.name] = [el.value];
      }
    });
    return out;
  }

  function restore(form, values) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || !(el.name in values) || el.type === "hidden") return;
      if (el.type === "checkbox" || el.type === "radio") {
        el.checked = values[el.name].indexOf(el.value) !== -1;
      } else if (el.type !== "submit" && el.type !== "button") {
        el.value = values[el.name][0];
      }
    });
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-keep]");
    if (form) dirty[form.dataset.keep] = snapshot(form);
    if (form && form.classList.contains("draw-form")) countPicks(form);
  });

  var submitted = null; // the data-keep of the form just sent
  document.addEventListener("submit", function (event) {
    var form = event.target.closest && event.target.closest("form[data-keep]");
    submitted = form ? form.dataset.keep : null;
  });

  document.addEventListener("htmx:afterSettle", function () {
    // The page's own messages (from the last full load) are stale once the panel moved on.
    var stale = document.querySelector("main > .messages");
    if (stale) stale.remove();
    // A move that went through starts its form fresh; a refused one (the panel shows the
    // alert) keeps the player's choice, ready to send again.
    if (submitted && !document.querySelector("#conflict-main .alert")) delete dirty[submitted];
    submitted = null;
    Object.keys(dirty).forEach(function (keep) {
      var form = document.querySelector('form[data-keep="' + keep + '"]');
      if (form) restore(form, dirty[keep]);
      else delete dirty[keep];
    });
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
