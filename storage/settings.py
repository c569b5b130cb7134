"""Small stored settings: a server's choices and the bot's own keys (the command hash, a turn's
message, who is away…).

Within `remembering()` (the host opens it around each command) every key and every server's
settings is read from the database at most once, however many posts and people ask, and what the
command writes is what it reads back after; `preload` reads all of a command's keys in one
statement. Outside it, every read goes to the database."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from storage.core import RepositoryCore


@dataclass
class _Remembered:
    owner: StoredSettings
    meta: dict[str, str | None] = field(default_factory=dict)
    guilds: dict[str, dict[str, str]] = field(default_factory=dict)


# A context variable: each command runs in its own task, so each has its own memory.
_REMEMBERED: ContextVar[_Remembered | None] = ContextVar("remembered", default=None)


class StoredSettings(RepositoryCore):
    """A server's settings and the bot's own stored keys."""

    @contextmanager
    def remembering(self) -> Iterator[None]:
        """Read each key and server's settings at most once within the block (one command). Keys
        another process changes meanwhile are seen by the next command (as if the change had come
        after this one); keys this process changes are changed here too."""
        if self._remembered() is not None:
            yield
            return
        token = _REMEMBERED.set(_Remembered(self))
        try:
            yield
        finally:
            _REMEMBERED.reset(token)

    def _remembered(self) -> _Remembered | None:
        memory = _REMEMBERED.get()
        return memory if memory is not None and memory.owner is self else None

    async def preload(self, keys: Sequence[str], guild: str | None = None) -> None:
        """Read these keys now (under a session's lock, what another command wrote before it is
        seen), and `guild`'s settings if not read yet, in one statement, for the reads that follow
        within `remembering()` (without it, this reads nothing)."""
        memory = self._remembered()
        if memory is None:
            return
        keys = list(dict.fromkeys(keys))
        guild = guild if guild is not None and guild not in memory.guilds else None
        parts, args = [], []
        if keys:
            parts.append(f"SELECT 'm', key, value FROM meta WHERE key IN ({','.join('?' * len(keys))})")
            args += keys
        if guild is not None:
            parts.append("SELECT 'g', name, value FROM guild_settings WHERE guild=?")
            args.append(guild)
        if not parts:
            return
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(" UNION ALL ".join(parts), *args)
        memory.meta.update(dict.fromkeys(keys))
        if guild is not None:
            memory.guilds[guild] = {}
        for kind, name, value in rows:
            if kind == "m":
                memory.meta[name] = str(value)
            else:
                memory.guilds[str(guild)][name] = value

    async def guild_settings(self, guild: str) -> dict[str, str]:
        memory = self._remembered()
        if memory is not None and guild in memory.guilds:
            return dict(memory.guilds[guild])
        async with self._backend.read_one() as tx:
            rows = await tx.fetch("SELECT name, value FROM guild_settings WHERE guild=?", guild)
        found = {r[0]: r[1] for r in rows}
        if memory is not None:
            memory.guilds[guild] = dict(found)
        return found

    async def set_guild_setting(self, guild: str, name: str, value: str) -> None:
        async with self._write() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild, name, value) VALUES (?,?,?) "
                "ON CONFLICT (guild, name) DO UPDATE SET value=excluded.value",
                guild,
                name,
                value,
            )
        memory = self._remembered()
        if memory is not None and guild in memory.guilds:
            memory.guilds[guild][name] = value

    async def meta_get(self, key: str) -> str | None:
        memory = self._remembered()
        if memory is not None and key in memory.meta:
            return memory.meta[key]
        async with self._backend.read_one() as tx:
            value = await tx.fetchval("SELECT value FROM meta WHERE key=?", key)
        found = str(value) if value is not None else None
        if memory is not None:
            memory.meta[key] = found
        return found

    async def meta_set(self, key: str, value: str) -> None:
        await self.meta_put({key: value})

    async def meta_delete(self, *keys: str) -> None:
        """Forget stored keys (absent ones are no error)."""
        await self.meta_put(dict.fromkeys(keys))

    async def meta_put(self, values: Mapping[str, str | None], durable: bool = True) -> None:
        """Store several keys in one transaction (None: forget that key), one statement for those
        set and one for those forgotten. `durable` False: hints (see Backend.write)."""
        kept = [(k, v) for k, v in values.items() if v is not None]
        gone = [k for k, v in values.items() if v is None]
        if not values:
            return
        async with self._write(durable) as tx:
            if kept:
                await tx.executemany(
                    "INSERT INTO meta (key, value) VALUES (?,?) "
                    "ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                    kept,
                )
            if gone:
                await tx.execute(f"DELETE FROM meta WHERE key IN ({','.join('?' * len(gone))})", *gone)
        memory = self._remembered()
        if memory is not None:
            memory.meta.update(values)

    async def meta_take(self, prefix: str) -> dict[str, str]:
        """Remove and return every key that starts with `prefix`, in one statement: of several
        processes taking at once, each key goes to exactly one (a queue of notices)."""
        async with self._write() as tx:
            rows = await tx.fetch(
                "DELETE FROM meta WHERE key >= ? AND key < ? RETURNING key, value", prefix, _after(prefix)
            )
        taken = {str(r[0]): str(r[1]) for r in rows}
        memory = self._remembered()
        if memory is not None:
            memory.meta.update(dict.fromkeys(taken))
        return dict(sorted(taken.items()))

    async def meta_with_prefix(self, prefix: str) -> dict[str, str]:
        """Every stored key that starts with `prefix`, with its value (an index range, not a scan)."""
        async with self._backend.read_one() as tx:
            rows = await tx.fetch(
                "SELECT key, value FROM meta WHERE key >= ? AND key < ? ORDER BY key", prefix, _after(prefix)
            )
        return {str(r[0]): str(r[1]) for r in rows}


def _after(prefix: str) -> str:
    """The first string after every string that starts with `prefix` (its last character + 1)."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)
