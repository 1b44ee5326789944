/* The table kit in the browser (issue 26), for every game's main panel (#conflict-main,
   #fight-main, #saloon-main, #gunfighter-main). Everything works without this file: plain
   forms, post/redirect/get.

   The panels are morphed in place by idiomorph (vendor/idiomorph-ext-0.8.0.min.js; hx-ext="morph"
   on the live wrapper): the answer to a move (HX-Reswap: morph:outerHTML, tables/views.py) and
   every live update (sse-swap with morph:innerHTML, or the safety-net poll) patch only what
   changed, so the elements stay, and with them the scroll position and the focus. On top of it:

   1. What the player chose stays. A field the player changed (a ticked card, a typed total, a
      picked option, a text) keeps its value through every morph — a live update, the answer to
      a refused move — as long as it is the same field of the same form: same move (the form's
      action), same hand or seat (its pid or cid), same name and, for a checkbox or a radio,
      the same value (the same card). A move that went through starts its own form afresh. A
      <details> the player opened or closed stays so.
   2. A refused move says why next to its form: the panel's message ([data-move-error]) is moved
      just above the form, stays there through live updates while the form is on the screen,
      and is brought into view with the form (the player's choices are still in it).
   3. After a move that went through, the mover's own part of the panel is brought into view:
      the nearest part of the page around the form they sent that is still there (their hand,
      their line, "Your move"), scrolling no more than needed. Live updates never scroll.

   4. An answer older than the panel (another player's move came live first) never turns it
      back.

   The answer says which panel it is and whether the move was refused in its HX-Trigger header
   (event "move-answered", tables/views.py). */
(function () {
  "use strict";
  if (!window.Idiomorph || !window.htmx) return;

  // A game's main panel: the three first games' ids, or any panel marked data-table-panel.
  var PANEL = "#conflict-main, #fight-main, #saloon-main, [data-table-panel]";
  var chosen = new WeakMap(); // a field the player changed -> which field it was then
  var toggled = new WeakSet(); // a <details> the player opened or closed
  var chains = new WeakMap(); // a form sent -> it and its ancestors up to the panel
  var pending = null; // the answer being swapped: {xhr, form, chain, panel, refused}
  var reasonFor = null; // the form a refusal's reason stands above

  function isField(el) {
    return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ||
      el instanceof HTMLSelectElement;
  }

  // Which field this is, across renders: the move, the hand or seat, the name, the card.
  function sameness(field) {
    var form = field.form;
    var scope = form ? form.querySelector("input[name=pid], input[name=cid]") : null;
    var check = field.type === "checkbox" || field.type === "radio";
    return [
      form ? form.getAttribute("action") : "", scope ? scope.value : "", field.name,
      check ? field.getAttribute("value") : ""
    ].join("\n");
  }

  function remember(event) {
    var field = event.target;
    if (!isField(field) || field.type === "hidden" || !field.name || !field.closest(PANEL)) return;
    var group = [field];
    if (field.type === "radio" && field.form) { // picking one radio unpicks the others
      group = Array.prototype.filter.call(field.form.elements, function (el) {
        return el.type === "radio" && el.name === field.name;
      });
    }
    group.forEach(function (el) { chosen.set(el, sameness(el)); });
  }
  document.addEventListener("input", remember, true);
  document.addEventListener("change", remember, true);
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("summary");
    var details = summary && summary.parentElement;
    if (details && details.tagName === "DETAILS" && details.closest(PANEL)) toggled.add(details);
  });

  // Does the morph keep the page's value of this attribute (what the player chose)?
  function keeps(attribute, el) {
    if (attribute === "open") return el.tagName === "DETAILS" && toggled.has(el);
    if (attribute !== "checked" && attribute !== "value" && attribute !== "selected") return false;
    var field = el.tagName === "OPTION" ? el.closest("select") : el;
    if (!field || !chosen.has(field)) return false;
    var check = field.type === "checkbox" || field.type === "radio";
    if (chosen.get(field) !== sameness(field) || (attribute === "value" && check)) {
      chosen.delete(field); // another field (another card) in this place now
      return false;
    }
    return true;
  }

  var callbacks = Idiomorph.defaults.callbacks;
  callbacks.beforeAttributeUpdated = function (attribute, el) {
    if (keeps(attribute, el)) return false;
  };
  callbacks.beforeNodeRemoved = function (node) {
    if (node.id === "move-error" && reasonFor && reasonFor.isConnected) return false;
  };

  // A form with a field named "attributes" (the conflict's Deal: two attributes) hides its own
  // attribute list behind that field — form.attributes IS the field — and idiomorph reads that
  // list. Such a form is morphed here instead: its attributes one by one, then its content by a
  // morph of its own (with the same callbacks: the player's choices stay).
  function hidden(el) {
    return el.nodeType === 1 && !(el.attributes instanceof NamedNodeMap);
  }
  callbacks.beforeNodeMorphed = function (old, now) {
    if (!hidden(old) && !hidden(now)) return;
    var element = Element.prototype;
    var names = element.getAttributeNames.call(now);
    element.getAttributeNames.call(old).forEach(function (name) {
      if (names.indexOf(name) === -1) element.removeAttribute.call(old, name);
    });
    names.forEach(function (name) {
      var value = element.getAttribute.call(now, name);
      if (element.getAttribute.call(old, name) !== value) element.setAttribute.call(old, name, value);
    });
    Idiomorph.morph(old, Array.prototype.slice.call(now.childNodes), { morphStyle: "innerHTML" });
    return false;
  };

  // --- The answer to a move -------------------------------------------------------------------

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!(form instanceof HTMLFormElement) || !form.closest(PANEL)) return;
    var chain = [];
    for (var el = form; el && !el.matches(PANEL); el = el.parentElement) chain.push(el);
    chains.set(form, chain);
  });

  function answered(xhr) {
    var header = xhr && xhr.getResponseHeader("HX-Trigger");
    if (!header || header.indexOf("move-answered") === -1) return null;
    try {
      return JSON.parse(header)["move-answered"] || null;
    } catch (e) {
      return null;
    }
  }

  function dropReason() {
    var old = document.getElementById("move-error");
    if (old) old.remove();
    reasonFor = null;
  }

  // The table's version an answer was rendered at (its panel's data-version), or NaN.
  function versionOf(html) {
    var match = /data-version="(\d+)"/.exec(html || "");
    return match ? parseInt(match[1], 10) : NaN;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var said = answered(event.detail.xhr);
    var form = event.detail.requestConfig && event.detail.requestConfig.elt; // what was sent
    if (!said || !(form instanceof HTMLFormElement)) return;
    if (!said.refused) {
      Array.prototype.forEach.call(form.elements, function (el) { chosen.delete(el); });
    }
    // 4. An answer never turns the panel back: when the live update of a later move (another
    //    player's, at once) came first, the panel is newer than the answer. A move that went
    //    through is then already on it; a refusal still says why, and the panel asks for the
    //    table as it is now (the safety-net poll's version endpoint).
    var shown = document.getElementById(said.panel);
    var have = shown ? parseInt(shown.getAttribute("data-version"), 10) : NaN;
    var older = versionOf(event.detail.xhr.responseText) < have;
    if (older && !said.refused) {
      event.detail.shouldSwap = false;
      return;
    }
    dropReason(); // this answer brings its own message
    if (older) catchUpAfter = event.detail.xhr;
    pending = {
      xhr: event.detail.xhr, form: form, chain: chains.get(form) || [form],
      panel: said.panel, refused: !!said.refused
    };
  });

  var catchUpAfter = null; // the refusal, older than the panel it replaced: then catch up

  document.addEventListener("htmx:afterSettle", function (event) {
    if (reasonFor && !reasonFor.isConnected) dropReason(); // its form is gone: so is the reason
    if (catchUpAfter && event.detail.xhr === catchUpAfter) {
      catchUpAfter = null;
      var poll = document.querySelector(PANEL.split(", ").map(function (p) {
        return p + " .poll[hx-get]";
      }).join(", "));
      if (poll) htmx.ajax("GET", poll.getAttribute("hx-get"), { source: poll, swap: "none" });
    }
    if (!pending || event.detail.xhr !== pending.xhr) return;
    var done = pending;
    pending = null;
    var panel = document.getElementById(done.panel);
    if (!panel) return;
    if (done.refused) showReason(panel, done.form);
    else keepInView(panel, spotOf(panel, done.chain));
  });

  function showReason(panel, form) {
    var reason = panel.querySelector("[data-move-error]");
    if (!reason) return;
    if (form.isConnected && panel.contains(form) && !stuck(panel, form)) {
      reason.id = "move-error"; // an id of its own: a morph never turns it into another line
      form.parentNode.insertBefore(reason, form);
      reasonFor = form;
      keepInView(panel, reason, form);
    } else {
      keepInView(panel, reason);
    }
  }

  // The nearest of the sent form and its ancestors still on the screen.
  function spotOf(panel, chain) {
    for (var i = 0; i < chain.length; i++) {
      var el = chain[i];
      if (el.isConnected && panel.contains(el) && el.getClientRects().length) return el;
    }
    return null;
  }

  // Scroll no more than needed for first..last to be on the screen (below anything stuck to
  // the top of the panel, such as the saloon's Unwanted card); when it is taller than the
  // screen, its top goes to the top.
  function keepInView(panel, first, last) {
    if (!first || stuck(panel, first)) return; // what is stuck to the screen is on it
    var top = first.getBoundingClientRect().top;
    var bottom = (last || first).getBoundingClientRect().bottom;
    var margin = 8;
    var inset = stuckHeight(panel) + margin;
    var room = window.innerHeight - margin;
    var by = 0;
    if (top < inset || bottom - top > room - inset) by = top - inset;
    else if (bottom > room) by = bottom - room;
    if (by) window.scrollBy({ top: by, left: 0, behavior: "instant" });
  }

  // The panel's parts that stick to the top of the screen (the saloon's Unwanted card).
  function stickers(panel) {
    return Array.prototype.filter.call(panel.children, function (child) {
      var position = window.getComputedStyle(child).position;
      return position === "sticky" || position === "fixed";
    });
  }

  function stuck(panel, el) {
    return stickers(panel).some(function (sticker) { return sticker.contains(el); });
  }

  function stuckHeight(panel) {
    return stickers(panel).reduce(function (height, sticker) {
      var top = parseFloat(window.getComputedStyle(sticker).top) || 0;
      return Math.max(height, sticker.offsetHeight + top);
    }, 0);
  }
})();
