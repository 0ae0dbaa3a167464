/* The table page's words (sheet/views.py, sheet/labels.py): its labels filled in, numbers as
   the reader writes them, and a refusal of the hand arithmetic in the reader's language. The
   arithmetic (score.js) refuses a hand by a code of mahjong/hands/messages.py and its params;
   the page's start-up data holds the translation of every code (`messages`), so this file
   holds no message of its own. No document needed: tests/unit/mahjong/test_hand_corpus.py runs it. */
(function (Sheet) {
  "use strict";
  var whole = function (v) { return typeof v === "number" && Number.isInteger(v); };

  function num(n, locale) { return (n < 0 ? "\u2212" : "") + Math.abs(n).toLocaleString(locale); }
  function signed(n, locale) { return n > 0 ? "+" + num(n, locale) : num(n, locale); }
  // a label with its %(name)s or {name} filled in
  function fmt(template, params, locale) {
    return String(template).replace(/%\((\w+)\)s|\{(\w+)\}/g, function (m, a, b) {
      var v = params[a || b];
      return typeof v === "number" ? num(v, locale) : v;
    });
  }

  // A value the hands hold where none of its kind belongs, as the refusal's message shows it
  // (mahjong/hands/errors.py, Shown): a riichi message as Python writes it ("repr"), a Sichuan
  // one as JSON cut at 40 characters ("json"). Written here for what the page's forms can
  // hold — a text, nothing, yes or no, a whole number — the same as the desk writes it; any
  // other value reaches the desk only in a request the page never makes, and the desk answers
  // it in its own words.
  function shown(value, style) {
    if (style === "json") {
      var text = Array.from(JSON.stringify(value === undefined ? null : value));
      return text.length <= 40 ? text.join("") : text.slice(0, 39).join("") + "\u2026";
    }
    if (value === null || value === undefined) return "None";
    if (typeof value === "boolean") return value ? "True" : "False";
    if (typeof value === "string") return "'" + value + "'";
    return JSON.stringify(value);
  }

  // core.errors.rule_message's filling: the code's template in the reader's language (the
  // start-up data's `messages`), whole numbers grouped, the words among the params translated.
  function refusal(error, messages, locale) {
    var kinds = error.kinds || {};
    return String(messages[error.code] || error.code).replace(/\{(\w+)\}/g, function (m, name) {
      var value = error.params[name], kind = kinds[name];
      if (kind === "word") return messages[value] || value;
      if (kind) return shown(value, kind);
      if (whole(value)) return value.toLocaleString(locale);
      if (typeof value === "string") return value;
      return shown(value, "repr"); // str() of what is no text is its repr
    });
  }

  // a refusal with the place in the hands it names, as the desk writes it ("hands[2].wins[0].pao: …")
  function problem(error, messages, locale) {
    return (error.path ? error.path + ": " : "") + refusal(error, messages, locale);
  }

  Sheet.words = {num: num, signed: signed, fmt: fmt, refusal: refusal, problem: problem};
})(window.Sheet = window.Sheet || {});
