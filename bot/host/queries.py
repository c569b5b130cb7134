"""Queries: status, board, log, legal moves, hand, export, help and server settings."""

from __future__ import annotations

import json
from typing import Any

from bot.host.core import (
    SETTING_RANGES,
    HostCore,
    fit,
    result_line,
)
from bot.host.votes import effective_moves
from bot.posts import Attachment, Caller, Post
from engine import GameError, NotYourTurn, OptionError, all_games, get_game
from engine.fairness import SCHEME, commitment


class Queries(HostCore):
    async def _cmd_status(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._latest_row(caller)
        game = get_game(row.game)
        lines = [f"**{game.title}** — {row.status}. " + self._seat_lines(row, game)]
        if row.status != "lobby":
            state = await self._state(row)
            lines.append(game.describe(game.view(state, None)))
            if row.outcome:
                lines.append(result_line(row, row.outcome))
            else:
                lines.append(self._turn_line(row, game, state))
        return [Post(caller.channel, "\n".join(lines))]

    async def _cmd_board(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._latest_row(caller)
        if row.status == "lobby":
            raise GameError("The game has not started yet; the board appears at /game start.")
        game, state = get_game(row.game), await self._state(row)
        post = Post(caller.channel, game.describe(game.view(state, None)))
        await self._attach_picture(row, game, state, post)
        return [post]

    async def _cmd_log(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._latest_row(caller)
        rows = await self.repo.actions(row.id)
        names = {s.seat: s.user_name for s in row.seats}
        lines = [
            f"{a.seq}. {a.seat} ({names.get(a.seat or '', '?')}): {a.notation}"
            + (f" — {a.summary}" if a.summary else "")
            for a in rows
        ]
        text = "\n".join(lines) or "No moves yet."
        return [fit(Post(caller.channel, text), "log.txt")]

    async def _cmd_moves(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._active_row(caller)
        game, state = get_game(row.game), await self._state(row)
        seat = self._acting_seat(row, game, state, caller)
        legal = [str(a) for a in game.legal_actions(state, seat)]
        text = f"Your legal moves as {seat} ({len(legal)}):\n" + "\n".join(legal)
        return [fit(Post(caller.channel, text, to=caller.user_id), "moves.txt")]

    async def _cmd_hand(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._active_row(caller)
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("You hold no seat in this game, so there is nothing private to show you.")
        game, state = get_game(row.game), await self._state(row)
        text = "\n\n".join(f"**{seat}**: " + game.describe(game.view(state, seat)) for seat in mine)
        return [fit(Post(caller.channel, text, to=caller.user_id), "hand.txt")]

    async def _cmd_export(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self._latest_row(caller)
        game = get_game(row.game)
        rows = await self.repo.actions(row.id)
        data: dict[str, Any] = {
            "game": game.id,
            "title": game.title,
            "options": row.options,
            "status": row.status,
            "seats": [{"seat": s.seat, "player": s.user_name, "bot_level": s.ai_level} for s in row.seats],
            "log": [
                {
                    "seq": a.seq,
                    "kind": a.kind,
                    "seat": a.seat,
                    "notation": a.notation,
                    "summary": a.summary,
                    "at": a.at,
                }
                for a in rows
            ],
            "moves": [{"seat": a.seat, "notation": a.notation} for a in effective_moves(rows)],
            "outcome": row.outcome,
        }
        over = row.status in ("finished", "abandoned")
        if game.has_hands:
            # The seed of a game with hidden cards is a secret until the game is over, then it is
            # revealed so that anyone can check it against the commitment and replay the game.
            data["commitment"] = commitment(game.id, row.seed)
            if over:
                data["seed"] = row.seed
                data["fairness"] = (
                    f"sha256('{SCHEME}:{game.id}:<seed>') equals the commitment posted at the start, "
                    "and seed + moves replay to final_state (engine.fairness.verify checks both)"
                )
        else:
            data["seed"] = row.seed
        over = row.status in ("finished", "abandoned")
        if game.has_hands:
            # The seed of a game with hidden cards is a secret until the game is over, then it is
            # revealed so that anyone can check it against the commitment and replay the game.
            data["commitment"] = commitment(game.id, row.seed)
            if over:
                data["seed"] = row.seed
                data["fairness"] = (
                    f"sha256('{SCHEME}:{game.id}:<seed>') equals the commitment posted at the start, "
                    "and seed + moves replay to final_state (engine.fairness.verify checks both)"
                )
        else:
            data["seed"] = row.seed
        if row.status != "lobby":
            state = await self._state(row)
            # A finished game may reveal everything; a running one only what spectators see.
            data["final_state" if over else "public_view"] = (
                game.to_json(state) if over else game.view(state, None)
            )
        blob = json.dumps(data, indent=2).encode()
        return [
            Post(
                caller.channel,
                f"Export of the {game.title} game (session {row.id}).",
                to=caller.user_id,
                files=[Attachment(f"{game.id}-{row.id}.json", blob)],
            )
        ]

    async def _cmd_help(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        name = args.get("game", "").strip()
        if not name:
            lines = ["**Games**:"] + [f"• `{g.id}` — {g.title}: {g.blurb}" for g in all_games()]
            lines.append(
                "Open one with /game new game:<id>, take seats with /game join, then /game start. "
                "Move with /play (autocomplete lists your moves) or the buttons."
            )
            return [Post(caller.channel, "\n".join(lines), to=caller.user_id)]
        game = get_game(name)
        opts = "\n".join(
            f"• `{o.name}` ({'|'.join(o.choices)}, default {o.default}): {o.help}" for o in game.options
        )
        text = f"**{game.title}**\n{game.rules_help()}\n\n**Options**\n{opts or 'none'}"
        return [fit(Post(caller.channel, text, to=caller.user_id), f"{game.id}-help.txt")]

    async def _cmd_settings(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        current = await self._settings_for(caller.guild)
        name, value = args.get("name", "").strip().lower(), args.get("value", "").strip()
        if not name:
            text = "Server settings: " + ", ".join(f"{k}={v}" for k, v in current.items())
            return [Post(caller.channel, text, to=caller.user_id)]
        if not caller.is_manager or caller.guild is None:
            raise GameError("Only someone with Manage Server can change settings.")
        guild = caller.guild
        if name not in current:
            raise OptionError(f"There is no setting `{name}`; settings: {', '.join(current)}.")
        try:
            number = float(value)
        except ValueError:
            raise OptionError(f"`{name}` takes a number of {name.split('_')[1]}, not `{value}`.") from None
        low, high = SETTING_RANGES[name]
        if not low <= number <= high:  # also refuses nan and inf
            unit = name.split("_")[1]
            raise OptionError(f"`{name}` must be between {low:g} and {high:g} {unit}, not `{value}`.")
        await self.repo.set_guild_setting(guild, name, f"{number:g}")
        return [Post(caller.channel, f"{caller.name} set {name} to {number:g}.")]
