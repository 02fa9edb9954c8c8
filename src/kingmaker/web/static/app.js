// Kingmaker's page: lobby (/), a match (/m/<id>), a replay (/r/<id>).
// Plain JavaScript, no build step. Everything shown comes from the server's
// messages, which are built from the seat's view.
"use strict";

const $ = (sel, root) => (root || document).querySelector(sel);
const H = (tag, attrs, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "value") el.value = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  return el;
};

// ---- tokens kept in this browser ---------------------------------------------------
const store = {
  get(k, d) { try { return JSON.parse(localStorage.getItem("km." + k)) ?? d; } catch (e) { return d; } },
  set(k, v) { localStorage.setItem("km." + k, JSON.stringify(v)); },
};
function tokensOf(mid) { return store.get("tokens", {})[mid] || {}; }
function saveTokens(mid, toks) { const all = store.get("tokens", {}); all[mid] = Object.assign(all[mid] || {}, toks); store.set("tokens", all); }
function mySeat(mid) { const me = store.get("me", {}); return me[mid] ?? null; }
function setMySeat(mid, seat) { const me = store.get("me", {}); me[mid] = seat; store.set("me", me); }
function myToken(mid) { const s = mySeat(mid); return s === null ? null : (tokensOf(mid)[s] || null); }

function toast(text, bad) {
  const t = $("#toast");
  t.textContent = text;
  t.className = bad ? "show bad" : "show";
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.className = ""; }, 4000);
}

async function api(method, path, body, token) {
  const headers = {"Content-Type": "application/json"};
  if (token) headers.Authorization = "Bearer " + token;
  const r = await fetch(path, {method, headers, body: body ? JSON.stringify(body) : undefined});
  const data = await r.json();
  if (!r.ok) { const e = new Error(data.error ? data.error.message : r.statusText); e.info = data.error; throw e; }
  return data;
}

let GAMES = null;
async function games() {
  if (!GAMES) GAMES = await api("GET", "/api/games");
  return GAMES;
}
function gameInfo(id) { return GAMES && GAMES.games.find(g => g.id === id); }
function gameName(id) { const g = gameInfo(id); return g ? g.name : id; }

const boardCache = {};
function loadBoard(gid) {
  if (KM.boards[gid]) return Promise.resolve(KM.boards[gid]);
  if (!boardCache[gid]) {
    boardCache[gid] = new Promise(resolve => {
      const s = document.createElement("script");
      s.src = `/static/boards/${gid}.js`;
      s.onload = () => resolve(KM.boards[gid] || KM.genericBoard);
      s.onerror = () => resolve(KM.genericBoard);
      document.head.appendChild(s);
    });
  }
  return boardCache[gid];
}

function seatLabel(seats, i, me) {
  let name = KM.teach.names(seats, i + 1)[i];
  if (i === me) name += " (you)";
  return `P${i} ${name}`;
}

// A seat's colour: the picture's (Kingpin: the mafia's), else the page's seat colours.
function seatColour(cur, q) {
  const board = cur && cur.board, view = cur && cur.msg && cur.msg.view;
  let c = null;
  if (board && board.seatColour && view) { try { c = board.seatColour(view, q); } catch (e) { c = null; } }
  return c || KM.seatColours[q % KM.seatColours.length];
}

// ---- lobby ---------------------------------------------------------------------------------
async function lobby() {
  $("#where").textContent = "Lobby";
  const g = await games();
  const main = $("#main");
  main.innerHTML = "";
  const form = H("form", {id: "create", class: "panel", onsubmit: e => { e.preventDefault(); create(); }},
    H("h2", {}, "New game"),
    H("label", {}, "Game ", H("select", {id: "game", onchange: () => fillForm()},
      g.games.map(x => H("option", {value: x.id}, x.name)))),
    H("p", {id: "summary", class: "muted"}),
    H("label", {}, "Players ", H("select", {id: "players", onchange: () => fillSeats()})),
    H("div", {id: "options"}),
    H("label", {}, "Your name ", H("input", {id: "my-name", maxlength: 40, value: store.get("name", ""), placeholder: "you"})),
    H("table", {id: "seats", class: "seats"}),
    H("label", {}, H("input", {type: "checkbox", id: "public", checked: true}), " list in the lobby (anyone may join open seats)"),
    H("div", {}, H("button", {type: "submit", id: "create-btn", class: "primary"}, "Create and play")));
  const list = H("section", {class: "panel", id: "matches"}, H("h2", {}, "Games"), H("div", {id: "match-list"}, "…"));
  main.append(H("div", {class: "lobby"}, form, list));
  fillForm();
  refreshLobby();
  clearInterval(lobby.timer);
  lobby.timer = setInterval(() => { if (location.pathname === "/") refreshLobby(); else clearInterval(lobby.timer); }, 4000);
}

function currentGame() { return GAMES.games.find(x => x.id === $("#game").value); }

function fillForm() {
  const gm = currentGame();
  $("#summary").textContent = gm.summary || "";
  const ps = $("#players");
  ps.innerHTML = "";
  for (let n = gm.min_players; n <= gm.max_players; n++) ps.append(H("option", {value: n}, n));
  ps.value = Math.min(gm.max_players, Math.max(gm.min_players, 3));
  const opts = $("#options");
  opts.innerHTML = "";
  for (const o of gm.options) {
    opts.append(H("label", {title: o.doc}, o.name.replace(/_/g, " ") + " ",
      H("select", {"data-option": o.name}, o.allowed.map(a => H("option", {value: JSON.stringify(a), selected: a === o.default}, String(a))))));
  }
  fillSeats();
}

function botChoices(gm, n) {
  // "expert" plays only where a network ships for the game and player count (gm.expert);
  // the turn planner ("plan", its expert is more samples) only where the heuristic has styles.
  const out = [];
  for (const [kind, levels] of Object.entries(GAMES.bots)) {
    if (kind === "team" && !gm.cooperative) continue;
    if (kind === "plan" && (gm.styles || []).length < 2) continue;
    if (levels.length) {
      for (const l of levels) {
        if (l !== "expert" || kind === "plan" || (gm.expert || []).includes(n)) out.push(`${kind}:${l}`);
      }
    } else out.push(kind);
  }
  return out;
}

function fillSeats() {
  const gm = currentGame();
  const n = +$("#players").value;
  const t = $("#seats");
  t.innerHTML = "";
  const bots = botChoices(gm, n);
  // the game's recommended bot (gm.bot), else the search's normal level, else the heuristic
  const best = [gm.bot, "ismcts:normal"].find(b => bots.includes(b)) || "heuristic";
  for (let i = 0; i < n; i++) {
    const sel = H("select", {"data-seat": i},
      H("option", {value: "you"}, "You"),
      H("option", {value: "human"}, "Human (invite link)"),
      bots.map(b => H("option", {value: "bot:" + b}, "Bot: " + b)));
    sel.value = i === 0 ? "you" : "bot:" + best;
    t.append(H("tr", {}, H("td", {}, `Seat ${i}`), H("td", {}, sel)));
  }
}

async function create() {
  const gm = currentGame();
  const seats = [];
  let you = null;
  const myName = ($("#my-name").value || "").trim() || "you";
  store.set("name", myName === "you" ? "" : myName);
  document.querySelectorAll("#seats select").forEach((sel, i) => {
    if (sel.value === "you") { if (you === null) { you = i; seats.push({kind: "human", name: myName}); } else seats.push({kind: "human"}); }
    else if (sel.value === "human") seats.push({kind: "human"});
    else seats.push({kind: "bot", bot: sel.value.slice(4)});
  });
  const options = {};
  document.querySelectorAll("#options select").forEach(s => { options[s.dataset.option] = JSON.parse(s.value); });
  try {
    const r = await api("POST", "/api/matches", {game: gm.id, players: +$("#players").value, options, seats, you, public: $("#public").checked});
    saveTokens(r.match, r.tokens);
    if (you !== null) setMySeat(r.match, you);
    history.pushState({}, "", "/m/" + r.match);
    route();
  } catch (e) { toast(e.message, true); }
}

async function refreshLobby() {
  let r;
  try { r = await api("GET", "/api/matches"); } catch (e) { return; }
  const box = $("#match-list");
  if (!box) return;
  box.innerHTML = "";
  if (!r.matches.length) { box.append(H("p", {class: "muted"}, "No games yet.")); return; }
  const t = H("table", {class: "list"}, H("tr", {}, H("th", {}, "Game"), H("th", {}, "Seats"), H("th", {}, "Status"), H("th", {})));
  for (const m of r.matches) {
    const mine = mySeat(m.match) !== null;
    const open = m.seats.filter(s => s.kind === "human" && !s.claimed);
    const actions = [];
    if (mine && m.status === "playing") actions.push(H("a", {href: "/m/" + m.match, class: "btn"}, "Resume"));
    else if (open.length && m.status === "playing") actions.push(H("button", {class: "btn", onclick: () => joinOpen(m.match)}, "Join"));
    if (m.status === "playing") actions.push(H("a", {href: "/m/" + m.match, class: "btn", onclick: () => { if (!mine) setMySeat(m.match, null); }}, mine ? "" : "Watch"));
    actions.push(H("a", {href: "/r/" + m.match, class: "btn"}, "Replay"));
    t.append(H("tr", {},
      H("td", {}, m.name, H("div", {class: "muted small"}, m.match)),
      H("td", {}, m.seats.map(s => H("div", {class: "small"}, `${s.seat}: ${s.kind === "bot" ? s.name : (s.claimed ? s.name : "open")}`))),
      H("td", {}, m.status === "over" ? "finished" : `playing (move ${m.version})`),
      H("td", {}, actions.filter(a => a.textContent))));
  }
  box.append(t);
}

async function joinOpen(mid) {
  try {
    const r = await api("POST", `/api/matches/${mid}/join`, {name: store.get("name", "") || "guest"});
    saveTokens(mid, {[r.seat]: r.token});
    setMySeat(mid, r.seat);
    history.pushState({}, "", "/m/" + mid);
    route();
  } catch (e) { toast(e.message, true); }
}

// ---- a match -----------------------------------------------------------------------------------
let CUR = null; // the open match: {mid, ws, msg, log, board, ...}

async function matchPage(mid) {
  await games();
  const params = new URLSearchParams(location.search);
  const invite = params.get("token");
  if (invite) {
    try {
      const r = await api("POST", `/api/matches/${mid}/join`, {token: invite, name: params.get("name") || undefined});
      saveTokens(mid, {[r.seat]: r.token});  // joining gives a fresh token; the invite stops working
      setMySeat(mid, r.seat);
    } catch (e) { toast(e.message, true); }
    history.replaceState({}, "", "/m/" + mid);
  }
  const main = $("#main");
  main.innerHTML = "";
  main.append(H("div", {class: "match"},
    H("div", {class: "board-col"},
      H("div", {id: "status", class: "status"}, "Connecting…"),
      H("div", {id: "result", class: "result"}),
      H("div", {id: "last-move", class: "last-move-line"}),
      H("div", {id: "board", class: "board"}),
      H("div", {id: "movebar", class: "movebar"}),
      H("div", {id: "notes", class: "notes"})),
    H("aside", {class: "side"},
      H("section", {class: "panel"}, H("h3", {}, "Seats",
        H("button", {id: "rules-btn", class: "btn small rules-btn", onclick: () => CUR && CUR.msg && KM.teach.openRules(CUR.msg.game, gameName(CUR.msg.game))}, "Rules")),
        H("div", {id: "seatlist"})),
      H("section", {class: "panel"}, H("details", {id: "all-moves", open: true}, H("summary", {}, "Moves"),
        H("input", {id: "move-filter", placeholder: "filter moves", oninput: () => renderMoves()}),
        H("div", {id: "movelist", class: "movelist"}))),
      H("section", {class: "panel"}, H("h3", {}, "Log"), H("ol", {id: "log", class: "log"})))));
  CUR = {mid, ws: null, msg: null, log: [], retry: 0, closed: false};
  connect(CUR);
}

function connect(cur) {
  const tok = myToken(cur.mid);
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/matches/${cur.mid}` + (tok ? `?token=${encodeURIComponent(tok)}` : "");
  const ws = new WebSocket(url);
  cur.ws = ws;
  ws.onopen = () => { cur.retry = 0; setConn(true); };
  ws.onmessage = ev => onMessage(cur, JSON.parse(ev.data));
  ws.onclose = ev => {
    setConn(false);
    if (cur.closed || CUR !== cur) return;
    if (ev.code === 4401 || ev.code === 4403) {
      // The seat changed hands (or the token is no longer the seat's): forget it and watch.
      const s = mySeat(cur.mid);
      if (s !== null) { const all = store.get("tokens", {}); if (all[cur.mid]) delete all[cur.mid][s]; store.set("tokens", all); }
      setMySeat(cur.mid, null);
      toast("This seat is no longer yours; you are watching the match.", true);
    }
    cur.retry = Math.min(cur.retry + 1, 6);
    setTimeout(() => { if (CUR === cur && !cur.closed) connect(cur); }, 300 * cur.retry);
  };
}

function setConn(ok) { const c = $("#conn"); c.textContent = ok ? "● connected" : "○ reconnecting…"; c.className = "conn " + (ok ? "ok" : "bad"); }

function onMessage(cur, m) {
  if (m.type === "state") {
    if (m.log.start === 0) cur.log = m.log.lines.slice();
    else if (m.log.start === cur.log.length) cur.log.push(...m.log.lines);
    else { cur.ws.send(JSON.stringify({type: "sync"})); return; }
    cur.msg = m;
    cur.seats = m.seats;
    render(cur);
  } else if (m.type === "seats") {
    cur.seats = m.seats;
    renderSeats(cur);
  } else if (m.type === "error") {
    toast(m.error.message, true);
    if (m.error.code === "match/conflict") cur.ws.send(JSON.stringify({type: "sync"}));
    if (m.error.code === "seat/forbidden" && !cur.msg) { $("#status").textContent = m.error.message; }
  }
}

function play(cur, action) {
  closeMenu();
  if (!cur.ws || cur.ws.readyState !== 1) { toast("not connected; retrying", true); return; }
  cur.ws.send(JSON.stringify({type: "move", action, version: cur.msg.version, ref: Date.now()}));
}

function statusText(m, seats) {
  const me = m.seat;
  if (m.status === "over") return "Game over.";  // the banner below says who won and why
  if (m.to_move === "chance") return "Dealing…";
  if (m.simultaneous) {
    const mine = me !== null && m.acting.includes(me);
    const others = m.acting.filter(p => p !== me).map(p => seatLabel(seats, p, me));
    return (mine ? "Your secret choice. " : (me !== null ? "You have chosen. " : "")) + (others.length ? "Waiting for " + others.join(", ") + "." : "");
  }
  if (m.to_move === me) return "Your turn.";
  return "Waiting for " + seatLabel(seats, m.to_move, me) + ".";
}

async function render(cur) {
  const m = cur.msg;
  $("#where").textContent = `${gameName(m.game)} · ${m.match}` + (m.seat === null ? " · spectating" : ` · seat ${m.seat}`);
  const st = $("#status");
  st.textContent = statusText(m, cur.seats);
  st.className = "status" + (m.legal.length ? " yours" : "");
  const board = await loadBoard(m.game);
  if (cur.msg !== m) return; // a newer message arrived while loading the picture
  cur.board = board;
  const nm = KM.teach.names(m.seats, m.players);
  const last = KM.teach.lastMove(cur.log);
  // The marker compares with the picture shown before. On the first picture, or after a jump
  // of several moves (a reconnection), it frames what the last logged move names instead.
  const jump = !cur.shownSigs || m.version - (cur.shownVersion || 0) > 3;
  const fallback = last && jump ? lastMoveKeys(board, last, m.view) : null;
  cur.shownSigs = drawBoard($("#board"), board, m.view, m.legal, a => play(cur, a), m.seats,
    {before: jump ? null : cur.shownSigs, fallback, names: nm});
  cur.shownVersion = m.version;
  // The move's words read the view it was played in (when this update brings one move).
  showLastMove(board, last, jump ? m.view : cur.shownView, nm);
  cur.shownView = m.view;
  renderNotes(board, m.game, m.view, nm);
  renderMoves();
  renderSeats(cur);
  // The log grows by its new lines (its words read no view: it may be long).
  const log = $("#log");
  if (log.children.length > cur.log.length || log.dataset.names !== nm.join("|")) { log.innerHTML = ""; log.dataset.names = nm.join("|"); }
  for (let i = log.children.length; i < cur.log.length; i++) log.append(H("li", {}, KM.teach.logLine(board, cur.log[i], {}, nm)));
  log.scrollTop = log.scrollHeight;
  const res = $("#result");
  res.innerHTML = "";
  if (m.status === "over") {
    const end = KM.teach.ending(m, board, gameInfo(m.game), nm);
    st.textContent = "Game over. " + end.title;
    res.append(H("div", {class: "banner " + end.tone, id: "game-over", "data-tone": end.tone},
      H("div", {class: "banner-title"}, end.title),
      end.text ? H("p", {class: "reason", id: "game-over-reason"}, end.text) : null,
      H("p", {class: "small muted"}, "Returns: " + m.result.map((r, i) => `${nm[i]} ${+r.toFixed(3)}`).join(", ")),
      H("div", {}, H("a", {href: "/r/" + m.match, class: "btn"}, "Watch the replay"), H("a", {href: "/", class: "btn"}, "New game"))));
  }
  // Set last: tests wait on the version, and everything above is drawn by then.
  st.dataset.status = m.status;
  st.dataset.version = m.version;
}

// The keys of the picture elements that the logged move ``line`` names.
function lastMoveKeys(board, line, view) {
  const mv = String(line).match(/^players? \d+: (.+)$/);
  if (!mv) return null;
  try { return board.targets(mv[1], view) || []; } catch (e) { return null; }
}

function showLastMove(board, line, view, nm) {
  const box = $("#last-move");
  if (!box) return;
  box.innerHTML = "";
  if (line) box.append(H("span", {class: "muted"}, "Last move: "), H("span", {id: "last-move-text"}, KM.teach.logLine(board, line, view, nm)));
}

// The designed cards in use (abilities, powers, respites), readable under the picture.
async function renderNotes(board, gid, view, names) {
  const box = $("#notes");
  if (!box) return;
  let notes = [];
  try { notes = board.notes ? board.notes(view, names) || [] : []; } catch (e) { notes = []; }
  if (notes.some(n => !n.text)) {
    let doc = null;
    try { doc = await KM.teach.rules(gid); } catch (e) { doc = null; }
    notes = notes.map(n => n.text ? n : {name: n.name, text: doc && doc.cards ? doc.cards[n.card || n.name] : null});
  }
  box.innerHTML = "";
  notes = notes.filter(n => n.text);
  if (!notes.length) return;
  box.append(H("h3", {}, "Cards in play"),
    H("dl", {class: "cards"}, notes.map(n => [H("dt", {}, n.name), H("dd", {}, n.text)])));
}

// Draws a picture and wires the clickable targets of the legal moves.
function drawBoard(box, board, view, legal, onPlay, seats, opts) {
  const o = opts || {};
  const byKey = new Map();
  const untargeted = [];
  for (const mv of legal) {
    let keys = [];
    try { keys = board.targets(mv.text, view) || []; } catch (e) { keys = []; }
    if (!keys.length) untargeted.push(mv);
    for (const k of keys) { if (!byKey.has(k)) byKey.set(k, []); byKey.get(k).push(mv); }
  }
  const keyed = [];
  const b = {
    seats,
    key(el, key) {
      el.setAttribute("data-key", key);
      keyed.push([key, el]);
      const moves = byKey.get(key);
      if (moves && moves.length) {
        el.classList.add("target");
        el.setAttribute("tabindex", "0");
        const go = ev => { ev.stopPropagation(); if (moves.length === 1) onPlay(moves[0].action); else openMenu(ev, moves, onPlay, board, view, o.names); };
        el.addEventListener("click", go);
        el.addEventListener("keydown", ev => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(ev); } });
      }
      return el;
    },
  };
  let svg;
  try { svg = board.draw(view, b); } catch (e) {
    // A picture that cannot draw this view: show the plain listing, and keep the error for tests.
    console.error(e);
    (KM.drawErrors = KM.drawErrors || []).push(String(e && e.stack || e));
    svg = KM.genericBoard.draw(view, b);
  }
  box.innerHTML = "";
  box.append(svg);
  const now = KM.teach.drawn(keyed);
  if (o.before || o.fallback) KM.teach.mark(svg, board, keyed, now, o.before, o.fallback);
  const bar = $("#movebar");
  if (bar) {
    bar.innerHTML = "";
    for (const mv of untargeted) {
      bar.append(H("button", {class: "move-btn", "data-action": mv.action, onclick: () => onPlay(mv.action)},
        KM.teach.moveContent(board, mv.text, view, o.names)));
    }
  }
  return now;
}

function renderMoves() {
  if (!CUR || !CUR.msg) return;
  const list = $("#movelist");
  const f = ($("#move-filter").value || "").toLowerCase();
  list.innerHTML = "";
  const legal = CUR.msg.legal;
  if (!legal.length) { list.append(H("p", {class: "muted"}, CUR.msg.status === "over" ? "The game is over." : "No move for you now.")); return; }
  const nm = KM.teach.names(CUR.msg.seats, CUR.msg.players);
  for (const mv of legal) {
    const content = KM.teach.moveContent(CUR.board, mv.text, CUR.msg.view, nm);
    const all = (mv.text + " " + (content[1] ? content[1].textContent : "")).toLowerCase();
    if (f && !all.includes(f)) continue;
    list.append(H("button", {class: "move", "data-action": mv.action, onclick: () => play(CUR, mv.action)}, content));
  }
}

function renderSeats(cur) {
  const box = $("#seatlist");
  if (!box || !cur.seats) return;
  box.innerHTML = "";
  const toks = tokensOf(cur.mid);
  const me = cur.msg ? cur.msg.seat : null;
  for (const s of cur.seats) {
    const row = H("div", {class: "seat" + (cur.msg && cur.msg.acting.includes(s.seat) ? " acting" : "")},
      H("span", {class: "dot", "data-colour": seatColour(cur, s.seat), style: `background:${seatColour(cur, s.seat)}`}),
      seatLabel(cur.seats, s.seat, me),
      s.kind === "human" ? H("span", {class: "muted small"}, s.connected ? " online" : (s.claimed ? " away" : " open")) : null);
    if (s.kind === "human" && s.seat !== me && toks[s.seat] && !(cur.msg && cur.msg.status === "over")) {
      const link = `${location.origin}/m/${cur.mid}?token=${toks[s.seat]}`;
      row.append(H("button", {class: "btn small", title: link, onclick: () => { navigator.clipboard && navigator.clipboard.writeText(link); toast("Invite link copied: " + link); }}, "invite link"));
    }
    box.append(row);
  }
  if (me !== null && cur.msg && cur.msg.status === "playing") {
    box.append(H("button", {class: "btn small", onclick: async () => {
      if (!confirm("Leave this game? A bot takes your seat.")) return;
      try { await api("POST", `/api/matches/${cur.mid}/leave`, {bot: "heuristic"}, myToken(cur.mid)); setMySeat(cur.mid, null); cur.ws.close(); } catch (e) { toast(e.message, true); }
    }}, "Leave (a bot takes over)"));
  }
}

// ---- the menu for a click that matches several moves ------------------------------------------------
function openMenu(ev, moves, onPlay, board, view, names) {
  closeMenu();
  const items = moves.map(mv => H("button", {class: "menu-item", "data-action": mv.action, onclick: e => { e.stopPropagation(); closeMenu(); onPlay(mv.action); }},
    KM.teach.moveContent(board, mv.text, view, names)));
  const filter = moves.length > 12 ? H("input", {class: "menu-filter", placeholder: `filter ${moves.length} moves`,
    onclick: e => e.stopPropagation(),
    oninput: e => { const f = e.target.value.toLowerCase(); items.forEach(b => { b.style.display = b.textContent.toLowerCase().includes(f) ? "" : "none"; }); }}) : null;
  const menu = H("div", {id: "move-menu", class: "menu"}, filter, items,
    H("button", {class: "menu-item cancel", onclick: e => { e.stopPropagation(); closeMenu(); }}, "cancel"));
  document.body.append(menu);
  if (filter) filter.focus();
  const x = Math.min(ev.clientX || 100, window.innerWidth - 220), y = Math.min(ev.clientY || 100, window.innerHeight - 40 * (moves.length + 1));
  menu.style.left = (x + window.scrollX) + "px";
  menu.style.top = (Math.max(0, y) + window.scrollY) + "px";
}
function closeMenu() { const m = $("#move-menu"); if (m) m.remove(); }
document.addEventListener("click", closeMenu);

// ---- replays ------------------------------------------------------------------------------------------------
async function replayPage(mid) {
  await games();
  const main = $("#main");
  main.innerHTML = "";
  const tok = myToken(mid);
  const pov = new URLSearchParams(location.search).get("as") === "spectator" || !tok ? null : tok;
  let r;
  try { r = await api("GET", `/api/matches/${mid}/replay`, null, pov); } catch (e) { main.textContent = e.message; return; }
  const board = await loadBoard(r.game);
  $("#where").textContent = `Replay · ${gameName(r.game)} · ${mid} · ` + (r.seat === null ? "spectator's view" : `seat ${r.seat}'s view`);
  let i = r.frames.length - 1;
  const slider = H("input", {type: "range", min: 0, max: r.frames.length - 1, value: i, id: "replay-step", oninput: e => { i = +e.target.value; show(); }});
  const info = H("span", {id: "replay-info"});
  const povSel = tok ? H("select", {id: "replay-pov", onchange: e => { history.replaceState({}, "", `/r/${mid}` + (e.target.value === "spectator" ? "?as=spectator" : "")); replayPage(mid); }},
    H("option", {value: "seat", selected: pov !== null}, `seat ${mySeat(mid)}'s view`),
    H("option", {value: "spectator", selected: pov === null}, "spectator's view")) : H("span", {class: "muted"}, "spectator's view");
  main.append(H("div", {class: "match"},
    H("div", {class: "board-col"},
      H("div", {class: "status replay-bar"},
        H("button", {class: "btn", id: "replay-first", onclick: () => { i = 0; show(); }}, "|◀ start"),
        H("button", {class: "btn", id: "replay-prev", onclick: () => { i = Math.max(0, i - 1); show(); }}, "◀ back"),
        H("button", {class: "btn", id: "replay-next", onclick: () => { i = Math.min(r.frames.length - 1, i + 1); show(); }}, "forward ▶"),
        H("button", {class: "btn", id: "replay-last", onclick: () => { i = r.frames.length - 1; show(); }}, "end ▶|"),
        slider, info, povSel),
      H("div", {id: "last-move", class: "last-move-line"}),
      H("div", {id: "board", class: "board"}),
      H("div", {id: "notes", class: "notes"})),
    H("aside", {class: "side"}, H("section", {class: "panel"}, H("h3", {}, "Log"), H("ol", {id: "log", class: "log"})))));
  function show() {
    const f = r.frames[i];
    slider.value = i;
    const nm = KM.teach.names(r.seats, r.players);
    info.textContent = `step ${f.version} of ${r.frames.length - 1}` + (typeof f.to_move === "number" ? ` · to move: ${nm[f.to_move]}` : ` · ${f.to_move}`);
    const lines = r.log.slice(0, f.log_total);
    const last = KM.teach.lastMove(lines);
    const before = i > 0 ? KM.teach.signatures(board, r.frames[i - 1].view, r.seats) : null;
    drawBoard($("#board"), board, f.view, [], () => {}, r.seats, {before, fallback: null, names: nm});
    showLastMove(board, last, i > 0 ? r.frames[i - 1].view : f.view, nm);
    renderNotes(board, r.game, f.view, nm);
    const log = $("#log");
    log.innerHTML = "";
    lines.forEach(l => log.append(H("li", {}, KM.teach.logLine(board, l, {}, nm))));
    log.scrollTop = log.scrollHeight;
  }
  document.onkeydown = e => {
    if (!location.pathname.startsWith("/r/")) return;
    if (e.key === "ArrowLeft") { i = Math.max(0, i - 1); show(); }
    if (e.key === "ArrowRight") { i = Math.min(r.frames.length - 1, i + 1); show(); }
  };
  show();
}

// ---- routing ---------------------------------------------------------------------------------------------------
function route() {
  if (CUR) { CUR.closed = true; if (CUR.ws) CUR.ws.close(); CUR = null; }
  $("#conn").textContent = "";
  const p = location.pathname;
  let m;
  if ((m = p.match(/^\/m\/([\w-]+)/))) return matchPage(m[1]);
  if ((m = p.match(/^\/r\/([\w-]+)/))) return replayPage(m[1]);
  return lobby();
}
window.addEventListener("popstate", route);
document.addEventListener("click", e => {
  const a = e.target.closest && e.target.closest("a[href^='/']");
  if (a && !e.ctrlKey && !e.metaKey && a.target !== "_blank") { e.preventDefault(); history.pushState({}, "", a.getAttribute("href")); route(); }
});
route();
