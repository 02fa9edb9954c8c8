// Kingpin: the grid of squares (areas of influence, No Man's Land), each tile with its
// icons on all four sides and an arrow for where it faces, and each player's reserve.
// Click a tile to turn, move or castle it; click a reserve tile, then choose where it enters.
"use strict";
(function () {
  const {S, T} = KM;
  const SZ = 104;
  const ICON = {P: ["#b03a2e", "pistol"], C: ["#1f618d", "car"], V: ["#5d6d7e", "vest"], S: ["#117a65", "pen"]};
  const MAFIA = {blue: "#1f618d", red: "#b03a2e", green: "#196f3d", black: "#2c2c2c", yellow: "#b9770e", purple: "#6c3483"};
  const mcol = c => MAFIA[c] || KM.colour(c || "?");
  const DIR = {N: "north", E: "east", S: "south", W: "west"};
  // A seat's colour: its mafia's once chosen (the page's seat dots use it too).
  const seatColour = (v, q) => {
    const p = (v.players_info || [])[q];
    return p && p.mafia ? mcol(p.mafia.color) : KM.seatColours[q];
  };
  const who = (b, q) => (b.seats && b.seats[q] ? b.seats[q].name || "open seat" : `player ${q}`);

  function icons(g, cx, cy, dir, text) {
    if (!text) return;
    const chars = text.split("");
    const step = 15;
    chars.forEach((ch, i) => {
      const off = (i - (chars.length - 1) / 2) * step;
      const [x, y] = dir === "N" || dir === "S" ? [cx + off, cy] : [cx, cy + off];
      const [fill, title] = ICON[ch] || ["#444", ch];
      const c = S("g", {}, S("title", {}, title));
      c.append(S("circle", {cx: x, cy: y, r: 7, fill, stroke: "#fff", "stroke-width": 1}));
      c.append(T(x, y + 0.5, ch, {size: 9, fill: "#fff", weight: "bold"}));
      g.append(c);
    });
  }

  function tile(x, y, t, size) {
    const s = size || SZ - 8;
    const g = S("g", {class: "tile"});
    g.append(S("rect", {x, y, width: s, height: s, rx: 8, fill: mcol(t.color), stroke: "#111", "stroke-width": 1.5}));
    g.append(S("rect", {x: x + 16, y: y + 16, width: s - 32, height: s - 32, rx: 4, fill: "rgba(255,255,255,.12)"}));
    const nm = t.short || t.name;
    if (s < 80) {
      // A small reserve tile: its icons leave no room for the name, which goes under it.
      g.append(T(x + s / 2, y + s + 9, nm.length > 10 ? nm.slice(0, 9) + "." : nm, {size: 10, fill: "#2c1e12", weight: "bold"}));
      g.append(T(x + s / 2, y + s / 2 - 4, `tough ${t.toughness}`, {size: 8, fill: "#fff"}));
      if (t.sniper) g.append(T(x + s / 2, y + s / 2 + 8, "sniper", {size: 8, fill: "#fff"}));
    } else {
      g.append(T(x + s / 2, y + s / 2 - 7, nm.length > 14 ? nm.slice(0, 13) + "." : nm, {size: 12, fill: "#fff", weight: "bold"}));
      g.append(T(x + s / 2, y + s / 2 + 9, `tough ${t.toughness}${t.sniper ? " · sniper" : ""}`, {size: 9, fill: "#fff"}));
    }
    if (t.sides) {
      icons(g, x + s / 2, y + 8, "N", t.sides.N.icons);
      icons(g, x + s / 2, y + s - 8, "S", t.sides.S.icons);
      icons(g, x + 8, y + s / 2, "W", t.sides.W.icons);
      icons(g, x + s - 8, y + s / 2, "E", t.sides.E.icons);
    } else if (t.printed) {
      icons(g, x + s / 2, y + 8, "N", t.printed.top.icons);
      icons(g, x + s - 8, y + s / 2, "E", t.printed.right.icons);
      icons(g, x + s / 2, y + s - 8, "S", t.printed.bottom.icons);
      icons(g, x + 8, y + s / 2, "W", t.printed.left.icons);
    }
    if (t.facing) {
      const cx = x + s / 2, cy = y + s / 2, d = s / 2 - 20;
      const pts = {N: [[cx, cy - d - 6], [cx - 6, cy - d + 3], [cx + 6, cy - d + 3]],
        S: [[cx, cy + d + 6], [cx - 6, cy + d - 3], [cx + 6, cy + d - 3]],
        E: [[cx + d + 6, cy], [cx + d - 3, cy - 6], [cx + d - 3, cy + 6]],
        W: [[cx - d - 6, cy], [cx - d + 3, cy - 6], [cx - d + 3, cy + 6]]}[t.facing];
      if (pts) g.append(S("polygon", {points: pts.map(p => p.join(",")).join(" "), fill: "#ffe27a", class: "facing"}));
    }
    return g;
  }

  function draw(v, b) {
    const bd = v.board || {columns: 4, rows: 5, squares: []};
    const cols = bd.columns, rows = bd.rows;
    const ox = 50, oy = 30;
    const W = 1000, Hh = Math.max(oy + rows * SZ + 60, 620);
    const svg = KM.svgRoot(W, Hh, "Kingpin grid");
    svg.append(S("rect", {x: 0, y: 0, width: W, height: Hh, fill: "#ede4d0"}));
    const owner = (v.players_info || []).map(p => seatColour(v, p.player));
    for (const sq of bd.squares) {
      const x = ox + sq.column * SZ, y = oy + (rows - 1 - sq.row) * SZ;
      const g = S("g", {class: "square", "data-square": sq.name});
      let fill = "#f8f1e0";
      if (sq.kind === "no_mans_land") fill = "#d5cfc3";
      g.append(S("rect", {x, y, width: SZ, height: SZ, fill, stroke: "#8b7355", "stroke-width": 1}));
      if (sq.kind === "area") g.append(S("rect", {x, y, width: SZ, height: SZ, fill: owner[sq.area_of] || "#888", "fill-opacity": 0.16}));
      g.append(T(x + 10, y + SZ - 8, sq.name, {size: 10, fill: "#7a6e5d", anchor: "start"}));
      if (sq.kind === "area") {
        g.append(S("rect", {x: x + 2, y: y + 2, width: SZ - 4, height: SZ - 4, fill: "none", stroke: owner[sq.area_of] || "#888", "stroke-width": 2, "stroke-dasharray": "6 3"}));
      }
      if (sq.exit_for !== null && sq.exit_for !== undefined) {
        g.append(T(x + SZ - 8, y + SZ - 8, `exit P${sq.exit_for} ${sq.exit_dir}`, {size: 8, fill: "#7a6e5d", anchor: "end"}));
      }
      if (sq.tile) g.append(tile(x + 4, y + 4, sq.tile));
      if (sq.under_fire_by && sq.under_fire_by.length) {
        g.append(S("rect", {x: x + 3, y: y + 3, width: SZ - 6, height: SZ - 6, fill: "none", stroke: "#ff2200", "stroke-width": 3}));
        g.append(S("rect", {x: x + SZ / 2 - 28, y: y + 4, width: 56, height: 13, rx: 3, fill: "#fff", "fill-opacity": 0.9}));
        g.append(T(x + SZ / 2, y + 11, "under fire", {size: 9, fill: "#ff2200", weight: "bold"}));
      }
      b.key(g, "sq:" + sq.name);
      svg.append(g);
    }
    // Column letters and row numbers.
    (bd.column_names || []).forEach((c, i) => svg.append(T(ox + i * SZ + SZ / 2, oy + rows * SZ + 14, c, {size: 13, fill: "#5a4a35"})));
    for (let r = 0; r < rows; r++) svg.append(T(ox - 14, oy + (rows - 1 - r) * SZ + SZ / 2, r + 1, {size: 13, fill: "#5a4a35"}));
    // Players: mafia, actions, reserve.
    const px = ox + cols * SZ + 40;
    svg.append(T(px, 24, `Phase: ${v.phase}`, {anchor: "start", size: 14, weight: "bold"}));
    let py = 40;
    for (const p of v.players_info || []) {
      const q = p.player;
      const active = v.to_move === q;
      const col = seatColour(v, q);
      const nm = b.seats && b.seats[q] ? b.seats[q].name || "open seat" : "";
      svg.append(S("rect", {x: px, y: py, width: W - px - 10, height: 168, rx: 6, fill: active ? "#fff1c7" : "#fffdf8", stroke: col, "stroke-width": active ? 3 : 1.5}));
      svg.append(T(px + 8, py + 16, `P${q}${q === v.you ? " (you)" : ""} ${nm} · ${p.mafia ? p.mafia.name : "no mafia yet"}`.slice(0, 56), {anchor: "start", size: 12, weight: "bold"}));
      svg.append(T(px + 8, py + 34, `actions left ${p.actions_left ?? "?"} · in No Man's Land ${p.in_no_mans_land ?? 0} · face down ${p.face_down ? p.face_down.count : 0}`, {anchor: "start", size: 11}));
      if (p.liquidated && p.liquidated.length) svg.append(T(px + 8, py + 50, "liquidated: " + p.liquidated.map(t => t.short || t).join(", "), {anchor: "start", size: 10, fill: "#b03a2e"}));
      svg.append(T(px + 8, py + 66, "reserve (face up):", {anchor: "start", size: 11}));
      (p.face_up || []).forEach((t, i) => {
        const g = tile(px + 8 + i * 66, py + 74, t, 62);
        b.key(g, "reserve:" + (t.short || t.name));
        svg.append(g);
      });
      py += 178;
    }
    if ((v.mafias_available || []).length && (v.players_info || []).some(p => !p.mafia)) {
      svg.append(T(px, py + 8, "Choose a mafia:", {anchor: "start", size: 12, weight: "bold"}));
      v.mafias_available.forEach((m, i) => {
        const g = S("g", {});
        g.append(S("rect", {x: px + i * 100, y: py + 18, width: 94, height: 34, rx: 6, fill: mcol(m.color), stroke: "#111"}));
        g.append(T(px + i * 100 + 47, py + 35, m.name, {size: 12, fill: "#fff", weight: "bold"}));
        b.key(g, "mafia:" + m.name);
        svg.append(g);
      });
      py += 60;
    }
    if (v.winner !== null && v.winner !== undefined) {
      svg.append(T(px, py + 10, `Winner: P${v.winner} ${who(b, v.winner)}`.slice(0, 48), {anchor: "start", size: 16, weight: "bold", fill: "#7b3f12"}));
      if (v.reason_text) svg.append(KM.wrap(px, py + 32, "Why: " + v.reason_text, 70, {anchor: "start", size: 11, lines: 4}));
    }
    return svg;
  }

  function targets(text) {
    let m;
    if ((m = text.match(/^play (.+) (\w\d+) [NESW]$/))) return ["reserve:" + m[1], "sq:" + m[2]];
    if ((m = text.match(/^(turn|move) (\w\d+)\b/))) return ["sq:" + m[2]];
    if ((m = text.match(/^castle (\w\d+) (\w\d+)/))) return ["sq:" + m[1], "sq:" + m[2]];
    if ((m = text.match(/^choose (.+)$/))) return ["mafia:" + m[1]];
    return [];
  }

  // Words for a move: "move c2 N turn E" -> "move Vasili from c2 north, then face east".
  function label(text, v, names) {
    const on = sq => {
      const x = ((v.board || {}).squares || []).find(q => q.name === sq);
      return x && x.tile ? `${x.tile.name} (${sq})` : sq;
    };
    const face = d => DIR[d] || d;
    let m;
    if ((m = text.match(/^turn (\w\d+) ([NESW])$/))) return `turn ${on(m[1])} to face ${face(m[2])}`;
    if ((m = text.match(/^move (\w\d+) ([NESW])(?: turn ([NESW]))?$/))) return `move ${on(m[1])} one square ${face(m[2])}` + (m[3] ? `, then face ${face(m[3])}` : "");
    if ((m = text.match(/^exit (\w\d+)$/))) return `${on(m[1])} leaves the board past the enemy's area: the enemy kingpin is liquidated`;
    if ((m = text.match(/^castle (\w\d+) (\w\d+)(?: turn (\w\d+) ([NESW]))?$/))) {
      return `swap ${on(m[1])} and ${on(m[2])} (castle)` + (m[3] ? `, then the one on ${m[3]} faces ${face(m[4])}` : "");
    }
    if ((m = text.match(/^shoot (\w\d+) ([NESW])$/))) return `${on(m[1])} shoots ${face(m[2])}`;
    if ((m = text.match(/^raid (\w\d+) ([NESW])$/))) return `${on(m[1])} raids ${face(m[2])}`;
    if ((m = text.match(/^play (.+) (\w\d+) ([NESW])$/))) return `bring ${m[1]} from the reserve onto ${m[2]}, facing ${face(m[3])}`;
    if ((m = text.match(/^choose (.+)$/))) return `play the ${m[1]} mafia`;
    if ((m = text.match(/^draw (.+)$/))) return `${m[1]} comes up from the face-down tiles`;
    return null;
  }

  function outcome(v, names) {
    if (v.winner === null || v.winner === undefined) return null;
    return {winners: [v.winner], text: `${names[v.winner] || "player " + v.winner} wins: ${v.reason_text || v.reason}.`};
  }

  KM.boards.kingpin = {draw, targets, label, outcome, seatColour, quiet: /^(reserve|mafia):/};
})();
