// Shared helpers for the board pictures. Each game's picture lives in
// /static/boards/<game-id>.js and registers itself:
//
//   KM.boards["kings-kilt"] = {
//     draw(view, b) -> SVGElement   // b = board context (below); reads only the view
//     targets(text, view) -> [key]  // the picture elements a legal move belongs to
//   };
//
// While drawing, a picture marks clickable elements with b.key(el, key). The page
// gives each element whose key belongs to a legal move the class "target" and a
// click handler: one move is played at once, several open a small menu.
"use strict";
window.KM = window.KM || {};
KM.boards = KM.boards || {};

KM.NS = "http://www.w3.org/2000/svg";

// S("rect", {x: 1, class: "a"}, child, "text", ...) -> an SVG element.
KM.S = function (tag, attrs, ...children) {
  const el = document.createElementNS(KM.NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  return el;
};

KM.svgRoot = function (w, h, label) {
  return KM.S("svg", {
    xmlns: KM.NS, viewBox: `0 0 ${w} ${h}`, class: "board-svg", role: "img",
    "aria-label": label, preserveAspectRatio: "xMidYMid meet",
  });
};

// A text element; opts: size, anchor, weight, fill, class.
KM.T = function (x, y, text, opts) {
  const o = opts || {};
  return KM.S("text", {
    x, y, "font-size": o.size || 14, "text-anchor": o.anchor || "middle",
    "font-weight": o.weight, fill: o.fill || "#222", class: o.class,
    "dominant-baseline": o.baseline || "middle",
  }, text);
};

// A text of several lines, wrapped at ``width`` characters (SVG has no wrapping); opts as KM.T,
// plus lines (the most lines kept) and step (the line height).
KM.wrap = function (x, y, text, width, opts) {
  const o = opts || {};
  const lines = [];
  let cur = "";
  for (const w of String(text).split(/\s+/)) {
    if (cur && (cur + " " + w).length > width) { lines.push(cur); cur = w; } else cur = cur ? cur + " " + w : w;
  }
  if (cur) lines.push(cur);
  const max = o.lines || lines.length;
  if (lines.length > max) { lines.length = max; lines[max - 1] = lines[max - 1].replace(/\s*\S*$/, "") + " …"; }
  const step = o.step || (o.size || 14) * 1.25;
  const g = KM.S("g", {class: "wrapped"});
  lines.forEach((l, i) => g.append(KM.T(x, y + i * step, l, o)));
  g.lineCount = lines.length;
  return g;
};

// A stable colour for a name (clans, families, gangs) with a good contrast for white text.
KM.palette = ["#b03a2e", "#1f618d", "#117a65", "#7d3c98", "#b9770e", "#2e4053", "#a04000", "#196f3d",
  "#6c3483", "#1a5276", "#7b241c", "#0e6655"];
KM.colour = function (name, list) {
  if (list) {
    const i = list.indexOf(name);
    if (i >= 0) return KM.palette[i % KM.palette.length];
  }
  let h = 0;
  for (const ch of String(name)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return KM.palette[h % KM.palette.length];
};
KM.seatColours = ["#c0392b", "#2471a3", "#229954", "#d68910", "#7d3c98", "#5d6d7e"];

// The generic picture: a readable dump of the view, for a game that has no picture yet.
KM.genericBoard = {
  draw(view, b) {
    const lines = [];
    const walk = (obj, pre) => {
      for (const [k, v] of Object.entries(obj)) {
        if (v !== null && typeof v === "object" && !Array.isArray(v)) { lines.push(pre + k + ":"); walk(v, pre + "  "); }
        else lines.push(pre + k + ": " + JSON.stringify(v));
      }
    };
    walk(view, "");
    const h = 20 + lines.length * 16;
    const svg = KM.svgRoot(900, h, "the game's view");
    lines.forEach((l, i) => svg.appendChild(KM.T(10, 16 + i * 16, l.slice(0, 120), {anchor: "start", size: 12, class: "mono"})));
    return svg;
  },
  targets() { return []; },
};
