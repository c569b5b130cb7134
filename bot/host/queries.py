"""Queries: status, board, log, legal moves, hand, export, help and server settings."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.host import seating
from bot.host.away import Away
from bot.host.core import channel_link, fit, private, private_moves, result_line
from bot.host.drawing import Drawing
from bot.host.moves import effective_moves, undone
from bot.host.options import changes
from bot.host.replay import Replays
from bot.host.server import ServerSettings
from bot.host.sessions import Sessions
from bot.host.terms import HAND, explained, named, terms_button
from bot.menus import ButtonId, menu, whole_number
from bot.posts import Attachment, Caller, Choice, Post
from bot.text import safe_name
from engine import Game, GameError, NotYourTurn, OptionError, all_games, get_game
from engine.fairness import SCHEME, commitment
from engine.words import count
from render.replay import MAX_FRAMES
from storage import Repository, SessionRow, UserResult


class Queries:
    """What players ask without changing anything (a setting aside): the position, the log, their
    hand and moves, their games and results, cards, help and the server's settings."""

    def __init__(
        self,
        repo: Repository,
        sessions: Sessions,
        server: ServerSettings,
        away: Away,
        drawing: Drawing,
        replays: Replays,
        clock: Callable[[], float],
        user_ref: Callable[[str], str | None],
    ) -> None:
        self.repo = repo
        self.sessions = sessions
        self.server = server
        self.away = away
        self.drawing = drawing
        self.replays = replays
        self.clock = clock
        self.user_ref = user_ref

    async def cmd_status(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.latest_row(caller)
        game = get_game(row.game)
        lines = [f"**{game.title}** — {row.status}. " + seating.seat_lines(row, game)]
        if row.status != "lobby":
            state = await self.sessions.state(row)
            lines.append(game.describe(game.view(state, None)))
            limits = [] if row.outcome else game.limits(state)
            if limits:
                # Every limit that can end the game, from the first position on.
                lines += ["Limits that end the game:", *(f"- {limit.line()}." for limit in limits)]
            if row.outcome:
                lines.append(result_line(row, row.outcome))
            else:
                lines.append(seating.turn_line(row, game, state))
        away = await self.away.note(row, frozenset(s.seat for s in row.seats))
        if away and row.status in ("lobby", "active"):
            lines.append(away)
        return [Post(caller.channel, "\n".join(lines))]

    async def cmd_board(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.latest_row(caller)
        if row.status == "lobby":
            raise GameError("The game has not started yet; the board appears at /game start.")
        form = args.get("format", "").strip().lower() or "picture"
        if form not in ("picture", "text"):
            raise OptionError(f"`{form}` is not a board format; choose picture or text.")
        game, state = get_game(row.game), await self.sessions.state(row)
        view = game.view(state, None)
        # The board in words: every piece with where it is (format:text), or the status under a picture.
        words = game.board_text(view) if form == "text" else game.describe(view)
        post = fit(Post(caller.channel, words), "board.txt")
        sight = args.get("sight", "").strip()
        if sight:
            # A map with sight lines (Dire Alliance) shades what one area cannot see.
            table = view.get("board", {}).get("sight") if isinstance(view.get("board"), dict) else None
            if not table:
                raise OptionError(f"{game.title}'s board has no sight lines; leave out `sight`.")
            if sight not in table:
                raise OptionError(f"`{sight[:20]}` is not an area of this map; areas: {', '.join(table)}.")
            view["sight"] = int(sight)
        if form == "picture":
            await self.drawing.render_into(row, game, view, post)
            await self.drawing.close_up_into(game, view, post)
        if row.status == "active":
            post.choices, post.placeholder = self._controls_for(row, game, state, caller)
        return [post]

    def _controls_for(
        self, row: SessionRow, game: Game[Any, Any], state: Any, caller: Caller
    ) -> tuple[list[Choice], str]:
        """The move controls of the person who asked, if they are to act: a private menu opener in
        games with hands (a public menu would show their cards), else their legal moves."""
        turn = game.to_act(state)
        seats = [s for s in row.seat_of(caller.user_id) if s in turn.seats]
        hand = Choice("Show my hand", str(ButtonId(row.id, 0, "h")), "success")
        if not seats:
            return ([hand] if game.has_hands and row.seat_of(caller.user_id) else []), ""
        if game.has_hands and (not turn.decision or private_moves(game, state, seats)):
            move = Choice("Choose my move", str(ButtonId(row.id, row.version, "p", "0 ")), "primary")
            return [move, hand], ""
        legal = [str(a) for a in game.legal_actions(state, seats[0])]
        return menu(row.id, row.version, legal)

    async def cmd_log(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """The latest moves, a page at a time (page 1 is the newest), undone moves struck through."""
        row = await self.sessions.latest_row(caller)
        page_text = args.get("page", "").strip() or "1"
        if not whole_number(page_text) or int(page_text) < 1:
            raise OptionError(f"`page` is a page number from 1 (the latest moves), not `{page_text[:20]}`.")
        page = int(page_text)
        rows = await self.repo.actions(row.id)
        taken = undone(rows)
        names = seating.holder_names(row)
        over = row.status in ("finished", "abandoned")
        lines = []
        for a in rows:
            # A running game's log says what the table was told (the summary opens with the move's
            # public form); the notation, which may name a hidden card, waits for the game's end.
            line = f"{a.seq}. {a.seat} ({names.get(a.seat or '', '?')}): "
            if a.kind in ("action", "timeout") and not over:
                line += a.summary
            else:
                line += f"{a.notation} — {a.summary}" if a.summary else a.notation
            lines.append(f"~~{line}~~ (undone)" if a.seq in taken else line)
        pages = max(1, -(-len(lines) // LOG_PAGE))
        if page > pages:
            raise OptionError(
                f"The log has {count(pages, 'page')} of {LOG_PAGE} moves; page 1 is the latest."
            )
        end = len(lines) - (page - 1) * LOG_PAGE
        shown = lines[max(0, end - LOG_PAGE) : end]
        head = f"Moves {end - len(shown) + 1}–{end} of {len(lines)} (page {page} of {pages}):"
        post = fit(Post(caller.channel, "\n".join([head, *shown]) if lines else "No moves yet."), "log.txt")
        if page < pages:
            post.choices.append(Choice("Older moves", str(ButtonId(row.id, 0, "l", str(page + 1)))))
        if page > 1:
            post.choices.append(Choice("Newer moves", str(ButtonId(row.id, 0, "l", str(page - 1)))))
        return [post]

    async def cmd_card(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """A card's whole text or a term's explanation, for the game named or this channel's."""
        named = args.get("game", "").strip()
        if named:
            game = get_game(named)
        else:
            row = await self.repo.latest_session_in(caller.channel)
            if row is None:
                raise GameError(
                    f"No game is played here, so say which: /game card game:<id> name:<card or word> "
                    f"(games: {seating.game_list()})."
                )
            game = get_game(row.game)
        text = game.explain(args.get("name", "").strip())
        return [fit(Post(caller.channel, text, to=caller.user_id), "card.txt")]

    async def cmd_market(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.active_row(caller)
        game, state = get_game(row.game), await self.sessions.state(row)
        text = game.market_text(game.view(state, None))
        return [fit(Post(caller.channel, text, to=caller.user_id), "market.txt")]

    async def cmd_mine(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """The caller's open games in this server: game, channel, whose turn, waiting since."""
        rows = await self.repo.open_games_of(caller.user_id, caller.guild)
        if not rows:
            return [private(caller, "You have no open games here. /game new opens one.")]
        now = self.clock()
        lines = [f"Your open games ({len(rows)}):"]
        for row in rows:
            game = get_game(row.game)
            where = channel_link(row.channel)
            if row.status == "lobby":
                lines.append(f"• {game.title} in {where}: waiting to start. " + seating.seat_lines(row, game))
                continue
            state = await self.sessions.state(row)
            turn = game.to_act(state)
            yours = " — **your turn**" if set(row.seat_of(caller.user_id)) & turn.seats else ""
            waited = f", waiting {(now - row.turn_since) / 3600:.0f} h" if row.turn_since else ""
            lines.append(f"• {game.title} in {where}: to act {seating.names(row, turn.seats)}{waited}{yours}")
        return [fit(Post(caller.channel, "\n".join(lines), to=caller.user_id), "mine.txt")]

    async def cmd_stats(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        """Results per game for a user (the caller by default), in this server."""
        who = args.get("user", "").strip()
        user_id = self.user_ref(who) if who else caller.user_id
        if user_id is None:
            raise OptionError(f"Name a user with an @mention (or their user id), not `{safe_name(who)}`.")
        stats = await self.repo.user_stats(user_id, caller.guild)
        # A validated mention shows the person's name on Discord; a console name is shown as typed.
        name = (
            caller.name
            if user_id == caller.user_id
            else (f"<@{user_id}>" if who.startswith("<@") else safe_name(user_id))
        )
        if not stats:
            return [private(caller, f"No finished games for {name} in this server yet.")]
        lines = [f"Results for {name}:"]
        for st in stats:
            game = get_game(st.game)
            record = (
                f"{st.won} won (the group survived), {st.lost} lost"
                if game.cooperative
                else f"{st.won} won, {st.lost} lost, {st.drew} drawn"
            )
            per_turn = f", {_minutes(st.avg_turn_s)} per move" if st.avg_turn_s is not None else ""
            moves = count(st.moves, "move")
            lines.append(f"• {game.title}: {st.played} played — {record}; {moves}{per_turn}")
        lines += _coop_by_difficulty(await self.repo.user_results(user_id, caller.guild))
        return [fit(Post(caller.channel, "\n".join(lines), to=caller.user_id), "stats.txt")]

    async def cmd_moves(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.active_row(caller)
        game, state = get_game(row.game), await self.sessions.state(row)
        seat = seating.acting_seat(row, game, state, caller)
        legal = [str(a) for a in game.legal_actions(state, seat)]
        text = f"Your legal moves as {seating.title(row, seat)} ({len(legal)}):\n" + "\n".join(legal)
        return [fit(Post(caller.channel, text, to=caller.user_id), "moves.txt")]

    async def cmd_hand(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.active_row(caller)
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("You hold no seat in this game, so there is nothing private to show you.")
        game, state = get_game(row.game), await self.sessions.state(row)
        text = hand_text(game, row.options, state, mine)
        post = Post(caller.channel, text, to=caller.user_id)
        if named(game, text):
            post.choices = [terms_button(row.id, row.version, HAND)]
        return [fit(post, "hand.txt")]

    async def hand_terms(self, caller: Caller, row: SessionRow, version: int) -> list[Post]:
        """The Terms button of a hand shown at `version`: the terms that hand names, rebuilt for
        the presser alone (only their own seats' view)."""
        if row.status != "active" or version != row.version:
            raise GameError(
                "The game moved on since that hand was shown; /game hand shows it now, with its own button."
            )
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("You hold no seat in this game, so there is no hand of yours to explain.")
        game, state = get_game(row.game), await self.sessions.state(row)
        text = hand_text(game, row.options, state, mine)
        return [private(caller, explained(game, named(game, text), "your hand"))]

    async def cmd_export(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.latest_row(caller)
        game = get_game(row.game)
        rows = await self.repo.actions(row.id)
        data: dict[str, Any] = {
            "game": game.id,
            "title": game.title,
            "options": row.options,
            "status": row.status,
            "seats": [{"seat": s.seat, "player": s.user_name, "bot_level": s.ai_level} for s in row.seats],
            "log": [
                {"seq": a.seq, "kind": a.kind, "seat": a.seat, "summary": a.summary, "at": a.at} for a in rows
            ],
            "outcome": row.outcome,
        }
        over = row.status in ("finished", "abandoned")
        state = await self.sessions.state(row) if row.status != "lobby" else None
        hides = game.has_hands or (state is not None and bool(game.hidden_zones(state)))
        if over or not hides:
            # The notation may name hidden cards: it is exported once the game is over (with the
            # seed, so that anyone can replay it), or always in a game that hides nothing.
            for entry, a in zip(data["log"], rows, strict=True):
                entry["notation"] = a.notation
            data["moves"] = [{"seat": a.seat, "notation": a.notation} for a in effective_moves(rows)]
        changed = [
            {k: c[k] for k in ("name", "value", "was", "moves", "at")}
            for c in await changes(self.repo, row.id)
        ]
        if changed:
            # Options the players changed in play, each before the move numbered `moves` (from 0).
            data["option_changes"] = changed
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
        if state is not None:
            # A finished game may reveal everything; a running one only what spectators see.
            data["final_state" if over else "public_view"] = (
                game.to_json(state) if over else game.view(state, None)
            )
        blob = json.dumps(data, indent=2).encode()
        files = [Attachment(f"{game.id}-{row.id}.json", blob)]
        wanted = args.get("replay", "").strip().lower()
        if wanted not in ("", "yes", "no"):
            raise OptionError(f"`replay` is yes or no, not `{wanted[:20]}`.")
        if wanted == "yes" and row.status != "lobby":
            # Drawn from the public view of each moment, like /game replay.
            animation = await self.drawing.animation(
                row, game, await self.replays.captioned(row, game), MAX_FRAMES
            )
            if animation is not None:
                files.append(animation)
        return [
            Post(
                caller.channel,
                f"Export of the {game.title} game.",
                to=caller.user_id,
                files=files,
            )
        ]

    async def cmd_help(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        name = args.get("game", "").strip()
        if not name:
            lines = ["**Games**:"] + [f"• `{g.id}` — {g.title}: {g.blurb}" for g in all_games()]
            lines.append(
                "Open one with /game new game:<id>, take seats with /game join, then /game start. "
                "Move with /play (autocomplete lists your moves) or the buttons."
            )
            return [Post(caller.channel, "\n".join(lines), to=caller.user_id)]
        game = get_game(name)
        # Not squeezed into a file: the frontend splits a long text into a few messages, so the
        # whole lesson reads in the chat, how to win first; the readings and stand-ins follow in a
        # post of their own, so neither grows past what the chat shows.
        return [Post(caller.channel, text, to=caller.user_id) for text in game.help_posts()]


LOG_PAGE = 10  # moves per page of /game log: ten Ignis or Ignite lines with their summaries fit a post


def _minutes(seconds: float) -> str:
    """A time per move as a player says it: "under a minute", "3 minutes", "2.5 hours"."""
    if seconds < 60:
        return "under a minute"
    return count(round(seconds / 60), "minute") if seconds < 7200 else count(round(seconds / 3600, 1), "hour")


def _coop_by_difficulty(results: list[UserResult]) -> list[str]:
    """Co-op results split by the `difficulty` option: survived, lost, rounds on average."""
    groups: dict[tuple[str, str], list[UserResult]] = {}
    for r in results:
        game = get_game(r.game)
        if game.is_cooperative(r.options) and "difficulty" in r.options:
            groups.setdefault((game.title, r.options["difficulty"]), []).append(r)
    lines = []
    for (title, level), rows in sorted(groups.items()):
        won = sum(r.result == "won" for r in rows)
        rounds = [r.rounds for r in rows if r.rounds is not None]
        mean = f", {sum(rounds) / len(rounds):.1f} rounds on average" if rounds else ""
        lines.append(f"  {title} at {level}: {won} survived, {len(rows) - won} lost{mean}")
    return lines


def hand_text(game: Game[Any, Any], options: Mapping[str, str], state: Any, seats: Sequence[str]) -> str:
    """`/game hand`: each of one person's seats as that seat sees it, headed by the seat's title
    (a Raid hero's name, never its seat id). A hand that opens with that title (a Raid hero's own
    line) is not headed by it twice: its first words are bolded instead."""
    parts = []
    for seat in seats:
        title, text = game.seat_title(options, seat), game.describe_hand(game.view(state, seat))
        rest = text.removeprefix(title)
        parts.append(f"**{title}**{rest}" if rest != text else f"**{title}**: {text}")
    return "\n\n".join(parts)
