"""The operator's blocks (`python -m bot block --user ID` / `--server ID`): a blocked user's
commands and presses, and every command from a blocked server, get one private refusal and change
nothing. Kept in storage, so every process sharing the database honours them; each process reads
them at start and on every tick, so a command pays no statement for them."""

from __future__ import annotations

from bot.posts import Caller
from storage import Repository

BLOCK_KEY = "block:"  # meta: block:user:<id> or block:server:<id> -> when and why, as the operator said
KINDS = ("user", "server")


class Blocks:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.users: frozenset[str] = frozenset()
        self.servers: frozenset[str] = frozenset()

    async def refresh(self) -> None:
        keys = await self.repo.meta_with_prefix(BLOCK_KEY)
        found = [key[len(BLOCK_KEY) :].partition(":") for key in keys]
        self.users = frozenset(i for kind, _, i in found if kind == "user")
        self.servers = frozenset(i for kind, _, i in found if kind == "server")

    def refusal(self, caller: Caller) -> str | None:
        """What a blocked caller is told, or None."""
        if caller.user_id in self.users:
            return "This bot does not take commands from you."
        if caller.guild is not None and caller.guild in self.servers:
            return "This bot is not available in this server."
        return None


async def set_block(repo: Repository, kind: str, ident: str, why: str | None) -> None:
    """Block (`why` given) or unblock a user or a server."""
    key = f"{BLOCK_KEY}{kind}:{ident}"
    await repo.meta_put({key: why})
