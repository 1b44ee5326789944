// The fight screens: when the player's own card comes up (the panel carries data-my-turn), the
// tab's title says so and the phone vibrates once, where the browser allows it. Works after
// every swap of the main panel (a move, a live update).
(function () {
  "use strict";
  var base = document.title;
  var was = false;
  function look() {
    var main = document.getElementById("fight-main");
    var mine = !!(main && main.hasAttribute("data-my-turn"));
    document.title = mine ? "\u2605 Your card is up! \u00b7 " + base : base;
    if (mine && !was && navigator.vibrate) {
      try { navigator.vibrate(200); } catch (e) { /* not allowed before a tap: fine */ }
    }
    was = mine;
  }
  document.addEventListener("DOMContentLoaded", look);
  document.addEventListener("htmx:afterSettle", look);
  document.addEventListener("htmx:sseMessage", function () { setTimeout(look, 0); });
})();
