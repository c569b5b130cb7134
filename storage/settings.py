"""Small stored settings: a server's choices and the bot's own keys (the command hash…)."""

from __future__ import annotations

from storage.core import RepositoryCore


class StoredSettings(RepositoryCore):
    """A server's settings and the bot's own stored keys."""

    async def guild_settings(self, guild: str) -> dict[str, str]:
        async with self._backend.read() as tx:
            rows = await tx.fetch("SELECT name, value FROM guild_settings WHERE guild=?", guild)
        return {r[0]: r[1] for r in rows}

    async def set_guild_setting(self, guild: str, name: str, value: str) -> None:
        async with self._write() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild, name, value) VALUES (?,?,?) "
                "ON CONFLICT (guild, name) DO UPDATE SET value=excluded.value",
                guild,
                name,
                value,
            )

    async def meta_get(self, key: str) -> str | None:
        async with self._backend.read() as tx:
            value = await tx.fetchval("SELECT value FROM meta WHERE key=?", key)
        return str(value) if value is not None else None

    async def meta_set(self, key: str, value: str) -> None:
        async with self._write() as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?,?) "
                "ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                key,
                value,
            )

    async def meta_delete(self, *keys: str) -> None:
        """Forget stored keys (absent ones are no error)."""
        async with self._write() as tx:
            for key in keys:
                await tx.execute("DELETE FROM meta WHERE key=?", key)
