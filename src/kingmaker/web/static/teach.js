// What the match page does to teach the game (loaded before app.js, which uses it):
//
//  - seats named by their names in the log and the labels ("Ann: ascend d2 right");
//  - moves labelled in words beside their notation, from the picture's label(text, view, names);
//  - the last-move marker: the picture elements (b.key) whose drawing changed since the
//    previous view get a dashed frame; without a previous view, the elements the last
//    logged move names (targets);
//  - the end screen: who won and why (the payload's outcome, else the picture's
//    outcome(view, names)), neutral for a co-operative defeat;
//  - the rules panel: the rulebook, the rulings and the designed cards of the game
//    (GET /api/games/<id>/rules).
//
// A picture may add, beside draw and targets (board.js):
//   label(text, view, names) -> words or null       quiet: RegExp of keys never marked
//   outcome(view, names) -> {winners, text, coop?}  seatColour(view, seat) -> CSS colour or null
"use strict";
window.KM = window.KM || {};

KM.teach = (function () {
  const E = (tag, attrs, ...children) => {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
    }
    return el;
  };

  // ---- names -----------------------------------------------------------------------------
  function rawName(s) {
    if (!s) return null;
    return s.kind === "human" ? (s.name || "open seat") : (s.name || `bot (${s.bot})`);
  }
  // The names of the seats, unique: a repeated name gets its seat number ("bot (random) #2").
  function names(seats, n) {
    const count = Math.max(n || 0, (seats || []).length);
    const raw = [];
    for (let i = 0; i < count; i++) raw.push(rawName(seats && seats[i]) || `player ${i}`);
    return raw.map((r, i) => raw.filter(x => x === r).length > 1 ? `${r} #${i}` : r);
  }
  // "player 1: ascend d2 right" -> "Ann: ascend d2 right".
  function named(line, nm) {
    return String(line).replace(/\bplayers? (\d+)\b/g, (m, d) => nm[+d] !== undefined ? nm[+d] : m);
  }

  // ---- words beside the notation ---------------------------------------------------------
  function words(board, text, view, nm) {
    if (!board || !board.label) return null;
    try {
      const w = board.label(text, view, nm || []);
      return w && w !== text ? w : null;
    } catch (e) { return null; }
  }
  // A move's button content: the notation, then the words.
  function moveContent(board, text, view, nm) {
    const w = words(board, text, view, nm);
    return [E("span", {class: "notation"}, text), w ? E("span", {class: "words"}, w) : null];
  }
  // A log line: names for seats, and the words of the move it names.
  function logLine(board, line, view, nm) {
    const text = named(line, nm);
    const m = String(line).match(/^players? \d+: (.+)$/);
    const w = m ? words(board, m[1], view, nm) : null;
    return [text, w ? E("span", {class: "words"}, " — " + w) : null];
  }
  // The last line of the log that is a player's move (chance lines are not moves).
  function lastMove(log) {
    for (let i = log.length - 1; i >= 0; i--) if (/^players? \d+/.test(log[i])) return log[i];
    return null;
  }

  // ---- the last-move marker ---------------------------------------------------------------
  // Draws ``view`` off-screen and returns {key: drawing} of its keyed elements.
  function signatures(board, view, seats) {
    const els = [];
    const b = {seats, key(el, k) { els.push([k, el]); return el; }};
    try { board.draw(view, b); } catch (e) { return null; }
    const out = new Map();
    for (const [k, el] of els) out.set(k, (out.get(k) || "") + el.innerHTML);
    return out;
  }
  // The drawings of the keyed elements of a drawn picture: {key: drawing}.
  function drawn(keyed) {
    const now = new Map();
    for (const [k, el] of keyed) now.set(k, (now.get(k) || "") + el.innerHTML);
    return now;
  }
  // Frames the elements whose drawing changed since ``before`` (or, without it, the keys of
  // ``fallback``); returns the keys marked.
  function mark(svg, board, keyed, now, before, fallback) {
    const quiet = board.quiet || /^$/;
    let keys = [];
    if (before) keys = [...now.keys()].filter(k => before.has(k) && before.get(k) !== now.get(k) && !quiet.test(k));
    if (!keys.length && fallback) keys = fallback.filter(k => now.has(k));
    const layer = KM.S("g", {class: "last-move", "pointer-events": "none"});
    for (const [k, el] of keyed) {
      if (!keys.includes(k)) continue;
      let bb;
      try { bb = el.getBBox(); } catch (e) { continue; }
      if (!bb || (!bb.width && !bb.height)) continue;
      el.classList.add("changed");
      const box = {x: bb.x - 4, y: bb.y - 4, width: bb.width + 8, height: bb.height + 8, rx: 8};
      layer.append(KM.S("rect", Object.assign({class: "last-move-halo"}, box)));
      layer.append(KM.S("rect", Object.assign({class: "last-move-mark", "data-mark": k}, box)));
    }
    svg.append(layer);
    return keys;
  }

  // ---- the end screen ------------------------------------------------------------------------
  // Returns {title, text, tone}: tone "win" (green), "neutral" (a co-operative defeat, or nobody).
  function ending(m, board, game, nm) {
    // The game's own outcome when it says more than the returns do; else the picture's reading of the view.
    let out = m.outcome && m.outcome.reason !== "returns" ? m.outcome : null;
    if (!out && board && board.outcome) {
      try { out = board.outcome(m.view, nm); } catch (e) { out = null; }
    }
    const result = m.result || [];
    let winners = out && out.winners;
    if (!winners) {
      const best = Math.max(...result);
      winners = best > 0 ? result.map((r, i) => r === best ? i : -1).filter(i => i >= 0) : [];
    }
    const text = out && out.text ? named(out.text, nm) : "";
    if (game && game.cooperative) {
      const won = out && out.coop !== undefined ? out.coop : result.some(r => r > 0);
      return {title: won ? "The team wins." : "The team loses.", text, tone: won ? "win" : "neutral", winners};
    }
    if (!winners.length) return {title: "Nobody wins.", text, tone: "neutral", winners};
    const who = winners.map(w => nm[w]);
    const title = winners.length === 1 ? `Winner: ${who[0]}` : `Shared win: ${who.join(" and ")}`;
    return {title, text, tone: "win", winners};
  }

  // ---- the rules panel ---------------------------------------------------------------------------
  const cache = {};
  function rules(gid) {
    if (!cache[gid]) {
      cache[gid] = fetch(`/api/games/${encodeURIComponent(gid)}/rules`).then(r => r.ok ? r.json() : Promise.reject(new Error(`the rules are not served (HTTP ${r.status})`)));
      cache[gid].catch(() => { delete cache[gid]; });
    }
    return cache[gid];
  }
  // A small Markdown reader for the rulings: headings, lists, tables, paragraphs, **bold**, `code`.
  function inline(text) {
    const out = [];
    const re = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*]+\*)/g;
    let last = 0, m;
    while ((m = re.exec(text))) {
      if (m.index > last) out.push(text.slice(last, m.index));
      const t = m[0];
      if (t.startsWith("**")) out.push(E("strong", {}, t.slice(2, -2)));
      else if (t.startsWith("`")) out.push(E("code", {}, t.slice(1, -1)));
      else out.push(E("em", {}, t.slice(1, -1)));
      last = m.index + t.length;
    }
    out.push(text.slice(last));
    return out;
  }
  function markdown(src) {
    const box = E("div", {class: "md"});
    const blocks = String(src).replace(/\r/g, "").split(/\n\s*\n/);
    for (const block of blocks) {
      const lines = block.split("\n");
      const h = lines[0].match(/^(#{1,4}) (.*)$/);
      if (h && lines.length === 1) { box.append(E("h" + Math.min(6, h[1].length + 2), {}, inline(h[2]))); continue; }
      if (lines.every(l => /^\s*\|/.test(l))) {
        const rows = lines.filter(l => !/^\s*\|[\s:|-]+\|\s*$/.test(l)).map(l => l.trim().replace(/^\||\|$/g, "").split("|"));
        box.append(E("table", {class: "list"}, rows.map((r, i) => E("tr", {}, r.map(c => E(i ? "td" : "th", {}, inline(c.trim())))))));
        continue;
      }
      if (lines.every(l => /^\s*([-*]|\d+\.) |^\s{2,}\S/.test(l))) {
        const items = [];
        for (const l of lines) {
          if (/^\s*([-*]|\d+\.) /.test(l)) items.push(l.replace(/^\s*([-*]|\d+\.) /, ""));
          else items[items.length - 1] += " " + l.trim();
        }
        box.append(E("ul", {}, items.map(t => E("li", {}, inline(t)))));
        continue;
      }
      if (h) { box.append(E("h" + Math.min(6, h[1].length + 2), {}, inline(h[2]))); lines.shift(); }
      box.append(E("p", {}, inline(lines.join(" "))));
    }
    return box;
  }
  // Opens (or closes) the rules panel of game ``gid``; ``tab`` is "rulebook", "rulings" or "cards".
  async function openRules(gid, gameName, tab) {
    const old = document.getElementById("rules");
    if (old) { old.remove(); if (!tab) return; }
    const body = E("div", {class: "rules-body", id: "rules-body"}, "Loading…");
    const tabs = E("div", {class: "rules-tabs", role: "tablist"});
    const find = E("input", {id: "rules-find", type: "search", placeholder: "find in the text"});
    const panel = E("aside", {id: "rules", class: "rules", role: "dialog", "aria-label": `Rules of ${gameName}`},
      E("div", {class: "rules-head"}, E("strong", {}, `Rules · ${gameName}`), tabs, find,
        E("button", {class: "btn small", id: "rules-close", onclick: () => panel.remove()}, "close ✕")),
      body);
    document.body.append(panel);
    let doc;
    try { doc = await rules(gid); } catch (e) { body.textContent = e.message; return; }
    const shows = {
      rulebook: () => doc.rulebook ? E("pre", {class: "rulebook"}, doc.rulebook) : E("p", {class: "muted"}, "No rulebook is installed."),
      rulings: () => doc.rulings ? markdown(doc.rulings) : E("p", {class: "muted"}, "The rulings are in docs/rulings/ of the source tree."),
      cards: () => E("dl", {class: "cards"}, Object.entries(doc.cards || {}).map(([k, v]) => [E("dt", {}, k), E("dd", {}, v)])),
    };
    const labels = {rulebook: "Rulebook", rulings: "Rulings", cards: "Cards"};
    const order = ["rulebook", "rulings"].concat(Object.keys(doc.cards || {}).length ? ["cards"] : []);
    function show(t) {
      body.innerHTML = "";
      body.append(shows[t]());
      body.scrollTop = 0;
      tabs.querySelectorAll("button").forEach(b => b.classList.toggle("on", b.dataset.tab === t));
      panel.dataset.tab = t;
    }
    for (const t of order) tabs.append(E("button", {class: "btn small", "data-tab": t, role: "tab", onclick: () => show(t)}, labels[t]));
    find.addEventListener("keydown", e => {
      if (e.key !== "Enter" || !find.value) return;
      if (window.find) { window.find(find.value, false, e.shiftKey, true); }
    });
    show(order.includes(tab) ? tab : "rulebook");
  }

  return {names, named, words, moveContent, logLine, lastMove, signatures, drawn, mark, ending, rules, openRules, markdown};
})();
