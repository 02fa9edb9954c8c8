"""The page in a real browser (Debian's chromium driven by Playwright for Python).

Creates games against bots from the lobby, plays them by clicking on the picture,
reloads the page and restarts the server mid-game, and keeps a screenshot of each
game's page (in docs/screenshots/ when KINGMAKER_SCREENSHOTS=docs/screenshots is set,
otherwise in a temporary folder, so a test run does not rewrite tracked files).
"""

from __future__ import annotations

import os
import random
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


def _create_from_lobby(page, server, game_id: str, players: int, bot: str = "random") -> str:
    page.goto(server.url + "/")
    page.wait_for_selector("#create-btn")
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
        if moves == 5:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "kings-kilt.png"))
    assert reloaded and restarted
    assert clicks["picture"] > 0
    banner = page.inner_text("#game-over")
    assert "Result" in banner
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


@pytest.mark.parametrize("game_id", kingmaker.available_games())
def test_web_browser_each_game_page_has_its_picture_and_a_screenshot(make_server, page, game_id):
    server = make_server(bot_delay=0.0)
    cls = kingmaker.game_class(game_id)
    players = min(cls.max_players, max(cls.min_players, 3))
    _create_from_lobby(page, server, game_id, players)
    rng = random.Random(3)
    assert (BOARDS / f"{game_id}.js").exists(), f"no picture for {game_id}"
    page.wait_for_function(f"() => !!KM.boards[{game_id!r}]")
    for _ in range(4):
        if _wait_turn(page) == "over":
            break
        _click_a_move(page, rng)
    _wait_turn(page)
    svg = page.query_selector("#board svg")
    assert svg is not None and svg.get_attribute("aria-label")
    SHOTS.mkdir(parents=True, exist_ok=True)
    if game_id != "kings-kilt" or not (SHOTS / "kings-kilt.png").exists():
        page.screenshot(path=str(SHOTS / f"{game_id}.png"))


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


@pytest.mark.parametrize("game_id", kingmaker.available_games())
def test_web_browser_each_picture_draws_every_view_of_a_whole_game(make_server, page, game_id):
    """The game's picture draws every view along a random game (all seats, a spectator, the
    end), marks its clickable elements, and maps legal moves only to keys it draws."""
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
            let drawn = 0, targeted = 0, unmatched = 0;
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
                    let ks;
                    try { ks = board.targets(t, smp.view) || []; } catch (e) { errors.push(String(e)); continue; }
                    if (ks.length) targeted++;
                    for (const k of ks) if (!keys.has(k)) { unmatched++; if (examples.length < 5) examples.push(t + " -> " + k); }
                }
            }
            return {errors: errors.slice(0, 5), drawn, targeted, unmatched, examples};
        }""",
        [game_id, json.loads(json.dumps(samples))],
    )
    assert result["errors"] == []
    assert result["drawn"] == len(samples)
    assert result["targeted"] > 0, "no legal move can be chosen on the picture"
    assert result["unmatched"] == 0, f"legal moves name picture elements that are not drawn: {result['examples']}"
