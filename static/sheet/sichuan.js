/* The table page's Sichuan form (view.js shows it): the hand's events in the order they
   happened (kongs, hu on a discard or self-drawn, robbing a kong, a discard after a kong, a
   winner who is a pig, false hu — on a discard after a kong or robbing one too —, a dead hand),
   then, if the wall ran out, each remaining player's state; fans typed or added up from
   appendix 1's checklist. Its hand data as the desk keeps it (mahjong/hands/sichuan.py), a
   kept hand back in the form for a correction, and a hand in words. */
(function (Sheet) {
  "use strict";
  var store = Sheet.store, dom = Sheet.dom;
  var L = store.L, S = store.S, winds = store.winds, name = store.name;
  var ordered = store.ordered, toggle = store.toggle;
  var el = dom.el, add = dom.add, chips = dom.chips, select = dom.select;
  function entryChanged(keepForm) { Sheet.view.entryChanged(keepForm); }
  function fmt(template, params) { return Sheet.words.fmt(template, params, store.LANG); }

  function fresh() { return {events: [], compose: "hu", ev: {}, wall: false, states: {}}; }
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
  function deadSeats(e) {
    return e.events.filter(function (ev) { return ev.dead; }).map(function (ev) { return ev.dead; });
  }
  function outSeats(e) {
    var hu = [];
    e.events.forEach(function (ev) { (ev.hu || []).forEach(function (x) { hu.push(x.seat); }); });
    return winds().filter(function (w) { return hu.indexOf(w) < 0; });
  }
  function fromData(d) {
    var e = fresh();
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

  // Appendix 1 of seed 002, its order and names: [key, fans, how many a hand can hold (4: one
  // per kong or four of a kind), counted for a waiting hand at an exhausted wall]. §2.7.4 (4):
  // a waiting hand is valued "игнорируя варианты «Выигрыш на замене», «Наброс после конга»,
  // «Ограбление конга» и «Морское дно»", so its checklist does not offer them.
  var FANS = [["kong", 1, true, true], ["four", 1, true, true], ["pungs", 1, false, true],
    ["golden", 1, false, true], ["pure", 2, false, true], ["pairs", 2, false, true],
    ["replacement", 1], ["after_kong", 1], ["robbing", 1], ["sea", 1]];
  var WAITING_FANS = FANS.filter(function (f) { return f[3]; });
  function fansInput(get, set, waiting) {
    var offered = waiting ? WAITING_FANS : FANS;
    var list = el("details", {class: waiting ? "fans waiting" : "fans"}, el("summary", {text: L.count_fans}));
    if (waiting) add(list, el("p", {class: "note", text: L.waiting_fans_note}));
    var counts = {};
    offered.forEach(function (f) {
      var input = el("input", {type: "number", min: "0", max: f[2] ? "4" : "1", value: "0",
        inputmode: "numeric", "aria-label": L.fans_names[f[0]],
        oninput: function () {
          counts[f[0]] = Math.max(0, Math.min(f[2] ? 4 : 1, +input.value || 0));
          var sum = 0;
          offered.forEach(function (g) { sum += (counts[g[0]] || 0) * g[1]; });
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
    out.push(el("div", {class: "kinds", role: "group"}, ["hu", "kong", "false_hu", "dead"].map(function (k) {
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
      ev.pigs = ev.pigs || {};
      ordered(ev.winners).forEach(function (w) {
        out.push(el("div", {class: "value"}, el("b", {text: L.winds[w] + " \u00b7 " + name(w) + " "}),
          fansInput(function () { return ev.fans[w] || 0; }, function (v) { ev.fans[w] = v; }),
          // 002 §2.5.8 (3): a winning hand with a tile of the forbidden suit pays the pig
          el("label", {class: "flag"}, el("input", {type: "checkbox", class: "pigwin", checked: !!ev.pigs[w],
            onchange: function (x) { ev.pigs[w] = x.target.checked; entryChanged(true); }}), " " + L.pig_win)));
      });
    } else if (e.compose === "dead") {
      out.push(chips(L.by, ev.seat || "", function (w) { ev.seat = w; }));
    } else {
      out.push(chips(L.by, ev.seat || "", function (w) { ev.seat = w; }));
      out.push(el("label", {class: "flag"}, el("input", {type: "checkbox", checked: ev.waiting !== false,
        onchange: function (x) { ev.waiting = x.target.checked; entryChanged(); }}), " " + L.false_waiting));
      // 002 §2.8.4 (3): a false hu on a discard after a kong or robbing a kong costs the kong
      out.push(chips(L.false_from, ev.from || "", function (w) { ev.from = ev.from === w ? "" : w; }));
      if (ev.from) {
        out.push(el("label", {class: "flag"}, el("input", {type: "checkbox", checked: !!ev.robbing,
          onchange: function (x) { ev.robbing = x.target.checked; entryChanged(); }}), " " + L.robbing_kong));
        out.push(el("label", {class: "flag"}, el("input", {type: "checkbox", checked: !!ev.after,
          onchange: function (x) { ev.after = x.target.checked; entryChanged(); }}), " " + L.after_kong));
      }
    }
    out.push(el("button", {type: "button", class: "add", onclick: addEvent}, L.add_event));
    out.push(el("label", {class: "flag wall"}, el("input", {type: "checkbox", checked: e.wall,
      onchange: function (x) { e.wall = x.target.checked; entryChanged(); }}), " " + L.wall_ran_out));
    if (e.wall) {
      var dead = deadSeats(e);
      outSeats(e).forEach(function (w) {
        var st = e.states[w] || (e.states[w] = {state: "not_waiting", fans: 0});
        // a dead hand counts as not waiting (002 §2.8.3, docs/rules.md §5.2)
        if (dead.indexOf(w) >= 0 && st.state === "waiting") st.state = "not_waiting";
        var row = [select(L.winds[w] + " \u00b7 " + name(w), st.state, (dead.indexOf(w) >= 0 ? [] : [["waiting", L.ends.waiting]])
          .concat([["not_waiting", L.ends.not_waiting], ["pig", L.ends.pig], ["pig_passive", L.ends.pig_passive]]),
          function (v) { st.state = v; })];
        if (st.state === "waiting") row.push(fansInput(function () { return st.fans || 0; }, function (v) { st.fans = v; }, true));
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
      x = {hu: ordered(ev.winners || []).map(function (w) {
        var h = {seat: w, fans: ev.fans[w] || 0};
        if ((ev.pigs || {})[w]) h.pig = true;
        return h;
      })};
      if (ev.self_draw) x.self_draw = true; else x.from = ev.from;
      if (!ev.self_draw && ev.robbing) x.robbing_kong = true;
      if (!ev.self_draw && ev.after) x.after_kong = true;
    } else if (e.compose === "dead") {
      x = {dead: ev.seat};
    } else {
      x = {false_hu: ev.seat};
      if (ev.from) {
        x.from = ev.from;
        if (ev.robbing) x.robbing_kong = true;
        if (ev.after) x.after_kong = true;
      }
      x.waiting = ev.waiting !== false;
    }
    e.events.push(x); e.ev = {};
    entryChanged();
  }

  function describeEvent(x) {
    var w = function (s) { return s ? L.winds[s] : "?"; };
    if (x.kong) {
      return L.kongs[x.from_hand ? "added_hand" : x.kong] + " " + w(x.seat) + (x.from ? " \u2190 " + w(x.from) : "");
    }
    if (x.hu) {
      return L.events.hu + " " + x.hu.map(function (h) {
        return w(h.seat) + " (" + fmt(L.n_fans, {n: h.fans}) + (h.pig ? ", " + L.ends.pig : "") + ")";
      }).join(", ") +
        (x.self_draw ? " (" + L.self_draw + ")" : " \u2190 " + w(x.from)) +
        (x.robbing_kong ? " \u00b7 " + L.robbing_kong : "") + (x.after_kong ? " \u00b7 " + L.after_kong : "");
    }
    if (x.dead) return L.events.dead + " " + w(x.dead);
    return L.events.false_hu + " " + w(x.false_hu) + (x.waiting ? " (" + L.false_waiting + ")" : "") +
      (x.from ? " \u2190 " + w(x.from) : "") +
      (x.robbing_kong ? " \u00b7 " + L.robbing_kong : "") + (x.after_kong ? " \u00b7 " + L.after_kong : "");
  }
  function describe(d) {
    var parts = (d.events || []).map(describeEvent);
    if (d.exhausted) parts.push(L.wall_ran_out);
    return parts.join("; ") || L.no_events;
  }

  Sheet.games = Sheet.games || {};
  Sheet.games.sichuan = {fresh: fresh, data: sichuanData, fromData: fromData, form: sichuanForm,
    describe: describe, outSeats: outSeats};
})(window.Sheet = window.Sheet || {});
