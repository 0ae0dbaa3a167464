// Small progressive enhancements; every page works without them.
(function () {
  "use strict";

  // The language switcher goes as soon as a language is picked; its button is for no-JS.
  document.documentElement.classList.add("js");
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });

  // Live regions refresh themselves while a session is on (issue 26). A visitor's page's
  // region (data-revalidate) has the browser revalidate its copy ("no-cache"): a refresh that
  // finds nothing new costs a 304 and no body (the server's ETag, public/cache.py), and the
  // kept copy comes back here unchanged; a staff page's is never stored ("no-store"). News is
  // patched in node by node: what reads the same stays the same element, so a phone keeps its
  // scroll, its focus and the row its reader was on, and only changed cells are redrawn.
  function sameAttributes(old, fresh) {
    var i, a;
    for (i = old.attributes.length - 1; i >= 0; i--) {
      a = old.attributes[i].name;
      if (!fresh.hasAttribute(a)) old.removeAttribute(a);
    }
    for (i = 0; i < fresh.attributes.length; i++) {
      a = fresh.attributes[i];
      if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
    }
  }
  function patchChildren(old, fresh) {
    var olds = Array.prototype.slice.call(old.childNodes);
    var news = Array.prototype.slice.call(fresh.childNodes);
    if (olds.length !== news.length) {
      old.textContent = "";
      news.forEach(function (node) { old.appendChild(node); });
      return;
    }
    for (var i = 0; i < olds.length; i++) patch(olds[i], news[i]);
  }
  var keepNode = null; // a node patch() leaves as it is (the standings' rows, patched apart)
  function patch(old, fresh) {
    if (old === keepNode) return;
    if (old.nodeType !== fresh.nodeType || old.nodeName !== fresh.nodeName) {
      old.replaceWith(fresh);
    } else if (old.nodeType !== 1) {
      if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    } else if (!old.isEqualNode(fresh)) {
      sameAttributes(old, fresh);
      patchChildren(old, fresh);
    }
  }
  var shown = new WeakMap(); // region -> the HTML last put in it

  // The standings' live region (data-tag: the content it shows, issue 39) asks with that tag
  // itself and gets a 304, only what changed since (JSON: applyDiff) or the whole region; see
  // public/cache/regions.py, whose `apply` is this same algorithm in Python.
  function bare(tag) { return (tag || "").replace(/^W\//, "").replace(/"/g, "").replace(/-gz$/, ""); }
  function applyDiff(region, d) {
    var tbody = region.querySelector("tbody");
    if (!tbody) return false;
    var byKey = {};
    var rows = Array.prototype.slice.call(tbody.querySelectorAll(":scope > tr[data-key]"));
    var ranks = rows.map(function (tr) { return tr.cells[0].textContent; });
    rows.forEach(function (tr) { byKey[tr.dataset.key] = tr; });
    d.gone.forEach(function (key) {
      if (byKey[key]) { byKey[key].remove(); delete byKey[key]; }
    });
    var holder = document.createElement("tbody");
    Object.keys(d.rows).forEach(function (key) {
      holder.innerHTML = d.rows[key];
      var tr = holder.firstElementChild;
      if (byKey[key]) {
        var old = byKey[key];
        tr.className = old.className;
        tr.cells[0].textContent = old.cells[0].textContent;
        patch(old, tr); // the same element, only its changed cells redrawn
      } else {
        byKey[key] = tr;
      }
    });
    d.moves.forEach(function (move) {
      tbody.insertBefore(byKey[move[0]], move[1] === null ? null : byKey[move[1]]);
    });
    rows = Array.prototype.slice.call(tbody.querySelectorAll(":scope > tr[data-key]"));
    while (ranks.length < rows.length) ranks.push("");
    d.ranks.forEach(function (run) {
      run[1].forEach(function (text, i) { ranks[run[0] + i] = text; });
    });
    rows.forEach(function (tr, i) {
      if (tr.cells[0].textContent !== ranks[i]) tr.cells[0].textContent = ranks[i];
      var cls = i % 2 ? "odd" : "even";
      if (tr.className !== cls) tr.className = cls;
    });
    if (d.head !== undefined) {
      var fresh = document.createElement(region.tagName);
      fresh.innerHTML = d.head + d.tail;
      keepNode = tbody;
      try { patchChildren(region, fresh); } finally { keepNode = null; }
      var now = region.querySelector("tbody"); // redrawn whole (its parts changed in number)
      if (now !== tbody) now.replaceWith(tbody);
    }
    return true;
  }
  function refreshByTag(region) {
    var url = new URL(window.location.href);
    url.searchParams.set("partial", "1");
    var headers = { "X-Requested-With": "fetch", "If-None-Match": region.dataset.tag };
    fetch(url, { headers: headers, cache: "no-store" })
      .then(function (r) {
        if (r.status !== 200) return null; // 304: nothing new
        var tag = r.headers.get("ETag") || "";
        var json = (r.headers.get("Content-Type") || "").indexOf("application/json") === 0;
        return (json ? r.json() : r.text()).then(function (body) {
          if (json) {
            if (body.from !== bare(region.dataset.tag) || !applyDiff(region, body)) {
              region.dataset.tag = ""; // not what it holds: the whole region next time
              return;
            }
          } else {
            var fresh = document.createElement(region.tagName);
            fresh.innerHTML = body;
            patchChildren(region, fresh);
          }
          region.dataset.tag = tag;
        });
      })
      .catch(function () {});
  }
  function refresh(region) {
    if ("tag" in region.dataset) { refreshByTag(region); return; }
    var url = new URL(window.location.href);
    url.searchParams.set("partial", "1");
    var mode = "revalidate" in region.dataset ? "no-cache" : "no-store";
    fetch(url, { headers: { "X-Requested-With": "fetch" }, cache: mode })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html !== null && html !== shown.get(region)) {
          var fresh = document.createElement(region.tagName);
          fresh.innerHTML = html;
          patchChildren(region, fresh);
          shown.set(region, html); // only once it is in: a failed patch is tried again
        }
      })
      .catch(function () {});
  }
  // Pages opened during a break start refreshing once play begins: they poll slowly then.
  document.querySelectorAll("[data-live]").forEach(function (region) {
    var period = Number(region.dataset.period) || (region.dataset.live === "1" ? 15000 : 60000);
    setInterval(function () { if (!document.hidden) refresh(region); }, period);
  });

  // Find my table: search as you type.
  var search = document.querySelector("form[data-live-search]");
  if (search) {
    var target = document.querySelector(search.dataset.liveSearch);
    var timer;
    search.querySelector("input").addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var url = new URL(search.action || window.location.href);
        url.searchParams.set("q", search.querySelector("input").value);
        history.replaceState(null, "", url);
        refresh(target);
      }, 250);
    });
  }

  // Check-in: search as you type, one click to check in without reloading. The server folds
  // the names (accents, case, apostrophes: core/search.py) and answers which players it finds;
  // an answer that arrives after a newer question is dropped.
  var filter = document.getElementById("checkin-search");
  if (filter) {
    var asked = 0, timer;
    var find = function () {
      var question = ++asked;
      var url = new URL(filter.form.action || window.location.href);
      url.searchParams.set("q", filter.value);
      return fetch(url, { headers: { "X-Requested-With": "fetch" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (data === null || question !== asked) return false;
          var found = {};
          data.players.forEach(function (pk) { found[pk] = true; });
          document.querySelectorAll("#checkin-table tbody tr[data-player]").forEach(function (tr) {
            tr.hidden = !found[tr.dataset.player];
          });
          history.replaceState(null, "", url);
          return true;
        })
        .catch(function () { return false; });
    };
    // Enter: the one player found is checked in (not out: a second Enter does nothing); of
    // several, the first one's button takes the focus, and Tab walks the others.
    filter.form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clearTimeout(timer);
      find().then(function (answered) {
        if (!answered) return;
        var shown = document.querySelectorAll("#checkin-table tbody tr[data-player]:not([hidden]) form.checkin-form");
        if (shown.length === 1) {
          if (shown[0].querySelector("input[name=checked_in]").value === "1") shown[0].requestSubmit();
          else shown[0].querySelector("button").focus();
        } else if (shown.length > 1) {
          shown[0].querySelector("button").focus();
        }
      });
    });
    filter.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(find, 120);
    });
    document.querySelectorAll("form.checkin-form").forEach(function (form) {
      form.addEventListener("submit", function (ev) {
        ev.preventDefault();
        fetch(form.action, { method: "POST", body: new FormData(form), headers: { "X-Requested-With": "fetch" } })
          .then(function (r) { return r.json(); })
          .then(function (data) {
            var input = form.querySelector("input[name=checked_in]");
            var button = form.querySelector("button");
            input.value = data.checked_in ? "0" : "1";
            button.textContent = data.checked_in ? button.dataset.on || "✓" : button.dataset.off || "+";
            button.className = data.checked_in ? "checked" : "secondary";
            // The server's own words: "1 substitute", "2 substitutes" in every language.
            document.getElementById("checkin-counts").innerHTML = data.counts_html;
            filter.focus();
            filter.select();
          });
      });
    });
  }

  // Result entry: Enter moves to the next field, the last one saves; a running sum shows mistakes.
  var entry = document.getElementById("result-form");
  if (entry) {
    // Enter walks the four scores (chombo is rare: reach it with Tab); on the last it saves.
    var inputs = Array.prototype.slice.call(entry.querySelectorAll("input.score"));
    var sum = document.getElementById("sum");
    var update = function () {
      var total = 0, filled = 0;
      entry.querySelectorAll("input.score").forEach(function (i) {
        if (i.value !== "") { total += parseInt(i.value, 10) || 0; filled++; }
      });
      // Nothing typed yet is neither right nor wrong: a green 0 on an empty Sichuan form
      // (whose scores sum to 0) read as "done" (issue 23).
      if (!filled) { sum.textContent = "—"; sum.className = "empty"; return; }
      // Told by a mark and words, not by its colour alone: "✓ 120,000", "✗ 118,000 · 2,000 short".
      var lang = document.documentElement.lang || undefined;
      var gap = total - parseInt(sum.dataset.target, 10);
      var text = total.toLocaleString(lang);
      if (gap !== 0) {
        var words = gap < 0 ? sum.dataset.short : sum.dataset.over;
        text += " · " + words.replace("{points}", Math.abs(gap).toLocaleString(lang));
      }
      sum.textContent = (gap === 0 ? "✓ " : "✗ ") + text;
      sum.className = gap === 0 ? "ok" : "bad";
    };
    inputs.forEach(function (input, n) {
      input.addEventListener("input", update);
      input.addEventListener("keydown", function (ev) {
        if (ev.key === "Enter" && n < inputs.length - 1) {
          ev.preventDefault();
          inputs[n + 1].focus();
          inputs[n + 1].select();
        }
      });
    });
    update();
    if (inputs.length) { inputs[0].focus(); inputs[0].select(); }
  }
})();

// Balanced plan: poll the search's progress and reload when it is done.
(function () {
  var box = document.getElementById("plan-progress");
  if (!box) return;
  var step = document.getElementById("plan-step");
  var poll = function () {
    fetch(box.dataset.status, { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (data.status !== "running" || data.stale) { window.location.reload(); return; }
        // numbers in the page's language ("12,5 s" on a Russian page: issue 37)
        var lang = document.documentElement.lang || undefined;
        var n = function (v) { return typeof v === "number" ? v.toLocaleString(lang) : v; };
        step.textContent = n(data.seconds) + " s · " + n(data.step) + (data.cost !== null && data.cost !== undefined ? " · " + n(data.cost) : "");
        setTimeout(poll, 700);
      })
      .catch(function () { setTimeout(poll, 2000); });
  };
  poll();
})();

// Swap or move: show the warnings of the change before it is made.
(function () {
  var form = document.querySelector("form.seat-change");
  if (!form) return;
  var list = document.getElementById("seat-warnings");
  var check = function () {
    var a = form.elements.a.value;
    var b = form.elements.b.value;
    var table = form.elements.table.value;
    var wind = form.elements.wind.value;
    list.innerHTML = "";
    if (!a || (!b && !(table && wind))) return;
    var url = new URL(form.dataset.check, window.location.href);
    url.searchParams.set("a", a);
    if (b) { url.searchParams.set("b", b); } else { url.searchParams.set("table", table); url.searchParams.set("wind", wind); }
    fetch(url, { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        list.innerHTML = "";
        data.warnings.forEach(function (text) {
          var li = document.createElement("li");
          li.textContent = text;
          list.appendChild(li);
        });
        list.dataset.count = String(data.warnings.length);
      });
  };
  ["a", "b", "table", "wind"].forEach(function (name) {
    form.elements[name].addEventListener("change", check);
  });
})();
