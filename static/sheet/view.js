/* The table page (sheet/views.py): the table's own score sheet, riichi and Sichuan.
   One self-contained document: everything it needs came with it, so it keeps recording while
   the hall's Wi-Fi is gone. Each change waits on the device (localStorage) with its own id and
   goes up in order when the network is back; the desk records a resent change once. The
   arithmetic is SheetScore (score.js), the browser's copy of scoring/hands, proved equal to it
   by tests/e2e/test_score_js.py; the desk checks every hand again. */
(function () {
  "use strict";
  var B = JSON.parse(document.getElementById("boot").textContent);
  var L = B.labels, RULES = B.rules, GAME = B.state.game;
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

  // --- small helpers ------------------------------------------------------------------------
  function el(tag, attrs) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), v);
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (var i = 2; i < arguments.length; i++) add(node, arguments[i]);
    return node;
  }
  function add(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { add(node, c); }); return; }
    node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
  function fill(id) {
    var node = document.getElementById(id);
    node.textContent = "";
    for (var i = 1; i < arguments.length; i++) add(node, arguments[i]);
  }
  function fmt(template, params) {
    return String(template).replace(/%\((\w+)\)s|\{(\w+)\}/g, function (m, a, b) {
      var v = params[a || b];
      return typeof v === "number" ? num(v) : v;
    });
  }
  function num(n) { return (n < 0 ? "\u2212" : "") + Math.abs(n).toLocaleString(document.documentElement.lang || undefined); }
  function signed(n) { return n > 0 ? "+" + num(n) : num(n); }
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
  function ordered(list) { return WINDS.filter(function (w) { return list.indexOf(w) >= 0; }); }
  function toggle(list, w) {
    var i = list.indexOf(w);
    if (i >= 0) list.splice(i, 1); else list.push(w);
  }
  function problemText(error) {
    return (error.path ? error.path + ": " : "") +
      SheetScore.message(error, B.messages, document.documentElement.lang || undefined);
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

  // --- talking to the desk ------------------------------------------------------------------
  function request(url, body) {
    var ctl = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (ctl) ctl.abort(); }, 8000);
    var init = body ? {method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRFToken": B.csrf}} : {};
    init.cache = "no-store";
    init.credentials = "same-origin";
    if (ctl) init.signal = ctl.signal;
    return fetch(url, init).then(function (r) {
      clearTimeout(timer);
      // the form token refused (a phone that logged in meanwhile, say): only a reload helps
      if (r.status === 403) return {status: 403, body: {error: L.reload}};
      return r.json().then(function (j) { return {status: r.status, body: j || {}}; },
        function () { return {status: r.status, body: {}}; });
    }, function (e) { clearTimeout(timer); throw e; });
  }
  function refresh() {
    if (S.sending || S.queue.length) return flush();
    return request(B.state_url).then(function (r) {
      if (r.status === 200) took(r.body);
    }, offline);
  }
  function took(state) {
    if (!state.clock) { // an answer to a change: the clock is the one the page has
      state.clock = S.server.clock; state.last_hand = S.server.last_hand;
    } else {
      S.fetched = Date.now();
    }
    S.server = state; S.online = true; S.failing = false; render();
  }
  function offline() { S.online = false; S.sending = false; render(); }
  // a confirmation tapped on a hand still waiting on this device names that change (`after`);
  // once the desk has it, the confirmation takes the version the desk gave it, which is the
  // hand the player saw (the desk keeps a different hand at that number only as a conflict)
  function sent(q, state) {
    var h = state.hands.filter(function (x) { return x.number === q.number; })[0];
    S.queue.forEach(function (x) {
      if (x.after !== q.id) return;
      if (h) x.version = h.version;
      delete x.after;
    });
  }
  // a change set aside with the desk's words, and the confirmations tapped on it
  function park(q, error) {
    q.refused = error;
    S.parked.push(q);
    S.queue = S.queue.filter(function (x) { return x !== q && !(q.id && x.after === q.id); });
  }

  function wire(q) {
    // whose device it was when the player tapped (a page queued before kept none)
    var body = {action: q.kind, client_id: q.id, device: "device" in q ? q.device : S.device};
    if (q.kind === "record" || q.kind === "correct") body.data = q.data;
    if (q.kind === "correct" || q.kind === "undo") body.reason = q.reason || "";
    body.number = q.number;
    if (q.kind === "confirm") {
      body.version = q.version; // the version the player saw when they tapped, never a later one
    } else if (q.kind !== "record") {
      var h = S.server.hands[q.number - 1];
      body.version = q.version || (h ? h.version : 1);
    }
    if (q.kind === "confirm") body.wind = q.wind;
    if (q.kind === "winds") body.winds = q.winds;
    return body;
  }
  function flush() {
    if (S.sending) return;
    var q = S.queue[0];
    if (!q || q.conflict || S.blocked) { render(); return; }
    S.sending = true; render();
    request(B.act, wire(q)).then(function (r) {
      S.sending = false;
      if (r.status === 200) {
        S.queue.shift();
        if (q.kind === "record" || q.kind === "correct") sent(q, r.body.state);
        save(); took(r.body.state);
        flush();
      } else if (r.status === 409 && r.body.conflict) {
        // another device recorded this hand otherwise: the players decide (the queue waits)
        q.conflict = r.body.conflict; save(); took(r.body.state);
      } else if (r.status === 403) {
        S.blocked = r.body.error || L.reload; render();
      } else if (r.status >= 400 && r.status < 500) {
        // refused: sending it again would be refused again; it is set aside with the desk's
        // words and the rest goes on (only the network and the desk's own errors are retried)
        park(q, r.body.error || fmt(L.refused_status, {n: r.status}));
        save(); S.online = true;
        if (r.body.state) took(r.body.state); else render();
        flush();
      } else {
        S.failing = r.status >= 500; offline(); later();
      }
    }, function () { S.failing = false; offline(); later(); });
  }
  var retry = null;
  function later() {
    if (retry) return;
    retry = setTimeout(function () { retry = null; flush(); }, 3000);
  }
  function enqueue(q) {
    q.id = q.id || uuid(); q.at = Date.now(); q.device = S.device;
    S.queue.push(q); save(); render(); flush();
  }

  // --- what the device does when two devices disagree or the desk refuses -------------------
  function resolve(how) {
    var q = S.queue[0];
    var n = q.number;
    if (how === "drop") {
      S.queue = S.queue.filter(function (x, i) {
        return i > 0 && !(x.kind === "confirm" && (x.number === n || x.after === q.id));
      });
    } else if (how === "next") {
      var shift = S.server.hands.length + 1 - n;
      S.queue.forEach(function (x) { if (x.number >= n) x.number += shift; });
      delete q.conflict; delete q.refused;
    } else if (how === "replace") {
      q.kind = "correct"; q.version = q.conflict.version; q.reason = L.conflict_reason;
      var old = q.id;
      q.id = uuid(); delete q.conflict;
      S.queue.forEach(function (x) { if (x.after === old) x.after = q.id; });
    }
    save(); render(); flush();
  }

  // --- the hand being entered ---------------------------------------------------------------
  function fresh() {
    if (GAME === "sichuan") return {events: [], compose: "hu", ev: {}, wall: false, states: {}};
    return {result: "ron", from: "", winners: [], win: {}, riichi: [], tenpai: [], seat: ""};
  }
  function winOf(e, w) { return e.win[w] || (e.win[w] = {han: 1, fu: 30, yakuman: 0}); }
  function riichiData(e) {
    var d = {result: e.result};
    var wins = function (list) {
      return ordered(list).map(function (w) {
        var x = winOf(e, w);
        if (x.yakuman) return {seat: w, yakuman: x.yakuman};
        return x.han <= 4 ? {seat: w, han: x.han, fu: x.fu} : {seat: w, han: x.han};
      });
    };
    if (e.result === "ron") { d.from = e.from; d.wins = wins(e.winners); }
    else if (e.result === "tsumo") d.wins = wins(e.winners.slice(0, 1));
    else if (e.result === "draw") d.tenpai = ordered(e.tenpai);
    else if (e.result === "chombo") d.seat = e.seat;
    else if (e.result === "nagashi") { d.seat = e.seat; d.tenpai = ordered(e.tenpai); }
    d.riichi = ordered(e.riichi);
    return d;
  }
  function sichuanData(e) {
    var d = {events: e.events.slice()};
    if (e.wall) {
      d.exhausted = {};
      outSeats(e).forEach(function (w) {
        var st = e.states[w] || {state: "not_waiting"};
        d.exhausted[w] = st.state === "waiting" ? {waiting: st.fans || 0} : st.state;
      });
    }
    return d;
  }
  function outSeats(e) {
    var hu = [];
    e.events.forEach(function (ev) { (ev.hu || []).forEach(function (x) { hu.push(x.seat); }); });
    return winds().filter(function (w) { return hu.indexOf(w) < 0; });
  }
  function entryData() { return GAME === "sichuan" ? sichuanData(S.entry) : riichiData(S.entry); }
  function fromData(d) {
    var e = fresh();
    if (GAME === "sichuan") {
      e.events = (d.events || []).slice();
      if (d.exhausted) {
        e.wall = true;
        Object.keys(d.exhausted).forEach(function (w) {
          var v = d.exhausted[w];
          e.states[w] = typeof v === "object" ? {state: "waiting", fans: v.waiting} : {state: v};
        });
      }
      return e;
    }
    e.result = d.result; e.riichi = (d.riichi || []).slice(); e.tenpai = (d.tenpai || []).slice();
    e.from = d.from || ""; e.seat = d.seat || "";
    (d.wins || []).forEach(function (x) {
      e.winners.push(x.seat);
      e.win[x.seat] = {han: x.han || 1, fu: x.fu || 30, yakuman: x.yakuman || 0};
    });
    return e;
  }

  // --- pieces of the form -------------------------------------------------------------------
  function chips(label, chosen, onpick, opts) {
    opts = opts || {};
    return el("fieldset", {class: "chips"}, el("legend", {text: label}),
      winds().map(function (w) {
        var on = Array.isArray(chosen) ? chosen.indexOf(w) >= 0 : chosen === w;
        var off = opts.except && opts.except.indexOf(w) >= 0;
        return el("button", {type: "button", class: on ? "chip on" : "chip", disabled: off,
          "aria-pressed": on ? "true" : "false",
          onclick: function () { onpick(w); entryChanged(); }},
          el("b", {text: L.winds[w]}), " ", el("span", {text: name(w)}));
      }));
  }
  function select(label, value, options, onchange) {
    return el("label", {class: "pick"}, label + " ",
      el("select", {onchange: function (ev) { onchange(ev.target.value); entryChanged(); }},
        options.map(function (o) {
          return el("option", {value: o[0], selected: String(o[0]) === String(value)}, o[1]);
        })));
  }

  function riichiForm(e) {
    var out = [];
    out.push(el("div", {class: "kinds", role: "group", "aria-label": L.result},
      ["ron", "tsumo", "draw", "abortive", "chombo", "nagashi"].map(function (k) {
        return el("button", {type: "button", class: e.result === k ? "kind on" : "kind",
          "aria-pressed": e.result === k ? "true" : "false",
          onclick: function () { e.result = k; if (k === "tsumo") e.winners = e.winners.slice(0, 1); entryChanged(); }},
          L.results[k]);
      })));
    if (e.result === "ron") {
      out.push(chips(L.from, e.from, function (w) {
        e.from = w; e.winners = e.winners.filter(function (x) { return x !== w; });
      }));
      out.push(chips(L.winners, e.winners, function (w) { toggle(e.winners, w); }, {except: [e.from]}));
    }
    if (e.result === "tsumo") out.push(chips(L.winner, e.winners[0] || "", function (w) { e.winners = [w]; }));
    if (e.result === "ron" || e.result === "tsumo") {
      ordered(e.winners).forEach(function (w) { out.push(valueOf(e, w, e.result === "tsumo")); });
    }
    if (e.result === "chombo" || e.result === "nagashi") {
      out.push(chips(e.result === "chombo" ? L.chombo_by : L.nagashi_by, e.seat, function (w) { e.seat = w; }));
    }
    if (e.result === "draw" || e.result === "nagashi") {
      out.push(chips(L.tenpai, e.tenpai, function (w) { toggle(e.tenpai, w); }));
    }
    out.push(chips(L.riichi, e.riichi, function (w) { toggle(e.riichi, w); }));
    return out;
  }
  function valueOf(e, w, tsumo) {
    var x = winOf(e, w);
    var cells = SheetScore.cells(RULES);
    var hans = [];
    for (var h = 1; h <= 13; h++) hans.push([h, L.han_names[h] ? h + " \u2014 " + L.han_names[h] : String(h)]);
    var kinds = [[0, L.han_label]].concat([[1, L.yakuman]]);
    if (RULES.double_yakuman) kinds.push([2, L.double_yakuman]);
    var row = [select(L.winds[w] + " \u00b7 " + name(w), x.yakuman, kinds, function (v) { x.yakuman = +v; })];
    if (!x.yakuman) {
      row.push(select(L.han, x.han, hans, function (v) { x.han = +v; }));
      if (x.han <= 4) {
        var fus = (cells[tsumo ? "tsumo" : "ron"][x.han - 1] || {fu: []}).fu;
        if (fus.indexOf(x.fu) < 0 && fus.length) x.fu = fus[0];
        row.push(select(L.fu, x.fu, fus.map(function (f) { return [f, String(f)]; }), function (v) { x.fu = +v; }));
      }
    }
    // the limit hands by button, as the table calls them
    row.push(el("span", {class: "limits", role: "group", "aria-label": L.limits},
      [5, 6, 8, 11].map(function (h) {
        var on = !x.yakuman && x.han >= h && x.han < ({5: 6, 6: 8, 8: 11, 11: 13})[h];
        return el("button", {type: "button", class: on ? "chip on tiny" : "chip tiny",
          onclick: function () { x.yakuman = 0; x.han = h; entryChanged(); }}, L.han_names[h]);
      }).concat([el("button", {type: "button", class: x.yakuman === 1 ? "chip on tiny" : "chip tiny",
        onclick: function () { x.yakuman = 1; entryChanged(); }}, L.yakuman)])));
    return el("div", {class: "value"}, row);
  }

  var FANS = [["kong", 1, true], ["four", 1, true], ["pungs", 1], ["golden", 1], ["pure", 2],
    ["pairs", 2], ["replacement", 1], ["after_kong", 1], ["robbing", 1], ["sea", 1]];
  function fansInput(get, set) {
    var list = el("details", {class: "fans"}, el("summary", {text: L.count_fans}));
    var counts = {};
    FANS.forEach(function (f) {
      var input = el("input", {type: "number", min: "0", max: f[2] ? "4" : "1", value: "0",
        inputmode: "numeric", "aria-label": L.fans_names[f[0]],
        oninput: function () {
          counts[f[0]] = Math.max(0, Math.min(f[2] ? 4 : 1, +input.value || 0));
          var sum = 0;
          FANS.forEach(function (g) { sum += (counts[g[0]] || 0) * g[1]; });
          set(sum); box.value = sum; entryChanged(true);
        }});
      add(list, el("label", {class: "fan"}, input, " " + L.fans_names[f[0]] + " (" + f[1] + ")"));
    });
    var box = el("input", {type: "number", min: "0", max: "99", value: String(get()), inputmode: "numeric",
      class: "fansbox", "aria-label": L.fans,
      oninput: function () { set(Math.max(0, Math.min(99, +box.value || 0))); entryChanged(true); }});
    return el("span", {class: "fanfield"}, el("label", {}, L.fans + " ", box), list);
  }

  function sichuanForm(e) {
    var out = [];
    var ev = e.ev;
    out.push(el("ol", {class: "events"}, e.events.map(function (x, i) {
      return el("li", {}, describeEvent(x), " ",
        el("button", {type: "button", class: "small", "aria-label": L.remove,
          onclick: function () { e.events.splice(i, 1); entryChanged(); }}, "\u2715"));
    })));
    out.push(el("div", {class: "kinds", role: "group"}, ["hu", "kong", "false_hu"].map(function (k) {
      return el("button", {type: "button", class: e.compose === k ? "kind on" : "kind",
        onclick: function () { e.compose = k; e.ev = {}; entryChanged(); }}, L.events[k]);
    })));
    if (e.compose === "kong") {
      out.push(select(L.kong_kind, ev.kind || "", [["", "\u2014"], ["open", L.kongs.open],
        ["concealed", L.kongs.concealed], ["added", L.kongs.added], ["added_hand", L.kongs.added_hand]],
        function (v) { ev.kind = v; }));
      out.push(chips(L.by, ev.seat || "", function (w) { ev.seat = w; }));
      if (ev.kind === "open") out.push(chips(L.from, ev.from || "", function (w) { ev.from = w; }));
    } else if (e.compose === "hu") {
      ev.winners = ev.winners || [];
      ev.fans = ev.fans || {};
      out.push(chips(L.winners, ev.winners, function (w) { toggle(ev.winners, w); }));
      out.push(el("label", {class: "flag"}, el("input", {type: "checkbox", checked: !!ev.self_draw,
        onchange: function (x) { ev.self_draw = x.target.checked; entryChanged(); }}), " " + L.self_draw));
      if (!ev.self_draw) {
        out.push(chips(L.from, ev.from || "", function (w) { ev.from = w; }));
        out.push(el("label", {class: "flag"}, el("input", {type: "checkbox", checked: !!ev.robbing,
          onchange: function (x) { ev.robbing = x.target.checked; entryChanged(); }}), " " + L.robbing_kong));
        out.push(el("label", {class: "flag"}, el("input", {type: "checkbox", checked: !!ev.after,
          onchange: function (x) { ev.after = x.target.checked; entryChanged(); }}), " " + L.after_kong));
      }
      ordered(ev.winners).forEach(function (w) {
        out.push(el("div", {class: "value"}, el("b", {text: L.winds[w] + " \u00b7 " + name(w) + " "}),
          fansInput(function () { return ev.fans[w] || 0; }, function (v) { ev.fans[w] = v; })));
      });
    } else {
      out.push(chips(L.by, ev.seat || "", function (w) { ev.seat = w; }));
      out.push(el("label", {class: "flag"}, el("input", {type: "checkbox", checked: ev.waiting !== false,
        onchange: function (x) { ev.waiting = x.target.checked; entryChanged(); }}), " " + L.false_waiting));
    }
    out.push(el("button", {type: "button", class: "add", onclick: addEvent}, L.add_event));
    out.push(el("label", {class: "flag wall"}, el("input", {type: "checkbox", checked: e.wall,
      onchange: function (x) { e.wall = x.target.checked; entryChanged(); }}), " " + L.wall_ran_out));
    if (e.wall) {
      outSeats(e).forEach(function (w) {
        var st = e.states[w] || (e.states[w] = {state: "not_waiting", fans: 0});
        var row = [select(L.winds[w] + " \u00b7 " + name(w), st.state, [["waiting", L.ends.waiting],
          ["not_waiting", L.ends.not_waiting], ["pig", L.ends.pig], ["pig_passive", L.ends.pig_passive]],
          function (v) { st.state = v; })];
        if (st.state === "waiting") row.push(fansInput(function () { return st.fans || 0; }, function (v) { st.fans = v; }));
        out.push(el("div", {class: "value"}, row));
      });
    }
    return out;
  }
  function addEvent() {
    var e = S.entry, ev = e.ev, x;
    if (e.compose === "kong") {
      x = {kong: ev.kind === "added_hand" ? "added" : ev.kind, seat: ev.seat};
      if (ev.kind === "open") x.from = ev.from;
      if (ev.kind === "added_hand") x.from_hand = true;
    } else if (e.compose === "hu") {
      x = {hu: ordered(ev.winners || []).map(function (w) { return {seat: w, fans: ev.fans[w] || 0}; })};
      if (ev.self_draw) x.self_draw = true; else x.from = ev.from;
      if (!ev.self_draw && ev.robbing) x.robbing_kong = true;
      if (!ev.self_draw && ev.after) x.after_kong = true;
    } else {
      x = {false_hu: ev.seat, waiting: ev.waiting !== false};
    }
    e.events.push(x); e.ev = {};
    entryChanged();
  }

  // --- words for a hand ---------------------------------------------------------------------
  function describeEvent(x) {
    var w = function (s) { return s ? L.winds[s] : "?"; };
    if (x.kong) {
      return L.kongs[x.from_hand ? "added_hand" : x.kong] + " " + w(x.seat) + (x.from ? " \u2190 " + w(x.from) : "");
    }
    if (x.hu) {
      return L.events.hu + " " + x.hu.map(function (h) { return w(h.seat) + " (" + fmt(L.n_fans, {n: h.fans}) + ")"; }).join(", ") +
        (x.self_draw ? " (" + L.self_draw + ")" : " \u2190 " + w(x.from)) +
        (x.robbing_kong ? " \u00b7 " + L.robbing_kong : "") + (x.after_kong ? " \u00b7 " + L.after_kong : "");
    }
    return L.events.false_hu + " " + w(x.false_hu) + (x.waiting ? " (" + L.false_waiting + ")" : "");
  }
  function describe(d) {
    var w = function (s) { return s ? L.winds[s] : "?"; };
    if (GAME === "sichuan") {
      var parts = (d.events || []).map(describeEvent);
      if (d.exhausted) parts.push(L.wall_ran_out);
      return parts.join("; ") || L.no_events;
    }
    var v = function (x) {
      return x.yakuman ? (x.yakuman > 1 ? L.double_yakuman : L.yakuman) :
        x.han + " " + L.han + (x.fu && x.han <= 4 ? " " + x.fu + " " + L.fu : "");
    };
    var text = L.results[d.result];
    if (d.result === "ron") text += " " + (d.wins || []).map(function (x) { return w(x.seat) + " " + v(x); }).join(", ") + " \u2190 " + w(d.from);
    if (d.result === "tsumo") text += " " + w(d.wins[0].seat) + " " + v(d.wins[0]);
    if (d.result === "chombo" || d.result === "nagashi") text += " " + w(d.seat);
    if (d.tenpai && d.result === "draw") text += " \u00b7 " + L.tenpai + ": " + (d.tenpai.map(w).join(" ") || "\u2014");
    if (d.riichi && d.riichi.length) text += " \u00b7 " + L.riichi + ": " + d.riichi.map(w).join(" ");
    return text;
  }

  // --- the page -----------------------------------------------------------------------------
  function entryChanged(keepForm) {
    if (pendingWinds()) return; // the winds form keeps its own choices until it is sent
    if (!keepForm) renderEntry();
    renderPreview();
  }
  function preview() {
    var list = hands();
    if (S.editing) {
      var n = S.editing.number;
      var data = list.map(function (h) { return h.number === n ? entryData() : h.data; });
      return {result: SheetScore.play(RULES, data, winds()), index: n - 1};
    }
    return {result: played(list, entryData()), index: list.length};
  }
  function renderPreview() {
    if (!S.entry) { fill("preview"); return; }
    var p = preview(), r = p.result;
    if (!r.ok) {
      // what the hand still lacks, in words: the path is the desk's business
      var mine = r.error.path.indexOf("hands[" + p.index + "]") === 0;
      if (GAME === "sichuan" && !S.entry.events.length && !S.entry.wall) {
        fill("preview", el("p", {class: "hint", text: L.add_events}));
        document.getElementById("save").disabled = true;
        return;
      }
      fill("preview", el("p", {class: mine ? "hint" : "problem", text: mine ? SheetScore.message(r.error, B.messages, document.documentElement.lang || undefined) : problemText(r.error)}));
      document.getElementById("save").disabled = true;
      return;
    }
    document.getElementById("save").disabled = false;
    var hand = r.hands[p.index];
    var change = GAME === "sichuan" ? hand.points : hand.deltas;
    var after = GAME === "sichuan" ? hand.totals : hand.scores;
    fill("preview", el("table", {class: "pay"},
      el("caption", {text: L.before_saving}),
      el("tbody", {}, winds().map(function (w) {
        return el("tr", {}, el("th", {text: L.winds[w] + " " + name(w)}),
          el("td", {class: change[w] < 0 ? "neg" : change[w] > 0 ? "pos" : "", text: signed(change[w] || 0)}),
          el("td", {text: num(after[w])}));
      }))),
      el("p", {class: "payments"}, (hand.payments || []).map(function (x) {
        return el("span", {}, (x.payer ? L.winds[x.payer] : L.table_word) + " \u2192 " +
          (x.payee ? L.winds[x.payee] : L.table_word) + " " + num(x.amount) + " (" + (L.why[x.why] || x.why) + ")");
      })));
  }
  function windsForm() { // 002 §2.4.6, 000 §2.3: the players draw their winds at the table
    var chosen = {};
    return [el("h2", {text: L.draw_title}), el("p", {text: L.draw_help}),
      el("form", {onsubmit: function (ev) {
        ev.preventDefault();
        enqueue({kind: "winds", number: 0, winds: chosen});
        renderEntry(); renderPreview();
      }}, winds().map(function (w) {
        return select(fmt(L.who_drew, {wind: L.wind_names[w]}), "", [["", "\u2014"]].concat(
          S.server.seats.map(function (x) { return [x.player, x.name]; })), function (v) { chosen[w] = v; });
      }), el("div", {class: "actions"}, el("button", {type: "submit", class: "primary"}, L.record_winds)))];
  }
  function renderEntry() {
    var locked = S.server.locked;
    if (locked) { fill("entry", el("p", {class: "locked", text: locked})); fill("preview"); return; }
    if (pendingWinds()) { fill("entry", windsForm()); fill("preview"); return; }
    if (!S.entry) S.entry = fresh();
    var title = S.editing ? fmt(L.correcting, {n: S.editing.number}) : fmt(L.hand_n, {n: hands().length + 1});
    var form = GAME === "sichuan" ? sichuanForm(S.entry) : riichiForm(S.entry);
    var buttons = [el("button", {type: "submit", id: "save", class: "primary"}, S.editing ? L.save_correction : L.save)];
    if (S.editing) {
      buttons.unshift(el("label", {class: "reason"}, L.reason + " ",
        el("input", {id: "reason", required: true, maxlength: "500", value: S.editing.reason || "",
          oninput: function (x) { S.editing.reason = x.target.value; }})));
      buttons.push(el("button", {type: "button", onclick: function () { S.editing = null; S.entry = fresh(); entryChanged(); }}, L.cancel));
    } else {
      buttons.push(el("button", {type: "button", onclick: function () { S.entry = fresh(); entryChanged(); }}, L.clear));
    }
    fill("entry", el("h2", {text: title}), el("form", {onsubmit: submit}, form, el("div", {class: "actions"}, buttons)));
  }
  function submit(ev) {
    ev.preventDefault();
    var p = preview();
    if (!p.result.ok) return;
    if (S.editing) {
      if (!(S.editing.reason || "").trim()) { document.getElementById("reason").focus(); return; }
      enqueue({kind: "correct", number: S.editing.number, version: S.editing.version, data: entryData(), reason: S.editing.reason});
      S.editing = null;
    } else {
      enqueue({kind: "record", number: hands().length + 1, data: entryData()});
    }
    S.entry = fresh();
    renderEntry(); renderPreview();
    window.scrollTo(0, 0);
  }

  function render() {
    var list = hands();
    var r = played(list);
    var totals = {};
    winds().forEach(function (w) { totals[w] = GAME === "sichuan" ? 0 : RULES.start_points; });
    if (r.ok) totals = r.scores;
    // status line
    var waiting = S.queue.length;
    var status = S.sending ? L.sending : S.failing ? fmt(L.desk_error, {n: waiting}) :
      !S.online ? (waiting ? fmt(L.offline_waiting, {n: waiting}) : L.offline) :
      waiting ? fmt(L.waiting, {n: waiting}) : L.saved_all;
    fill("status", el("span", {class: S.online ? (waiting ? "warn" : "ok") : "off", text: status}));
    // the scores
    var dealer = r.ok && GAME !== "sichuan" ? r.dealer : (r.ok ? r.next_dealer : "");
    fill("scores", winds().map(function (w) {
      return el("div", {class: "seat" + (w === dealer ? " dealer" : "")},
        el("b", {text: L.winds[w]}), el("span", {class: "who", text: name(w)}),
        el("span", {class: "score", text: num(totals[w])}),
        w === dealer ? el("small", {text: L.dealer}) : null);
    }));
    var info = [];
    if (r.ok && GAME !== "sichuan") {
      info.push(fmt(L.round, {wind: L.wind_names[r.round_wind], n: WINDS.indexOf(r.dealer) + 1}));
      if (r.counters) info.push(fmt(L.counters, {n: r.counters}));
      if (r.sticks_left) info.push(fmt(L.sticks, {n: r.sticks_left}));
    }
    var last = lastHand(list);
    var over = r.ok && r.over;
    if (over) info.push(L.game_over);
    else if (last && list.length + 1 === last) info.push(L.last_hand);
    else if (last && list.length + 1 > last) info.push(L.session_over);
    if (!r.ok) info.push(problemText(r.error));
    fill("info", info.join(" \u00b7 "));
    // what waits and what needs a decision
    var q = S.queue[0];
    var blocks = [];
    if (q && q.conflict) {
      blocks.push(el("div", {class: "conflict", role: "alert"},
        el("p", {text: fmt(L.conflict, {n: q.number})}),
        el("p", {}, el("b", {text: L.theirs + ": "}), describe(q.conflict.data)),
        el("p", {}, el("b", {text: L.mine + ": "}), describe(q.data)),
        el("div", {class: "actions"},
          el("button", {type: "button", onclick: function () { resolve("drop"); }}, L.keep_theirs),
          el("button", {type: "button", onclick: function () { resolve("next"); }}, L.mine_next),
          el("button", {type: "button", onclick: function () { resolve("replace"); }}, L.mine_replaces))));
    }
    if (S.blocked) blocks.push(el("div", {class: "conflict", role: "alert"}, el("p", {text: S.blocked})));
    S.parked.forEach(function (x) {
      blocks.push(el("div", {class: "conflict refused", role: "alert"},
        el("p", {text: x.refused}),
        x.data ? el("p", {}, el("b", {text: L.mine + ": "}), describe(x.data)) : null,
        x.kind === "confirm" ? el("p", {text: fmt(L.confirm_as, {wind: L.winds[x.wind] || "?", n: x.number})}) : null,
        el("div", {class: "actions"},
          el("button", {type: "button", onclick: function () {
            S.parked = S.parked.filter(function (y) { return y !== x; }); save(); render();
          }}, L.discard))));
    });
    fill("decide", blocks);
    // the hands
    var running = r.ok ? r.hands : [];
    fill("hands", list.length ? el("table", {class: "hands"},
      el("thead", {}, el("tr", {}, el("th", {text: "#"}), el("th", {text: L.hand}),
        winds().map(function (w) { return el("th", {class: "num", text: L.winds[w]}); }))),
      list.slice().reverse().map(function (h) {
        var x = running[h.number - 1] || {};
        var change = GAME === "sichuan" ? x.points : x.deltas;
        var after = GAME === "sichuan" ? x.totals : x.scores;
        var everyone = winds().every(function (w) { return h.confirmed.indexOf(w) >= 0; });
        var cls = (h.waiting ? "waiting " : "") + (everyone ? "" : "pending");
        return el("tbody", {class: cls},
          el("tr", {},
            el("td", {text: h.number}),
            el("td", {}, describe(h.data), h.waiting ? el("small", {class: "tag", text: L.not_sent}) : null,
              everyone ? null : el("small", {class: "tag pend", text: L.pending})),
            winds().map(function (w) {
              return el("td", {class: "num"}, change ? el("span", {class: change[w] < 0 ? "neg" : change[w] > 0 ? "pos" : "", text: signed(change[w])}) : "",
                after ? el("small", {text: num(after[w])}) : null);
            })),
          el("tr", {class: "acts"}, el("td", {colspan: String(2 + winds().length)},
            el("span", {class: "confirm", role: "group", "aria-label": L.confirmed}, winds().map(function (w) {
              var done = h.confirmed.indexOf(w) >= 0;
              // a phone that is one player's confirms only that seat; a shared device each seat
              var other = !!S.device && S.device !== w;
              return el("button", {type: "button", class: done ? "chip on tiny" : "chip tiny",
                disabled: done || other || !!S.server.locked, "aria-label": fmt(L.confirm_as, {wind: L.winds[w], n: h.number}),
                onclick: function () { enqueue(confirmation(h, w)); }}, (done ? "\u2713 " : "") + L.winds[w]);
            })),
            S.server.locked ? null : el("span", {class: "rowacts"},
              el("button", {type: "button", class: "small", onclick: function () { edit(h); }}, L.correct),
              h.number === list.length ? el("button", {type: "button", class: "small", onclick: function () { undo(h); }}, L.undo) : null))));
      })) : el("p", {class: "none", text: L.no_hands}));
    // the end: the table's result goes to the desk
    var res = S.server.result;
    var end = [];
    if (res) end.push(el("p", {text: res.status === "confirmed" ? L.result_confirmed : L.result_draft}));
    // the desk takes a sent result only when the game is over: Sichuan at any time, riichi at
    // the end of South (a draft by itself) or once the clock ended it (scoring's send rule)
    var c = S.server.clock;
    var ended = !!c && (c.state === "time_up" || c.state === "ended");
    var sendable = GAME === "sichuan" || over || ended || (!!last && list.length >= last);
    if (!S.server.locked && list.length && sendable) {
      end.push(el("button", {type: "button", class: over ? "primary" : "", onclick: function () {
        if (window.confirm(L.send_ask)) enqueue({kind: "send", number: 0});
      }}, L.send));
    }
    fill("end", end);
    // history
    fill("history", S.server.history.length ? el("details", {}, el("summary", {text: fmt(L.corrections, {n: S.server.history.length})}),
      el("ul", {}, S.server.history.map(function (h) {
        return el("li", {}, "#" + h.number + " v" + h.version + ": " + describe(h.data) + " \u2014 " +
          (h.undone ? L.undone : L.corrected) + (h.reason ? " (" + h.reason + ")" : ""));
      }))) : null);
    var mode = S.server.locked ? "locked" : pendingWinds() ? "winds" : "hands";
    if (!document.getElementById("entry").firstChild || mode !== S.mode) { S.mode = mode; renderEntry(); renderPreview(); }
  }
  // the hand as the player saw it when they tapped: its number and version, or, while it still
  // waits on this device, the waiting change it is (the version follows when the desk has it)
  function confirmation(h, w) {
    var q = {kind: "confirm", number: h.number, wind: w};
    if (h.waiting) q.after = h.id; else q.version = h.version;
    return q;
  }
  function edit(h) {
    S.editing = {number: h.number, version: (S.server.hands[h.number - 1] || {}).version || 1, reason: ""};
    S.entry = fromData(h.data);
    entryChanged();
    document.getElementById("entry").scrollIntoView();
  }
  function undo(h) {
    if (!window.confirm(fmt(L.undo_ask, {n: h.number}))) return;
    var i = -1;
    S.queue.forEach(function (q, j) { if (q.kind === "record" && q.number === h.number && !q.conflict) i = j; });
    if (i >= 0 && !(S.sending && i === 0)) {
      var id = S.queue[i].id; // never sent: it goes without a trace, its confirmations too
      S.queue = S.queue.filter(function (x, j) { return j !== i && x.after !== id; });
      save(); render();
      return;
    }
    var server = S.server.hands[h.number - 1];
    enqueue({kind: "undo", number: h.number, version: server ? server.version : 1, reason: L.undone_at_table});
  }

  // device
  function renderDevice() {
    fill("device", el("label", {}, L.this_device + " ",
      el("select", {onchange: function (x) { S.device = x.target.value; save(); render(); }},
        [["", L.shared]].concat(winds().map(function (w) { return [w, L.winds[w] + " \u00b7 " + name(w)]; }))
          .map(function (o) { return el("option", {value: o[0], selected: o[0] === S.device}, o[1]); }))));
  }

  window.addEventListener("online", function () { S.online = true; flush(); });
  // a phone brought back to the table asks at once what the other devices recorded meanwhile
  window.addEventListener("focus", refresh);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
  window.addEventListener("offline", offline);
  setInterval(function () { if (!document.hidden) refresh(); }, 5000);
  setInterval(function () { render(); }, 30000);
  renderDevice();
  render();
  renderEntry(); renderPreview();
  flush();
  window.sheetDebug = S;
  window.sheetReady = performance.now(); // benchmarks/hands.py: the page is interactive
})();
