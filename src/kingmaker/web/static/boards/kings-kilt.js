// King's Kilt: the pyramid of 21 cells, the draw pile, the players and your cards.
// Drawn from the seat's view only. Click a card in the pyramid to ascend it, betray
// it or fill the vacuum from it; click one of your family cards to turn it face up.
"use strict";
(function () {
  const {S, T} = KM;
  const CLANS = ["Bruce", "Buchanan", "Douglas", "Hamilton", "MacBeth", "MacLeod", "Stewart", "Wallace"];
  const COL = {Bruce: "#b03a2e", Buchanan: "#b9770e", Douglas: "#1f618d", Hamilton: "#117a65",
    MacBeth: "#6c3483", MacLeod: "#2e4053", Stewart: "#a04000", Wallace: "#196f3d"};
  const colour = clan => COL[clan] || KM.colour(clan, CLANS);
  const CW = 92, CH = 62;

  function card(x, y, c, opts) {
    const o = opts || {};
    const g = S("g", {class: "card"});
    if (!c) {
      g.append(S("rect", {x, y, width: o.w || CW, height: o.h || CH, rx: 7, fill: o.vacuum ? "#ffe9a8" : "#efe6d2",
        stroke: o.vacuum ? "#d4a017" : "#cbbd9f", "stroke-dasharray": "5 4", "stroke-width": 2}));
      if (o.label) g.append(T(x + (o.w || CW) / 2, y + (o.h || CH) / 2, o.label, {size: 12, fill: "#a3967d"}));
      return g;
    }
    const w = o.w || CW, h = o.h || CH;
    g.append(S("rect", {x, y, width: w, height: h, rx: 7, fill: colour(c.clan), stroke: "#2c1e12", "stroke-width": 1.5}));
    g.append(S("rect", {x: x + 4, y: y + 4, width: w - 8, height: h - 8, rx: 5, fill: "none", stroke: "rgba(255,255,255,.45)"}));
    g.append(T(x + w / 2, y + h / 2 - (o.sub ? 6 : 0), c.clan, {size: w < 80 ? 12 : 15, fill: "#fff", weight: "bold"}));
    if (c.leader) g.append(T(x + w - 12, y + 13, "♛", {size: 14, fill: "#ffe27a"}));
    if (o.sub) g.append(T(x + w / 2, y + h / 2 + 13, o.sub, {size: 11, fill: "#fff"}));
    if (o.label) g.append(T(x + 11, y + 11, o.label, {size: 10, fill: "rgba(255,255,255,.8)"}));
    return g;
  }

  function cellPos(i) {
    let r = 0, start = 0;
    while (start + r + 1 <= i) { start += r + 1; r++; }
    const c = i - start;
    return {r, c, x: 330 + (c - r / 2) * (CW + 12) - CW / 2, y: 30 + r * (CH + 16)};
  }

  function draw(v, b) {
    const n = v.players;
    const H = 640 + (v.families ? 34 + 20 * n : 0);
    const svg = KM.svgRoot(1000, H, "King's Kilt pyramid");
    svg.append(S("rect", {x: 0, y: 0, width: 1000, height: H, fill: "#f6efdf"}));
    // Row names.
    const rowY = r => 30 + r * (CH + 16) + CH / 2;
    const names = v.row_names || [];
    const seen = new Set();
    names.forEach((nm, r) => {
      if (seen.has(nm) && nm === "Commoners") return;
      seen.add(nm);
      svg.append(T(14, rowY(r), nm, {anchor: "start", size: 13, fill: "#7a6e5d", weight: "bold"}));
    });
    // The pyramid.
    v.pyramid.forEach((c, i) => {
      const p = cellPos(i);
      const name = v.cells[i];
      // An empty cell shows its name once, in its middle ("vacuum b3" where the vacuum is).
      const g = card(p.x, p.y, c, {label: c ? name : (v.vacuum === name ? "vacuum " + name : name), vacuum: v.vacuum === name});
      b.key(g, "cell:" + name);
      svg.append(g);
    });
    if (v.crowned) svg.append(T(cellPos(0).x + CW / 2, 16, "crowned", {size: 12, fill: "#b9770e", weight: "bold"}));
    // Draw pile, discards, removed.
    const px = 720;
    svg.append(T(px, 30, "Draw pile", {anchor: "start", size: 14, weight: "bold"}));
    const pile = v.draw_pile || {};
    svg.append(card(px, 42, pile.top, {label: pile.top ? "top" : "", w: 80, h: 56}));
    svg.append(T(px + 90, 70, pile.size === null || pile.size === undefined ? "not laid yet" : `${pile.size} card${pile.size === 1 ? "" : "s"}`, {anchor: "start", size: 13}));
    svg.append(T(px, 122, "Discarded influence", {anchor: "start", size: 14, weight: "bold"}));
    let dy = 140;
    const disc = Object.entries(v.discards || {});
    if (!disc.length) svg.append(T(px, dy, "none", {anchor: "start", size: 12, fill: "#7a6e5d"}));
    disc.forEach(([clan, k], j) => {
      const x = px + (j % 4) * 66, y = dy + Math.floor(j / 4) * 24 - 9;
      svg.append(S("rect", {x, y, width: 60, height: 19, rx: 4, fill: colour(clan)}));
      svg.append(T(x + 30, y + 10, `${clan.slice(0, 5)} ×${k}`, {size: 11, fill: "#fff"}));
    });
    dy += 58;
    svg.append(T(px, dy, `Betrayed (out of the game): ${(v.removed || []).length}`, {anchor: "start", size: 13}));
    const rew = [];
    if (v.noblemen_reward !== null && v.noblemen_reward !== undefined) rew.push(`Noblemen reward: P${v.noblemen_reward}`);
    if (v.guardians_reward !== null && v.guardians_reward !== undefined) rew.push(`Guardians reward: P${v.guardians_reward}`);
    rew.forEach((t, j) => svg.append(T(px, dy + 22 + j * 18, t, {anchor: "start", size: 13, fill: "#7b3f12"})));
    if (v.vacuum) svg.append(T(px, dy + 64, `Power vacuum at ${v.vacuum}`, {anchor: "start", size: 13, fill: "#b9770e", weight: "bold"}));
    svg.append(T(px, dy + 84, `Phase: ${v.phase}`, {anchor: "start", size: 13, fill: "#7a6e5d"}));
    // Players.
    const py = 500, pw = Math.min(240, 980 / n);
    for (let q = 0; q < n; q++) {
      const x = 10 + q * (pw + 4);
      const active = v.to_move === q;
      svg.append(S("rect", {x, y: py, width: pw, height: 62, rx: 6, fill: active ? "#fff1c7" : "#fffdf8",
        stroke: KM.seatColours[q % KM.seatColours.length], "stroke-width": active ? 3 : 1.5}));
      const g = S("g", {class: "player", "data-player": q});
      const seatName = b.seats && b.seats[q] ? (b.seats[q].name || "open seat") : "";
      g.append(T(x + 8, py + 14, `P${q}${q === v.you ? " (you)" : ""} ${seatName}`.slice(0, 30), {anchor: "start", size: 12, weight: "bold"}));
      g.append(T(x + 8, py + 32, `${v.hand_sizes[q]} influence · ${v.passed[q] ? "passed" : "in"}`, {anchor: "start", size: 11}));
      const rev = v.revealed_family[q] || [];
      g.append(T(x + 8, py + 50, "face up: " + (rev.length ? rev.join(", ") : "none"), {anchor: "start", size: 11}));
      b.key(g, "player:" + q);
      svg.append(g);
    }
    // Your cards.
    let yy = py + 80;
    if (v.family) {
      svg.append(T(10, yy + 18, "Your family", {anchor: "start", size: 13, weight: "bold"}));
      v.family.forEach((f, j) => {
        const g = card(110 + j * 88, yy, {clan: f.clan, leader: false}, {w: 82, h: 44, sub: f.revealed ? "face up" : "secret"});
        b.key(g, "family:" + f.clan);
        svg.append(g);
      });
      svg.append(T(390, yy + 18, "Your influence", {anchor: "start", size: 13, weight: "bold"}));
      Object.entries(v.influence || {}).forEach(([clan, k], j) => {
        const g = card(510 + j * 70, yy, {clan, leader: false}, {w: 64, h: 44, sub: "×" + k});
        b.key(g, "hand:" + clan);
        svg.append(g);
      });
    }
    if (v.families) {
      // The end: one line per seat, so no score runs into another.
      const best = v.winners || [];
      const y0 = 640 + 8;
      svg.append(T(10, y0, "Families revealed (King 3, each Guardian 2, each Nobleman 1; ties: most influence cards left)", {anchor: "start", size: 12, weight: "bold"}));
      v.families.forEach((fam, q) => {
        const nm = b.seats && b.seats[q] ? b.seats[q].name || "open seat" : "";
        const win = best.includes(q);
        svg.append(T(10, y0 + 22 + q * 20, `${win ? "★ " : ""}P${q} ${nm}`.slice(0, 34), {anchor: "start", size: 12, weight: win ? "bold" : null}));
        svg.append(T(280, y0 + 22 + q * 20, `${fam.join(", ")} → ${v.scores[q]} point${v.scores[q] === 1 ? "" : "s"} · ${v.hand_sizes[q]} influence left`, {anchor: "start", size: 12, weight: win ? "bold" : null}));
      });
    }
    return svg;
  }

  function targets(text) {
    let m;
    if ((m = text.match(/^ascend (\w+) (left|right)$/))) return ["cell:" + m[1]];
    if ((m = text.match(/^betray (\S+) (\w+)$/))) return ["cell:" + m[2]];
    if ((m = text.match(/^fill from (\w+)$/))) return ["cell:" + m[1]];
    if ((m = text.match(/^reveal (\S+)$/))) return ["family:" + m[1]];
    return [];
  }

  // Words for a move: "ascend d2 right" -> "the Bruce on d2 ascends up to the right".
  function label(text, v) {
    const at = cell => {
      const c = (v.pyramid || [])[(v.cells || []).indexOf(cell)];
      return c ? `the ${c.clan}${c.leader ? " leader" : ""} on ${cell}` : `the card on ${cell}`;
    };
    let m;
    if ((m = text.match(/^ascend (\w+) (left|right)$/))) return `${at(m[1])} ascends diagonally up to the ${m[2]}`;
    if ((m = text.match(/^betray (\S+) (\w+)$/))) return `discard a ${m[1]} influence card: a ${m[1]} betrays ${at(m[2])}, which leaves the game`;
    if ((m = text.match(/^fill from (\w+)$/))) return `fill the vacuum with ${at(m[1])}`;
    if (text === "pass") return "pass: sit out until everyone has passed";
    if ((m = text.match(/^reveal (\S+)$/))) return `turn your ${m[1]} family card face up`;
    if ((m = text.match(/^card (.+)$/))) return `the next card is ${m[1]}`;
    return null;
  }

  // Who won and why: most points, then most influence cards left (the rulebook's Determining the Winner).
  function outcome(v, names) {
    if (!v.winners) return null;
    const nm = q => names[q] || `player ${q}`;
    const ws = v.winners;
    const best = Math.max(...v.scores);
    const tied = v.scores.map((x, q) => x === best ? q : -1).filter(q => q >= 0);
    let text = `${ws.map(nm).join(" and ")} ${ws.length === 1 ? "wins the throne" : "share the throne"} with ${best} point${best === 1 ? "" : "s"}`;
    if (tied.length > 1) {
      text += `; tied on points, ${ws.length === tied.length ? "and on" : "broken by"} influence cards left (${tied.map(q => `${nm(q)} ${v.hand_sizes[q]}`).join(", ")})`;
    }
    text += ". Scores: " + v.scores.map((x, q) => `${nm(q)} ${x}`).join(", ") + ".";
    return {winners: ws, text};
  }

  KM.boards["kings-kilt"] = {draw, targets, label, outcome, quiet: /^hand:/};
})();
