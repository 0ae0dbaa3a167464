/* The table page talking to the desk: `state.json` (what the table has) and `act/` (one
   change as JSON). The changes waiting on the device (store.js) go up one at a time, in order;
   only a network failure and the desk's own errors (5xx) are sent again, every 3 s. A change
   the desk refuses (4xx) is set aside with the desk's words; a hand another device recorded
   otherwise (409) waits for the players to decide (`resolve`). */
(function (Sheet) {
  "use strict";
  var store = Sheet.store;
  var B = store.B, L = store.L, S = store.S, save = store.save, uuid = store.uuid;
  S.tag = B.state_tag || ""; // the ETag of the state the page has (state.json)
  function render() { Sheet.view.render(); }
  function fmt(template, params) { return Sheet.words.fmt(template, params, store.LANG); }

  // --- talking to the desk ------------------------------------------------------------------
  // `tag`: the ETag of the state the page holds (If-None-Match); the desk answers 304, no
  // body, when the table's state is still that one
  function request(url, body, tag) {
    var ctl = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (ctl) ctl.abort(); }, 8000);
    var init = body ? {method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRFToken": B.csrf}} : {};
    if (tag) init.headers = {"If-None-Match": tag};
    init.cache = "no-store";
    init.credentials = "same-origin";
    if (ctl) init.signal = ctl.signal;
    return fetch(url, init).then(function (r) {
      clearTimeout(timer);
      // the form token refused (a phone that logged in meanwhile, say): only a reload helps
      if (r.status === 403) return {status: 403, body: {error: L.reload}};
      var etag = r.headers.get("ETag") || "";
      return r.json().then(function (j) { return {status: r.status, body: j || {}, tag: etag}; },
        function () { return {status: r.status, body: {}, tag: etag}; });
    }, function (e) { clearTimeout(timer); throw e; });
  }
  function refresh() {
    if (S.sending || S.queue.length) return flush();
    return request(B.state_url, null, S.tag).then(function (r) {
      if (r.status === 200) { S.tag = r.tag; took(r.body); }
      else if (r.status === 304) unchanged();
    }, offline);
  }
  // the desk has nothing new: the page keeps its state (and the moment it had its clock)
  function unchanged() { S.online = true; S.failing = false; render(); }
  function took(state) {
    if (!state.clock) { // an answer to a change: the clock is the one the page has
      state.clock = S.server.clock; state.last_hand = S.server.last_hand;
      S.tag = ""; // a state of the page's own making: the next refresh takes the desk's whole
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
    var body = {action: q.kind, client_id: q.id, device: "device" in q ? q.device : store.seatOf(S.device)};
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
        // a hand the arithmetic refused comes as its code and params, put in the reader's
        // words from the start-up data (words.js), as the preview's own refusals
        park(q, r.body.refusal ? Sheet.words.problem(r.body.refusal, B.messages, store.LANG) :
          r.body.error || fmt(L.refused_status, {n: r.status}));
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
    q.id = q.id || uuid(); q.at = Date.now(); q.device = store.seatOf(S.device);
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

  Sheet.wire = {refresh: refresh, flush: flush, offline: offline, enqueue: enqueue, resolve: resolve};
})(window.Sheet = window.Sheet || {});
