"""The operator's commands on the bot's database (`python -m bot notice|block|unblock …`): they
write to storage, and every bot process sharing it acts on them by its next tick."""

from __future__ import annotations

import re
import time

from bot.host.blocks import KINDS, set_block
from bot.host.notices import Notices
from storage import Repository

NOTICE_LIMIT = 1500  # characters: a notice and its heading fit one Discord message
IDENT = re.compile(r"[\w-]{1,40}")  # a Discord id, or a console name


class OperatorError(ValueError):
    """Bad input to an operator's command: one line saying what is wrong."""


async def notice(repo: Repository, text: str) -> str:
    """Post `text` in every open game, in every server, at the next tick."""
    text = " ".join(text.split())
    if not text:
        raise OperatorError('notice needs --text "what to tell every open game"')
    if len(text) > NOTICE_LIMIT:
        raise OperatorError(f"a notice is at most {NOTICE_LIMIT} characters; this one has {len(text)}")
    channels = await repo.open_channels_everywhere()
    await Notices(repo, time.time).queue(channels, f"**Notice from the bot's operator:** {text}")
    where = f"{len(channels)} channels with an open game"
    return f"Queued the notice for {where}; the bot posts it at its next tick."


async def block(repo: Repository, kind: str, ident: str | None, why: str, *, blocked: bool) -> str:
    """Block or unblock a user or a server (`kind`)."""
    if kind not in KINDS or not ident or IDENT.fullmatch(ident) is None:
        verb = "block" if blocked else "unblock"
        raise OperatorError(
            f"{verb} needs --user ID or --server ID (a Discord id), not `{(ident or '')[:40]}`"
        )
    await set_block(repo, kind, ident, (why.strip() or "blocked by the operator") if blocked else None)
    done = "Blocked" if blocked else "Unblocked"
    return f"{done} {kind} {ident}; every bot process sharing this database honours it by its next tick."
