/* Pieces of the table page: elements made from a tag, attributes and children; the seats as
   chips to tap; a labelled list to pick from. A pick redraws the form (view.js). */
(function (Sheet) {
  "use strict";
  var store = Sheet.store;
  var L = store.L, winds = store.winds, name = store.name;
  function entryChanged(keepForm) { Sheet.view.entryChanged(keepForm); }

  function el(tag, attrs) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), v);
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (var i = 2; i < arguments.length; i++) add(node, arguments[i]);
    return node;
  }
  function add(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { add(node, c); }); return; }
    node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
  function fill(id) {
    var node = document.getElementById(id);
    node.textContent = "";
    for (var i = 1; i < arguments.length; i++) add(node, arguments[i]);
  }

  function chips(label, chosen, onpick, opts) {
    opts = opts || {};
    return el("fieldset", {class: "chips"}, el("legend", {text: label}),
      winds().map(function (w) {
        var on = Array.isArray(chosen) ? chosen.indexOf(w) >= 0 : chosen === w;
        var off = opts.except && opts.except.indexOf(w) >= 0;
        return el("button", {type: "button", class: on ? "chip on" : "chip", disabled: off,
          "aria-pressed": on ? "true" : "false",
          onclick: function () { onpick(w); entryChanged(); }},
          el("b", {text: L.winds[w]}), " ", el("span", {text: name(w)}));
      }));
  }
  function select(label, value, options, onchange) {
    return el("label", {class: "pick"}, label + " ",
      el("select", {onchange: function (ev) { onchange(ev.target.value); entryChanged(); }},
        options.map(function (o) {
          return el("option", {value: o[0], selected: String(o[0]) === String(value)}, o[1]);
        })));
  }

  Sheet.dom = {el: el, add: add, fill: fill, chips: chips, select: select};
})(window.Sheet = window.Sheet || {});
