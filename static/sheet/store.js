/* The table page's state (sheet/views.py): what the desk last said of the table (`server`,
   the start-up data, then each state.json and each answer to a change), and what waits on this
   device: each change with its own id in localStorage, so a reload, or a visit after the
   network came back, sends what an earlier visit left waiting. The sheet as this device sees
   it is the desk's hands with the waiting changes on top (`hands`). */
(function (Sheet) {
  "use strict";
  var B = JSON.parse(document.getElementById("boot").textContent);
  var L = B.labels, RULES = B.rules;
  var WINDS = ["E", "S", "W", "N"];
  var KEY = "sheet:" + location.pathname;
  var stored = load();
  var S = {
    server: B.state,
    fetched: Date.now(),
    queue: (stored.queue || []).filter(function (q) { return !q.refused; }),
    // changes the desk refused (400, 409 without a conflict, 4xx): set aside with the desk's
    // words until a player discards them; the changes behind them went on (issue 34)
    parked: (stored.parked || []).concat((stored.queue || []).filter(function (q) { return q.refused; })),
    device: stored.device || "",
    blocked: "", // the desk refused the page itself (403): only a reload helps
    failing: false, // the desk answered 5xx: retried, like a network failure
    online: true,
    sending: false,
    entry: null,
    editing: null, // {number, version} of a hand being corrected
    problem: ""
  };

  var LANG = document.documentElement.lang || undefined;

  // --- the device's memory ------------------------------------------------------------------
  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch (e) { return {}; }
  }
  function save() {
    try {
      localStorage.setItem(KEY, JSON.stringify({queue: S.queue, parked: S.parked, device: S.device}));
    } catch (e) { /* private mode: the queue lives as long as the page */ }
  }
  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  // --- the table's seats --------------------------------------------------------------------
  function winds() { return S.server.seats.map(function (s) { return s.wind; }); }
  function drawn() { // the winds drawn at the table, while they wait on this device
    var q = S.queue.filter(function (x) { return x.kind === "winds"; })[0];
    return S.server.winds_pending && q ? q.winds : null;
  }
  function name(w) {
    var d = drawn(), s;
    if (d) s = S.server.seats.filter(function (x) { return String(x.player) === String(d[w]); })[0];
    else s = S.server.seats.filter(function (x) { return x.wind === w; })[0];
    return s ? s.name : w;
  }
  function pendingWinds() { return S.server.winds_pending && !drawn(); }
  // The table's players by name, in the page's language: the order the page lists them in
  // while the winds are still to be drawn (the desk's seat order would read as winds; issue 37)
  function byName() {
    return S.server.seats.slice().sort(function (a, b) { return a.name.localeCompare(b.name, LANG); });
  }
  // The device's seat: a wind, or, chosen before the winds' draw, a player ("p" and their id)
  // whose wind the draw gives; "" while it is still to be drawn (issue 37).
  function seatOf(device) {
    device = String(device || "");
    if (device.charAt(0) !== "p") return device;
    var pk = device.slice(1), d = drawn();
    if (d) return winds().filter(function (w) { return String(d[w]) === pk; })[0] || "";
    if (S.server.winds_pending) return "";
    var s = S.server.seats.filter(function (x) { return String(x.player) === pk; })[0];
    return s ? s.wind : "";
  }
  function ordered(list) { return WINDS.filter(function (w) { return list.indexOf(w) >= 0; }); }
  function toggle(list, w) {
    var i = list.indexOf(w);
    if (i >= 0) list.splice(i, 1); else list.push(w);
  }

  // --- the sheet as this device sees it: the desk's hands and what waits here ---------------
  function hands() {
    var out = S.server.hands.map(function (h) {
      return {number: h.number, version: h.version, data: h.data, confirmed: h.confirmed.slice(),
        at: h.at, waiting: false};
    });
    S.queue.forEach(function (q) {
      var h = out[q.number - 1];
      if (q.kind === "record") {
        out.push({number: out.length + 1, version: 1, data: q.data, confirmed: [], at: q.at, waiting: true, id: q.id});
      } else if (q.kind === "correct" && h) {
        h.data = q.data; h.confirmed = []; h.waiting = true; h.id = q.id;
      } else if (q.kind === "undo") {
        out.pop();
      } else if (q.kind === "confirm" && h && h.confirmed.indexOf(q.wind) < 0) {
        h.confirmed.push(q.wind); h.waitConfirm = true;
      }
    });
    return out;
  }
  // the hands some seat has not confirmed yet (002 §2.5.8 (4): a hand is final once every
  // player has confirmed it); none once the desk has locked the table
  function unconfirmed(list) {
    if (S.server.locked) return [];
    return list.filter(function (h) {
      return !winds().every(function (w) { return h.confirmed.indexOf(w) >= 0; });
    });
  }
  function played(list, extra) {
    var data = list.map(function (h) { return h.data; });
    if (extra) data.push(extra);
    return SheetScore.play(RULES, data, winds());
  }

  // --- the clock's last hand (000 §5.8, 002 §2.4.4) -----------------------------------------
  function lastHand(list) {
    if (S.server.last_hand) return S.server.last_hand;
    var c = S.server.clock;
    if (!c || c.remaining === null || c.remaining === undefined || c.state === "paused") return null;
    var one = S.server.end_rule === "one_more_hand";
    var threshold = one ? c.warning_at : 0;
    var moment = S.fetched + (c.remaining - threshold) * 1000;
    if (Date.now() < moment) return null;
    var before = list.filter(function (h) { return h.at <= moment; }).length;
    return before + (one ? 2 : 1);
  }

  Sheet.store = {B: B, L: L, RULES: RULES, WINDS: WINDS, LANG: LANG, S: S, save: save, uuid: uuid,
    winds: winds, name: name, pendingWinds: pendingWinds, ordered: ordered, toggle: toggle,
    byName: byName, seatOf: seatOf,
    hands: hands, played: played, lastHand: lastHand, unconfirmed: unconfirmed};
})(window.Sheet = window.Sheet || {});
