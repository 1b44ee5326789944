/* A seat at the live table (issue 18). Everything works without this file: the page says
   "Now: …" at the top, and a finished hand that was dealt again shows a big link to the next.

   1. "Your turn" is noticeable when the phone is in a pocket or another tab: when a live
      update marks the main panel data-my-turn="1" (the server decides, selectors/steps.py),
      the page title changes, the phone vibrates briefly where the browser allows
      (navigator.vibrate), and, if the player opted in with the button, a browser
      notification says what to do.
   2. Nobody stranded: when a live update of a finished hand carries data-next-hand (the
      Dealer dealt again), the page goes to the next hand. A page opened on an old hand that
      already had its next one stays put: the link is there.
*/
(function () {
  "use strict";
  var baseTitle = document.title;
  var wasTurn = null; // null until the first look at the panel
  var nextAtLoad = null;

  function panel() { return document.getElementById("conflict-main"); }

  function nudge(text) {
    if (navigator.vibrate) {
      try { navigator.vibrate([120, 60, 120]); } catch (e) { /* not allowed here */ }
    }
    if (window.Notification && Notification.permission === "granted" && document.hidden) {
      try {
        new Notification("Your turn", { body: text || "", tag: "dust-devils-turn" });
      } catch (e) { /* some phones only notify from a service worker: the title still says it */ }
    }
  }

  function look(fromUpdate) {
    var p = panel();
    if (!p) return;
    var next = p.getAttribute("data-next-hand");
    if (nextAtLoad === null) nextAtLoad = next || "";
    if (fromUpdate && next && !nextAtLoad) {
      window.location.assign(next); // the fight goes on: take this screen along
      return;
    }
    var mine = p.getAttribute("data-my-turn") === "1";
    document.title = mine ? "\u25B6 Your turn \u00B7 " + baseTitle : baseTitle;
    if (mine && wasTurn === false && fromUpdate) nudge(p.getAttribute("data-turn-text"));
    wasTurn = mine;
  }

  function showNotifyButton() {
    var button = document.querySelector("[data-notify]");
    var note = document.querySelector("[data-notify-state]");
    if (!button || !window.Notification) return;
    var permission = Notification.permission;
    button.hidden = permission !== "default";
    if (note) {
      note.hidden = permission === "default";
      note.textContent = permission === "granted"
        ? "You'll get a notification when it's your turn."
        : "Notifications are blocked in this browser: the tab's title still says when it's your turn.";
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-notify]");
    if (!button || !window.Notification) return;
    var asked = Notification.requestPermission(showNotifyButton);
    if (asked && asked.then) asked.then(showNotifyButton);
  });

  document.addEventListener("DOMContentLoaded", function () {
    look(false);
    showNotifyButton();
  });
  // A live update (SSE or the poll) or the answer to a move swapped the panel.
  document.addEventListener("htmx:afterSettle", function () { look(true); });
})();
