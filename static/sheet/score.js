// The score sheet's arithmetic in the browser, so the table page shows each hand's payments and
// scores before it is saved, offline too: a port of mahjong/hands/riichi.py and sichuan.py. The
// server plays every hand again and stays authoritative; tests/unit/mahjong/test_hand_corpus.py holds
// this copy to mahjong.hands.preview field by field (the checked-in corpus
// tests/corpus/hands.json and thousands of seeded games, run in V8 without a browser), refusals
// included: the same code and params. Change both together. It holds no message: a refusal is
// a code of mahjong/hands/messages.py and params, which the page puts in words (words.js).
//   SheetScore.play(rules_json, hands, winds) → {ok: true, game, scores, hands, …} | {ok: false, error}
//   SheetScore.cells(rules_json) → the han/fu a win may name
(function () {
  "use strict";

  const WINDS = ["E", "S", "W", "N"];

  // A param that is no plain number or text: a refused value as its message shows it ("repr",
  // "json") or a word of the catalogue by its code ("word"); mahjong/hands/errors.py, Shown.
  class Param {
    constructor(value, kind) {
      this.value = value;
      this.kind = kind;
    }
  }
  const shown = (value, style) => new Param(value, style);
  const word = (code) => new Param(code, "word");
  // A refusal by its code (mahjong/hands/messages.py) and params; the page fills in the
  // translation of the code (words.js).
  class HandError extends Error {
    constructor(path, code, params) {
      super(code);
      this.path = path;
      this.code = code;
      this.params = {};
      this.kinds = {};
      for (const [name, value] of Object.entries(params || {})) {
        if (value instanceof Param) {
          this.params[name] = value.value;
          this.kinds[name] = value.kind;
        } else this.params[name] = value;
      }
    }
  }
  const fail = (path, name, params) => {
    throw new HandError(path, name, params);
  };
  const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const get = (o, k, dflt) => (has(o, k) ? o[k] : dflt);
  const isDict = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const whole = (v) => typeof v === "number" && Number.isInteger(v);
  const byCodePoint = (a, b) => {
    const x = Array.from(a, (c) => c.codePointAt(0));
    const y = Array.from(b, (c) => c.codePointAt(0));
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  };
  const firstSorted = (keys) => keys.slice().sort(byCodePoint)[0];

  // riichi (mahjong/hands/riichi.py)
  const RESULTS = ["ron", "tsumo", "draw", "abortive", "chombo", "nagashi"];
  const KEYS = {
    ron: ["result", "from", "wins", "riichi"],
    tsumo: ["result", "wins", "riichi", "kan_from"],
    draw: ["result", "tenpai", "riichi"],
    abortive: ["result", "riichi"],
    chombo: ["result", "seat", "riichi"],
    nagashi: ["result", "seat", "tenpai", "riichi"],
  };
  const FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110];
  const LIMITS = [[13, 8000], [11, 6000], [8, 4000], [6, 3000], [5, 2000]];
  const HAN_MAX = 99;
  const MANGAN = 2000;
  const YAKUMAN = 8000;
  const STICK = 1000;
  const up = (value) => Math.ceil(value / 100) * 100;

  const empty = (rules, han, fu, tsumo) =>
    (fu === 20 && !tsumo && !rules.ron_20_fu) ||
    (fu === 20 && tsumo && han < 2) ||
    (fu === 25 && !tsumo && han < 2) ||
    (fu === 25 && tsumo && han < 3);

  function cells(rules) {
    const way = (tsumo) =>
      [1, 2, 3, 4].map((han) => ({ han, fu: FU.filter((fu) => !empty(rules, han, fu, tsumo)) }));
    return {
      ron: way(false),
      tsumo: way(true),
      limits: LIMITS.slice().reverse().map(([han, base]) => ({ han, base })),
      yakuman: rules.double_yakuman ? [1, 2] : [1],
    };
  }

  function basePoints(rules, win, tsumo, path) {
    const unknown = Object.keys(win).filter((k) => !["seat", "han", "fu", "yakuman", "pao"].includes(k));
    if (unknown.length) fail(path, "UNKNOWN_WIN_KEY", { key: firstSorted(unknown) });
    if (has(win, "yakuman")) {
      const count = win.yakuman;
      if (has(win, "han") || has(win, "fu")) fail(path, "YAKUMAN_NO_HAN_FU");
      const most = rules.double_yakuman ? 2 : 1;
      if (!whole(count) || !(count >= 1 && count <= most))
        fail(path + ".yakuman", "YAKUMAN_COUNT", { most });
      return YAKUMAN * count;
    }
    const han = get(win, "han", null);
    if (!whole(han) || !(han >= 1 && han <= HAN_MAX)) fail(path + ".han", "HAN_WHOLE", { most: HAN_MAX });
    if (han >= 5) return LIMITS.find(([least]) => han >= least)[1];
    const fu = get(win, "fu", null);
    if (fu === null) fail(path + ".fu", "FU_NEEDED");
    if (!whole(fu) || !FU.includes(fu)) fail(path + ".fu", "FU_VALUES", { fu });
    if (empty(rules, han, fu, tsumo))
      fail(path + ".fu", "EMPTY_CELL", { han, fu, how: word(tsumo ? "BY_SELF_DRAW" : "ON_A_DISCARD") });
    const cell = rules.hand_cells.find(([h, f]) => h === han && f === fu);
    if (cell) return cell[2];
    return Math.min(fu * 2 ** (han + 2), MANGAN);
  }

  function seatOf(value, path, seats, name) {
    if (!seats.includes(value)) fail(path, name || "NOT_A_SEAT", { value: shown(value, "repr"), seats: seats.join(", ") });
    return value;
  }

  function seatList(hand, key, path) {
    const value = get(hand, key, []);
    if (!Array.isArray(value)) fail(path + "." + key, "SEAT_LIST");
    value.forEach((seat, i) => seatOf(seat, `${path}.${key}[${i}]`, WINDS));
    if (new Set(value).size !== value.length) fail(path + "." + key, "SEAT_TWICE");
    return value;
  }

  const pay = (payer, payee, amount, why) => ({ payer, payee, amount, why });
  const after = (discarder) => [1, 2, 3].map((k) => WINDS[(WINDS.indexOf(discarder) + k) % 4]);

  // Several winners on one discard as the rule set allows them (Furiten 001 §5.5, §10.4).
  function oneDiscard(rules, winners, discarder, path) {
    if (winners.length === 3 && rules.triple_ron === "redeal") fail(path, "TRIPLE_RON_REDEAL");
    if (winners.length > 1 && rules.ron_winners === "one")
      fail(path, "ONE_WINNER", { seat: after(discarder).find((s) => winners.includes(s)) });
  }

  // The seat responsible for the win's yakuman (000 §3.3.6, 001 §8), or null.
  function paoOf(rules, win, seat, path) {
    if (!has(win, "pao")) return null;
    if (rules.pao_hands === "none") fail(path + ".pao", "NO_PAO");
    if (!has(win, "yakuman")) fail(path + ".pao", "PAO_NOT_YAKUMAN");
    const pao = seatOf(win.pao, path + ".pao", WINDS);
    if (pao === seat) fail(path + ".pao", "PAO_WINNER");
    return pao;
  }

  // A win on `payer`'s tile; with a responsible player the two pay half each, the payer alone
  // the counters (001 §8.1).
  function ronPayments(base, seat, dealer, payer, pao, counters, why = "ron") {
    const amount = up(base * (seat === dealer ? 6 : 4));
    const out = pao && pao !== payer
      ? [pay(payer, seat, Math.floor(amount / 2), why), pay(pao, seat, Math.floor(amount / 2), "pao")]
      : [pay(payer, seat, amount, why)];
    if (counters) out.push(pay(payer, seat, 300 * counters, "counters"));
    return out;
  }

  // A self-drawn yakuman with a responsible player, who pays all of it, 300 a counter.
  function paoTsumo(base, seat, dealer, pao, counters) {
    const out = [pay(pao, seat, base * (seat === dealer ? 6 : 4), "pao")];
    if (counters) out.push(pay(pao, seat, 300 * counters, "counters"));
    return out;
  }

  function notenPayments(tenpai) {
    const noten = WINDS.filter((s) => !tenpai.includes(s));
    if (!tenpai.length || !noten.length) return [];
    const each = Math.floor(3000 / (tenpai.length * noten.length));
    return noten.flatMap((n) => tenpai.map((t) => pay(n, t, each, "noten")));
  }

  function playRiichiHand(table, hand, number, path) {
    const rules = table.rules;
    if (!isDict(hand)) fail(path, "RIICHI_HAND_OBJECT");
    const result = get(hand, "result", null);
    if (!RESULTS.includes(result))
      fail(path + ".result", "NOT_A_RESULT", { value: shown(result, "repr"), results: RESULTS.join(", ") });
    const unknown = Object.keys(hand).filter((k) => !KEYS[result].includes(k));
    if (unknown.length) fail(path, "UNKNOWN_HAND_KEY", { key: firstSorted(unknown), result });
    if (table.over) fail(path, "GAME_OVER");
    const dealer = WINDS[table.dealer];
    const riichi = seatList(hand, "riichi", path);
    const sticksBefore = table.sticks;
    const counters = table.counters;
    let payments = riichi.map((s) => pay(s, null, STICK, "riichi"));
    let sticks = table.sticks + riichi.length;
    let winners = [];
    let dealerStays = false;
    let counterKept = true;
    // Each other seat pays `seat` (double when the dealer pays or wins), and the counters.
    const fromEach = (seat, amount, why) => {
      for (const payer of WINDS) {
        if (payer === seat) continue;
        payments.push(pay(payer, seat, amount(payer, seat === dealer || payer === dealer ? 2 : 1), why));
        if (counters) payments.push(pay(payer, seat, 100 * counters, "counters"));
      }
    };

    if (result === "ron" || result === "tsumo") {
      const wins = get(hand, "wins", null);
      if (!Array.isArray(wins) || !wins.length) fail(path + ".wins", "WIN_NEEDS_WINNER");
      if (result === "tsumo" && wins.length > 1) fail(path + ".wins", "ONE_SELF_DRAW");
      let discarder = null;
      let giver = null;
      // the seat that gave the open kan's tile pays the win on its replacement tile (001 §2.18)
      if (has(hand, "kan_from")) {
        if (rules.open_kan_rinshan !== "kan_giver") fail(path + ".kan_from", "NO_KAN_FROM");
        giver = seatOf(hand.kan_from, path + ".kan_from", WINDS);
      }
      if (result === "ron") discarder = seatOf(get(hand, "from", null), path + ".from", WINDS, "NOT_A_DISCARDER");
      const seen = [];
      wins.forEach((win, i) => {
        const wpath = `${path}.wins[${i}]`;
        if (!isDict(win)) fail(wpath, "WIN_OBJECT");
        const seat = seatOf(get(win, "seat", null), wpath + ".seat", WINDS);
        if (seat === discarder) fail(wpath + ".seat", "OWN_TILE");
        if (seen.includes(seat)) fail(wpath + ".seat", "WINS_ONCE");
        seen.push(seat);
        if (giver === seat) fail(path + ".kan_from", "KAN_FROM_WINNER");
        const base = basePoints(rules, win, result === "tsumo", wpath);
        const pao = paoOf(rules, win, seat, wpath);
        if (result === "ron") payments = payments.concat(ronPayments(base, seat, dealer, discarder, pao, counters));
        else if (giver) payments = payments.concat(ronPayments(base, seat, dealer, giver, pao, counters, "kan_from"));
        else if (pao) payments = payments.concat(paoTsumo(base, seat, dealer, pao, counters));
        else fromEach(seat, (payer, double) => up(base * double), "tsumo");
      });
      if (result === "ron") oneDiscard(rules, seen, discarder, path + ".wins");
      let first = seen[0];
      if (result === "ron") first = after(discarder).find((s) => seen.includes(s));
      const own = seen.filter((s) => riichi.includes(s) && s !== first);
      for (const s of own) payments.push(pay(null, s, STICK, "sticks"));
      const rest = sticks - own.length;
      if (rest) payments.push(pay(null, first, STICK * rest, "sticks"));
      sticks = 0;
      winners = seen;
      dealerStays = seen.includes(dealer);
      counterKept = dealerStays;
    } else if (result === "draw" || result === "nagashi") {
      if (result === "nagashi" && !rules.nagashi) fail(path + ".result", "NO_NAGASHI");
      const tenpai = seatList(hand, "tenpai", path);
      for (const seat of riichi)
        if (!tenpai.includes(seat)) fail(path + ".tenpai", "RIICHI_NOT_TENPAI", { seat });
      if (result === "draw" || rules.nagashi_noten) payments = payments.concat(notenPayments(tenpai));
      if (result === "nagashi") {
        const seat = seatOf(get(hand, "seat", null), path + ".seat", WINDS);
        fromEach(seat, (payer, double) => MANGAN * double, "nagashi");
        if (sticks) payments.push(pay(null, seat, STICK * sticks, "sticks"));
        sticks = 0;
        winners = [seat];
      }
      dealerStays = tenpai.includes(dealer);
    } else if (result === "abortive") {
      dealerStays = true;
    } else {
      const seat = seatOf(get(hand, "seat", null), path + ".seat", WINDS);
      for (const other of WINDS)
        if (other !== seat) payments.push(pay(seat, other, MANGAN * (seat === dealer || other === dealer ? 2 : 1), "chombo"));
      for (const s of riichi) payments.push(pay(null, s, STICK, "riichi back"));
      sticks = table.sticks;
    }

    const deltas = { E: 0, S: 0, W: 0, N: 0 };
    for (const p of payments) {
      if (p.payer) deltas[p.payer] -= p.amount;
      if (p.payee) deltas[p.payee] += p.amount;
    }
    for (const seat of WINDS) table.scores[seat] += deltas[seat];
    const played = {
      number,
      round_wind: table.passes < 4 ? "E" : "S",
      dealer,
      counters,
      sticks: sticksBefore,
      deltas,
      scores: Object.assign({}, table.scores),
      payments,
      winners,
    };
    table.sticks = sticks;
    if (result !== "chombo") {
      const passes = !dealerStays;
      if (result === "ron" || result === "tsumo") table.counters = counterKept ? counters + 1 : 0;
      else if (passes && rules.counters_on_pass === "return") table.counters = 0;
      else table.counters = counters + 1;
      if (passes) {
        table.dealer = (table.dealer + 1) % 4;
        table.passes += 1;
      }
    }
    if (table.passes >= 8 || (rules.end_below_zero && Math.min(...Object.values(table.scores)) < 0))
      table.over = true;
    return played;
  }

  function sticksAtEnd(rules, scores, sticks) {
    const final = Object.assign({}, scores);
    if (!sticks || rules.sticks_at_end === "table") return final;
    const best = Math.max(...Object.values(final));
    const tied = WINDS.filter((s) => final[s] === best);
    const all = Math.floor((sticks * STICK) / 100);
    const hundreds = Math.floor(all / tied.length);
    const extra = all % tied.length;
    tied.forEach((seat, i) => (final[seat] += 100 * (hundreds + (i < extra ? 1 : 0))));
    return final;
  }

  function playRiichi(rules, hands) {
    if (rules.game !== "riichi") fail("hands", "NOT_RIICHI_RULES");
    const table = { rules, scores: { E: 0, S: 0, W: 0, N: 0 }, dealer: 0, passes: 0, counters: 0, sticks: 0, over: false };
    for (const seat of WINDS) table.scores[seat] = rules.start_points;
    // Python's enumerate: the characters of a text, the keys of an object.
    if (!Array.isArray(hands)) hands = isDict(hands) ? Object.keys(hands) : Array.from(hands);
    const played = hands.map((hand, i) => playRiichiHand(table, hand, i + 1, `hands[${i}]`));
    const chombo = { E: 0, S: 0, W: 0, N: 0 };
    for (const hand of hands) if (hand.result === "chombo") chombo[hand.seat] += 1;
    return {
      ok: true,
      game: "riichi",
      scores: sticksAtEnd(rules, table.scores, table.sticks),
      chombo,
      over: table.over,
      dealer: WINDS[table.dealer],
      round_wind: table.passes < 4 ? "E" : "S",
      counters: table.counters,
      sticks_left: table.sticks,
      hands: played,
    };
  }

  // Sichuan (mahjong/hands/sichuan.py)
  const KONGS = ["open", "concealed", "added"];
  const NOT_WAITING = ["not_waiting", "pig", "pig_passive"];
  const KONG_POINTS = { open: 2, concealed: 2, added: 1 };
  const FANS_MAX = 99;
  const KONGS_MAX = 4;
  const PIG = 48;
  const HAND_KEYS = ["events", "exhausted"];
  const EVENT_KEYS = {
    kong: ["kong", "seat", "from", "from_hand"],
    hu: ["hu", "from", "self_draw", "robbing_kong", "after_kong"],
    false_hu: ["false_hu", "from", "waiting", "robbing_kong", "after_kong"],
    dead: ["dead"],
  };
  const fanPoints = (fans) => 2 ** Math.min(fans, 4);
  const at = (path, key) => (typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${key}` : key);

  function keysIn(obj, allowed, path) {
    for (const key of Object.keys(obj))
      if (!allowed.includes(key)) fail(at(path, key), "UNKNOWN_KEY", { key: shown(key, "json"), keys: allowed.join(", ") });
  }
  function required(obj, key, path) {
    if (!has(obj, key)) fail(at(path, key), "MISSING", { key });
    return obj[key];
  }
  function flag(obj, key, path) {
    const value = get(obj, key, false);
    if (typeof value !== "boolean") fail(at(path, key), "TRUE_OR_FALSE");
    return value;
  }
  function fansOf(value, path) {
    if (!whole(value) || value < 0 || value > FANS_MAX)
      fail(path, "FANS", { maximum: FANS_MAX, value: shown(value, "json") });
    return value;
  }
  function tableOf(seats) {
    const list = Array.isArray(seats) ? seats : [];
    if (![3, 4].includes(list.length) || new Set(list).size !== list.length || !list.every((s) => WINDS.includes(s)))
      fail("seats", "SICHUAN_TABLE");
    return WINDS.filter((w) => list.includes(w));
  }

  function sichuanHand(hand, seatList, dealer) {
    const seats = tableOf(seatList);
    if (!seats.includes(dealer)) fail("dealer", "DEALER_SEAT");
    if (!isDict(hand)) fail("", "SICHUAN_HAND_OBJECT");
    keysIn(hand, HAND_KEYS, "");
    const events = required(hand, "events", "");
    if (!Array.isArray(events)) fail("events", "EVENTS_LIST");
    const limit = seats.length - 1;
    const out = [];
    let payments = [];
    const kongs = [];
    const last = {};
    const dead = []; // 002 §2.8.3
    let nextDealer = dealer;

    const seat = (obj, key, path) => {
      const value = required(obj, key, path);
      if (typeof value !== "string" || !seats.includes(value))
        fail(at(path, key), "NOT_A_SEAT", { value: shown(value, "json"), seats: seats.join(", ") });
      if (out.includes(value)) fail(at(path, key), "ALREADY_OUT", { seat: value });
      return value;
    };
    const stillIn = (but) => seats.filter((s) => !out.includes(s) && s !== but);
    const payOne = (payer, payee, amount, why, event, kong) => {
      if (amount) payments.push({ payer, payee, amount, why, event, kong: kong === undefined ? null : kong });
    };
    const refund = (kong, event) => {
      if (kong.refunded || kong.robbed) return;
      kong.refunded = true;
      for (const [payer, amount] of kong.paid) payOne(kong.seat, payer, amount, "refund", event, kong.event);
    };
    const pig = (who, event) => {
      for (const other of seats) if (other !== who) payOne(who, other, PIG / (seats.length - 1), "pig", event);
    };
    const refundAll = (who, event) => kongs.filter((k) => k.seat === who).forEach((k) => refund(k, event));
    const lastKong = (who) => {
      if (who === null || !has(last, who)) return null;
      const kong = kongs.find((k) => k.event === last[who]);
      return kong && kong.seat === who ? kong : null;
    };

    const onKong = (event, i, path) => {
      keysIn(event, EVENT_KEYS.kong, path);
      const kind = event.kong;
      if (!KONGS.includes(kind)) fail(at(path, "kong"), "UNKNOWN_KONG", { kind: shown(kind, "json") });
      const maker = seat(event, "seat", path);
      if (kind === "open" && dead.includes(maker)) fail(at(path, "seat"), "DEAD_NO_CLAIM", { seat: maker });
      let discarder = null;
      if (kind === "open") {
        discarder = seat(event, "from", path);
        if (discarder === maker) fail(at(path, "from"), "OPEN_KONG_FROM_OTHER");
      } else if (has(event, "from")) fail(at(path, "from"), "ONLY_OPEN_KONG_FROM");
      if (has(event, "from_hand") && kind !== "added") fail(at(path, "from_hand"), "FROM_HAND_ADDED");
      const fromHand = flag(event, "from_hand", path);
      if (kongs.filter((k) => k.seat === maker && !k.robbed).length >= KONGS_MAX)
        fail(at(path, "seat"), "KONGS_FULL", { seat: maker, count: KONGS_MAX });
      const kong = { event: i, seat: maker, kind, paid: [], refunded: false, robbed: false };
      kongs.push(kong);
      let payers;
      if (kind === "open") {
        payers = [discarder];
        last[discarder] = i;
      } else payers = fromHand || dead.includes(maker) ? [] : stillIn(maker);
      for (const payer of payers) {
        kong.paid.push([payer, KONG_POINTS[kind]]);
        payOne(payer, maker, KONG_POINTS[kind], "kong", i);
      }
      last[maker] = i;
    };

    // the kong a claim on `discarder`'s tile robs or follows (002 §2.7.2 (5), §2.8.4 (3))
    const claimed = (discarder, robbing, after, path) => {
      const kong = lastKong(discarder);
      if (robbing && (kong === null || kong.kind !== "added"))
        fail(at(path, "robbing_kong"), "ROB_NEEDS_ADDED_KONG", { seat: discarder });
      if (after && kong === null) fail(at(path, "after_kong"), "AFTER_KONG_NEEDS_KONG", { seat: discarder });
      if (robbing) {
        kong.robbed = true;
        payments = payments.filter((p) => p.event !== kong.event);
      }
      return kong;
    };

    const onHu = (event, i, path) => {
      keysIn(event, EVENT_KEYS.hu, path);
      const wins = event.hu;
      if (!Array.isArray(wins) || !wins.length) fail(at(path, "hu"), "HU_LIST");
      const selfDraw = flag(event, "self_draw", path);
      const robbing = flag(event, "robbing_kong", path);
      const after = flag(event, "after_kong", path);
      if (selfDraw && has(event, "from")) fail(at(path, "from"), "HU_SELF_DRAW_OR_FROM");
      if (!selfDraw && !has(event, "from")) fail(at(path, "from"), "HU_NEEDS_FROM");
      for (const [key, on] of [["robbing_kong", robbing], ["after_kong", after]])
        if (on && selfDraw) fail(at(path, key), "HU_ON_OTHERS_TILE", { key });
      if (robbing && after) fail(at(path, "after_kong"), "ROB_OR_AFTER_KONG");
      if (selfDraw && wins.length > 1) fail(at(path, "hu"), "SEVERAL_HU_ON_DISCARD");
      const discarder = selfDraw ? null : seat(event, "from", path);
      const winners = [];
      wins.forEach((win, n) => {
        const where = at(at(path, "hu"), n);
        if (!isDict(win)) fail(where, "HU_OBJECT");
        keysIn(win, ["seat", "fans", "pig"], where);
        const who = seat(win, "seat", where);
        if (who === discarder) fail(at(where, "seat"), "OWN_DISCARD", { seat: who });
        if (dead.includes(who)) fail(at(where, "seat"), "DEAD_HU", { seat: who });
        if (winners.some(([w]) => w === who)) fail(at(where, "seat"), "HU_TWICE", { seat: who });
        winners.push([who, fansOf(required(win, "fans", where), at(where, "fans")), flag(win, "pig", where)]);
      });
      const kong = claimed(discarder, robbing, after, path);
      for (const [who, fans, isPig] of winners) {
        if (selfDraw) for (const payer of stillIn(who)) payOne(payer, who, fanPoints(fans) + 1, "self_draw", i);
        else payOne(discarder, who, fanPoints(fans), "hu", i);
        if (isPig) pig(who, i);
      }
      if (after) refund(kong, i);
      if (!out.length) nextDealer = winners.length === 1 ? winners[0][0] : discarder;
      out.push(...winners.map(([w]) => w));
      last[discarder || winners[0][0]] = i;
    };

    const onFalseHu = (event, i, path) => {
      keysIn(event, EVENT_KEYS.false_hu, path);
      const who = seat(event, "false_hu", path);
      required(event, "waiting", path);
      const waiting = flag(event, "waiting", path);
      const robbing = flag(event, "robbing_kong", path);
      const after = flag(event, "after_kong", path);
      for (const [key, on] of [["robbing_kong", robbing], ["after_kong", after]])
        if (on && !has(event, "from")) fail(at(path, key), "HU_ON_OTHERS_TILE", { key });
      if (robbing && after) fail(at(path, "after_kong"), "ROB_OR_AFTER_KONG");
      const discarder = has(event, "from") ? seat(event, "from", path) : null;
      if (discarder === who) fail(at(path, "from"), "OWN_DISCARD", { seat: who });
      const kong = claimed(discarder, robbing, after, path);
      for (const other of stillIn(who)) payOne(who, other, waiting ? 8 : 16, "false_hu", i);
      refundAll(who, i);
      if (after) refund(kong, i);
      last[who] = i;
      if (discarder !== null) last[discarder] = i;
    };

    const onDead = (event, i, path) => {
      keysIn(event, EVENT_KEYS.dead, path);
      const who = seat(event, "dead", path);
      if (dead.includes(who)) fail(at(path, "dead"), "DEAD_TWICE", { seat: who });
      dead.push(who);
      refundAll(who, i);
    };

    const handlers = { kong: onKong, hu: onHu, false_hu: onFalseHu, dead: onDead };
    events.forEach((event, i) => {
      const path = `events[${i}]`;
      if (out.length === limit) fail(path, "HAND_ENDED", { count: limit });
      const kinds = Object.keys(EVENT_KEYS).filter((k) => isDict(event) && has(event, k));
      if (kinds.length !== 1) fail(path, "ONE_EVENT");
      handlers[kinds[0]](event, i, path);
    });

    const exhausted = has(hand, "exhausted");
    if (exhausted) {
      if (out.length === limit) fail("exhausted", "WALL_DID_NOT_RUN_OUT", { count: limit });
      const given = hand.exhausted;
      if (!isDict(given)) fail("exhausted", "STATES_OBJECT");
      for (const who of Object.keys(given)) {
        if (!seats.includes(who))
          fail(at("exhausted", who), "NOT_A_SEAT", { value: shown(who, "json"), seats: seats.join(", ") });
        if (out.includes(who)) fail(at("exhausted", who), "STATE_OF_A_WINNER", { seat: who });
      }
      const states = [];
      for (const who of stillIn("")) {
        const where = at("exhausted", who);
        if (!has(given, who)) fail(where, "STATE_MISSING", { seat: who });
        const state = given[who];
        if (isDict(state) && has(state, "waiting")) {
          keysIn(state, ["waiting"], where);
          if (dead.includes(who)) fail(where, "DEAD_WAITING", { seat: who });
          states.push([who, fansOf(state.waiting, at(where, "waiting"))]);
        } else if (typeof state === "string" && NOT_WAITING.includes(state)) states.push([who, state]);
        else fail(where, "STATE_VALUE", { waiting: '{"waiting": fans}' });
      }
      const waiting = states.filter(([, s]) => typeof s === "number");
      const notWaiting = states.filter(([, s]) => typeof s !== "number");
      for (const [who] of notWaiting) refundAll(who, null);
      for (const [payer] of notWaiting)
        for (const [payee, fans] of waiting) payOne(payer, payee, fanPoints(fans), "waiting", null);
      for (const [who, state] of notWaiting) if (state === "pig") pig(who, null);
    } else if (out.length < limit) {
      fail("exhausted", "TOO_FEW_HU", { count: out.length, limit });
    }
    const points = {};
    for (const s of seats) points[s] = 0;
    for (const p of payments) {
      points[p.payer] -= p.amount;
      points[p.payee] += p.amount;
    }
    return { dealer, points, payments, hu: out, next_dealer: nextDealer, exhausted };
  }

  function playSichuan(hands, seatList, firstDealer) {
    const seats = tableOf(seatList);
    if (!seats.includes(firstDealer)) fail("first_dealer", "DEALER_SEAT");
    if (!Array.isArray(hands)) fail("hands", "HANDS_LIST");
    let dealer = firstDealer;
    const running = {};
    for (const s of seats) running[s] = 0;
    const played = hands.map((hand, n) => {
      let result;
      try {
        result = sichuanHand(hand, seats, dealer);
      } catch (error) {
        if (error instanceof HandError) error.path = `hands[${n}]` + (error.path ? "." + error.path : "");
        throw error;
      }
      for (const s of seats) running[s] += result.points[s];
      dealer = result.next_dealer;
      return Object.assign(result, { totals: Object.assign({}, running) });
    });
    return { ok: true, game: "sichuan", scores: running, next_dealer: dealer, hands: played };
  }

  function refused(call) {
    try {
      return call();
    } catch (error) {
      if (!(error instanceof HandError)) throw error;
      return { ok: false, error: { path: error.path, code: error.code, params: error.params, kinds: error.kinds } };
    }
  }

  window.SheetScore = {
    // winds: the table's seats (Sichuan: three at a three-player table); E deals first.
    play: (rules, hands, winds = WINDS, firstDealer = "E") =>
      refused(() => (rules.game === "sichuan" ? playSichuan(hands, typeof winds === "string" ? Array.from(winds) : winds, firstDealer) : playRiichi(rules, hands))),
    playHand: (hand, seats, dealer) =>
      refused(() => Object.assign({ ok: true }, sichuanHand(hand, seats, dealer))),
    cells,
  };
})();
