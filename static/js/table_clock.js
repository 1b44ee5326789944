// The table clock (tables/clock.py): every phone at a table fires the same edges at the same
// instant on the SERVER's clock. The offset of this phone's clock from the server's is estimated
// from a few round trips to GET /clock/ (server epoch ms), keeping the sample with the lowest
// round trip (its error is at most half that round trip). Each edge is scheduled with setTimeout
// until just before it, then a MessageChannel spin (no 4 ms clamp, not throttled) to the
// millisecond. At each edge: a WebAudio beep, a vibration, the event "table-clock:edge" on the
// document, and a record in window.tableClock.fired (for the browser tests).
(function () {
  "use strict";
  var state = window.tableClock = window.tableClock || { fired: [], offset: null, rtt: null };
  var best = null;
  var syncing = null;
  var clocks = {};
  var audio = null;
  var ticker = null;

  function clientNow() { return performance.timeOrigin + performance.now(); }
  function serverNow() { return clientNow() + (best ? best.offset : 0); }

  function sample(url) {
    var t0 = clientNow();
    // No cookie: the server answers without reading a session, so the way there is as short
    // as the way back (the estimate's error is their difference, halved).
    return fetch(url, { cache: "no-store", credentials: "omit" })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        var t1 = clientNow();
        var rtt = t1 - t0;
        var offset = data.now + rtt / 2 - t1;
        if (!best || rtt < best.rtt) { best = { rtt: rtt, offset: offset }; }
        state.offset = best.offset;
        state.rtt = best.rtt;
      });
  }

  function sync(url, rounds) {
    var chain = syncing || Promise.resolve();
    for (var i = 0; i < rounds; i++) {
      chain = chain.then(function () { return sample(url); }).catch(function () {});
    }
    syncing = chain;
    return chain;
  }

  var channel = new MessageChannel();
  var spinning = [];
  channel.port1.onmessage = function () {
    var now = clientNow();
    var waiting = spinning;
    spinning = [];
    waiting.forEach(function (job) {
      if (now >= job.target) { job.fn(); } else { spinning.push(job); }
    });
    if (spinning.length) channel.port2.postMessage(0);
  };

  // ``serverAt`` on the server's clock: the offset is read again at each hop, so a better
  // sample taken meanwhile (the lead before a clock starts) still counts.
  function at(serverAt, fn) {
    var wait = serverAt - serverNow() - 60;
    if (wait > 0) { setTimeout(function () { at(serverAt, fn); }, Math.min(wait, 250)); return; }
    spinning.push({ target: serverAt - (best ? best.offset : 0), fn: fn });
    if (spinning.length === 1) channel.port2.postMessage(0);
  }

  function unlock() {
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!audio && Ctx) audio = new Ctx();
      if (audio && audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }

  function beep(last) {
    try {
      unlock();
      if (audio) {
        var osc = audio.createOscillator();
        var gain = audio.createGain();
        osc.frequency.value = last ? 660 : 880;
        gain.gain.value = 0.25;
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start();
        osc.stop(audio.currentTime + (last ? 0.5 : 0.18));
      }
    } catch (e) { /* no sound on this phone: the screen and the vibration still say it */ }
    if (navigator.vibrate) {
      try { navigator.vibrate(last ? [300, 100, 300] : 200); } catch (e) { /* none */ }
    }
  }

  function parse(el) {
    return {
      start: parseInt(el.getAttribute("data-clock-start"), 10),
      edges: (el.getAttribute("data-clock-edges") || "0").split(",").map(Number),
      labels: (el.getAttribute("data-clock-labels") || "").split("|"),
    };
  }

  function fire(start, index, edges) {
    var clock = clocks[start];
    if (!clock || clock.fired[index]) return;
    clock.fired[index] = true;
    var when = clientNow();
    state.fired.push({ start: start, edge: index, at: when, server: when + (best ? best.offset : 0) });
    beep(index === edges.length - 1);
    document.dispatchEvent(new CustomEvent("table-clock:edge", {
      detail: { start: start, edge: index, last: index === edges.length - 1 },
    }));
    paint();
  }

  function schedule(el) {
    var c = parse(el);
    if (isNaN(c.start) || clocks[c.start]) return;
    clocks[c.start] = { fired: {}, edges: c.edges };
    var url = el.getAttribute("data-clock-url") || "/clock/";
    // A few more samples now (a better one may come), but never wait long for them.
    var ready = best ? Promise.resolve() : sync(url, 5);
    if (best) {  // the lead before the clock starts: a few more samples, spaced out
      for (var k = 1; k <= 6; k++) setTimeout(function () { sync(url, 1); }, k * 120);
    }
    ready.then(function () {
      var now = serverNow();
      c.edges.forEach(function (edge, i) {
        var serverAt = c.start + edge;
        if (serverAt < now - 250) { clocks[c.start].fired[i] = "missed"; return; }
        at(serverAt, function () { fire(c.start, i, c.edges); });
      });
    });
    if (!ticker) ticker = setInterval(paint, 100);
  }

  function paint() {
    var now = serverNow();
    var active = false;
    document.querySelectorAll("[data-table-clock]").forEach(function (el) {
      var c = parse(el);
      var since = now - c.start;
      var passed = c.edges.filter(function (e) { return since >= e; }).length;
      el.setAttribute("data-clock-phase", String(passed));
      var label = el.querySelector("[data-clock-label]");
      var count = el.querySelector("[data-clock-count]");
      if (label) label.textContent = c.labels[passed] || "";
      if (count) {
        count.textContent = passed < c.edges.length
          ? String(Math.max(0, Math.ceil((c.edges[passed] - since) / 1000)))
          : "0";
      }
      if (passed < c.edges.length) active = true;
      else {
        document.querySelectorAll('[data-clock-reveal="' + c.start + '"]').forEach(function (x) {
          x.hidden = false;
        });
      }
    });
    if (!active && ticker) { clearInterval(ticker); ticker = null; }
  }

  function scan() {
    var marker = document.querySelector("[data-clock-sync]");
    if (marker && !best && !syncing) sync(marker.getAttribute("data-clock-sync"), 10);
    document.querySelectorAll("[data-table-clock]").forEach(schedule);
    if (document.querySelector("[data-table-clock]") && !ticker) ticker = setInterval(paint, 100);
  }

  document.addEventListener("pointerdown", unlock, { passive: true });
  document.addEventListener("keydown", unlock);
  document.addEventListener("htmx:afterSettle", scan);
  document.addEventListener("htmx:sseMessage", function () { setTimeout(scan, 0); });
  new MutationObserver(function () { scan(); }).observe(document.documentElement, {
    childList: true, subtree: true,
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
