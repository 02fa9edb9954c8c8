"""The page in a real browser (Debian's chromium driven by Playwright for Python).

Creates games against bots from the lobby, plays them by clicking on the picture,
reloads the page and restarts the server mid-game, and keeps a screenshot of each
game's page (in docs/screenshots/ when KINGMAKER_SCREENSHOTS=docs/screenshots is set,
otherwise in a temporary folder, so a test run does not rewrite tracked files).
"""

from __future__ import annotations

import os
import random
import re
import tempfile
from pathlib import Path

import pytest

import kingmaker

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("KINGMAKER_SCREENSHOTS") or Path(tempfile.gettempdir()) / "kingmaker-screenshots")
if not SHOTS.is_absolute():
    SHOTS = ROOT / SHOTS
BOARDS = ROOT / "src" / "kingmaker" / "web" / "static" / "boards"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]


@pytest.fixture(scope="module")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    yield pg
    draw_errors = pg.evaluate("() => (window.KM && KM.drawErrors) || []")
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
    assert not draw_errors, f"a board picture failed to draw its view: {draw_errors}"


def _create_from_lobby(page, server, game_id: str, players: int, bot: str = "random", name: str = "") -> str:
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
    page.fill("#my-name", name)
    page.select_option("#game", game_id)
    page.select_option("#players", str(players))
    for i in range(1, players):
        page.select_option(f"#seats select[data-seat='{i}']", f"bot:{bot}")
    page.click("#create-btn")
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#status[data-version]")
    return page.url.rsplit("/", 1)[1]


def _wait_turn(page, timeout=30000) -> str:
    """Waits until it is the player's turn or the game is over; returns 'turn' or 'over'."""
    page.wait_for_function(
        "() => { const s = document.querySelector('#status');"
        " return s && (s.dataset.status === 'over' || s.classList.contains('yours')); }",
        timeout=timeout,
    )
    return "over" if page.get_attribute("#status", "data-status") == "over" else "turn"


def _click_a_move(page, rng: random.Random) -> str:
    """Plays one legal move by clicking: a target on the picture, else a move button; returns how."""
    version = page.get_attribute("#status", "data-version")
    targets = page.query_selector_all("svg .target")
    if targets:
        rng.choice(targets).click()
        if page.query_selector("#move-menu"):
            items = page.query_selector_all("#move-menu .menu-item:not(.cancel)")
            rng.choice(items).click()
        how = "picture"
    else:
        buttons = page.query_selector_all("#movebar .move-btn")
        assert buttons, "it is my turn but there is nothing to click"
        rng.choice(buttons).click()
        how = "button"
    page.wait_for_function(
        "v => { const s = document.querySelector('#status'); return s && s.dataset.version !== v; }",
        arg=version, timeout=30000,
    )
    return how


def test_web_browser_play_kings_kilt_to_the_end_by_clicking_with_reload_and_restart(make_server, page):
    server = make_server(bot_delay=0.0)
    rng = random.Random(7)
    _create_from_lobby(page, server, "kings-kilt", 3)
    clicks = {"picture": 0, "button": 0}
    moves = 0
    reloaded = restarted = False
    while _wait_turn(page) == "turn":
        clicks[_click_a_move(page, rng)] += 1
        moves += 1
        if moves == 3 and not reloaded:
            before = int(page.get_attribute("#status", "data-version"))
            page.reload()
            page.wait_for_selector("#status[data-version]")
            assert int(page.get_attribute("#status", "data-version")) >= before
            reloaded = True
        if moves == 6 and not restarted:
            before = int(page.get_attribute("#status", "data-version"))
            server.kill()
            page.wait_for_selector("#conn.bad", timeout=10000)
            server.start()
            page.wait_for_selector("#conn.ok", timeout=20000)
            assert int(page.get_attribute("#status", "data-version")) >= before
            restarted = True
    assert reloaded and restarted
    assert clicks["picture"] > 0
    assert "point" in page.inner_text("#game-over-reason")  # King's Kilt scores points
    # The replay: step back and forth through the finished game.
    page.click("#game-over a")
    page.wait_for_selector("#replay-info")
    last = page.inner_text("#replay-info")
    page.click("#replay-prev")
    assert page.inner_text("#replay-info") != last
    page.click("#replay-first")
    assert page.inner_text("#replay-info").startswith("step 0 ")
    page.click("#replay-next")
    assert page.inner_text("#replay-info").startswith("step 1 ")
    page.select_option("#replay-pov", "spectator")
    page.wait_for_function("() => document.querySelector('#where').textContent.includes(\"spectator\")")


# ---- the page teaches the game (issue 14, section 6) -------------------------------------------------
def _open_rules(page, game_id: str) -> None:
    """Opens the rules panel from the match page; checks the rulebook and the rulings show."""
    from kingmaker.web.rules_routes import rules_for

    doc = rules_for(game_id)
    page.click("#rules-btn")
    page.wait_for_selector("#rules pre.rulebook")
    first = next(line for line in doc["rulebook"].splitlines() if line.strip())
    assert first.strip()[:30] in page.inner_text("#rules pre.rulebook")
    page.click("#rules [data-tab=rulings]")
    page.wait_for_selector("#rules .md h3")
    heading = next(line for line in doc["rulings"].splitlines() if line.startswith("## "))
    assert heading[3:].replace("*", "").replace("`", "")[:20] in page.inner_text("#rules .md")
    if doc["cards"]:
        page.click("#rules [data-tab=cards]")
        name, text = next(iter(doc["cards"].items()))
        assert name in page.inner_text("#rules dl.cards") and text[:30] in page.inner_text("#rules dl.cards")


# Every highlighted element takes the click at its centre (nothing drawn on top of it takes it).
_UNREACHABLE = """() => [...document.querySelectorAll('#board svg .target')].filter(el => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !hit || !el.contains(hit);
}).map(el => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const over = hit && hit.closest('[data-key]');
    return el.dataset.key + ' under ' + (over ? over.dataset.key : hit ? hit.tagName : 'nothing');
})"""

# Text cut off at the picture's edges, or lines of text drawn over each other. Cards, tiles
# and pawns are pictures of their own that may lie over one another on purpose, so text is
# compared only with text of the same card (or, outside them, of the board).
_BAD_TEXT = """() => {
    const svg = document.querySelector('#board svg');
    const vb = svg.viewBox.baseVal;
    const own = 'g.card, g.tile, g.stack, g.poi, g.pawn';
    const boxes = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
        .map(t => ({t: t.textContent, b: t.getBBox(), g: t.closest(own)}));
    const out = [];
    for (const {t, b, g} of boxes) {
        if (g) continue;
        if (b.x < vb.x - 1 || b.y < vb.y - 1 || b.x + b.width > vb.x + vb.width + 1 || b.y + b.height > vb.y + vb.height + 1)
            out.push('cut off: ' + t);
    }
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        if (boxes[i].g !== boxes[j].g) continue;
        const a = boxes[i].b, c = boxes[j].b;
        const ox = Math.min(a.x + a.width, c.x + c.width) - Math.max(a.x, c.x);
        const oy = Math.min(a.y + a.height, c.y + c.height) - Math.max(a.y, c.y);
        if (ox > 2 && oy > 3) out.push('overlap: ' + boxes[i].t + ' / ' + boxes[j].t);
    }
    return out;
}"""


def _no_player_numbers(page) -> None:
    """The log and the last-move line name seats by their names, never "player N"."""
    text = page.inner_text("#log") + "\n" + page.inner_text("#last-move")
    assert not re.search(r"\bplayer \d", text), text[-400:]


def _pawn_over_a_highlighted_place_lets_the_click_through(page) -> bool:
    """Gangs of Green City: puts another hero's pawn over a highlighted place, clicks the place."""
    moved = page.evaluate("""() => {
        const poi = document.querySelector('#board svg g.poi.target');
        const pawn = [...document.querySelectorAll('#board svg g.pawn')].find(p => !p.classList.contains('target'));
        if (!poi || !pawn) return null;
        const c = poi.querySelector('circle'), d = pawn.querySelector('circle');
        pawn.setAttribute('transform', `translate(${c.cx.baseVal.value - d.cx.baseVal.value} ${c.cy.baseVal.value - d.cy.baseVal.value})`);
        return poi.dataset.key;
    }""")
    if moved is None:
        return False
    version = page.get_attribute("#status", "data-version")
    box = page.query_selector(f'#board svg g.poi[data-key="{moved}"] circle').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    if page.query_selector("#move-menu"):
        page.click("#move-menu .menu-item:not(.cancel)")
    page.wait_for_function(
        "v => document.querySelector('#status').dataset.version !== v", arg=version, timeout=30000)
    return True


@pytest.mark.parametrize("game_id", kingmaker.available_games())
def test_web_browser_each_game_teaches_rules_last_move_and_why_it_ended(make_server, page, game_id):
    """Issue 14 section 6 in each game: the rules panel, moves in words, the last-move marker,
    seat names in the log, clicks that reach highlighted places, and an end screen that says
    who won and why, with no stale buttons and no text cut off or overlapping."""
    server = make_server(bot_delay=0.0)
    cls = kingmaker.game_class(game_id)
    players = min(cls.max_players, max(cls.min_players, 3))
    _create_from_lobby(page, server, game_id, players, name="Ann")
    page.wait_for_function(f"() => !!KM.boards[{game_id!r}]")
    SHOTS.mkdir(parents=True, exist_ok=True)
    _open_rules(page, game_id)
    if game_id == "kingpins":
        page.click("#rules [data-tab=rulings]")
        page.screenshot(path=str(SHOTS / "rules-panel.png"))
    page.click("#rules-close")
    rng = random.Random(3)
    marked = pawn_checked = shot = False
    for moves in range(8):
        if _wait_turn(page) == "over":
            break
        # Every legal move has its words beside the notation.
        assert page.eval_on_selector_all("#movelist .move", "els => els.filter(e => !e.querySelector('.words')).map(e => e.textContent)") == []
        assert page.evaluate(_UNREACHABLE) == []
        assert page.evaluate(_BAD_TEXT) == []
        if game_id == "gangs-of-green-city" and not pawn_checked:
            pawn_checked = _pawn_over_a_highlighted_place_lets_the_click_through(page)
        else:
            _click_a_move(page, rng)
        if _wait_turn(page) == "over":
            break
        _no_player_numbers(page)
        if page.query_selector("#board .last-move-mark"):
            marked = True
            if not shot and moves >= 1:
                page.screenshot(path=str(SHOTS / f"{game_id}.png"))
                shot = True
        if marked and shot and moves >= 3 and (pawn_checked or game_id != "gangs-of-green-city"):
            break
    assert marked, "no move was marked on the picture"
    assert pawn_checked or game_id != "gangs-of-green-city", "no pawn and highlighted place to check"
    if game_id == "kingpin":
        # Seat colours: each seat's dot has its mafia's colour, the colour of its tiles.
        dots = page.eval_on_selector_all("#seatlist .dot", "els => els.map(e => e.dataset.colour)")
        fills = set(page.eval_on_selector_all("#board svg g.tile > rect:first-child", "els => els.map(e => e.getAttribute('fill'))"))
        assert len(set(dots)) == 2 and set(dots) <= fills, (dots, fills)
    # The bots finish the game: leave the seat to one and watch the end.
    page.on("dialog", lambda d: d.accept())
    page.click("text=Leave (a bot takes over)")
    page.wait_for_selector("#status[data-status='over']", timeout=240000)
    page.wait_for_selector("#game-over")
    page.wait_for_selector("#conn.ok", timeout=20000)
    title = page.inner_text("#game-over .banner-title")
    reason = page.inner_text("#game-over-reason")
    tone = page.get_attribute("#game-over", "data-tone")
    if cls.cooperative:
        # The team wins or loses together; a defeat is neutral, not a green "winner" banner.
        assert title in ("The team wins.", "The team loses.")
        assert tone == ("win" if title == "The team wins." else "neutral")
        assert reason.startswith(("Green City is safe: ", "Green City falls: "))
    else:
        assert title.startswith(("Winner: ", "Shared win: ")), title
        assert len(reason) > 30 and any(w in reason for w in ("wins", "share")), reason
        # The winners are named as the seats panel names them.
        seats = page.inner_text("#seatlist")
        for who in title.split(": ", 1)[1].split(" and "):
            assert who in seats and who in reason, (who, seats, reason)
    assert not re.search(r"\bplayer \d", title + reason)
    # No stale action: no move button, no highlighted place, no seat action.
    assert page.query_selector_all("#movebar button, #board svg .target, #seatlist button") == []
    assert page.evaluate(_BAD_TEXT) == []
    assert page.evaluate("() => { const b = document.querySelector('#game-over'); return b.scrollWidth <= b.clientWidth; }")
    page.screenshot(path=str(SHOTS / f"{game_id}-end.png"))


def test_web_browser_invite_link_seats_a_friend_in_another_browser(make_server, browser, page):
    """Two people in two browsers: the creator and a friend who opens the invite link."""
    server = make_server(bot_delay=0.0)
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
    page.select_option("#game", "kings-kilt")
    page.select_option("#players", "2")
    page.select_option("#seats select[data-seat='1']", "human")
    page.click("#create-btn")
    page.wait_for_selector("#status[data-version]")
    # The creator's page offers the invite link of seat 1 (with its token).
    link = page.get_attribute("#seatlist button[title*='token=']", "title")
    assert "/m/" in link and "token=" in link
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    friend = ctx.new_page()
    try:
        friend.goto(link)
        friend.wait_for_selector("#status[data-version]")
        assert "seat 1" in friend.inner_text("#where")
        assert "token=" not in friend.url  # the token is kept in the browser, not in the address
        rng = random.Random(1)
        moves = {0: 0, 1: 0}
        for _ in range(400):
            if min(moves.values()) >= 3:
                break
            for seat, pg in ((0, page), (1, friend)):
                if pg.query_selector("#status.yours"):
                    _click_a_move(pg, rng)
                    moves[seat] += 1
            page.wait_for_timeout(50)
        assert min(moves.values()) >= 3, moves
        # Both browsers come to the same version of the match.
        for _ in range(100):
            if page.get_attribute("#status", "data-version") == friend.get_attribute("#status", "data-version"):
                break
            page.wait_for_timeout(100)
        assert page.get_attribute("#status", "data-version") == friend.get_attribute("#status", "data-version")
        # Each page shows only its own family cards: the picture is drawn from the seat's view.
        assert "Your family" in page.inner_text("#board") and "Your family" in friend.inner_text("#board")
    finally:
        ctx.close()


def _views_of_a_game(game_id: str, seed: int, states: int = 40) -> list[dict]:
    """Views (for each seat and a spectator) at ``states`` states spread along a seeded
    random game, the last one included."""
    from kingmaker.core.match import sample_chance

    cls = kingmaker.game_class(game_id)
    game = kingmaker.make(game_id, players=min(cls.max_players, max(cls.min_players, 3)))
    rng = random.Random(seed)
    s = game.new_initial_state()
    path = [s]
    while not game.is_terminal(s):
        cp = game.current_player(s)
        if cp == kingmaker.CHANCE:
            s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
        else:
            p = cp if cp >= 0 else game.acting_players(s)[0]
            s = game.apply(s, rng.choice(game.legal_actions(s, p)), p)
        path.append(s)
    picked = sorted({round(i * (len(path) - 1) / (states - 1)) for i in range(states)})
    out = []
    for i in picked:
        s = path[i]
        cp = game.current_player(s)
        acting = game.acting_players(s) if cp >= 0 or cp == kingmaker.SIMULTANEOUS else ()
        for seat in [None, *range(game.num_players)]:
            legal = [game.action_to_str(s, a) for a in game.legal_actions(s, seat)] if seat in acting else []
            out.append({"view": game.view(s, seat), "legal": legal})
    return out


def _move_texts(game_id: str, seeds: range) -> list[str]:
    """The notation of every legal move met along seeded random games (each text once)."""
    from kingmaker.core.match import sample_chance

    cls = kingmaker.game_class(game_id)
    game = kingmaker.make(game_id, players=min(cls.max_players, max(cls.min_players, 3)))
    texts: set[str] = set()
    for seed in seeds:
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not game.is_terminal(s):
            cp = game.current_player(s)
            if cp == kingmaker.CHANCE:
                s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
                continue
            p = cp if cp >= 0 else game.acting_players(s)[0]
            legal = game.legal_actions(s, p)
            texts.update(game.action_to_str(s, a) for a in legal)
            s = game.apply(s, rng.choice(legal), p)
    return sorted(texts)


@pytest.mark.parametrize("game_id", kingmaker.available_games())
def test_web_browser_each_picture_draws_every_view_of_a_whole_game(make_server, page, game_id):
    """The game's picture draws every view along a random game (all seats, a spectator, the
    end), marks its clickable elements, maps legal moves only to keys it draws, and says
    every legal move in words."""
    import json

    server = make_server()
    page.goto(server.url + "/api/health")
    page.add_script_tag(url=server.url + "/static/board.js")
    page.add_script_tag(url=f"{server.url}/static/boards/{game_id}.js")
    samples = _views_of_a_game(game_id, seed=2)
    result = page.evaluate(
        """([gid, samples]) => {
            const board = KM.boards[gid];
            const errors = [];
            let drawn = 0, targeted = 0, unmatched = 0, unlabelled = 0;
            const examples = [];
            for (const smp of samples) {
                const keys = new Set();
                const b = {seats: null, key(el, k) { keys.add(k); return el; }};
                try {
                    const svg = board.draw(smp.view, b);
                    if (!(svg instanceof SVGElement)) errors.push("draw returned no SVG element");
                    drawn++;
                } catch (e) { errors.push(String(e && e.stack || e)); continue; }
                for (const t of smp.legal) {
                    let w = null;
                    try { w = board.label ? board.label(t, smp.view, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]) : null; } catch (e) { errors.push(String(e)); }
                    if (!w) { unlabelled++; if (examples.length < 5) examples.push("no words for " + t); }
                    let ks;
                    try { ks = board.targets(t, smp.view) || []; } catch (e) { errors.push(String(e)); continue; }
                    if (ks.length) targeted++;
                    for (const k of ks) if (!keys.has(k)) { unmatched++; if (examples.length < 5) examples.push(t + " -> " + k); }
                }
            }
            return {errors: errors.slice(0, 5), drawn, targeted, unmatched, unlabelled, examples};
        }""",
        [game_id, json.loads(json.dumps(samples))],
    )
    assert result["errors"] == []
    assert result["drawn"] == len(samples)
    assert result["targeted"] > 0, "no legal move can be chosen on the picture"
    assert result["unmatched"] == 0, f"legal moves name picture elements that are not drawn: {result['examples']}"
    assert result["unlabelled"] == 0, f"legal moves without words beside their notation: {result['examples']}"
    # Every move met in three random games has words, even read without a view (the log's case).
    texts = _move_texts(game_id, range(3))
    missing = page.evaluate(
        "([gid, texts]) => texts.filter(t => !KM.boards[gid].label(t, {}, ['Ann', 'Bob', 'Cy', 'Di', 'Ed']))",
        [game_id, texts],
    )
    assert missing == [], f"{len(missing)} of {len(texts)} moves have no words: {missing[:8]}"
    if game_id == "san-quentin-kings":  # the example
        words = page.evaluate("() => KM.boards['san-quentin-kings'].label('gym T0 S1 C2', {}, [])")
        assert words == "gym: Tarantula 0, Scorpion 1, Cobra 2"


def test_web_browser_lobby_offers_the_turn_planner_only_where_the_heuristic_has_styles(make_server, page):
    """With ``--custom-bots`` the lobby lists every agent kind; the turn planner (``plan``)
    chooses among the heuristic's styles, so a seat may be given it only in a game whose
    heuristic has two or more (Gangs of Green City), at its four levels; a bot from the
    list plays its moves."""
    server = make_server(args=("--custom-bots",))
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")

    def seat_choices(game_id: str) -> list[str]:
        page.select_option("#game", game_id)
        page.select_option("#players", page.eval_on_selector("#players", "s => s.options[0].value"))
        return [o.get_attribute("value") for o in page.query_selector_all("#seats select[data-seat='1'] option")]

    def seat_default() -> str:
        return page.eval_on_selector("#seats select[data-seat='1']", "s => s.value")

    ggc = seat_choices("gangs-of-green-city")
    assert [c for c in ggc if c.startswith("bot:plan")] == [f"bot:plan:{lv}" for lv in ("easy", "normal", "hard", "expert")]
    assert seat_default() == "bot:plan:hard"  # the game's recommended bot (GET /api/games, "bot")
    for game_id in ("kings-kilt", "kingpin", "kingpins", "san-quentin-kings"):
        choices = seat_choices(game_id)
        assert "bot:heuristic" in choices and not [c for c in choices if c.startswith("bot:plan")], game_id
        assert seat_default() == "bot:ismcts:normal", game_id
    mid = _create_from_lobby(page, server, "gangs-of-green-city", 2, bot="plan:easy")
    assert mid
    assert _wait_turn(page, timeout=120000) in ("turn", "over")
