/* The table page's riichi form (view.js shows it): the hand being entered (ron from whom, one
   or several winners, tsumo, draws, chombo, nagashi, riichi declarations), its hand data as the
   desk keeps it (mahjong/hands/riichi.py), a kept hand back in the form for a correction, and a
   hand in words. Han and fu are offered only as the rule set's tables allow
   (SheetScore.cells); the responsible seat of a yakuman (pao, 000 §3.3.6, 001 §8) and the
   giver of an open kan's tile (kan_from, 001 §2.18) only where the rule set has them
   (`pao_hands`, `open_kan_rinshan` of the start-up data's rules). */
(function (Sheet) {
  "use strict";
  var store = Sheet.store, dom = Sheet.dom;
  var L = store.L, RULES = store.RULES, ordered = store.ordered, toggle = store.toggle;
  var name = store.name;
  var el = dom.el, chips = dom.chips, select = dom.select;
  function entryChanged(keepForm) { Sheet.view.entryChanged(keepForm); }
  function fmt(template, params) { return Sheet.words.fmt(template, params, store.LANG); }

  // `dealt`: for a ron whose discarder declared riichi, whether the riichi discard itself dealt
  // in ("yes": the riichi does not stand, 000 §3.3.12; "no"; "": not asked yet).
  // `kan_from`: on a tsumo, the seat that gave the tile of the open kan whose replacement tile
  // won (001 §2.18), or "".
  function fresh() {
    return {result: "ron", from: "", winners: [], win: {}, riichi: [], tenpai: [], seat: "",
      dealt: "", kan_from: ""};
  }
  // the rule set's pao (000 §3.3.6, 001 §8) and its payer of a win on an open kan's
  // replacement tile (001 §2.18)
  function paoRules() { return !!RULES.pao_hands && RULES.pao_hands !== "none"; }
  function kanRules() { return RULES.open_kan_rinshan === "kan_giver"; }
  // The discarder of a ron is among the riichi seats: the form asks about the discard.
  function asks(e) { return e.result === "ron" && !!e.from && e.riichi.indexOf(e.from) >= 0; }
  // What the form still needs answered before the hand can be saved (view.js), or "".
  function pending(e) {
    return asks(e) && !e.dealt ? fmt(L.riichi_dealt_in, {wind: L.wind_names[e.from]}) : "";
  }
  // a winner's value; `pao`: the seat responsible for the yakuman, or ""
  function winOf(e, w) { return e.win[w] || (e.win[w] = {han: 1, fu: 30, yakuman: 0, pao: ""}); }
  function riichiData(e) {
    var d = {result: e.result};
    var wins = function (list) {
      return ordered(list).map(function (w) {
        var x = winOf(e, w);
        if (x.yakuman && x.pao && paoRules()) return {seat: w, yakuman: x.yakuman, pao: x.pao};
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
    if (asks(e) && e.dealt === "yes") d.riichi = d.riichi.filter(function (w) { return w !== e.from; });
    if (e.result === "tsumo" && e.kan_from && kanRules()) d.kan_from = e.kan_from;
    return d;
  }
  function fromData(d) {
    var e = fresh();
    e.result = d.result; e.riichi = (d.riichi || []).slice(); e.tenpai = (d.tenpai || []).slice();
    e.from = d.from || ""; e.seat = d.seat || ""; e.kan_from = d.kan_from || "";
    if (asks(e)) e.dealt = "no";  // kept with the discarder's riichi: it stood
    (d.wins || []).forEach(function (x) {
      e.winners.push(x.seat);
      e.win[x.seat] = {han: x.han || 1, fu: x.fu || 30, yakuman: x.yakuman || 0, pao: x.pao || ""};
    });
    return e;
  }

  function riichiForm(e) {
    var out = [];
    out.push(el("div", {class: "kinds", role: "group", "aria-label": L.result},
      // a kind the rule set has not (Furiten: no nagashi, 001 appendix В) is not offered
      ["ron", "tsumo", "draw", "abortive", "chombo", "nagashi"].filter(function (k) {
        return k !== "nagashi" || RULES.nagashi !== false || e.result === k;
      }).map(function (k) {
        return el("button", {type: "button", class: e.result === k ? "kind on" : "kind",
          "aria-pressed": e.result === k ? "true" : "false",
          onclick: function () { e.result = k; if (k === "tsumo") e.winners = e.winners.slice(0, 1); entryChanged(); }},
          L.results[k]);
      })));
    if (e.result === "ron") {
      out.push(chips(L.from, e.from, function (w) {
        e.from = w; e.dealt = ""; e.winners = e.winners.filter(function (x) { return x !== w; });
      }));
      // one winner per discard where the rule set says so (Furiten 001 §10.4): a tap chooses
      var one = RULES.ron_winners === "one";
      out.push(chips(one ? L.winner : L.winners, e.winners, function (w) {
        if (one) e.winners = e.winners.length === 1 && e.winners[0] === w ? [] : [w];
        else toggle(e.winners, w);
      }, {except: [e.from]}));
    }
    if (e.result === "tsumo") out.push(chips(L.winner, e.winners[0] || "", function (w) {
      e.winners = [w];
      if (e.kan_from === w) e.kan_from = "";
    }));
    if (e.result === "ron" || e.result === "tsumo") {
      ordered(e.winners).forEach(function (w) {
        out.push(valueOf(e, w, e.result === "tsumo"));
        if (winOf(e, w).yakuman && paoRules()) out.push(paoChips(e, w));
      });
    }
    if (e.result === "tsumo" && e.winners.length && kanRules()) out.push(kanChips(e));
    if (e.result === "chombo" || e.result === "nagashi") {
      out.push(chips(e.result === "chombo" ? L.chombo_by : L.nagashi_by, e.seat, function (w) { e.seat = w; }));
    }
    if (e.result === "draw" || e.result === "nagashi") {
      out.push(chips(L.tenpai, e.tenpai, function (w) { toggle(e.tenpai, w); }));
    }
    out.push(chips(L.riichi, e.riichi, function (w) {
      toggle(e.riichi, w);
      if (w === e.from) e.dealt = "";
    }));
    if (asks(e)) {
      out.push(el("div", {class: "ask", role: "group", id: "riichi-dealt",
        "aria-label": fmt(L.riichi_dealt_in, {wind: L.wind_names[e.from]})}, [
        el("p", {class: "hint", text: fmt(L.riichi_dealt_in, {wind: L.wind_names[e.from]})}),
        ["yes", "no"].map(function (k) {
          return el("button", {type: "button", class: e.dealt === k ? "chip on" : "chip",
            "aria-pressed": e.dealt === k ? "true" : "false",
            onclick: function () { e.dealt = k; entryChanged(); }},
            k === "yes" ? L.riichi_dealt_yes : L.riichi_dealt_no);
        }),
        e.dealt === "yes" ? el("p", {class: "hint", text: fmt(L.riichi_left_out, {wind: L.wind_names[e.from]})}) : null
      ]));
    }
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

  // 000 §3.3.6, 001 §8: the seat responsible for winner `w`'s yakuman; a second tap clears it
  function paoChips(e, w) {
    var x = winOf(e, w);
    var group = chips(fmt(L.pao, {wind: L.wind_names[w]}), x.pao, function (s) {
      x.pao = x.pao === s ? "" : s;
    }, {except: [w]});
    group.classList.add("pao");
    group.appendChild(el("p", {class: "hint wide",
      text: fmt(L.pao_hint, {hands: L.pao_hands[RULES.pao_hands] || RULES.pao_hands})}));
    return group;
  }
  // 001 §2.18: a tsumo on the replacement tile after an open kan, paid by who gave the kan tile
  function kanChips(e) {
    var group = chips(L.kan_from, e.kan_from, function (s) {
      e.kan_from = e.kan_from === s ? "" : s;
    }, {except: e.winners.slice(0, 1)});
    group.classList.add("kan-from");
    group.appendChild(el("p", {class: "hint wide", text: L.kan_from_hint}));
    return group;
  }

  function describe(d) {
    var w = function (s) { return s ? L.winds[s] : "?"; };
    var v = function (x) {
      var value = x.yakuman ? (x.yakuman > 1 ? L.double_yakuman : L.yakuman) :
        x.han + " " + L.han + (x.fu && x.han <= 4 ? " " + x.fu + " " + L.fu : "");
      return x.pao ? fmt(L.pao_said, {value: value, seat: w(x.pao)}) : value;
    };
    var text = L.results[d.result];
    if (d.result === "ron") text += " " + (d.wins || []).map(function (x) { return w(x.seat) + " " + v(x); }).join(", ") + " \u2190 " + w(d.from);
    if (d.result === "tsumo") text += " " + w(d.wins[0].seat) + " " + v(d.wins[0]);
    if (d.kan_from) text += " \u00b7 " + fmt(L.kan_from_said, {seat: w(d.kan_from)});
    if (d.result === "chombo" || d.result === "nagashi") text += " " + w(d.seat);
    if (d.tenpai && d.result === "draw") text += " \u00b7 " + L.tenpai + ": " + (d.tenpai.map(w).join(" ") || "\u2014");
    if (d.riichi && d.riichi.length) text += " \u00b7 " + L.riichi + ": " + d.riichi.map(w).join(" ");
    return text;
  }

  Sheet.games = Sheet.games || {};
  Sheet.games.riichi = {fresh: fresh, data: riichiData, fromData: fromData, form: riichiForm,
    describe: describe, pending: pending};
})(window.Sheet = window.Sheet || {});
