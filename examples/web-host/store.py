"""Where the scaled-out web host keeps its rounds and calls between requests: Redis, or SQLite.

Every worker of the host reads and writes the same store, so a question shown by one worker can
be answered on another. Two kinds of record:

- a round (``put_round``, ``get_round``, ``claim_round``): the bytes a worker wrote for a
  question that waits for a person. A round is never changed in place: answering it either
  claims it (once, atomically) or fails and leaves it as it was. A claimed round leaves a
  marker behind that names its call, so a second post of it is told "already answered" rather
  than "not found".
- a call (``put_call``, ``get_call``): where a tool call stands, as JSON text, overwritten as it
  moves on.

Each record lives for the time to live it was written with and is then dropped by the store.

``open_store("redis://127.0.0.1:6379/0")`` or ``open_store("sqlite:/path/to/rounds.db")``.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import anyio.to_thread


@dataclass(frozen=True)
class Claimed:
    """A round claimed by this worker: its bytes, now no one else's."""

    value: bytes


@dataclass(frozen=True)
class AlreadyAnswered:
    """A round someone claimed before: the call it belonged to."""

    call_id: str


Claim = Claimed | AlreadyAnswered | None
"""What claiming a round gives: the round, the news that it was answered, or ``None`` when
there is no such round."""


class Store(Protocol):
    """What the host needs of a store; every method is safe to call from many workers at once."""

    name: str

    async def put_round(self, round_id: str, call_id: str, value: bytes, ttl_ms: int) -> None: ...
    async def get_round(self, round_id: str) -> bytes | AlreadyAnswered | None: ...
    async def claim_round(self, round_id: str, call_id: str) -> Claim: ...
    async def put_call(self, call_id: str, value: str, ttl_ms: int) -> None: ...
    async def get_call(self, call_id: str) -> str | None: ...
    async def close(self) -> None: ...


ANSWERED = b"answered "
"""What a claimed round's value becomes in Redis: this prefix, then its call's id."""


class RedisStore:
    """Rounds and calls in Redis: ``tn:round:ID`` and ``tn:call:ID`` strings with a time to live.

    A round is claimed with one command, ``SET key marker XX KEEPTTL GET``: it swaps the round
    for the marker and returns what was there, atomically, so of two posts (on any workers)
    exactly one gets the round and the other gets the marker.
    """

    name = "redis"

    def __init__(self, url: str) -> None:
        import redis.asyncio

        self._redis = redis.asyncio.Redis.from_url(url)

    async def put_round(self, round_id: str, call_id: str, value: bytes, ttl_ms: int) -> None:
        # NX: a round id is a snapshot id, kept once; it is never written over.
        if not await self._redis.set(f"tn:round:{round_id}", value, px=ttl_ms, nx=True):
            raise RuntimeError(f"a round is already kept under {round_id}")

    async def get_round(self, round_id: str) -> bytes | AlreadyAnswered | None:
        return self._read(await self._redis.get(f"tn:round:{round_id}"))

    async def claim_round(self, round_id: str, call_id: str) -> Claim:
        marker = ANSWERED + call_id.encode("utf-8")
        value = self._read(await self._redis.set(f"tn:round:{round_id}", marker, xx=True, keepttl=True, get=True))
        return Claimed(value) if isinstance(value, bytes) else value

    @staticmethod
    def _read(value: object) -> bytes | AlreadyAnswered | None:
        """A round's value as Redis gave it: the round, or the marker a claim left."""
        if not isinstance(value, bytes):
            return None
        if value.startswith(ANSWERED):
            return AlreadyAnswered(value[len(ANSWERED) :].decode("utf-8", "replace"))
        return value

    async def put_call(self, call_id: str, value: str, ttl_ms: int) -> None:
        await self._redis.set(f"tn:call:{call_id}", value.encode("utf-8"), px=ttl_ms)

    async def get_call(self, call_id: str) -> str | None:
        value = await self._redis.get(f"tn:call:{call_id}")
        return value.decode("utf-8") if isinstance(value, bytes) else None

    async def close(self) -> None:
        await self._redis.aclose()


class SqliteStore:
    """Rounds and calls in one SQLite file, shared by the workers of one machine.

    A round is claimed in one ``BEGIN IMMEDIATE`` transaction that reads the row and marks it
    answered: SQLite holds its write lock for the whole transaction, so of two posts (in any
    processes) exactly one finds the row unanswered. Each call runs in a thread, on this worker's
    one connection, in WAL mode so that readers do not wait for the writer.
    """

    name = "sqlite"

    SCHEMA = """
        CREATE TABLE IF NOT EXISTS rounds (
            id TEXT PRIMARY KEY,
            call TEXT NOT NULL,
            value BLOB NOT NULL,
            answered INTEGER NOT NULL DEFAULT 0,
            expires_ms INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS calls (
            id TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            expires_ms INTEGER NOT NULL
        );
    """

    def __init__(self, path: Path) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=30000")
        self._db.executescript(self.SCHEMA)

    async def _run(self, sql: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
        def run() -> list[tuple[object, ...]]:
            with self._lock:
                return self._db.execute(sql, args).fetchall()

        return await anyio.to_thread.run_sync(run)

    async def put_round(self, round_id: str, call_id: str, value: bytes, ttl_ms: int) -> None:
        now = now_ms()
        await self._run("DELETE FROM rounds WHERE expires_ms < ?", (now,))
        await self._run(
            "INSERT INTO rounds (id, call, value, expires_ms) VALUES (?, ?, ?, ?)",
            (round_id, call_id, value, now + ttl_ms),
        )

    async def get_round(self, round_id: str) -> bytes | AlreadyAnswered | None:
        rows = await self._run(
            "SELECT value, answered, call FROM rounds WHERE id = ? AND expires_ms >= ?", (round_id, now_ms())
        )
        if not rows:
            return None
        value, answered, call_id = rows[0]
        if answered:
            return AlreadyAnswered(str(call_id))
        return value if isinstance(value, bytes) else None

    async def claim_round(self, round_id: str, call_id: str) -> Claim:
        def claim() -> Claim:
            with self._lock:
                # BEGIN IMMEDIATE takes the database's write lock first: between the read and
                # the update no other connection, in this process or another, can write.
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    rows = self._db.execute(
                        "SELECT value, answered, call FROM rounds WHERE id = ? AND expires_ms >= ?",
                        (round_id, now_ms()),
                    ).fetchall()
                    if rows and not rows[0][1]:
                        self._db.execute("UPDATE rounds SET answered = 1, value = X'' WHERE id = ?", (round_id,))
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
            if not rows:
                return None
            value, answered, owner_call = rows[0]
            if answered:
                return AlreadyAnswered(str(owner_call))
            return Claimed(value) if isinstance(value, bytes) else None

        return await anyio.to_thread.run_sync(claim)

    async def put_call(self, call_id: str, value: str, ttl_ms: int) -> None:
        now = now_ms()
        await self._run("DELETE FROM calls WHERE expires_ms < ?", (now,))
        await self._run(
            "INSERT INTO calls (id, value, expires_ms) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET value = excluded.value, expires_ms = excluded.expires_ms",
            (call_id, value, now + ttl_ms),
        )

    async def get_call(self, call_id: str) -> str | None:
        rows = await self._run("SELECT value FROM calls WHERE id = ? AND expires_ms >= ?", (call_id, now_ms()))
        return str(rows[0][0]) if rows else None

    async def close(self) -> None:
        self._db.close()


def now_ms() -> int:
    return int(time.time() * 1000)


def open_store(spec: str) -> Store:
    """The store ``spec`` names: ``redis://HOST:PORT/DB`` or ``sqlite:PATH``."""
    if spec.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(spec)
    if spec.startswith("sqlite:"):
        path = Path(spec.removeprefix("sqlite:"))
        try:
            return SqliteStore(path)
        except sqlite3.Error as error:
            raise ValueError(f"cannot open the SQLite store {path}: {error}") from error
    raise ValueError(f"a store is redis://HOST:PORT/DB or sqlite:PATH, not {spec!r}")
