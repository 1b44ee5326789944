// Character sheets: a few lines of progressive enhancement. Without JavaScript the form shows
// blank knack rows and every button still works; with it, knack rows can be added and removed
// (the live tally re-checks) and the sheet gets a Print button.
(function () {
  "use strict";

  function recheck(form) {
    form.dispatchEvent(new CustomEvent("knacks-changed", { bubbles: true }));
  }

  function reveal(root) {
    root.querySelectorAll("[data-knack-add], [data-knack-remove], [data-print]").forEach(function (el) {
      el.hidden = false;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    reveal(document);
  });

  document.addEventListener("click", function (event) {
    var target = event.target.closest("[data-knack-add], [data-knack-remove], [data-print]");
    if (!target) return;
    if (target.hasAttribute("data-print")) {
      window.print();
      return;
    }
    var form = target.closest("form");
    if (target.hasAttribute("data-knack-add")) {
      var template = document.getElementById("knack-row-template");
      var row = template.content.firstElementChild.cloneNode(true);
      reveal(row);
      document.getElementById("knack-rows").appendChild(row);
      row.querySelector("input").focus();
    } else {
      target.closest(".knack-row").remove();
    }
    recheck(form);
  });
})();
