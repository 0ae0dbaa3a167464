// The session clock in the browser: counts down from the server's status, corrected for the
// difference between this device's clock and the server's, so every screen shows the same second.
// On the projector it also rings the bells (Web Audio, made here: no sound files) and flashes.
// Test hook: window.deskClock.rings lists every bell rung ({kind, at, audible, test}).
(function () {
  "use strict";

  var root = document.querySelector("[data-clock]");
  if (!root) return;
  var mode = root.dataset.mode; // "projector" | "desk" | "mini"
  var url = root.dataset.clock;
  var POLL = { projector: 2000, desk: 3000, mini: 20000 }[mode] || 10000;
  var RANK = { waiting: 0, running: 1, warning: 2, time_up: 3 };

  var hook = (window.deskClock = { rings: [], offset: 0, state: null, remaining: null });
  var status = null;
  var samples = []; // {rtt, offset} of recent polls: the fastest round trip has the least error
  var offset = 0; // server time − this device's time, in ms
  var lastActive = null; // the last state seen that was not "paused", for the bells
  var lastKey = null;

  function serverNow() {
    return Date.now() + offset;
  }

  function take(data, offsetGuess) {
    status = data;
    if (offsetGuess !== undefined) {
      offset = offsetGuess;
      hook.offset = offset;
    }
  }

  function poll() {
    var t0 = Date.now();
    fetch(url, { cache: "no-store", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (data) {
        if (!data) return;
        var t1 = Date.now();
        samples.push({ rtt: t1 - t0, offset: data.server_time + (t1 - t0) / 2 - t1 });
        if (samples.length > 10) samples.shift();
        var best = samples.reduce(function (a, b) {
          return b.rtt < a.rtt ? b : a;
        });
        if (mode === "projector" && status && shouldReload(data)) {
          window.location.reload();
          return;
        }
        take(data, best.offset);
        tick();
      })
      .catch(function () {});
  }

  // The projector reloads for a new session, or when the seating it shows has changed.
  function shouldReload(data) {
    if (String(data.session || "") !== (root.dataset.session || "")) return true;
    return seatingShown(data) && data.revision !== status.revision && data.state === "waiting";
  }

  function seatingShown(data) {
    if (data.seating_until === -1) return true;
    return !!data.seating_until && serverNow() < data.seating_until;
  }

  // The state and remaining seconds now, from the last status and the time since.
  function current() {
    if (!status || status.session === null) return null;
    var remaining = status.remaining;
    var state = status.state;
    if (status.counting) {
      remaining = status.remaining - (serverNow() - status.server_time) / 1000;
      state = remaining <= 0 ? "time_up" : remaining <= status.warning_at ? "warning" : "running";
    }
    return { state: state, remaining: remaining };
  }

  function mmss(seconds) {
    var negative = seconds < 0;
    var total = negative ? Math.floor(-seconds) : Math.ceil(seconds - 1e-9);
    var h = Math.floor(total / 3600);
    var m = Math.floor((total % 3600) / 60);
    var s = total % 60;
    var text = (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s);
    return (negative && total > 0 ? "\u2212" : "") + text;
  }

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function set(selector, text) {
    root.querySelectorAll(selector).forEach(function (el) {
      if (el.textContent !== text) el.textContent = text;
    });
  }

  function tick() {
    var now = current();
    if (!now) {
      if (mode === "mini") root.hidden = true;
      return;
    }
    hook.state = now.state;
    hook.remaining = now.remaining;
    // The hall sees 0:00 once time is up; the desk also sees how far past it play has run.
    set("[data-clock-time]", mmss(mode === "desk" ? now.remaining : Math.max(0, now.remaining)));
    set("[data-clock-state]", status.labels[now.state] || "");
    set("[data-clock-title]", status.title || "");
    set("[data-clock-text]", (status.texts && status.texts[now.state]) || "");
    if (mode === "mini") root.hidden = now.state === "ended";
    document.body.dataset.state = now.state;
    root.querySelectorAll("[data-clock-state]").forEach(function (el) {
      el.dataset.state = now.state;
    });
    if (mode === "projector") {
      extras(now);
      leading();
      var seating = document.querySelector("[data-clock-seating]");
      if (seating) {
        var hide = !seatingShown(status);
        if (seating.hidden !== hide) {
          seating.hidden = hide;
          if (!hide) paginate();
        }
      }
      bells(now);
    }
    if (mode === "desk") {
      document.querySelectorAll("tr[data-state=playing] td[data-table-left]").forEach(function (td) {
        if (status.counting || now.state === "paused") {
          td.textContent = mmss(now.remaining + Number(td.dataset.tableLeft || 0));
        }
      });
    }
  }

  // The leading tables' scores from their hands (?leading=N on the projector's address).
  function leading() {
    var list = root.querySelector("[data-clock-leading]");
    if (!list || !status.leading) return;
    var text = JSON.stringify(status.leading);
    if (list.dataset.last === text) return;
    list.dataset.last = text;
    list.textContent = "";
    var words = status.leading_labels || {};
    status.leading.forEach(function (t) {
      var li = document.createElement("li");
      var head = document.createElement("b");
      head.textContent = t.label + " \u00b7 " + t.hands + " " + (words.hands || "") +
        (t.over ? " \u00b7 " + words.over : t.last ? " \u00b7 " + words.last : "");
      li.appendChild(head);
      t.seats.forEach(function (s) {
        var span = document.createElement("span");
        span.className = "lead-seat";
        // the page's language, not the browser's: "12 300" on a Russian page (issue 37)
        var lang = document.documentElement.lang || undefined;
        span.textContent = s.wind + " " + s.name + " " + (s.score === null ? "\u2013" : s.score.toLocaleString(lang));
        li.appendChild(span);
      });
      list.appendChild(li);
    });
  }

  function extras(now) {
    var list = root.querySelector("[data-clock-extra]");
    if (!list) return;
    var items = (status.extra || []).map(function (e) {
      var left = now.remaining + e.seconds;
      var minutes = Math.abs(Math.round(e.seconds / 60));
      return [e.label, (e.seconds > 0 ? "+" : "\u2212") + minutes + "\u2032", left > 0 ? mmss(left) : "0:00"];
    });
    var text = JSON.stringify(items);
    if (list.dataset.last === text) return;
    list.dataset.last = text;
    list.textContent = "";
    items.forEach(function (item) {
      var li = document.createElement("li");
      var b = document.createElement("b");
      b.textContent = item[0];
      li.appendChild(b);
      li.appendChild(document.createTextNode(" " + item[1] + " · " + item[2]));
      list.appendChild(li);
    });
  }

  // A bell rings when the clock moves up into a state while this page watches: never on a
  // reload, never twice for one moment. A pause keeps the state it interrupted.
  function bells(now) {
    if (now.state === "paused") return;
    var key = String(status.session);
    if (lastActive !== null && key === lastKey && now.state in RANK && lastActive in RANK) {
      if (RANK[now.state] > RANK[lastActive]) {
        if (now.state === "running" && lastActive === "waiting" && status.signals.start) ring("start");
        if (now.state === "warning") ring("warning");
        if (now.state === "time_up" && status.signals.time_up) ring("time_up");
      }
    }
    lastActive = now.state;
    lastKey = key;
  }

  // --- sound ----------------------------------------------------------------------------------
  var ctx = null;
  function audio() {
    if (!ctx) {
      var AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return null;
      ctx = new AC();
    }
    return ctx;
  }

  // One struck partial: a quick attack and an exponential decay.
  function partial(c, freq, at, duration, gain) {
    var osc = c.createOscillator();
    var amp = c.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    amp.gain.setValueAtTime(0.0001, at);
    amp.gain.exponentialRampToValueAtTime(gain, at + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, at + duration);
    osc.connect(amp).connect(c.destination);
    osc.start(at);
    osc.stop(at + duration + 0.05);
  }

  var SOUNDS = {
    // start: one bright bell
    start: function (c, t) {
      [1046.5, 2093, 3140].forEach(function (f, i) {
        partial(c, f, t, 1.6, [0.35, 0.12, 0.05][i]);
      });
    },
    // warning: a two-tone chime, twice
    warning: function (c, t) {
      [0, 1.4].forEach(function (d) {
        partial(c, 880, t + d, 1.2, 0.35);
        partial(c, 1760, t + d, 0.8, 0.08);
        partial(c, 659.3, t + d + 0.55, 1.4, 0.35);
        partial(c, 1318.5, t + d + 0.55, 0.9, 0.08);
      });
    },
    // time up: a low gong, three strokes, with the inharmonic partials of a struck plate
    time_up: function (c, t) {
      [0, 2.2, 4.4].forEach(function (d) {
        [1, 1.48, 2.1, 2.76, 3.5].forEach(function (ratio, i) {
          partial(c, 110 * ratio, t + d, 3.2 - i * 0.4, [0.5, 0.25, 0.18, 0.1, 0.06][i]);
        });
      });
    },
  };

  function play(kind) {
    var c = audio();
    if (!c) return false;
    if (c.state === "suspended") c.resume();
    SOUNDS[kind](c, c.currentTime + 0.05);
    return c.state === "running";
  }

  function ring(kind, test) {
    var audible = false;
    try {
      audible = play(kind);
    } catch (e) {
      audible = false;
    }
    flash(kind);
    hook.rings.push({ kind: kind, at: serverNow(), audible: audible, test: !!test });
    document.dispatchEvent(new CustomEvent("desk:bell", { detail: { kind: kind, test: !!test } }));
  }

  function flash(kind) {
    var el = document.getElementById("flash");
    if (!el) return;
    el.className = "";
    void el.offsetWidth; // restart the animation
    el.className = "on " + kind;
    setTimeout(function () {
      el.className = "";
    }, 4000);
  }

  function audioNote() {
    var note = document.querySelector("[data-audio-note]");
    var c = audio();
    if (!note || !c) return;
    note.hidden = c.state === "running";
    var unlock = function () {
      c.resume().then(function () {
        note.hidden = true;
      });
    };
    document.addEventListener("click", unlock);
    document.addEventListener("keydown", unlock);
  }

  // --- seating pages ----------------------------------------------------------------------------
  // The whole field rarely fits one screen: the list is cut into pages that fit, shown in turn.
  var pages = [];
  var page = 0;
  function paginate() {
    var list = document.querySelector(".seating-columns");
    var section = document.querySelector("[data-clock-seating]");
    if (!list || !section || section.hidden) return;
    var items = Array.prototype.slice.call(list.children);
    if (getComputedStyle(list).overflowY === "visible") {
      // a phone: the page scrolls, so the whole list is one page (desk.css)
      pages = [[0, items.length]];
      page = 0;
      showPage();
      return;
    }
    items.forEach(function (li) {
      li.hidden = true;
    });
    pages = [];
    var box = list.getBoundingClientRect();
    var outside = function (li) {
      var r = li.getBoundingClientRect();
      return r.right > box.right + 1 || r.bottom > box.bottom + 1;
    };
    var start = 0;
    while (start < items.length) {
      var end = start;
      while (end < items.length) {
        items[end].hidden = false;
        if (end > start && outside(items[end])) {
          items[end].hidden = true;
          break;
        }
        end += 1;
      }
      pages.push([start, end]);
      for (var i = start; i < end; i++) items[i].hidden = true;
      start = end;
    }
    page = page % Math.max(1, pages.length);
    showPage();
  }
  function showPage() {
    var list = document.querySelector(".seating-columns");
    if (!list || !pages.length) return;
    var items = list.children;
    var range = pages[page];
    for (var i = 0; i < items.length; i++) items[i].hidden = i < range[0] || i >= range[1];
    var label = document.querySelector("[data-seating-page]");
    if (label) {
      var first = items[range[0]].querySelector(".who").textContent;
      var last = items[range[1] - 1].querySelector(".who").textContent;
      label.textContent = pages.length > 1 ? first + " – " + last + " (" + (page + 1) + "/" + pages.length + ")" : "";
    }
  }
  if (mode === "projector") {
    setInterval(function () {
      if (pages.length > 1) {
        page = (page + 1) % pages.length;
        showPage();
      }
    }, 10000);
    window.addEventListener("resize", paginate);
  }

  // --- start ----------------------------------------------------------------------------------
  var embedded = document.getElementById("clock-data");
  if (embedded) {
    var data = JSON.parse(embedded.textContent);
    take(data, data.server_time - Date.now());
  }
  if (mode === "projector") {
    audioNote();
    var test = document.querySelector("[data-test-bell]");
    if (test) {
      test.addEventListener("click", function () {
        ring(document.getElementById("test-kind").value, true);
      });
    }
    var full = document.querySelector("[data-fullscreen]");
    if (full) {
      full.addEventListener("click", function () {
        if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen();
      });
    }
  }
  tick();
  poll();
  setInterval(tick, 200);
  setInterval(function () {
    if (!document.hidden) poll();
  }, POLL);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) poll();
  });
})();
