// Kingpins: the table of eight stacks around the stockpile (recruitment N, E, S, W and the
// four corners), the discards, the players and your hand. Click a card in your hand to play
// or discard it, or a stack to play onto it or move it.
"use strict";
(function () {
  const {S, T} = KM;
  const CW = 64, CH = 88, STEP = 17;
  const POS = {NW: [170, 30], N: [350, 30], NE: [530, 30], W: [170, 250], E: [530, 250],
    SW: [170, 470], S: [350, 470], SE: [530, 470]};
  const STACK = {N: "north", E: "east", S: "south", W: "west", NE: "north-east corner", SE: "south-east corner",
    SW: "south-west corner", NW: "north-west corner"};
  // A card from its code alone (ruling KP-D1: families M, D red, V, B black; ranks 1-12; F, H red/black).
  const FAMILY = {M: "Moretti", D: "Doyle", V: "Volkov", B: "Brennan"};
  const RANKS = ["Hideout", "Lookout", "Runner", "Bootlegger", "Bartender", "Bookie", "Smuggler", "Enforcer", "Fixer",
    "Accountant", "Lawyer", "Consigliere", "Kingpin"];
  function decode(code) {
    let m;
    if ((m = String(code).match(/^([MDVB])(\d+)$/)) && RANKS[+m[2]]) return `${FAMILY[m[1]]} ${RANKS[+m[2]]} (${m[2]})`;
    if ((m = String(code).match(/^([FH])([rb])$/))) return `${m[1] === "F" ? "Femme Fatale" : "Hideout"} (${m[2] === "r" ? "red" : "black"})`;
    return code;
  }
  const cardName = c => c.family ? `${c.family} ${c.name} (${c.rank})` : `${c.name} (${c.colour})`;
  // Every card the view shows, by code.
  function known(v) {
    const out = {};
    const add = c => { if (c && c.code) out[c.code] = c; };
    (v.hand || []).forEach(add);
    (v.discards || []).forEach(add);
    (v.stacks || []).forEach(st => (st.cards || []).forEach(add));
    (v.hands || []).forEach(h => (h || []).forEach(add));
    return out;
  }

  function face(x, y, c, opts) {
    const o = opts || {};
    const g = S("g", {class: "card"});
    const red = c.colour === "red";
    const ink = red ? "#b03a2e" : "#1b1b1b";
    g.append(S("rect", {x, y, width: CW, height: CH, rx: 6, fill: "#fffdf8", stroke: o.hi ? "#d4a017" : "#5a4a35", "stroke-width": o.hi ? 2.5 : 1.2}));
    const rank = c.rank === null || c.rank === undefined ? "F" : (c.rank === 0 ? "H" : c.rank);
    g.append(T(x + 6, y + 12, rank, {anchor: "start", size: 14, weight: "bold", fill: ink}));
    g.append(T(x + CW - 6, y + 12, c.code, {anchor: "end", size: 10, fill: ink}));
    g.append(T(x + CW / 2, y + 34, c.name.length > 10 ? c.name.slice(0, 9) + "." : c.name, {size: 10, fill: ink, weight: "bold"}));
    if (c.family) g.append(T(x + CW / 2, y + 48, c.family, {size: 9, fill: "#5a4a35"}));
    g.append(T(x + CW / 2, y + CH - 9, `value ${c.value}`, {size: 9, fill: "#7a6e5d"}));
    if (c.ability) {
      g.append(S("rect", {x: x + 3, y: y + 55, width: CW - 6, height: 13, rx: 3, fill: "#fbe9c6"}));
      g.append(T(x + CW / 2, y + 62, c.ability, {size: 9, fill: "#7b3f12", weight: "bold"}));
    }
    // The ability's rule on hover (the rules also list under the table, "Cards in play").
    const rule = c.ability && o.rules ? o.rules[c.ability] : null;
    g.append(S("title", {}, cardName(c) + (rule ? ` · ${c.ability}: ${rule}` : "")));
    return g;
  }

  function back(x, y, label) {
    const g = S("g", {});
    g.append(S("rect", {x, y, width: CW, height: CH, rx: 6, fill: "#5a2d0b", stroke: "#2c1e12"}));
    g.append(S("rect", {x: x + 5, y: y + 5, width: CW - 10, height: CH - 10, rx: 4, fill: "none", stroke: "#d4a017"}));
    if (label !== undefined) g.append(T(x + CW / 2, y + CH / 2, label, {size: 14, fill: "#f7d77a", weight: "bold"}));
    return g;
  }

  function draw(v, b) {
    const n = v.players;
    const hand = v.hand || [];
    const shownOf = st => Math.min((st.cards || []).length, 6);
    const bottom = Math.max(0, ...(v.stacks || []).map(st => (POS[st.name] || [0, 0])[1] + CH + STEP * Math.max(0, shownOf(st) - 1)));
    const hy = Math.max(600, bottom + 40);
    const W = 1000, Hh = hy + CH + 20;
    const svg = KM.svgRoot(W, Hh, "Kingpins table");
    svg.append(S("rect", {x: 0, y: 0, width: W, height: Hh, fill: "#2f5d3a"}));
    svg.append(S("rect", {x: 150, y: 15, width: 470, height: hy - 40, rx: 20, fill: "#36704a", stroke: "#204a2c"}));
    // The stockpile in the middle.
    svg.append(back(350, 250, v.stockpile));
    svg.append(T(350 + CW / 2, 250 + CH + 12, "stockpile", {size: 11, fill: "#e8f5e9"}));
    for (const st of v.stacks || []) {
      const [x, y] = POS[st.name] || [0, 0];
      const g = S("g", {class: "stack", "data-stack": st.name});
      const cards = st.cards || [];
      const shown = cards.length > 6 ? [cards[0], null, ...cards.slice(-4)] : cards;
      g.append(S("rect", {x: x - 6, y: y - 6, width: CW + 12, height: CH + 12 + STEP * Math.max(0, shown.length - 1), rx: 8,
        fill: st.kind === "corner" ? "rgba(255,215,120,.18)" : "rgba(255,255,255,.10)", stroke: "rgba(255,255,255,.35)", "stroke-dasharray": "4 3"}));
      if (!cards.length) g.append(T(x + CW / 2, y + CH / 2, st.kind === "corner" ? "corner" : "empty", {size: 11, fill: "#d7ecd9"}));
      shown.forEach((c, i) => {
        if (c === null) { g.append(T(x + CW / 2, y + i * STEP + 8, `… ${cards.length - 5} more`, {size: 9, fill: "#fff"})); return; }
        g.append(face(x, y + i * STEP, c, {rules: v.ability_rules}));
      });
      g.append(T(x - 12, y + 8, st.name, {size: 13, fill: "#fff", weight: "bold", anchor: "end"}));
      b.key(g, "stack:" + st.name);
      svg.append(g);
    }
    // Side panel: players, discards, round.
    const px = 650;
    svg.append(T(px, 30, `Round ${v.round} of ${v.rounds} · ${v.phase}`, {anchor: "start", size: 15, fill: "#fff", weight: "bold"}));
    for (let q = 0; q < n; q++) {
      const y = 50 + q * 58;
      const active = v.to_move === q || v.current === q && typeof v.to_move !== "number";
      svg.append(S("rect", {x: px, y, width: 330, height: 50, rx: 6, fill: v.to_move === q ? "#fff1c7" : "#f6efdf",
        stroke: KM.seatColours[q % KM.seatColours.length], "stroke-width": active ? 3 : 1.5}));
      const nm = b.seats && b.seats[q] ? b.seats[q].name || "open seat" : "";
      svg.append(T(px + 8, y + 15, `P${q}${q === v.you ? " (you)" : ""} ${nm}`.slice(0, 40), {anchor: "start", size: 12, weight: "bold"}));
      svg.append(T(px + 8, y + 35, `${v.hand_sizes[q]} cards in hand · total ${v.totals[q]} · rounds won ${v.rounds_won[q]}`, {anchor: "start", size: 11}));
    }
    let dy = 60 + n * 58;
    svg.append(T(px, dy, `Discards (${(v.discards || []).length})`, {anchor: "start", size: 13, fill: "#fff", weight: "bold"}));
    (v.discards || []).slice(-5).forEach((c, i) => svg.append(face(px + i * 44, dy + 12, c, {rules: v.ability_rules})));
    dy += 120;
    if (v.round_scores && v.round_scores.length) {
      svg.append(T(px, dy, "Round scores", {anchor: "start", size: 13, fill: "#fff", weight: "bold"}));
      v.round_scores.forEach((row, r) => svg.append(T(px, dy + 18 + r * 16, `R${r + 1}: ` + row.map((s, q) => `P${q} ${s}`).join("  "), {anchor: "start", size: 11, fill: "#e8f5e9"})));
      dy += 22 + v.round_scores.length * 16;
    }
    if (v.winners) {
      const nm = q => b.seats && b.seats[q] ? b.seats[q].name || "open seat" : "";
      svg.append(T(px, dy + 6, "Winner: " + v.winners.map(w => `P${w} ${nm(w)}`).join(", "), {anchor: "start", size: 15, fill: "#f7d77a", weight: "bold"}));
      svg.append(KM.wrap(px, dy + 26, "The lowest total after the last round wins; a tie goes to the most rounds won.", 56, {anchor: "start", size: 11, fill: "#e8f5e9"}));
    }
    // Your hand.
    svg.append(T(20, hy - 8, v.you === null || v.you === undefined ? "" : `Your hand (${hand.length})`, {anchor: "start", size: 13, fill: "#fff", weight: "bold"}));
    const gap = hand.length > 1 ? Math.min(CW + 6, (W - 60 - CW) / (hand.length - 1)) : 0;
    hand.forEach((c, i) => {
      const g = face(20 + i * gap, hy, c, {rules: v.ability_rules});
      b.key(g, "hand:" + c.code);
      svg.append(g);
    });
    return svg;
  }

  function targets(text) {
    let m;
    if ((m = text.match(/^(\w+) (on|to) (\w+)$/))) return ["hand:" + m[1], "stack:" + m[3]];
    if ((m = text.match(/^(\w+) under (\w+) with (\w+)$/))) return ["hand:" + m[1], "stack:" + m[2]];
    if ((m = text.match(/^move (\w+) onto (\w+)$/))) return ["stack:" + m[1], "stack:" + m[2]];
    if ((m = text.match(/^discard (\w+)$/))) return ["hand:" + m[1]];
    return [];
  }

  // Words for a move: "M7 on N" -> "play Moretti Enforcer (7) on the north stack".
  function label(text, v) {
    const cards = known(v);
    const cn = code => cards[code] ? cardName(cards[code]) : decode(code);
    const ab = code => cards[code] && cards[code].ability && v.abilities ? ` · ${cards[code].ability}` : "";
    const st = t => STACK[t] ? `the ${STACK[t]}` + (t.length === 1 ? " stack" : "") : t;
    let m;
    if ((m = text.match(/^(\w+) on (\w+)$/))) return `play ${cn(m[1])} on ${st(m[2])}${ab(m[1])}`;
    if ((m = text.match(/^(\w+) to (\w+)$/))) return `play ${cn(m[1])} to ${st(m[2])} (empty)${ab(m[1])}`;
    if ((m = text.match(/^(\w+) under (\w+) with (\w+)$/))) return `${cn(m[3])} slips ${cn(m[1])} under ${st(m[2])}${ab(m[1])}`;
    if ((m = text.match(/^move (\w+) onto (\w+)$/))) return `move ${st(m[1])} onto ${st(m[2])}`;
    if (text === "end turn") return "end your turn (draw a card if the stockpile has one)";
    if ((m = text.match(/^discard (\w+)$/))) return `Rub Out: discard ${cn(m[1])}`;
    if (text === "keep") return "Rub Out: keep every card";
    if ((m = text.match(/^card (\w+)$/))) return `a card is dealt: ${cn(m[1])}`;
    return null;
  }

  // Who won and why: the lowest total after the last round; ties by rounds won (the rulebook's Game End).
  function outcome(v, names) {
    if (!v.winners) return null;
    const nm = q => names[q] || `player ${q}`;
    const ws = v.winners;
    const best = Math.min(...v.totals);
    const tied = v.totals.map((t, q) => t === best ? q : -1).filter(q => q >= 0);
    let text = `${ws.map(nm).join(" and ")} ${ws.length === 1 ? "wins" : "share the win"} with the lowest total, ${best}, after ${v.rounds} rounds`;
    if (tied.length > 1) text += `; tied on ${best}, ${ws.length === tied.length ? "and on rounds won" : "broken by rounds won"} (${tied.map(q => `${nm(q)} ${v.rounds_won[q]}`).join(", ")})`;
    text += ". Totals: " + v.totals.map((t, q) => `${nm(q)} ${t}`).join(", ") + ".";
    return {winners: ws, text};
  }

  // The abilities of the designed cards, listed under the table.
  function notes(v) {
    if (!v.abilities) return [];
    const inHand = new Set((v.hand || []).map(c => c.ability).filter(Boolean));
    return Object.entries(v.ability_rules || {}).map(([name, text]) => ({name: name + (inHand.has(name) ? " (in your hand)" : ""), text}));
  }

  KM.boards.kingpins = {draw, targets, label, outcome, notes, quiet: /^hand:/};
})();
