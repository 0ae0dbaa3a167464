// The hands typed at the desk (desk/views_hands.py): Ctrl+Enter (Cmd+Enter) checks the lines.
(function () {
  "use strict";
  var text = document.querySelector("#hands-form textarea");
  var check = document.getElementById("check");
  if (!text || !check) return;
  text.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      check.form.requestSubmit(check);
    }
  });
  // Back from a check with an error: the caret goes to the line it names.
  var errors = document.getElementById("hands-errors");
  if (errors && errors.dataset.line) {
    var lines = text.value.split("\n"), at = 0, n = Number(errors.dataset.line);
    for (var i = 0; i < n - 1 && i < lines.length; i++) at += lines[i].length + 1;
    text.focus();
    text.setSelectionRange(at, at + (lines[n - 1] || "").length);
  } else if (document.activeElement === text) {
    // Otherwise the caret waits after the last hand, for the next one.
    text.setSelectionRange(text.value.length, text.value.length);
  }
})();
