"""Issue 14 §5 (faster moves): group commit, state messages built from shared parts, the state check.

Whatever was done for speed keeps the rules of "How a match works" (docs/web.md): a move
is stored before anyone hears of it, a lost race stores nothing of that move, each seat is
sent exactly ``payload(live, seat)``, and a restart replays and checks the stored record.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from kingmaker.core.errors import ConflictError, RecordError
from kingmaker.web.hub import STATE_EVERY, Hub, Subscriber
from kingmaker.web.storage import (
    ActionRow,
    MatchRow,
    SeatRow,
    SQLiteStorage,
    hash_token,
    open_storage,
)


def _hub(tmp_path, store=None) -> Hub:
    store = store or open_storage(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    return Hub(store, bot_delay=0, bot_workers=0, replay_workers=0)


async def _random_moves(hub: Hub, live, n: int, rng: random.Random) -> None:
    for _ in range(n):
        m = live.match
        hub.kick(live)  # chance is drawn (and stored) by the hub's driver
        if live.driver is not None:
            await live.driver
        if m.is_over():
            return
        p = m.acting_players[0]
        await hub.move_seat(live, p, rng.choice(m.game.legal_actions(m.state, p)), None, live.version)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    return request.getfixturevalue("pg_url")


def test_group_commit_stores_every_item_but_the_one_that_lost_its_race(url):
    """append_many: one transaction; a match no longer at its version gets ConflictError, the rest are stored."""
    import secrets

    store = open_storage(url)
    try:
        ids = []
        for _ in range(3):
            row = MatchRow(id=secrets.token_hex(6), game="kings-kilt", players=2, options={}, seed=1, state=None)
            store.create_match(row, [SeatRow(0, "human", token_hash=hash_token("a")),
                                     SeatRow(1, "human", token_hash=hash_token("b"))])
            ids.append(row.id)
        store.append(ids[1], 0, [ActionRow(0, 1, "x")], None, "playing", None)  # ids[1] moves on first
        out = store.append_many([
            (ids[0], 0, [ActionRow(-1, 7, "card"), ActionRow(0, 2, "y")], {"checked_at": 2, "json": {}}, "playing", None),
            (ids[1], 0, [ActionRow(0, 3, "z")], None, "playing", None),  # lost its race: nothing stored
            (ids[2], 0, [ActionRow(1, 4, "w")], None, "over", [1.0, 0.0]),
        ])
        assert out[0] == 2 and isinstance(out[1], ConflictError) and out[2] == 1
        assert store.get_actions(ids[0]) == [ActionRow(-1, 7, "card"), ActionRow(0, 2, "y")]
        assert store.get_actions(ids[1]) == [ActionRow(0, 1, "x")]
        assert store.get_match(ids[1]).version == 1
        got = store.get_match(ids[2])
        assert (got.version, got.status, got.result) == (1, "over", [1.0, 0.0])
        assert store.get_match(ids[0]).state == {"checked_at": 2, "json": {}}
    finally:
        store.close()


def test_web_state_messages_are_the_payloads_of_each_seat(tmp_path):
    """The broadcast's JSON text, built from shared parts, is exactly payload(live, seat, log_from)."""
    async def run():
        hub = _hub(tmp_path)
        out = hub.create({"game": "kings-kilt", "players": 3, "seats": [{"kind": "human"}] * 3, "seed": 9})
        live = await hub.get(out["match"])
        rng = random.Random(3)
        for k in range(8):
            await _random_moves(hub, live, 3, rng)
            shared = hub._shared(live)
            for seat in (0, 1, 2, None):
                for log_from in (0, k):
                    total, text = hub._state_text(live, seat, log_from, shared)
                    assert json.loads(text) == json.loads(json.dumps(hub.payload(live, seat, log_from)))
                    assert total == len(live.match.log_for(seat))
        await hub.close()

    asyncio.run(run())


def test_web_a_move_is_heard_of_only_once_stored(tmp_path):
    """A commit that fails: the mover gets the error, no socket hears of the move, the stored match is unchanged."""

    class Failing(SQLiteStorage):
        fail = False

        def append_many(self, items):
            if self.fail:
                raise OSError("disk full")
            return super().append_many(items)

    async def run():
        store = Failing(tmp_path / "f.sqlite3")
        hub = _hub(tmp_path, store)
        out = hub.create({"game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}] * 2, "seed": 4})
        live = await hub.get(out["match"])
        m = live.match
        got: list[dict] = []

        async def send(text):
            got.append(json.loads(text))

        for seat in (0, 1):
            live.subscribers.append(Subscriber(seat, send, token_hash=hash_token(out["tokens"][str(seat)])))
        await _random_moves(hub, live, 1, random.Random(1))
        heard, version = len(got), store.get_match(live.id).version
        assert heard >= 2 and version == live.version
        hub.kick(live)
        if live.driver is not None:
            await live.driver
        heard, version = len(got), store.get_match(live.id).version
        store.fail = True
        p = m.acting_players[0]
        with pytest.raises(OSError):
            await hub.move_seat(live, p, m.game.legal_actions(m.state, p)[0], None, live.version)
        assert len(got) == heard  # nobody was told
        store.fail = False
        again = await hub.get(live.id)  # the copy that played the lost move was dropped
        assert again is not live and again.version == version == store.get_match(live.id).version
        await hub.close()

    asyncio.run(run())


def test_web_restart_checks_the_stored_state_and_refuses_a_record_that_differs(tmp_path):
    """The state's JSON is stored every STATE_EVERY versions and at the end; a replay that differs is refused."""
    async def play():
        hub = _hub(tmp_path)
        out = hub.create({"game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}] * 2, "seed": 6})
        live = await hub.get(out["match"])
        await _random_moves(hub, live, STATE_EVERY + 3, random.Random(2))
        await hub.close()
        hub.storage.close()
        return out["match"], live.version

    mid, version = asyncio.run(play())
    store = open_storage(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    row = store.get_match(mid)
    at = row.state["checked_at"]
    assert row.version == version and 0 < at <= version and version - at < STATE_EVERY + 4

    async def load(s):
        hub = _hub(tmp_path, s)
        try:
            return (await hub.get(mid)).version
        finally:
            await hub.close()

    assert asyncio.run(load(store)) == version
    row.state["json"]["state"] = {"tampered": True}
    with store._tx() as cur:
        store._ex(cur, "UPDATE km_matches SET state = ? WHERE id = ?", (json.dumps(row.state), mid))
    with pytest.raises(RecordError, match="differs"):
        asyncio.run(load(store))
    store.close()


def test_web_the_others_hear_of_a_move_whose_mover_left_before_its_ack(tmp_path):
    """The mover's socket fails when the ack is sent: the move stays stored and the other seats get the state."""
    async def run():
        hub = _hub(tmp_path)
        out = hub.create({"game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}] * 2, "seed": 8})
        live = await hub.get(out["match"])
        hub.kick(live)  # the opening chance outcomes
        if live.driver is not None:
            await live.driver
        got: list[dict] = []

        async def send(text):
            got.append(json.loads(text))

        m = live.match
        p = m.acting_players[0]
        other = 1 - p
        live.subscribers.append(Subscriber(other, send, token_hash=hash_token(out["tokens"][str(other)])))

        async def ack(version):
            raise ConnectionResetError("the mover's socket closed")

        res = await hub.move_seat(live, p, m.game.legal_actions(m.state, p)[0], None, live.version, ack=ack)
        assert res["version"] == live.version == hub.storage.get_match(live.id).version
        assert got and got[-1]["version"] == live.version and got[-1]["seat"] == other
        await hub.close()

    asyncio.run(run())
