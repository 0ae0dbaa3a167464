// A mirrored page's "Last heard from the desk": the page is kept by its revision, which a
// heartbeat does not bump, so the time is read again from /api/heard/… every 30 s.
(function () {
  "use strict";
  var line = document.getElementById("mirror-line");
  if (!line || !window.fetch) return;
  var shown = line.querySelector(".mirror-heard");
  function refresh() {
    fetch(line.getAttribute("data-heard"), { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && data.heard) shown.textContent = data.heard; })
      .catch(function () {});
  }
  refresh();
  setInterval(refresh, 30000);
})();
