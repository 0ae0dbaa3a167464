/* The table page (sheet/views.py): the table's own score sheet, riichi and Sichuan. One
   self-contained document: its words (words.js), the arithmetic (score.js, SheetScore, the
   browser's copy of mahjong/hands held to it by tests/unit/mahjong/test_hand_corpus.py; the desk checks
   every hand again), what the device keeps (store.js), its talk with the desk (wire.js), the
   pieces of a form (dom.js) and each game's form (riichi.js, sichuan.js) came with it, in that
   order, so it keeps recording while the hall's Wi-Fi is gone. This file draws the page and
   starts it. */
(function (Sheet) {
  "use strict";
  var store = Sheet.store, wire = Sheet.wire, dom = Sheet.dom, words = Sheet.words;
  var B = store.B, L = store.L, S = store.S, RULES = store.RULES, WINDS = store.WINDS;
  var GAME = B.state.game, FORM = Sheet.games[GAME === "sichuan" ? "sichuan" : "riichi"];
  var save = store.save, winds = store.winds, name = store.name, hands = store.hands;
  var played = store.played, lastHand = store.lastHand, pendingWinds = store.pendingWinds;
  var enqueue = wire.enqueue, flush = wire.flush, refresh = wire.refresh;
  var offline = wire.offline, resolve = wire.resolve;
  var el = dom.el, fill = dom.fill, select = dom.select;
  function fmt(template, params) { return words.fmt(template, params, store.LANG); }
  function num(n) { return words.num(n, store.LANG); }
  function signed(n) { return words.signed(n, store.LANG); }
  // a refusal of the arithmetic in the reader's words, from the start-up data's messages
  function refusal(error) { return words.refusal(error, B.messages, store.LANG); }
  function problemText(error) { return words.problem(error, B.messages, store.LANG); }

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
      var data = list.map(function (h) { return h.number === n ? FORM.data(S.entry) : h.data; });
      return {result: SheetScore.play(RULES, data, winds()), index: n - 1};
    }
    return {result: played(list, FORM.data(S.entry)), index: list.length};
  }
  function renderPreview() {
    if (!S.entry) { fill("preview"); return; }
    var asked = FORM.pending ? FORM.pending(S.entry) : "";
    if (asked) {  // a question of the form's waits for its answer (riichi.js)
      fill("preview", el("p", {class: "hint", text: asked}));
      document.getElementById("save").disabled = true;
      return;
    }
    var p = preview(), r = p.result;
    if (!r.ok) {
      // what the hand still lacks, in words: the path is the desk's business
      var mine = r.error.path.indexOf("hands[" + p.index + "]") === 0;
      if (GAME === "sichuan" && !S.entry.events.length && !S.entry.wall) {
        fill("preview", el("p", {class: "hint", text: L.add_events}));
        document.getElementById("save").disabled = true;
        return;
      }
      fill("preview", el("p", {class: mine ? "hint" : "problem", text: mine ? refusal(r.error) : problemText(r.error)}));
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
      el("form", {class: "winds", onsubmit: function (ev) {
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
    if (!S.entry) S.entry = FORM.fresh();
    var title = S.editing ? fmt(L.correcting, {n: S.editing.number}) : fmt(L.hand_n, {n: hands().length + 1});
    var form = FORM.form(S.entry);
    var buttons = [el("button", {type: "submit", id: "save", class: "primary"}, S.editing ? L.save_correction : L.save)];
    if (S.editing) {
      buttons.unshift(el("label", {class: "reason"}, L.reason + " ",
        el("input", {id: "reason", required: true, maxlength: "500", value: S.editing.reason || "",
          oninput: function (x) { S.editing.reason = x.target.value; }})));
      buttons.push(el("button", {type: "button", onclick: function () { S.editing = null; S.entry = FORM.fresh(); entryChanged(); }}, L.cancel));
    } else {
      buttons.push(el("button", {type: "button", onclick: function () { S.entry = FORM.fresh(); entryChanged(); }}, L.clear));
    }
    fill("entry", el("h2", {text: title}), el("form", {onsubmit: submit}, form, el("div", {class: "actions"}, buttons)));
  }
  function submit(ev) {
    ev.preventDefault();
    var p = preview();
    if (!p.result.ok) return;
    if (S.editing) {
      if (!(S.editing.reason || "").trim()) { document.getElementById("reason").focus(); return; }
      enqueue({kind: "correct", number: S.editing.number, version: S.editing.version, data: FORM.data(S.entry), reason: S.editing.reason});
      S.editing = null;
    } else {
      enqueue({kind: "record", number: hands().length + 1, data: FORM.data(S.entry)});
    }
    S.entry = FORM.fresh();
    renderEntry(); renderPreview();
    window.scrollTo(0, 0);
  }

  // A region drawn again just as it was keeps its nodes, so a tap is not lost with the button
  // under the finger when a refresh (every 5 s, and when the phone comes back to the page)
  // brings nothing new. Only for regions whose buttons act on what the markup shows.
  function same(id, node) {
    var old = document.getElementById(id);
    if (old.childNodes.length === 1 && old.firstChild.isEqualNode(node)) return;
    fill(id, node);
  }
  function render() {
    var list = hands();
    var r = played(list);
    var totals = {};
    winds().forEach(function (w) { totals[w] = GAME === "sichuan" ? 0 : RULES.start_points; });
    if (r.ok) totals = r.scores;
    // status line
    // "Everything is at the desk" alone only when nothing waits: neither a change on this
    // device nor a player's confirmation of a hand (issue 37)
    var waiting = S.queue.length, unsure = waiting ? 0 : store.unconfirmed(list).length;
    var status = S.sending ? L.sending : S.failing ? fmt(L.desk_error, {n: waiting}) :
      !S.online ? (waiting ? fmt(L.offline_waiting, {n: waiting}) : L.offline) :
      waiting ? fmt(L.waiting, {n: waiting}) :
      unsure ? fmt(L.saved_unconfirmed, {n: unsure}) : L.saved_all;
    fill("status", el("span", {class: S.online ? (waiting || unsure ? "warn" : "ok") : "off", text: status}));
    // the scores
    var dealer = r.ok && GAME !== "sichuan" ? r.dealer : (r.ok ? r.next_dealer : "");
    // a riichi game that is over has no next hand: no dealer, round or counters (issue 37)
    var ended = r.ok && GAME !== "sichuan" && r.over;
    if (ended) dealer = "";
    // before the winds' draw the players by name, no wind and no dealer (issue 37)
    if (pendingWinds()) fill("scores", store.byName().map(function (x) {
      return el("div", {class: "seat"}, el("span", {class: "who", text: x.name}),
        el("span", {class: "score", text: num(totals[x.wind])}));
    }));
    else fill("scores", winds().map(function (w) {
      return el("div", {class: "seat" + (w === dealer ? " dealer" : "")},
        el("b", {text: L.winds[w]}), el("span", {class: "who", text: name(w)}),
        el("span", {class: "score", text: num(totals[w])}),
        w === dealer ? el("small", {text: L.dealer}) : null);
    }));
    var info = [];
    if (r.ok && GAME !== "sichuan" && !pendingWinds()) {
      if (!ended) {
        info.push(fmt(L.round, {wind: L.wind_names[r.round_wind], n: WINDS.indexOf(r.dealer) + 1}));
        if (r.counters) info.push(fmt(L.counters, {n: r.counters}));
      }
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
        el("p", {}, el("b", {text: L.theirs + ": "}), FORM.describe(q.conflict.data)),
        el("p", {}, el("b", {text: L.mine + ": "}), FORM.describe(q.data)),
        el("div", {class: "actions"},
          el("button", {type: "button", onclick: function () { resolve("drop"); }}, L.keep_theirs),
          el("button", {type: "button", onclick: function () { resolve("next"); }}, L.mine_next),
          el("button", {type: "button", onclick: function () { resolve("replace"); }}, L.mine_replaces))));
    }
    if (S.blocked) blocks.push(el("div", {class: "conflict", role: "alert"}, el("p", {text: S.blocked})));
    S.parked.forEach(function (x) {
      blocks.push(el("div", {class: "conflict refused", role: "alert"},
        el("p", {text: x.refused}),
        x.data ? el("p", {}, el("b", {text: L.mine + ": "}), FORM.describe(x.data)) : null,
        x.kind === "confirm" ? el("p", {text: fmt(L.confirm_as, {wind: L.winds[x.wind] || "?", n: x.number})}) : null,
        el("div", {class: "actions"},
          el("button", {type: "button", onclick: function () {
            S.parked = S.parked.filter(function (y) { return y !== x; }); save(); render();
          }}, L.discard))));
    });
    fill("decide", blocks);
    // the hands
    var running = r.ok ? r.hands : [];
    same("hands", list.length ? el("table", {class: "hands"},
      el("thead", {}, el("tr", {}, el("th", {text: "#"}), el("th", {text: L.hand}),
        winds().map(function (w) { return el("th", {class: "num", text: L.winds[w]}); }))),
      list.slice().reverse().map(function (h) {
        var x = running[h.number - 1] || {};
        var change = GAME === "sichuan" ? x.points : x.deltas;
        var after = GAME === "sichuan" ? x.totals : x.scores;
        var everyone = winds().every(function (w) { return h.confirmed.indexOf(w) >= 0; });
        var cls = (h.waiting ? "waiting " : "") + (everyone ? "" : "pending");
        // what the row's buttons act on, written into it: the same markup, the same acts
        return el("tbody", {class: cls, "data-hand": JSON.stringify([h.number, h.version, h.id, h.waiting, h.data])},
          el("tr", {},
            el("td", {text: h.number}),
            el("td", {}, FORM.describe(h.data), h.waiting ? el("small", {class: "tag", text: L.not_sent}) : null,
              everyone ? null : el("small", {class: "tag pend", text: L.pending})),
            winds().map(function (w) {
              return el("td", {class: "num"}, change ? el("span", {class: change[w] < 0 ? "neg" : change[w] > 0 ? "pos" : "", text: signed(change[w])}) : "",
                after ? el("small", {text: num(after[w])}) : null);
            })),
          el("tr", {class: "acts"}, el("td", {colspan: String(2 + winds().length)},
            el("span", {class: "confirm", role: "group", "aria-label": L.confirmed}, winds().map(function (w) {
              var done = h.confirmed.indexOf(w) >= 0;
              // a phone that is one player's confirms only that seat; a shared device each seat
              var mine = store.seatOf(S.device), other = !!mine && mine !== w;
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
    // the desk's own send rule decides (scoring.services.may_send, in every state it sends);
    // offline, the last state the page had
    if (!S.server.locked && S.server.sendable) {
      end.push(el("button", {type: "button", class: over ? "primary" : "", onclick: function () {
        if (window.confirm(L.send_ask)) enqueue({kind: "send", number: 0});
      }}, L.send));
    }
    if (end.length) same("end", el("div", {}, end)); else fill("end"); // empty: hidden
    // history
    fill("history", S.server.history.length ? el("details", {}, el("summary", {text: fmt(L.corrections, {n: S.server.history.length})}),
      el("ul", {}, S.server.history.map(function (h) {
        return el("li", {}, "#" + h.number + " v" + h.version + ": " + FORM.describe(h.data) + " \u2014 " +
          (h.undone ? L.undone : L.corrected) + (h.reason ? " (" + h.reason + ")" : ""));
      }))) : null);
    var mode = S.server.locked ? "locked" : pendingWinds() ? "winds" : "hands";
    if (!document.getElementById("entry").firstChild || mode !== S.mode) { S.mode = mode; renderEntry(); renderPreview(); }
    renderDevice();
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
    S.entry = FORM.fromData(h.data);
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
  // Drawn with the rest of the page (render): the drawn winds as soon as the draw is recorded,
  // before it the players by name, a player's choice kept as theirs ("p" and their id) until
  // the draw gives their wind (store.seatOf; issue 37).
  function renderDevice() {
    var choices;
    if (pendingWinds()) {
      choices = store.byName().map(function (x) { return ["p" + x.player, x.name]; });
    } else {
      if (S.device.charAt(0) === "p" && !S.server.winds_pending) { S.device = store.seatOf(S.device); save(); }
      choices = winds().map(function (w) { return [w, L.winds[w] + " \u00b7 " + name(w)]; });
    }
    var mine = pendingWinds() ? S.device : store.seatOf(S.device);
    same("device", el("label", {}, L.this_device + " ",
      el("select", {onchange: function (x) { S.device = x.target.value; save(); render(); }},
        [["", L.shared]].concat(choices)
          .map(function (o) { return el("option", {value: o[0], selected: o[0] === mine}, o[1]); }))));
  }

  Sheet.view = {render: render, entryChanged: entryChanged};

  window.addEventListener("online", function () { S.online = true; flush(); });
  // a phone brought back to the table asks at once what the other devices recorded meanwhile
  window.addEventListener("focus", refresh);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
  window.addEventListener("offline", offline);
  setInterval(function () { if (!document.hidden) refresh(); }, 5000);
  setInterval(function () { render(); }, 30000);
  render();
  renderEntry(); renderPreview();
  flush();
  window.sheetDebug = S;
})(window.Sheet = window.Sheet || {});
