// Gangs of Green City: the city map (points of interest by district, streets, Center Park),
// the gangs' spheres on each point, the heroes' pawns and safe houses, the meters and the
// heroes' hands. Click a point of interest to travel, escape, ride, protect or watch there;
// click a card in a hand to play it.
"use strict";
(function () {
  const {S, T} = KM;
  const GANG = {red: "#c0392b", yellow: "#d4ac0d", purple: "#7d3c98", blue: "#2471a3"};
  const TINT = {red: "#f5d5d0", yellow: "#f8efc4", purple: "#e6d6ee", blue: "#d4e4f2"};
  const gcol = c => GANG[c] || KM.colour(c);

  function draw(v, b) {
    const map = v.map;
    const W = 1000, MH = map ? map.height : 600, Hh = MH + 230;
    const svg = KM.svgRoot(W, Hh, "Green City map");
    svg.append(S("rect", {x: 0, y: 0, width: W, height: Hh, fill: "#eef2e6"}));
    if (!map) return svg;
    const districts = v.districts || [];
    const colourOf = d => (d === null || d === undefined || !districts[d]) ? null : districts[d].colour;
    // Streets.
    const wrap = new Set();
    for (let i = 0; i + 1 < (map.wrap_edges || []).length; i += 2) wrap.add(map.wrap_edges[i] + "-" + map.wrap_edges[i + 1]);
    for (let i = 0; i + 1 < map.edges.length; i += 2) {
      const a = map.edges[i], c = map.edges[i + 1];
      if (wrap.has(a + "-" + c) || wrap.has(c + "-" + a)) {
        // A street that wraps around the edge of the map: two stubs leaving the map.
        for (const [p, q] of [[a, c], [c, a]]) {
          const dx = map.x[q] > map.x[p] ? -40 : 40;
          svg.append(S("line", {x1: map.x[p], y1: map.y[p], x2: map.x[p] + dx, y2: map.y[p], stroke: "#9aa58c", "stroke-width": 3, "stroke-dasharray": "6 4"}));
        }
        continue;
      }
      svg.append(S("line", {x1: map.x[a], y1: map.y[a], x2: map.x[c], y2: map.y[c], stroke: "#9aa58c", "stroke-width": 3}));
    }
    // District labels.
    const dpos = [[230, 14], [230, MH - 6], [730, 14], [730, MH - 6]];
    districts.forEach((d, i) => {
      const [x, y] = dpos[i] || [500, 14];
      svg.append(T(x, y, `${d.name} · ${d.gang}${d.defeated ? " (defeated)" : ""}${d.recruitment_ended ? " · recruitment ended" : ""}`, {size: 12, fill: gcol(d.colour), weight: "bold"}));
    });
    const safe = new Set(((v.safe_houses || {}).placed) || []);
    // Points of interest.
    map.names.forEach((name, i) => {
      const x = map.x[i], y = map.y[i];
      const col = colourOf(map.district[i]);
      const g = S("g", {class: "poi", "data-poi": name});
      const park = i === map.park;
      g.append(S("circle", {cx: x, cy: y, r: park ? 26 : 18, fill: park ? "#a9d18e" : (TINT[col] || "#fff"), stroke: col ? gcol(col) : "#4a7c3a", "stroke-width": 2}));
      g.append(T(x, y + (park ? 36 : 28), name.length > 18 ? name.slice(0, 17) + "." : name, {size: 10, fill: "#333"}));
      if (safe.has(name)) {
        g.append(S("polygon", {points: `${x - 8},${y - 10} ${x},${y - 18} ${x + 8},${y - 10} ${x + 8},${y - 2} ${x - 8},${y - 2}`, fill: "#fff", stroke: "#2c1e12", "stroke-width": 1.5}));
      }
      const sph = (v.spheres || {})[name];
      if (sph) {
        let k = 0;
        sph.forEach((count, gi) => {
          for (let j = 0; j < count; j++, k++) {
            const ang = -Math.PI / 2 + k * 0.7 + 0.9;
            g.append(S("circle", {cx: x + Math.cos(ang) * 20, cy: y + Math.sin(ang) * 20, r: 5.5, fill: gcol(colourOf(gi) || "red"), stroke: "#222", "stroke-width": 1, class: "sphere"}));
          }
        });
      }
      b.key(g, "poi:" + name);
      svg.append(g);
    });
    // Pawns.
    const at = {};
    (v.pawns || []).forEach((poi, seat) => {
      const k = at[poi] = (at[poi] || 0) + 1;
      // Pawns stand on the upper rim of their place, so that its middle stays free for clicks.
      const x = map.x[poi] + (k - 1) * 12 - 10, y = map.y[poi] - 17;
      const g = S("g", {class: "pawn"});
      g.append(S("circle", {cx: x, cy: y, r: 9, fill: KM.seatColours[seat % KM.seatColours.length], stroke: "#fff", "stroke-width": 2}));
      g.append(T(x, y + 0.5, seat, {size: 10, fill: "#fff", weight: "bold"}));
      b.key(g, "pawn:" + seat);
      svg.append(g);
    });
    // Meters and decks.
    const m = v.meters || {};
    const py = MH + 10;
    svg.append(S("rect", {x: 0, y: MH, width: W, height: Hh - MH, fill: "#fbf8ef"}));
    svg.append(T(10, py + 10, `Stage: ${v.stage} · moves left ${v.moves_left}` + (v.result ? ` · ${v.result}${v.reason ? ": " + v.reason : ""}` : ""), {anchor: "start", size: 13, weight: "bold"}));
    svg.append(T(10, py + 30, `Escalation ${m.escalation} · war ${m.war} of ${m.war_loss} · gang cards a turn ${m.gang_cards_per_turn}`, {anchor: "start", size: 12}));
    if (m.war_loss) {
      for (let i = 0; i < m.war_loss; i++) svg.append(S("rect", {x: 470 + i * 22, y: py + 22, width: 18, height: 14, rx: 2, fill: i < m.war ? "#c0392b" : "#e6dcc6", stroke: "#8b7355"}));
    }
    const hd = v.hero_deck || {}, gd = v.gang_deck || {};
    svg.append(T(10, py + 50, `Hero deck ${hd.draw_pile ?? "?"} · escalations left ${hd.escalations_left ?? "?"} · gang deck ${gd.draw_pile ?? "?"}` +
      ` · safe houses in supply ${(v.safe_houses || {}).supply ?? "?"}` + (v.quiet_night ? " · quiet night" : ""), {anchor: "start", size: 12}));
    const notes = [];
    if (v.escalation_card) notes.push("escalation: " + (typeof v.escalation_card === "string" ? v.escalation_card : JSON.stringify(v.escalation_card)));
    if (v.window && v.window.length) notes.push("window: " + JSON.stringify(v.window));
    if (v.discard_pending !== null && v.discard_pending !== undefined) notes.push("discard pending: " + JSON.stringify(v.discard_pending));
    if (v.respite_pending !== null && v.respite_pending !== undefined) notes.push("respite pending: " + JSON.stringify(v.respite_pending));
    if (notes.length) svg.append(T(W - 10, py + 10, notes.join(" · ").slice(0, 110), {anchor: "end", size: 11, fill: "#7b3f12"}));
    districts.forEach((d, i) => svg.append(T(10 + i * 245, py + 70, `${d.gang}: ${d.on_board} on the map, ${d.supply} in supply`, {anchor: "start", size: 11, fill: gcol(d.colour)})));
    // Heroes and their hands.
    (v.players_info || []).forEach((p, i) => {
      const x = 10 + i * Math.min(330, (W - 20) / Math.max(1, (v.players_info || []).length)), y = py + 86;
      const active = v.to_move === p.seat;
      svg.append(S("rect", {x, y, width: Math.min(320, (W - 30) / (v.players_info || []).length), height: 126, rx: 6,
        fill: active ? "#fff1c7" : "#fffdf8", stroke: KM.seatColours[p.seat % KM.seatColours.length], "stroke-width": active ? 3 : 1.5}));
      svg.append(T(x + 8, y + 14, `P${p.seat}${p.seat === v.you ? " (you)" : ""} ${p.cast} (${p.role})`.slice(0, 44), {anchor: "start", size: 12, weight: "bold"}));
      svg.append(T(x + 8, y + 30, `at ${p.pawn_at}`.slice(0, 48), {anchor: "start", size: 11}));
      (p.hand || []).forEach((card, j) => {
        const cx = x + 8 + (j % 2) * 150, cy = y + 40 + Math.floor(j / 2) * 20;
        const g = S("g", {class: "card"});
        g.append(S("rect", {x: cx, y: cy, width: 146, height: 17, rx: 3, fill: "#f1ead6", stroke: "#8b7355"}));
        g.append(T(cx + 5, cy + 9, card.length > 24 ? card.slice(0, 23) + "." : card, {anchor: "start", size: 10}));
        if (p.seat === v.you) b.key(g, "card:" + card);
        svg.append(g);
      });
    });
    return svg;
  }

  function targets(text) {
    let m;
    if ((m = text.match(/^dispatch p(\d+) to (.+)$/))) return ["pawn:" + m[1], "poi:" + m[2]];
    if ((m = text.match(/^(?:travel|escape to|ride to|protect|to) (.+)$/))) return ["poi:" + m[1]];
    if ((m = text.match(/^watch .+ at (.+)$/))) return ["poi:" + m[1]];
    if ((m = text.match(/^play (.+)$/))) return ["card:" + m[1]];
    return [];
  }

  // Words for a move: "dispatch p1 to Iago" -> "move Bob's pawn to Iago".
  function label(text, v, names) {
    const gang = g => ((v.districts || []).find(d => d.gang.replace(/^The /, "") === g) || {gang: g}).gang;
    const p = q => names[+q] || `player ${q}`;
    let m;
    if ((m = text.match(/^travel (.+)$/))) return `walk along the street to ${m[1]}`;
    if ((m = text.match(/^escape from here to (.+)$/))) return `wormhole: play the card of the place you stand on to go to ${m[1]}`;
    if ((m = text.match(/^escape to (.+)$/))) return `wormhole: play the ${m[1]} card to go there`;
    if ((m = text.match(/^ride to (.+)$/))) return `bum a ride to the safe house at ${m[1]}`;
    if (text === "safe house") return "establish a safe house here (one from the supply)";
    if ((m = text.match(/^safe house from (.+)$/))) return `establish a safe house here, moving the one at ${m[1]}`;
    if ((m = text.match(/^end recruitment (.+)$/))) return `end the recruitment of ${gang(m[1])}`;
    if ((m = text.match(/^battle (.+)$/))) return `battle ${gang(m[1])} here: remove their sphere`;
    if ((m = text.match(/^give (.+) to p(\d+)$/))) return `give the ${m[1]} card to ${p(m[2])}`;
    if ((m = text.match(/^take (.+) from p(\d+)$/))) return `take the ${m[1]} card from ${p(m[2])}`;
    if ((m = text.match(/^dispatch p(\d+) to (.+)$/))) return `move ${p(m[1])}'s pawn to ${m[2]}`;
    if ((m = text.match(/^play (.+)$/))) return `play the respite card ${m[1]}`;
    if (text === "pass") return "pass: play no respite card now";
    if ((m = text.match(/^discard (.+)$/))) return `discard the ${m[1]} card`;
    if ((m = text.match(/^pawn p(\d+)$/))) return `move ${p(m[1])}'s pawn`;
    if ((m = text.match(/^to (.+)$/))) return `to ${m[1]}`;
    if ((m = text.match(/^protect (.+)$/))) return `remove the ${m[1]} gang card from the game`;
    if ((m = text.match(/^watch (.+) at (.+)$/))) return `${gang(m[1])} may not add spheres at ${m[2]}`;
    if ((m = text.match(/^cast (.+)$/))) return `a hero is dealt: ${m[1]}`;
    if ((m = text.match(/^gang card (.+)$/))) return `the gang card drawn is ${m[1]}`;
    if ((m = text.match(/^hero card (.+)$/))) return `the hero card drawn is ${m[1]}`;
    return null;
  }

  // A co-operative game: the team wins or loses together, for the reason the view gives.
  function outcome(v) {
    if (!v.result) return null;
    const won = v.result === "victory";
    return {winners: won ? (v.players_info || []).map(p => p.seat) : [], coop: won,
      text: (won ? "Green City is safe: " : "Green City falls: ") + (v.reason || v.result) + "."};
  }

  // The heroes' powers and weaknesses, and the respite cards in hands (their effect from the rules).
  function notes(v, names) {
    const out = [];
    for (const p of v.players_info || []) {
      if (p.cast) out.push({name: `${p.cast} (${(names || [])[p.seat] || "P" + p.seat})`, text: `${p.power} Weakness: ${p.weakness}`});
    }
    const places = new Set((v.map || {}).names || []);
    const seen = new Set();
    for (const p of v.players_info || []) {
      for (const c of p.hand || []) {
        if (places.has(c) || /escalation/i.test(c) || seen.has(c)) continue;
        seen.add(c);
        out.push({name: c, card: c});
      }
    }
    return out;
  }

  KM.boards["gangs-of-green-city"] = {draw, targets, label, outcome, notes, quiet: /^card:/};
})();
