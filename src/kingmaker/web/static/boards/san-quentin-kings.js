// San Quentin Kings: the action blocks, the respect track, the fight area (secret fists,
// fighters, cards, strength), the supply and cafeteria, and each gang's pieces in cell,
// yard, solitary and court. Click a block to choose it, your fist box to choose a secret
// fist (or the gym split), your gang's rows to pick, shank or send to solitary.
"use strict";
(function () {
  const {S, T} = KM;
  const TYPE_COL = ["#1e8449", "#b9770e", "#6c3483"];
  const short = s => String(s).toLowerCase().split(/[\s-]/)[0];

  function pieces(g, x, y, counts, size, types) {
    let cx = x;
    (counts || []).forEach((n, t) => {
      for (let i = 0; i < n; i++) {
        g.append(S("rect", {x: cx, y, width: size, height: size, rx: 2, fill: TYPE_COL[t % 3], stroke: "#222", "stroke-width": 0.8},
          S("title", {}, types ? types[t] : "")));
        cx += size + 2;
      }
      if (n) cx += 5;
    });
    return cx;
  }

  function draw(v, b) {
    const n = v.players;
    const types = (v.legend && v.legend.types) || ["Cobra", "Scorpion", "Tarantula"];
    const W = 1000, Hh = 470 + Math.ceil(n / 3) * 150;
    const svg = KM.svgRoot(W, Hh, "San Quentin Kings board");
    svg.append(S("rect", {x: 0, y: 0, width: W, height: Hh, fill: "#e7e2d6"}));
    // Action blocks.
    const played = new Set(v.blocks_played || []);
    const names = [...(v.blocks_played || []), ...(v.blocks_open || [])];
    const order = ["Shank", "Commissary", "New Arrival", "Drug", "Gym", "Cafeteria Trade", "Guard Influence"];
    const blocks = order.filter(x => names.includes(x)).concat(names.filter(x => !order.includes(x)));
    blocks.forEach((name, i) => {
      const x = 10 + i * 140, y = 10;
      const g = S("g", {class: "block"});
      const cur = v.block === name;
      g.append(S("rect", {x, y, width: 132, height: 50, rx: 6, fill: cur ? "#f7d77a" : (played.has(name) ? "#b8b2a5" : "#fffdf8"), stroke: "#4a3b2a", "stroke-width": cur ? 3 : 1.2}));
      g.append(T(x + 66, y + 20, name, {size: 13, weight: "bold", fill: played.has(name) && !cur ? "#5d5548" : "#2c1e12"}));
      g.append(T(x + 66, y + 38, cur ? "this turn" : (played.has(name) ? "played" : "open"), {size: 10, fill: "#5d5548"}));
      b.key(g, "block:" + short(name));
      svg.append(g);
    });
    // Respect track.
    const ty = 78;
    svg.append(T(10, ty + 11, "Respect", {anchor: "start", size: 12, weight: "bold"}));
    const maxR = Math.max(30, ...(v.gangs || []).map(g => g.respect + 2));
    const cell = Math.min(22, 900 / (maxR + 1));
    for (let r = 0; r <= maxR; r++) {
      svg.append(S("rect", {x: 80 + r * cell, y: ty, width: cell - 1, height: 22, fill: r % 5 ? "#fffdf8" : "#efe6d2", stroke: "#b8ab90", "stroke-width": 0.6}));
      if (r % 5 === 0) svg.append(T(80 + r * cell + cell / 2, ty + 31, r, {size: 8, fill: "#7a6e5d"}));
    }
    const track = S("g", {});
    (v.gangs || []).forEach((g, q) => {
      track.append(S("circle", {cx: 80 + g.respect * cell + cell / 2, cy: ty + 5 + (q % 3) * 6, r: 5, fill: KM.seatColours[q], stroke: "#fff"}));
    });
    b.key(track, "respect");
    svg.append(track);
    svg.append(T(W - 10, ty - 6, `Year ${v.year}${v.riot ? " · RIOT" : ""} · ${v.phase} · initiator P${v.initiator}`, {anchor: "end", size: 12, weight: "bold"}));
    // Fight area.
    const fy = 125;
    svg.append(S("rect", {x: 10, y: fy, width: 600, height: 330, rx: 8, fill: "#f4efe4", stroke: "#8b7355"}));
    const f = v.fight;
    svg.append(T(20, fy + 16, f ? `Fight in ${f.block} · round ${f.round}` + (f.turn !== null && f.turn !== undefined ? ` · P${f.turn} to fight` : "") : "No fight now", {anchor: "start", size: 13, weight: "bold"}));
    if (f && f.tie_breaker) svg.append(T(600, fy + 16, "ties: " + f.tie_breaker.join(" > "), {anchor: "end", size: 10, fill: "#5d5548"}));
    if (f && f.fists) {
      f.fists.forEach((fi, i) => {
        const x = 20 + i * 116;
        const g = S("g", {});
        g.append(S("rect", {x, y: fy + 28, width: 110, height: 40, rx: 5, fill: fi.status === "choosing" ? "#fff1c7" : "#fffdf8", stroke: KM.seatColours[fi.player]}));
        g.append(T(x + 55, fy + 42, `P${fi.player} fist`, {size: 11, weight: "bold"}));
        g.append(T(x + 55, fy + 58, fi.status + (fi.fist ? " " + JSON.stringify(fi.fist) : ""), {size: 10}));
        b.key(g, "fist-of:" + fi.player);
        svg.append(g);
      });
    }
    (f && f.areas || []).forEach((a, i) => {
      const y = fy + 80 + i * 48;
      const g = S("g", {class: "area"});
      g.append(S("rect", {x: 20, y, width: 580, height: 42, rx: 5, fill: f.turn === a.player ? "#fff1c7" : "#fffdf8", stroke: KM.seatColours[a.player], "stroke-width": 1.5}));
      g.append(T(28, y + 12, `P${a.player}${a.passed ? " passed" : ""}`, {anchor: "start", size: 11, weight: "bold"}));
      pieces(g, 28, y + 21, a.pieces, 13, types);
      g.append(T(260, y + 12, "cards: " + ((a.cards || []).map(c => typeof c === "number" ? (v.legend.card_names[c] || c) : c).join(", ") || "none"), {anchor: "start", size: 10}));
      g.append(T(260, y + 30, "strength: " + (a.strength || []).map((s, t) => `${types[t]} ${s}`).join(" · "), {anchor: "start", size: 10}));
      b.key(g, "area:" + a.player);
      svg.append(g);
    });
    if (f && f.placings && f.placings.length) svg.append(T(20, fy + 320, "placings: " + JSON.stringify(f.placings).slice(0, 90), {anchor: "start", size: 10}));
    if (f && f.drawn_card !== null && f.drawn_card !== undefined) svg.append(T(330, fy + 42, "drawn: " + (v.legend.card_names[f.drawn_card] || f.drawn_card), {anchor: "start", size: 12, weight: "bold"}));
    if (v.you !== null && v.you !== undefined && !v.final) {
      const g = S("g", {class: "your-fist"});
      g.append(S("rect", {x: 400, y: fy + 270, width: 200, height: 50, rx: 6, fill: "#fffdf8", stroke: "#4a3b2a", "stroke-dasharray": "5 3"}));
      g.append(T(500, fy + 288, "Your fist / your split", {size: 12, weight: "bold"}));
      g.append(T(500, fy + 305, "(a secret choice)", {size: 10, fill: "#7a6e5d"}));
      b.key(g, "fist");
      svg.append(g);
    }
    // Supply, fight deck, cafeteria, bus.
    const sx = 625;
    const sp = v.supply || {};
    const lines = [
      ["Supply", true],
      [`shank deck ${sp.shank_deck} · drug pile ${sp.drug_pile}`],
      [`commissary ${sp.commissary} · bribe chips ${sp.bribe_chips}`],
    ];
    const fd = v.fight_deck || {};
    lines.push([`fight deck ${fd.size} · guards ${fd.guards} · discards ${fd.discards}${fd.grave_drawn ? " · GRAVE drawn" : ""}`]);
    if (v.cafeteria) {
      lines.push(["Cafeteria", true]);
      lines.push([`shanks ${JSON.stringify(v.cafeteria.shank_cards)} · drugs ${JSON.stringify(v.cafeteria.drug_chips)}`]);
      lines.push([`bus row ${JSON.stringify(v.cafeteria.bus_row)} · respect ${JSON.stringify(v.cafeteria.respect)}`]);
    }
    if (v.bus) {
      lines.push(["The bus", true]);
      lines.push([`picking P${v.bus.picking}, ${v.bus.picks_left} picks left`]);
    }
    if (v.yours) {
      lines.push(["Yours (secret)", true]);
      lines.push(["shanks " + v.yours.shank_cards.map((k, t) => `${types[t]} ${k}`).join(", ")]);
      lines.push(["drugs " + v.yours.drug_chips.map((k, t) => `${(v.legend.drug_colours || [])[t] || t} ${k}`).join(", ")]);
    }
    if (v.pending && v.pending.length) {
      lines.push(["Pending", true]);
      v.pending.slice(0, 3).forEach(p => lines.push([String(p).slice(0, 52)]));
    }
    lines.forEach(([t, bold], i) => svg.append(T(sx, fy + 10 + i * 19, t, {anchor: "start", size: bold ? 13 : 11, weight: bold ? "bold" : null})));
    const extra = S("g", {});
    const ey = fy + 300;
    for (const [i, [key, label]] of [["buy", "buy a chip"], ["pay", "pay"], ["bribe", "bribe chip"]].entries()) {
      const g = S("g", {});
      g.append(S("rect", {x: sx + i * 122, y: ey, width: 114, height: 28, rx: 5, fill: "#f7efdc", stroke: "#8b7355"}));
      g.append(T(sx + i * 122 + 57, ey + 14, label, {size: 11}));
      b.key(g, key);
      extra.append(g);
    }
    if (!v.final) svg.append(extra);  // no buttons once the game is over
    // Gangs.
    const gy = 470;
    (v.gangs || []).forEach((gang, q) => {
      const col = q % 3, row = Math.floor(q / 3);
      const x = 10 + col * 330, y = gy + row * 150;
      const active = (v.acting || []).includes(q);
      const nm = b.seats && b.seats[q] ? b.seats[q].name || "open seat" : "";
      svg.append(S("rect", {x, y, width: 322, height: 142, rx: 6, fill: active ? "#fff1c7" : "#fffdf8", stroke: KM.seatColours[q], "stroke-width": active ? 3 : 1.5}));
      svg.append(T(x + 8, y + 13, `P${q}${q === v.you ? " (you)" : ""} ${nm}`.slice(0, 34), {anchor: "start", size: 12, weight: "bold"}));
      const goods = S("g", {});
      goods.append(T(x + 314, y + 13, `respect ${gang.respect} · fight ${gang.fight_points}`, {anchor: "end", size: 10}));
      ["cell", "yard", "solitary", "court"].forEach((place, i) => {
        goods.append(T(x + 8, y + 32 + i * 18, place, {anchor: "start", size: 10}));
        pieces(goods, x + 62, y + 25 + i * 18, gang[place], 11, types);
      });
      goods.append(T(x + 8, y + 108, `shanks ${gang.shank_cards} · drugs ${gang.drug_chips} · commissary ${gang.commissary} · bribes ${gang.bribe_chips}`, {anchor: "start", size: 10}));
      b.key(goods, "gang:" + q);
      svg.append(goods);
      if (q === v.you) {
        types.forEach((t, i) => {
          const g = S("g", {});
          g.append(S("rect", {x: x + 8 + i * 104, y: y + 116, width: 98, height: 20, rx: 4, fill: TYPE_COL[i], stroke: "#222"}));
          g.append(T(x + 57 + i * 104, y + 126, t, {size: 11, fill: "#fff", weight: "bold"}));
          b.key(g, "mytype:" + t.toLowerCase());
          svg.append(g);
        });
      }
    });
    if (v.final) {
      // In the fight area, empty once the game is over.
      const fr = v.final;
      const nm = q => b.seats && b.seats[q] ? b.seats[q].name || "open seat" : "";
      svg.append(S("rect", {x: 20, y: fy + 30, width: 580, height: 40 + 20 * n, rx: 6, fill: "#e3f4e1", stroke: "#6aa36a"}));
      svg.append(T(30, fy + 46, "Final respect · winner: " + (fr.winners || []).map(w => `P${w} ${nm(w)}`).join(", ") + " · ties: most fight points", {anchor: "start", size: 12, weight: "bold"}));
      (fr.respect || []).forEach((r, q) => svg.append(T(30, fy + 68 + q * 20,
        `P${q} ${nm(q)}`.slice(0, 24) + `: ${r.total} (track ${r.track}, Fight King ${r.fight_king}, Drug King ${r.drug_king}, Crew King ${r.crew_king})`, {anchor: "start", size: 11})));
    }
    return svg;
  }

  function targets(text, v) {
    let m;
    if ((m = text.match(/^choose (\S+)$/))) return ["block:" + short(m[1])];
    if (/^(fist|gym) /.test(text)) return ["fist"];
    if (/^buy /.test(text)) return ["buy"];
    if (/^pay /.test(text)) return ["pay"];
    if ((m = text.match(/^bribe .*\bp(\d+)\b/)) && v && v.fight && (v.fight.areas || []).some(a => String(a.player) === m[1])) {
      return ["bribe", "area:" + m[1]];
    }
    if (/^bribe /.test(text)) return ["bribe"];
    if ((m = text.match(/^(?:shank|pick|solitary) (\w+)$/))) return ["mytype:" + m[1]];
    return [];
  }

  // Words for a move: "gym T0 S1 C2" -> "gym: Tarantula 0, Scorpion 1, Cobra 2".
  const BLOCKS = {shank: "Shank", commissary: "Commissary", "new-arrival": "New Arrival", drug: "Drug", gym: "Gym",
    cafeteria: "Cafeteria Trade", "guard-influence": "Guard Influence", riot: "Riot"};
  function label(text, v, names) {
    const types = (v.legend && v.legend.types) || ["Cobra", "Scorpion", "Tarantula"];
    const drugs = (v.legend && v.legend.drug_colours) || ["green", "white", "blue"];
    const letter = {};
    types.forEach(t => { letter[t[0].toUpperCase()] = t; });
    drugs.forEach(d => { letter[d[0].toUpperCase()] = d; });
    const counts = t => t.split(" ").map(x => { const m = x.match(/^([A-Z])(\d)$/); return m ? `${letter[m[1]] || m[1]} ${m[2]}` : x; }).join(", ");
    const typ = t => types.find(x => x.toLowerCase() === t) || t;
    const p = q => names[+q] || `player ${q}`;
    let m;
    if ((m = text.match(/^choose (\S+)$/))) return `play the ${BLOCKS[m[1]] || m[1]} block`;
    if ((m = text.match(/^fist (.+)$/))) return `fist: ${counts(m[1])} (secret until all fists open)`;
    if ((m = text.match(/^gym (.+)$/))) return `gym: ${counts(m[1])}`;
    if ((m = text.match(/^buy shank (\w+)$/))) return `buy a ${typ(m[1])} shank card for a commissary`;
    if ((m = text.match(/^buy drug (\w+)$/))) return `buy a ${m[1]} drug chip for a commissary`;
    if ((m = text.match(/^buy piece (\w+)$/))) return `buy a ${typ(m[1])} off the bus for a commissary`;
    if ((m = text.match(/^buy respect (\d)$/))) return `buy ${m[1]} respect for a commissary`;
    if (text === "buy nothing") return "pass: buy nothing in the cafeteria";
    if ((m = text.match(/^buy chip with (.+) \+ (.+)$/))) return `buy a bribe chip with ${m[1]} and ${m[2]}`;
    if (text === "done buying") return "stop buying bribe chips";
    if (text === "pay commissary") return "pay for the drugs with a commissary";
    if ((m = text.match(/^pay (\w+)-shank$/))) return `pay for the drugs with a ${typ(m[1])} shank card`;
    if (text === "decline") return "do not pay: stay out of the drug fight";
    if (text === "pass") return "pass: leave the fight";
    if (text === "draw") return "draw a fight card";
    if ((m = text.match(/^shank (\w+)$/))) return `play a ${typ(m[1])} shank card`;
    if (text === "end turn") return "end your fighting turn";
    if (text === "keep card") return "keep the card just drawn";
    if (text === "bribe redraw") return "bribe a guard: discard the card just drawn and draw again";
    if (text === "bribe extra card") return "bribe a guard: draw one more card";
    if ((m = text.match(/^bribe take (\w+) of p(\d+) from p(\d+)$/))) return `bribe a guard: take ${p(m[2])}'s ${typ(m[1])} out of ${p(m[3])}'s fight area`;
    if ((m = text.match(/^bribe free (\w+)$/))) return `bribe a guard: free your ${typ(m[1])} from solitary`;
    if ((m = text.match(/^bribe steal (\S+) from p(\d+)$/))) return `bribe a guard: steal a ${m[1]} from ${p(m[2])}`;
    if ((m = text.match(/^bribe steal (\S+) from supply$/))) return `bribe a guard: take a ${m[1]} from the supply`;
    if ((m = text.match(/^bribe kill (\w+) of p(\d+) at p(\d+)$/))) return `bribe a guard: kill ${p(m[2])}'s ${typ(m[1])} in ${p(m[3])}'s fight area`;
    if ((m = text.match(/^solitary (\w+)$/))) return `send one of your ${typ(m[1])}s to solitary`;
    if ((m = text.match(/^parole (\w+)$/))) return `one of your ${typ(m[1])}s leaves the game on parole`;
    if ((m = text.match(/^steal (drug|shank) from p(\d+)$/))) return `steal a ${m[1] === "drug" ? "drug chip" : "shank card"} from ${p(m[2])}`;
    if (text === "play stolen") return "play the stolen shank card now";
    if (text === "keep stolen") return "keep the stolen shank card";
    if ((m = text.match(/^pick (\w+)$/))) return `take a ${typ(m[1])} off the bus`;
    if ((m = text.match(/^initiator p(\d+)$/))) return `${p(m[1])} starts the year`;
    if ((m = text.match(/^(shank cards|drug chips) (.+)$/))) return `${m[1]} dealt: ${counts(m[2])}`;
    return null;
  }

  // Who won and why: most respect, then most fight points (ruling SQK-20).
  function outcome(v, names) {
    const fr = v.final;
    if (!fr) return null;
    const nm = q => names[q] || `player ${q}`;
    const tot = (fr.respect || []).map(r => r.total);
    const best = Math.max(...tot);
    const tied = tot.map((x, q) => x === best ? q : -1).filter(q => q >= 0);
    const ws = fr.winners || [];
    let text = `${ws.map(nm).join(" and ")} ${ws.length === 1 ? "wins" : "share the win"} with the most respect, ${best}`;
    const r = fr.respect[ws[0]];
    if (r && ws.length === 1) text += ` (track ${r.track}, Fight King ${r.fight_king}, Drug King ${r.drug_king}, Crew King ${r.crew_king})`;
    if (tied.length > 1) {
      const fp = q => (v.gangs[q] || {}).fight_points;
      text += `; tied on respect, ${ws.length === tied.length ? "and on" : "broken by"} fight points (${tied.map(q => `${nm(q)} ${fp(q)}`).join(", ")})`;
    }
    return {winners: ws, text: text + ". Respect: " + tot.map((x, q) => `${nm(q)} ${x}`).join(", ") + "."};
  }

  KM.boards["san-quentin-kings"] = {draw, targets, label, outcome, quiet: /^(mytype:|buy$|pay$|bribe$|fist$)/};
})();
