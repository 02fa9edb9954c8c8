"""The storage interface, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import secrets
import threading

import pytest

from kingmaker.core.errors import ConflictError
from kingmaker.web.storage import (
    ActionRow,
    MatchRow,
    PostgresStorage,
    SeatRow,
    SQLiteStorage,
    default_db_path,
    hash_token,
    open_storage,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    return request.getfixturevalue("pg_url")


def _new(store, **kw) -> MatchRow:
    row = MatchRow(id=secrets.token_hex(6), game="kings-kilt", players=3, options={"family_deal": "rulebook"},
                   seed=2**62 - 5, state={"game": "kings-kilt", "state": {"x": 1}}, **kw)
    seats = [SeatRow(0, "human", name="ann", token_hash=hash_token("t0"), claimed=True),
             SeatRow(1, "bot", bot="heuristic", name="bot", claimed=True),
             SeatRow(2, "human", token_hash=hash_token("t2"))]
    store.create_match(row, seats)
    return row


def test_storage_round_trips_a_match_its_seats_and_actions(url):
    store = open_storage(url)
    try:
        row = _new(store)
        got = store.get_match(row.id)
        assert (got.game, got.players, got.options, got.seed, got.version, got.status) == (
            "kings-kilt", 3, {"family_deal": "rulebook"}, 2**62 - 5, 0, "playing")
        assert got.state == {"game": "kings-kilt", "state": {"x": 1}}
        seats = store.get_seats(row.id)
        assert [(s.seat, s.kind, s.bot, s.claimed) for s in seats] == [
            (0, "human", None, True), (1, "bot", "heuristic", True), (2, "human", None, False)]
        assert seats[0].token_hash == hash_token("t0") != "t0"
        v = store.append(row.id, 0, [ActionRow(-1, 240, "card Bruce"), ActionRow(0, 3, "ascend x")],
                         {"game": "kings-kilt", "state": {"x": 2}}, "playing", None)
        assert v == 2
        v = store.append(row.id, 2, [ActionRow(1, 5, "pass")], None, "over", [1.0, 0.0, 0.0])
        assert v == 3
        assert store.get_actions(row.id) == [ActionRow(-1, 240, "card Bruce"), ActionRow(0, 3, "ascend x"),
                                             ActionRow(1, 5, "pass")]
        got = store.get_match(row.id)
        assert (got.version, got.status, got.result) == (3, "over", [1.0, 0.0, 0.0])
        seats[2].claimed, seats[2].name = True, "bob"
        store.update_seat(row.id, seats[2])
        assert store.get_seats(row.id)[2].name == "bob"
        assert store.get_match("no-such-match") is None
        assert row.id in [m.id for m in store.list_matches(status="over", limit=1000)]
        assert row.id not in [m.id for m in store.list_matches(status="playing", limit=1000)]
    finally:
        store.close()


def test_storage_refuses_an_append_for_an_old_version_and_changes_nothing(url):
    store = open_storage(url)
    try:
        row = _new(store)
        store.append(row.id, 0, [ActionRow(0, 1, "a")], None, "playing", None)
        with pytest.raises(ConflictError) as e:
            store.append(row.id, 0, [ActionRow(0, 2, "b")], None, "over", [1.0, 0.0, 0.0])
        assert e.value.code == "match/conflict"
        assert store.get_actions(row.id) == [ActionRow(0, 1, "a")]
        got = store.get_match(row.id)
        assert (got.version, got.status) == (1, "playing")
    finally:
        store.close()


def test_storage_racing_writers_for_one_version_give_one_success(url):
    """Separate connections (as separate server processes would have) race for version 0."""
    first = open_storage(url)
    row = _new(first)
    stores = [open_storage(url) for _ in range(6)]
    barrier = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def go(i, st):
        barrier.wait()
        try:
            st.append(row.id, 0, [ActionRow(0, i, f"move {i}")], None, "playing", None)
            outcomes.append("ok")
        except ConflictError:
            outcomes.append("conflict")

    threads = [threading.Thread(target=go, args=(i, st)) for i, st in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert sorted(outcomes) == ["conflict"] * 5 + ["ok"]
        assert len(first.get_actions(row.id)) == 1
        assert first.get_match(row.id).version == 1
    finally:
        for st in [first, *stores]:
            st.close()


def test_sqlite_storage_uses_wal_and_the_user_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "kingmaker" / "kingmaker.sqlite3"
    store = open_storage(None)
    try:
        assert isinstance(store, SQLiteStorage)
        assert store.path == str(tmp_path / "data" / "kingmaker" / "kingmaker.sqlite3")
        assert store.journal_mode() == "wal"
    finally:
        store.close()


def test_open_storage_reads_urls(tmp_path, pg_url):
    s = open_storage(str(tmp_path / "a.db"))
    assert isinstance(s, SQLiteStorage) and s.path == str(tmp_path / "a.db")
    s.close()
    s = open_storage(f"sqlite:///{tmp_path / 'b.db'}")
    assert isinstance(s, SQLiteStorage) and s.path == str(tmp_path / "b.db")
    s.close()
    s = open_storage(pg_url)
    assert isinstance(s, PostgresStorage)
    s.close()
    with pytest.raises(ValueError, match="unknown database URL"):
        open_storage("mysql://x@y/z")


def test_postgres_storage_reconnects_after_losing_its_connection(pg_url):
    import psycopg

    store = open_storage(pg_url)
    try:
        row = _new(store)
        pid = store._conn.info.backend_pid
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(psycopg.OperationalError):
            store.get_match(row.id)  # the call that finds the connection gone fails ...
        assert store.get_match(row.id).id == row.id  # ... and the next one reconnects
    finally:
        store.close()
