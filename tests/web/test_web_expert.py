"""The ``expert`` bot level in the web app (issue 16 §3: "expert is playable in the web app").

``ismcts:expert`` / ``team:expert`` are named levels: the lobby lists them for the games
and player counts that ship a network, ``POST /api/matches`` accepts them without
``--custom-bots``, and the bot plays its moves in the server's worker processes, bounded
by the CPU time per move like every other level.
"""

from __future__ import annotations

import asyncio
import shutil

from webclient import call, check_payloads, create, play_over_ws, stored

from kingmaker.agents.expert import NETS_DIR, SHIPPED_NETS
from kingmaker.web.storage import open_storage


def test_web_lobby_offers_expert_where_a_network_ships(shared_server):
    status, g = call(shared_server, "GET", "/api/games")
    assert status == 200
    assert "expert" in g["bots"]["ismcts"] and "expert" in g["bots"]["team"]
    by_id = {gm["id"]: gm for gm in g["games"]}
    for gid, gm in by_id.items():
        shipped = [n for n in range(gm["min_players"], gm["max_players"] + 1)
                   if (NETS_DIR / f"{gid}-{n}p.npz").is_file()]
        assert gm["expert"] == shipped
    assert 2 in by_id["kings-kilt"]["expert"]
    # The page offers the level only where it can play (static/app.js, botChoices).
    js = (SHIPPED_NETS.parents[1] / "web" / "static" / "app.js").read_text()
    assert "gm.expert" in js


def test_web_an_expert_bot_is_created_and_moves(shared_server):
    """King's Kilt, 2 players (a shipped network): the expert seat plays its own moves."""
    out = create(shared_server, game="kings-kilt", players=2, seed=21,
                 seats=[{"kind": "human"}, {"kind": "bot", "bot": "ismcts:expert"}])
    mid = out["match"]
    assert out["summary"]["seats"][1]["bot"] == "ismcts:expert"
    players = asyncio.run(play_over_ws(shared_server, mid, {0: out["tokens"]["0"]}, seed=4, timeout=240,
                                       stop_after=40))
    check_payloads(shared_server.db, mid, players)
    _, _, actions = stored(shared_server.db, mid)
    assert sum(a.player == 1 for a in actions) >= 2
    # Every move of the bot came from the agent, not the random fallback (timeout or error).
    log = shared_server.log.read_text()
    assert f"match {mid}: the bot of seat 1 played a random move" not in log
    assert f"match {mid}: bot" not in log


def test_web_expert_is_refused_where_no_network_ships(make_server, tmp_path):
    """A server whose networks (``KINGMAKER_NETS``) hold King's Kilt's two-player one only offers
    expert there, and a San Quentin Kings match with expert seats gets a typed 400."""
    own = tmp_path / "nets"
    own.mkdir()
    shutil.copy(SHIPPED_NETS / "kings-kilt-2p.npz", own)
    server = make_server(env={"KINGMAKER_NETS": str(own)})
    _, g = call(server, "GET", "/api/games")
    by_id = {gm["id"]: gm["expert"] for gm in g["games"]}
    assert by_id["kings-kilt"] == [2] and by_id["san-quentin-kings"] == []
    status, out = call(server, "POST", "/api/matches", {
        "game": "san-quentin-kings", "players": 4,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "ismcts:expert"}] * 3})
    assert status == 400
    assert "expert network" in out["error"]["message"]
    _, lobby = call(server, "GET", "/api/matches")
    assert all(m["game"] != "san-quentin-kings" for m in lobby["matches"])


def test_web_games_list_each_heuristic_s_styles_for_the_turn_planner(shared_server):
    """``GET /api/games`` gives each game's heuristic styles (the lobby offers ``plan`` only
    where there are two or more): Gangs of Green City's, the default first; none elsewhere."""
    import kingmaker

    status, g = call(shared_server, "GET", "/api/games")
    by_id = {gm["id"]: gm for gm in g["games"]}
    assert by_id["gangs-of-green-city"]["styles"] == list(kingmaker.make("gangs-of-green-city", players=2).heuristic_styles)
    assert by_id["gangs-of-green-city"]["styles"][0] == "default"
    assert all(by_id[gid]["styles"] == [] for gid in by_id if gid != "gangs-of-green-city")
    # the named planner levels are offered (the page lists them only where there are styles)
    assert g["bots"]["plan"] == ["easy", "normal", "hard", "expert"]
    # the lobby's first choice for the other seats: the planner in Gangs of Green City
    assert by_id["gangs-of-green-city"]["bot"] == "plan:hard"
    assert all(by_id[gid]["bot"] == "ismcts:normal" for gid in by_id if gid != "gangs-of-green-city")


def test_web_the_planner_plays_where_the_heuristic_has_styles_and_is_refused_elsewhere(shared_server):
    """A server with only the named levels accepts ``plan:hard`` in Gangs of Green City; in a
    game whose heuristic plays one way it answers 400 saying why, and stores no match."""
    status, out = call(shared_server, "POST", "/api/matches", {
        "game": "gangs-of-green-city", "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "plan:hard"}]})
    assert status == 200, out
    before = _matches(shared_server.db)
    status, out = call(shared_server, "POST", "/api/matches", {
        "game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "plan:hard"}]})
    assert status == 400
    assert "styles" in out["error"]["message"] and "plays one way" in out["error"]["message"]
    status, out = call(shared_server, "POST", "/api/matches", {
        "game": "gangs-of-green-city", "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "plan:hard/samples=9999"}]})
    assert status == 400 and "named bot levels" in out["error"]["message"]
    assert _matches(shared_server.db) == before


def _matches(db: str) -> int:
    st = open_storage(db)
    try:
        return len(st.list_matches(limit=10**6))
    finally:
        st.close()
