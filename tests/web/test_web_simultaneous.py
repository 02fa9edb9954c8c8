"""Simultaneous choices: accepted from all seats in any order, hidden until all are in.

One test uses a tiny game made for it (so the server's handling is tested whatever the
real games do), served in-process; the other uses San Quentin Kings' secret fists on a
real server.
"""

from __future__ import annotations

import itertools
import json
import random
import time
import warnings
from dataclasses import dataclass

import pytest
from webclient import call, create, stored

import kingmaker
from kingmaker.core import registry
from kingmaker.core.api import SIMULTANEOUS, TERMINAL, Game
from kingmaker.core.match import Match

with warnings.catch_warnings():  # starlette asks for httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@dataclass(frozen=True, slots=True)
class FistsState:
    round: int
    picks: tuple  # this round's secret picks, -1 while a seat has not chosen
    shown: tuple  # earlier rounds' picks, revealed together


class Fists(Game):
    """Three seats each show 0, 1 or 2 fingers at once, for two rounds; the highest total wins."""

    id = "web-test-fists"
    name = "Fists (web test)"
    min_players = 2
    max_players = 3
    has_simultaneous = True
    perfect_information = False
    State = FistsState

    def max_game_length(self) -> int:
        return 2 * self.num_players

    def new_initial_state(self):
        return FistsState(0, (-1,) * self.num_players, ())

    def current_player(self, s):
        return TERMINAL if s.round == 2 else SIMULTANEOUS

    def simultaneous_players(self, s):
        return tuple(p for p, x in enumerate(s.picks) if x < 0)

    def legal_actions(self, s, player=None):
        if s.round == 2 or player is None or s.picks[player] >= 0:
            return []
        return [0, 1, 2]

    def apply(self, s, action, player=None):
        picks = s.picks[:player] + (action,) + s.picks[player + 1:]
        if all(x >= 0 for x in picks):
            return FistsState(s.round + 1, (-1,) * self.num_players, s.shown + (picks,))
        return FistsState(s.round, picks, s.shown)

    def returns(self, s):
        totals = [sum(r[p] for r in s.shown) for p in range(self.num_players)]
        best = max(totals)
        k = totals.count(best)
        return tuple(1.0 / k if t == best else 0.0 for t in totals)

    def view(self, s, player):
        return {
            "round": s.round,
            "chosen": [x >= 0 for x in s.picks],
            "mine": s.picks[player] if player is not None else None,
            "shown": [list(r) for r in s.shown],
        }

    def action_to_str(self, s, action):
        return f"show {action}"


@pytest.fixture
def fists_client(monkeypatch, tmp_path):
    registry.available_games()  # load the real games first
    monkeypatch.setitem(registry._GAMES, Fists.id, Fists)
    from kingmaker.web.app import create_app

    # Threads, not worker processes: the Fists game is registered in this process only.
    app = create_app(f"sqlite:///{tmp_path / 'fists.sqlite3'}", bot_delay=0.0, bot_workers=0, replay_workers=0,
                     custom_bots=True)
    with TestClient(app) as client:
        yield client


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_web_simultaneous_choices_accepted_in_any_order_and_revealed_together(fists_client, order):
    c = fists_client
    out = c.post("/api/matches", json={"game": Fists.id, "players": 3, "seats": [{"kind": "human"}] * 3}).json()
    mid, tok = out["match"], {int(k): v for k, v in out["tokens"].items()}
    game = Fists(3)
    rng = random.Random(str(order))
    s = game.new_initial_state()
    for rnd in range(2):
        version = c.get(f"/api/matches/{mid}/state", headers={"Authorization": f"Bearer {tok[0]}"}).json()["version"]
        for i, seat in enumerate(order):
            pick = rng.randrange(3)
            # Every seat sends the version it saw when the round began: later commitments are
            # still accepted while the round goes on.
            r = c.post(f"/api/matches/{mid}/moves", json={"action": pick, "version": version},
                       headers={"Authorization": f"Bearer {tok[seat]}"})
            assert r.status_code == 200, r.json()
            s = game.apply(s, pick, seat)
            # A second choice by the same seat is refused and changes nothing.
            r = c.post(f"/api/matches/{mid}/moves", json={"action": 0, "version": version},
                       headers={"Authorization": f"Bearer {tok[seat]}"})
            assert r.status_code in (400, 409)
            assert r.json()["error"]["code"] in ("match/conflict", "action/not_your_turn", "action/game_over")
            for q in range(3):
                st = c.get(f"/api/matches/{mid}/state", headers={"Authorization": f"Bearer {tok[q]}"}).json()
                assert st["view"] == json.loads(json.dumps(game.view(s, q)))
                if i < 2:
                    # Nobody sees another seat's pick before the round is complete.
                    assert st["view"]["shown"] == [list(r) for r in s.shown]
                    assert st["simultaneous"] and sorted(st["acting"]) == sorted(order[i + 1:])
                    assert (st["legal"] != []) == (q in order[i + 1:])
            spec = c.get(f"/api/matches/{mid}/state").json()
            assert spec["view"] == json.loads(json.dumps(game.view(s, None)))
        assert len(s.shown) == rnd + 1
    final = c.get(f"/api/matches/{mid}").json()
    assert final["status"] == "over" and final["result"] == list(game.returns(s))
    # The seats' logs hide the others' commitments until the reveal (the game's observe_action).
    r = c.get(f"/api/matches/{mid}/replay", headers={"Authorization": f"Bearer {tok[order[0]]}"}).json()
    assert len(r["frames"]) == 7


def test_web_simultaneous_bots_and_a_human_commit_in_any_order(fists_client):
    c = fists_client
    out = c.post("/api/matches", json={
        "game": Fists.id, "players": 3,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
    }).json()
    mid, tok = out["match"], out["tokens"]["0"]
    h = {"Authorization": f"Bearer {tok}"}
    for _ in range(2):
        for _ in range(200):
            st = c.get(f"/api/matches/{mid}/state", headers=h).json()
            if st["legal"] or st["status"] == "over":
                break
            time.sleep(0.02)
        assert st["legal"], st
        r = c.post(f"/api/matches/{mid}/moves", json={"action": 2, "version": st["version"]}, headers=h)
        assert r.status_code == 200, r.json()
    for _ in range(200):
        final = c.get(f"/api/matches/{mid}").json()
        if final["status"] == "over":
            break
        time.sleep(0.02)
    assert final["status"] == "over" and final["version"] == 6


def test_web_san_quentin_kings_secret_fists_over_http_in_reverse_order(shared_server):
    if "san-quentin-kings" not in kingmaker.available_games():
        pytest.fail("San Quentin Kings is not registered")
    out = create(shared_server, game="san-quentin-kings", players=3, seats=[{"kind": "human"}] * 3, seed=4)
    mid, tok = out["match"], {int(k): v for k, v in out["tokens"].items()}
    rng = random.Random(4)
    found = False
    for _ in range(3000):
        st = {q: call(shared_server, "GET", f"/api/matches/{mid}/state", token=tok[q])[1] for q in tok}
        any_st = st[0]
        if any_st["status"] == "over":
            break
        if any_st["to_move"] == "chance":
            time.sleep(0.01)
            continue
        acting = any_st["acting"]
        if any_st["simultaneous"] and len(acting) >= 2:
            v = any_st["version"]
            for seat in sorted(acting, reverse=True):
                a = rng.choice(st[seat]["legal"])["action"]
                status, res = call(shared_server, "POST", f"/api/matches/{mid}/moves",
                                   {"action": a, "version": v}, token=tok[seat])
                assert status == 200, res
            found = True
            break
        seat = acting[0]
        a = rng.choice(st[seat]["legal"])["action"]
        status, res = call(shared_server, "POST", f"/api/matches/{mid}/moves",
                           {"action": a, "version": any_st["version"]}, token=tok[seat])
        assert status == 200, res
    assert found, "no simultaneous choice with several seats came up"
    # Every seat's view now matches the engine's, rebuilt from the stored record.
    game, row, actions = stored(shared_server.db, mid)
    m = Match(game, seed=row.seed)
    for a in actions:
        m.step_chance() if a.player == kingmaker.CHANCE else m.play(a.action, a.player)
    for q in tok:
        _, s = call(shared_server, "GET", f"/api/matches/{mid}/state", token=tok[q])
        if s["version"] == len(actions):
            assert s["view"] == json.loads(json.dumps(game.view(m.state, q)))


def test_web_a_failing_bot_does_not_stall_the_match(fists_client, monkeypatch):
    import kingmaker.agents as agents

    class Broken:
        def act(self, obs):
            raise RuntimeError("this bot is broken on purpose")

    monkeypatch.setitem(agents._KINDS, "web-test-broken", lambda game, level=None, **kw: Broken())
    c = fists_client
    out = c.post("/api/matches", json={
        "game": Fists.id, "players": 2, "you": None,
        "seats": [{"kind": "bot", "bot": "web-test-broken"}, {"kind": "bot", "bot": "random"}],
    }).json()
    mid = out["match"]
    for _ in range(300):
        s = c.get(f"/api/matches/{mid}").json()
        if s["status"] == "over":
            break
        time.sleep(0.02)
    assert s["status"] == "over" and s["version"] == 4
