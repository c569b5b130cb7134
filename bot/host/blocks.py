"""The operator's blocks (`python -m bot block --user ID` / `--server ID`): a blocked user's
commands and presses, and every command from a blocked server, get one private refusal and change
nothing. Kept in storage, so every process sharing the database honours them; each process reads
them at start and on every tick, so a command pays no statement for them."""

from __future__ import annotations

import re

from bot.posts import Caller
from engine import OptionError
from storage import Repository

BLOCK_KEY = "block:"  # meta: block:user:<id> or block:server:<id> -> when and why, as the operator said
KINDS = ("user", "server")
IDENT = re.compile(r"[\w-]{1,40}")  # a Discord id, or a console name


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


async def set_block(repo: Repository, kind: str, ident: str | None, why: str, *, blocked: bool) -> str:
    """Block or unblock a user or a server (`kind`); what was done, in one line."""
    verb = "block" if blocked else "unblock"
    if kind not in KINDS or not ident or IDENT.fullmatch(ident) is None:
        raise OptionError(f"{verb} needs --user ID or --server ID (a Discord id), not `{(ident or '')[:40]}`")
    reason = (why.strip() or "blocked by the operator") if blocked else None
    await repo.meta_put({f"{BLOCK_KEY}{kind}:{ident}": reason})
    done = "Blocked" if blocked else "Unblocked"
    return f"{done} {kind} {ident}; every bot process sharing this database honours it by its next tick."
