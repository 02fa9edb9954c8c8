"""Where matches live: one storage interface, SQLite (default) and PostgreSQL.

A match is stored as its game, options and seed, its seats, and the list of
every action taken (chance included) with its player and notation. A server
rebuilds a match by replaying that list (chance outcomes are drawn again from
the seed and checked against the stored ones). A state's JSON (``game.to_json``,
with the version it is at) is kept beside the version as a check; the server
rewrites it every few versions and at the end, not at every move.

Every move is stored with ``append`` (or, several matches' moves in one
transaction, ``append_many``: the server's group commit): it checks that the
match is still at the version the move was made for, inserts the action and
moves the version on. Two writers racing for the same version: one wins, the
other gets ``ConflictError`` (code ``match/conflict``).

Seat tokens are stored only as SHA-256 hashes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic_core import to_json

from ..core.errors import ConflictError

__all__ = [
    "ActionRow",
    "Append",
    "MatchRow",
    "PostgresStorage",
    "SeatRow",
    "SQLiteStorage",
    "Storage",
    "default_db_path",
    "hash_token",
    "open_storage",
]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" or "bot"
    bot: str | None = None  # agent spec for a bot seat, e.g. "heuristic", "ismcts:normal"
    name: str | None = None
    token_hash: str | None = None  # human seats only
    claimed: bool = False  # a human has joined this seat


@dataclass
class MatchRow:
    id: str
    game: str
    players: int
    options: dict
    seed: int
    version: int = 0
    status: str = "playing"  # "playing" or "over"
    result: list[float] | None = None
    public: bool = True
    state: dict | None = None
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)


@dataclass(frozen=True)
class ActionRow:
    player: int
    action: int
    text: str


_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS km_matches (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        version INTEGER NOT NULL,
        status TEXT NOT NULL,
        result TEXT,
        public INTEGER NOT NULL,
        state TEXT,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS km_seats (
        match_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        bot TEXT,
        name TEXT,
        token_hash TEXT,
        claimed INTEGER NOT NULL,
        PRIMARY KEY (match_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS km_actions (
        match_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        player INTEGER NOT NULL,
        action INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (match_id, idx)
    )""",
    "CREATE INDEX IF NOT EXISTS km_matches_status ON km_matches (status, updated)",
]

# (match id, version, actions, state, status, result): one match's moves for ``append_many``
Append = tuple[str, int, list[ActionRow], dict | None, str, list[float] | None]

_CHANNEL = "km_changes"
_MATCH_COLS = "id, game, players, options, seed, version, status, result, public, state, created, updated"


class Storage:
    """The storage interface. Implementations differ only in connecting and SQL parameter style.

    Methods are synchronous and short; the server calls them from its event loop.
    """

    url: str = ""
    _param = "?"
    shared = False  # several server processes may use this storage at once (PostgreSQL)
    origin = ""  # the id of the server process writing (sent with its notifications)

    def __init__(self) -> None:
        self._lock = threading.RLock()

    # ---- to implement ------------------------------------------------------------
    def _connect(self) -> Any:
        raise NotImplementedError  # abstract

    def _begin(self, cur: Any) -> None:
        raise NotImplementedError  # abstract

    def _reconnect_if_broken(self) -> None:
        """Opens a new connection when the old one was lost (a database server restart)."""

    # ---- several processes (PostgreSQL overrides these) ------------------------------
    def _notify(self, cur: Any, match_id: str, version: int, kind: str) -> None:
        """Announces a stored change to the other processes (sent when the transaction commits)."""

    def listen(self, callback: Callable[[str, int, str, str], Any]) -> None:
        """Calls ``callback(match_id, version, kind, origin)`` (from a thread) for each change announced."""

    def unlisten(self) -> None:
        """Stops listening."""

    def try_lock(self, match_id: str) -> bool:
        """Takes the match's lock for this process (the one that drives its bots); False if another has it."""
        return True

    def unlock(self, match_id: str) -> None:
        """Gives the match's lock back."""

    # ---- shared --------------------------------------------------------------------
    def _sql(self, sql: str) -> str:
        return sql if self._param == "?" else sql.replace("?", self._param)

    def _init_schema(self) -> None:
        with self._tx() as cur:
            for stmt in _SCHEMA:
                cur.execute(stmt)

    class _Tx:
        def __init__(self, store: Storage) -> None:
            self.store = store

        def __enter__(self) -> Any:
            self.store._lock.acquire()
            try:
                self.store._reconnect_if_broken()
                self.cur = self.store._conn.cursor()
                self.store._begin(self.cur)
            except BaseException:
                self.store._lock.release()
                raise
            return self.cur

        def __exit__(self, et, ev, tb) -> None:
            try:
                if et is None:
                    self.store._conn.commit()
                else:
                    self.store._conn.rollback()
            finally:
                self.cur.close()
                self.store._lock.release()

    def _tx(self) -> Storage._Tx:
        return Storage._Tx(self)

    def _ex(self, cur: Any, sql: str, args: tuple = ()) -> Any:
        cur.execute(self._sql(sql), args)
        return cur

    def create_match(self, m: MatchRow, seats: list[SeatRow]) -> None:
        """Stores a new match with its seats (version 0, no action yet)."""
        with self._tx() as cur:
            self._ex(
                cur,
                f"INSERT INTO km_matches ({_MATCH_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    m.id, m.game, m.players, json.dumps(m.options), str(m.seed), m.version, m.status,
                    json.dumps(m.result) if m.result is not None else None, int(m.public),
                    json.dumps(m.state) if m.state is not None else None, m.created, m.updated,
                ),
            )
            for s in seats:
                self._ex(
                    cur,
                    "INSERT INTO km_seats (match_id, seat, kind, bot, name, token_hash, claimed)"
                    " VALUES (?,?,?,?,?,?,?)",
                    (m.id, s.seat, s.kind, s.bot, s.name, s.token_hash, int(s.claimed)),
                )

    def append(
        self,
        match_id: str,
        version: int,
        actions: list[ActionRow],
        state: dict | None,
        status: str,
        result: list[float] | None,
    ) -> int:
        """Stores ``actions`` taken at ``version``; returns the new version.

        Raises:
            ConflictError: the match is no longer at ``version`` (another move won).
        """
        out = self.append_many([(match_id, version, actions, state, status, result)])[0]
        if isinstance(out, ConflictError):
            raise out
        return out

    def append_many(self, items: list[Append]) -> list[int | ConflictError]:
        """Stores the moves of several matches in one transaction (a group commit).

        Each item is ``(match_id, version, actions, state, status, result)`` as for
        ``append`` (``state`` None: the stored state stays as it is). Returns, item by
        item, the new version, or a ``ConflictError`` for a match that is no longer at its
        ``version`` (nothing of that item is stored; the others are). Any other failure
        stores nothing and raises. The statements are set-wise where the database allows
        (PostgreSQL: one UPDATE, one INSERT and one NOTIFY for the whole batch).
        """
        rows = [(mid, version, version + len(actions), _dumps(state) if state is not None else None, status,
                 _dumps(result) if result is not None else None) for mid, version, actions, state, status, result
                in items]
        with self._tx() as cur:
            moved = self._update_versions(cur, rows, time.time())
            self._insert_actions(cur, [(mid, version + i, a.player, a.action, a.text)
                                       for (mid, version, actions, *_), ok in zip(items, moved) if ok
                                       for i, a in enumerate(actions)])
            self._notify_moves(cur, [(r[0], r[2]) for r, ok in zip(rows, moved) if ok])
        return [r[2] if ok else ConflictError(
            f"match {r[0]} has moved on from version {r[1]}; reload the position and choose again",
            match=r[0], version=r[1]) for r, ok in zip(rows, moved)]

    def _update_versions(self, cur: Any, rows: list[tuple], now: float) -> list[bool]:
        """Moves each match ``(id, version, new, state, status, result)`` still at ``version`` on to ``new``."""
        update = self._sql("UPDATE km_matches SET version = ?, state = ?, status = ?, result = ?, updated = ?"
                           " WHERE id = ? AND version = ?")
        keep_state = self._sql("UPDATE km_matches SET version = ?, status = ?, result = ?, updated = ?"
                               " WHERE id = ? AND version = ?")
        moved = []
        for mid, version, new, state, status, result in rows:
            if state is None:
                cur.execute(keep_state, (new, status, result, now, mid, version))
            else:
                cur.execute(update, (new, state, status, result, now, mid, version))
            moved.append(cur.rowcount == 1)
        return moved

    def _insert_actions(self, cur: Any, rows: list[tuple]) -> None:
        if rows:
            cur.executemany(self._sql("INSERT INTO km_actions (match_id, idx, player, action, text)"
                                      " VALUES (?,?,?,?,?)"), rows)

    def _notify_moves(self, cur: Any, moves: list[tuple[str, int]]) -> None:
        for mid, version in moves:
            self._notify(cur, mid, version, "move")

    def update_seat(self, match_id: str, seat: SeatRow) -> None:
        """Replaces the stored seat ``seat.seat`` of the match (join, leave, bot takes over)."""
        with self._tx() as cur:
            self._ex(
                cur,
                "UPDATE km_seats SET kind = ?, bot = ?, name = ?, token_hash = ?, claimed = ?"
                " WHERE match_id = ? AND seat = ?",
                (seat.kind, seat.bot, seat.name, seat.token_hash, int(seat.claimed), match_id, seat.seat),
            )
            self._notify(cur, match_id, -1, "seats")

    def get_match(self, match_id: str) -> MatchRow | None:
        with self._tx() as cur:
            row = self._ex(cur, f"SELECT {_MATCH_COLS} FROM km_matches WHERE id = ?", (match_id,)).fetchone()
        return _match_row(row) if row else None

    def get_seats(self, match_id: str) -> list[SeatRow]:
        with self._tx() as cur:
            rows = self._ex(
                cur,
                "SELECT seat, kind, bot, name, token_hash, claimed FROM km_seats"
                " WHERE match_id = ? ORDER BY seat",
                (match_id,),
            ).fetchall()
        return [SeatRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in rows]

    def get_actions(self, match_id: str, since: int = 0) -> list[ActionRow]:
        """Returns the stored actions of the match from index ``since`` on."""
        with self._tx() as cur:
            rows = self._ex(
                cur,
                "SELECT player, action, text FROM km_actions WHERE match_id = ? AND idx >= ? ORDER BY idx",
                (match_id, since),
            ).fetchall()
        return [ActionRow(int(r[0]), int(r[1]), r[2]) for r in rows]

    def match_ids(self, status: str = "playing") -> list[str]:
        """Returns the ids of the matches with ``status`` (a light query: no state)."""
        with self._tx() as cur:
            rows = self._ex(cur, "SELECT id FROM km_matches WHERE status = ?", (status,)).fetchall()
        return [r[0] for r in rows]

    def list_matches(self, status: str | None = None, limit: int = 100, public_only: bool = False) -> list[MatchRow]:
        """Returns the most recently updated matches first."""
        where, args = [], []
        if status is not None:
            where.append("status = ?")
            args.append(status)
        if public_only:
            where.append("public = 1")
        sql = f"SELECT {_MATCH_COLS} FROM km_matches"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY updated DESC LIMIT ?"
        args.append(int(limit))
        with self._tx() as cur:
            rows = self._ex(cur, sql, tuple(args)).fetchall()
        return [_match_row(r) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _dumps(value: Any) -> str:
    """Compact JSON text (pydantic-core's encoder: about three times as fast as json.dumps)."""
    return to_json(value).decode()


def _match_row(r: tuple) -> MatchRow:
    return MatchRow(
        id=r[0], game=r[1], players=int(r[2]), options=json.loads(r[3]), seed=int(r[4]),
        version=int(r[5]), status=r[6], result=json.loads(r[7]) if r[7] is not None else None,
        public=bool(r[8]), state=json.loads(r[9]) if r[9] is not None else None,
        created=float(r[10]), updated=float(r[11]),
    )


class SQLiteStorage(Storage):
    """SQLite in WAL mode: the default, a file in the user's data folder."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = str(path)
        self.url = f"sqlite:///{self.path}"
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        if self.path != ":memory:":
            self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA busy_timeout=30000")
        self._init_schema()

    def _begin(self, cur: Any) -> None:
        cur.execute("BEGIN IMMEDIATE")

    def journal_mode(self) -> str:
        with self._lock:
            return self._conn.execute("PRAGMA journal_mode").fetchone()[0]


class PostgresStorage(Storage):
    """PostgreSQL through psycopg 3, from a URL such as ``postgresql://user@host:5432/db``."""

    _param = "%s"

    def __init__(self, url: str) -> None:
        super().__init__()
        try:
            import psycopg
        except ImportError as e:  # pragma: no cover - the [web] extra installs it
            raise RuntimeError("PostgreSQL storage needs psycopg: pip install 'kingmaker[web]'") from e
        self.url = url
        self._psycopg = psycopg
        self._conn = psycopg.connect(url, autocommit=False)
        self._init_schema()
        self._locks: set[str] = set()
        self._lock_conn: Any = None
        self._lock_mutex = threading.Lock()
        self._listener: threading.Thread | None = None
        self._listening = False

    shared = True

    def _notify(self, cur: Any, match_id: str, version: int, kind: str) -> None:
        payload = json.dumps({"m": match_id, "v": version, "k": kind, "o": self.origin})
        cur.execute("SELECT pg_notify(%s, %s)", (_CHANNEL, payload))

    def _update_versions(self, cur: Any, rows: list[tuple], now: float) -> list[bool]:
        if len({r[0] for r in rows}) != len(rows):  # a match twice in one batch: one by one
            return super()._update_versions(cur, rows, now)
        if len(rows) > 1:  # rows locked in one order by every process: no deadlock between two batches
            cur.execute("SELECT id FROM km_matches WHERE id = ANY(%s) ORDER BY id FOR UPDATE", ([r[0] for r in rows],))
        cur.execute(
            "UPDATE km_matches AS m SET version = v.new, state = COALESCE(v.state, m.state), status = v.status,"
            " result = v.result, updated = %s"
            " FROM unnest(%s::text[], %s::integer[], %s::integer[], %s::text[], %s::text[], %s::text[])"
            " AS v(id, old, new, state, status, result)"
            " WHERE m.id = v.id AND m.version = v.old RETURNING m.id",
            (now, *([r[i] for r in rows] for i in range(6))),
        )
        done = {r[0] for r in cur.fetchall()}
        return [r[0] in done for r in rows]

    def _insert_actions(self, cur: Any, rows: list[tuple]) -> None:
        if rows:
            cur.execute(
                "INSERT INTO km_actions (match_id, idx, player, action, text)"
                " SELECT * FROM unnest(%s::text[], %s::integer[], %s::integer[], %s::integer[], %s::text[])",
                tuple([r[i] for r in rows] for i in range(5)),
            )

    def _notify_moves(self, cur: Any, moves: list[tuple[str, int]]) -> None:
        if moves:
            cur.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p", (_CHANNEL, [
                json.dumps({"m": mid, "v": v, "k": "move", "o": self.origin}) for mid, v in moves]))

    def listen(self, callback: Callable[[str, int, str, str], Any]) -> None:
        self._listening = True

        def run() -> None:
            conn = None
            while self._listening:
                try:
                    if conn is None or conn.closed or conn.broken:
                        conn = self._psycopg.connect(self.url, autocommit=True)
                        conn.execute(f"LISTEN {_CHANNEL}")
                    for n in conn.notifies(timeout=0.5):
                        try:
                            d = json.loads(n.payload)
                            callback(str(d["m"]), int(d["v"]), str(d["k"]), str(d.get("o", "")))
                        except Exception:  # noqa: BLE001 - a bad payload must not stop listening
                            continue
                except Exception:  # noqa: BLE001 - the database went away: connect again
                    conn = None
                    time.sleep(0.5)
            if conn is not None:
                conn.close()

        self._listener = threading.Thread(target=run, name="km-pg-listen", daemon=True)
        self._listener.start()

    def unlisten(self) -> None:
        self._listening = False
        if self._listener is not None:
            self._listener.join(5)
            self._listener = None

    @staticmethod
    def _lock_key(match_id: str) -> int:
        return int.from_bytes(hashlib.sha256(b"km-match/" + match_id.encode()).digest()[:8], "big", signed=True)

    def try_lock(self, match_id: str) -> bool:
        with self._lock_mutex:
            if match_id in self._locks:
                return True
            try:
                if self._lock_conn is None or self._lock_conn.closed or self._lock_conn.broken:
                    self._locks.clear()  # a lost connection lost its locks
                    self._lock_conn = self._psycopg.connect(self.url, autocommit=True)
                got = self._lock_conn.execute("SELECT pg_try_advisory_lock(%s)", (self._lock_key(match_id),))
                ok = bool(got.fetchone()[0])
            except Exception:  # noqa: BLE001 - no database: nobody drives until it is back
                self._lock_conn = None
                return False
            if ok:
                self._locks.add(match_id)
            return ok

    def unlock(self, match_id: str) -> None:
        with self._lock_mutex:
            if match_id not in self._locks:
                return
            self._locks.discard(match_id)
            with contextlib.suppress(Exception):
                self._lock_conn.execute("SELECT pg_advisory_unlock(%s)", (self._lock_key(match_id),))

    def close(self) -> None:
        self.unlisten()
        with self._lock_mutex:
            if self._lock_conn is not None:
                with contextlib.suppress(Exception):
                    self._lock_conn.close()
        super().close()

    def _begin(self, cur: Any) -> None:
        pass  # psycopg opens a transaction with the first statement

    def _reconnect_if_broken(self) -> None:
        if self._conn.closed or self._conn.broken:
            self._conn = self._psycopg.connect(self.url, autocommit=False)

    def _init_schema(self) -> None:
        # Several servers (or test runs) may create the tables at once.
        with self._tx() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(7100007)")
            for stmt in _SCHEMA:
                cur.execute(stmt)


def default_db_path() -> Path:
    """Returns the SQLite file in the user's data folder (XDG_DATA_HOME or ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "kingmaker" / "kingmaker.sqlite3"


def open_storage(url: str | None = None) -> Storage:
    """Returns the storage for ``url``: ``postgresql://...``, ``sqlite:///path``, a path, or the default file."""
    if not url:
        return SQLiteStorage(default_db_path())
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(url)
    if url.startswith("sqlite:///"):
        return SQLiteStorage(url[len("sqlite:///"):] or ":memory:")
    if url.startswith("sqlite://"):
        return SQLiteStorage(url[len("sqlite://"):] or ":memory:")
    if "://" in url:
        raise ValueError(f"unknown database URL {url!r}; use sqlite:///path or postgresql://user@host/db")
    return SQLiteStorage(url)
