"""`/game recap`: what happened since the caller's last move, privately, in words and on the board.

Everything comes from what the channel was shown: the stored public views of each turn or phase
(bot/host/replay.py), the public text of each logged move, and the spectators' view of now. So a
recap can never tell a player what their seat may not know.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.host import seating
from bot.host.core import BOT_USER, MAX_TEXT, SAID_END, result_line
from bot.host.drawing import Drawing
from bot.host.moves import undone
from bot.host.replay import (
    Figure,
    Replays,
    cut_text,
    figure_of,
    figures,
    frames_in_force,
    last_turn,
    ran_by_itself,
)
from bot.host.sessions import Sessions
from bot.posts import Attachment, Caller, Post
from engine import Game, GameError, NotYourTurn, get_game
from engine.words import count
from storage import ActionRow, FrameRow, Repository, SessionRow

ENEMY_LISTS = ("minions", "dragon", "villain")  # the automated enemies' figures


@dataclass
class Changes:
    """What changed across a run of public views, figure by figure."""

    paths: dict[str, list[str]] = field(default_factory=dict)  # id -> places in order
    lost: list[tuple[Figure, str]] = field(default_factory=list)  # (figure, where it was last)
    hit: dict[str, tuple[Figure, tuple[float, ...]]] = field(default_factory=dict)  # id -> (now, before)
    new: list[Figure] = field(default_factory=list)
    bought: dict[str, int] = field(default_factory=dict)
    revealed: list[str] = field(default_factory=list)
    objectives: list[str] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)  # new things on the board that are no figure
    off_board: dict[str, int] = field(default_factory=dict)  # pieces taken off a board of pieces
    lines_removed: list[str] = field(default_factory=list)

    def marks(self, now: Mapping[str, Figure]) -> dict[str, Any]:
        """The marks for the picture: paths walked, places hit or lost at, new figures."""
        return {
            "moved": [
                {"id": fid.split(":", 1)[-1], "path": p} for fid, p in self.paths.items() if len(p) > 1
            ],
            "hit": [f.place for f, _ in self.hit.values() if f.place],
            "lost": [where for _, where in self.lost],
            "new": [f.place for f in self.new if f.place and f.id in now],
        }


def compare(views: Sequence[Mapping[str, Any]]) -> Changes:
    """Walk the views in order (the view at the caller's last move first, now last)."""
    out = Changes()
    first = figures(views[0])
    for fid, f in first.items():
        if f.place:
            out.paths[fid] = [f.place]
    for before_view, after_view in itertools.pairwise(views):
        before, after = figures(before_view), figures(after_view)
        for fid, f in before.items():
            if fid not in after:
                out.lost.append((f, f.place or "?"))
                out.paths.pop(fid, None)
        for fid, f in after.items():
            old = before.get(fid)
            if old is None:
                if fid not in first or any(x.id == fid for x, _ in out.lost):
                    out.new.append(f)
                out.paths[fid] = [f.place] if f.place else []
                continue
            if f.place and out.paths.get(fid, [None])[-1] != f.place:
                out.paths.setdefault(fid, []).append(f.place)
            if f.strength < old.strength:
                first_seen = out.hit.get(fid, (f, old.strength))[1]
                out.hit[fid] = (f, first_seen)
            elif fid in out.hit:
                out.hit[fid] = (f, out.hit[fid][1])
        _cards(before_view, after_view, out)
        _board_pieces(before_view, after_view, out)
        _markers(before_view, after_view, out)
    out.hit = {k: v for k, v in out.hit.items() if v[0].strength < v[1] and k in figures(views[-1])}
    return out


def _cards(before: Mapping[str, Any], after: Mapping[str, Any], out: Changes) -> None:
    """Cards bought (a market pile that shrank), revealed (a card newly face up in play) and
    objectives whose standing changed."""
    counts = {m.get("name"): m.get("count", 0) for m in before.get("market") or [] if isinstance(m, Mapping)}
    for m in after.get("market") or []:
        if isinstance(m, Mapping) and m.get("name") in counts:
            gone = int(counts[m["name"]] or 0) - int(m.get("count") or 0)
            if gone > 0:
                out.bought[str(m["name"])] = out.bought.get(str(m["name"]), 0) + gone
    for key in after:
        if key.endswith("_cards") and isinstance(after[key], list):
            had = {c.get("name") for c in before.get(key) or [] if isinstance(c, Mapping)}
            for c in after[key]:
                if isinstance(c, Mapping) and c.get("name") not in had:
                    out.revealed.append(str(c.get("name")))
    card, old = after.get("round_card"), before.get("round_card")
    if isinstance(card, Mapping) and (not isinstance(old, Mapping) or old.get("name") != card.get("name")):
        out.revealed.append(str(card.get("name")))
    objectives_before = before.get("objectives") or []
    for k, o in enumerate(after.get("objectives") or []):
        was = objectives_before[k] if k < len(objectives_before) else None
        if isinstance(o, Mapping) and isinstance(was, Mapping) and o != was:
            said = ", ".join(f"{key} {o[key]}" for key in o if o[key] != was.get(key))
            out.objectives.append(f"objective at area {o.get('area', '?')}: {said}")


def _board_pieces(before: Mapping[str, Any], after: Mapping[str, Any], out: Changes) -> None:
    """A board that is a table of pieces by square (Ignis): the pieces that left it (pushed off,
    or on a line removed) and the lines removed."""
    was, now = before.get("board"), after.get("board")
    if isinstance(was, Mapping) and isinstance(now, Mapping):
        for piece in sorted({str(p) for p in was.values()}):
            gone = sum(1 for p in was.values() if p == piece) - sum(1 for p in now.values() if p == piece)
            if gone > 0:
                out.off_board[piece] = out.off_board.get(piece, 0) + gone
    had = set(before.get("removed_lines") or [])
    out.lines_removed += [str(line) for line in after.get("removed_lines") or [] if line not in had]


def _markers(before: Mapping[str, Any], after: Mapping[str, Any], out: Changes) -> None:
    """A war machine a minion now pushes (Ignite's catapults), said with the minion."""
    had = {str(m.get("id")): m.get("catapult") for m in before.get("minions") or [] if isinstance(m, Mapping)}
    for m in after.get("minions") or []:
        if isinstance(m, Mapping) and m.get("catapult") and not had.get(str(m.get("id"))):
            label = figure_of("minions", str(m.get("id")), m).label
            out.markers.append(f"a catapult at {m['catapult']}, pushed by {label}")


def _strength(s: tuple[float, ...]) -> str:
    return f"{s[0]:g}" if s[0] else f"{s[1]:g} figures" if len(s) > 1 and s[1] else "?"


class Recaps:
    def __init__(
        self,
        repo: Repository,
        sessions: Sessions,
        replays: Replays,
        drawing: Drawing,
        clock: Callable[[], float],
    ) -> None:
        self.repo = repo
        self.sessions = sessions
        self.replays = replays
        self.drawing = drawing
        self.clock = clock

    async def cmd_recap(self, caller: Caller, args: dict[str, str]) -> list[Post]:
        row = await self.sessions.latest_row(caller)
        if row.status == "lobby":
            raise GameError("The game has not started yet; there is nothing to catch up on.")
        mine = row.seat_of(caller.user_id)
        if not mine:
            raise NotYourTurn("You hold no seat in this game; /game replay shows the whole game so far.")
        game = get_game(row.game)
        rows = await self.repo.actions(row.id)
        taken = undone(rows)
        in_force = [a for a in rows if a.seq not in taken and a.kind != "undo"]
        last = await last_turn(self.repo, row, in_force, caller.user_id)
        # The recap covers what happened since the caller's last turn, and what it set off: ending
        # the round lets a whole Enemy Phase run inside the same logged action, and so can
        # answering a shared prompt (Ignite's divine-favor `keep`); that phase is what a
        # returning player wants told. A turn's own picture is where the recap starts; a move
        # whose every picture is a phase the game ran (an answer) is counted, from the board
        # before it.
        version = last.version if last is not None and last.version is not None else -1
        # Only the frames from just before the caller's last move on are read (a long game keeps hundreds).
        frames = frames_in_force(rows, await self.repo.frames(row.id, version - 1 if version >= 0 else -1))
        if not frames or (version >= 0 and not any(f.version < version for f in frames)):
            # That frame was undone, or the game is older than frames: all of them (rebuilt if need be).
            frames = await self.replays.frames(row)
        own = [f for f in frames if last is not None and f.version == version]
        ran = [f for f in own if last is not None and ran_by_itself(row, last, f)]
        turn = [f for f in own if f not in ran]
        set_off = bool(ran)
        if turn:  # from the board as the caller's turn left it
            start = frames.index(turn[-1])
            earlier, later = frames[: start + 1], frames[start + 1 :]
        else:
            since_version = version - 1 if set_off else version
            earlier = [f for f in frames if f.version <= since_version]
            later = [f for f in frames if f.version > since_version]
        counted = set_off and not turn  # an answer is among the moves told
        after = [a for a in in_force if last is None or a.seq > last.seq or (counted and a.seq == last.seq)]
        state = await self.sessions.state(row)
        now_view = game.view(state, None)
        base = earlier[-1].view if earlier else (frames[0].view if frames else now_view)
        changes = await asyncio.to_thread(compare, [base, *[f.view for f in later], now_view])
        by_version = {a.version: a for a in in_force if a.version is not None}
        phases = [
            f.caption
            for f in later
            if f.version in by_version and ran_by_itself(row, by_version[f.version], f) and f.caption
        ]
        told = {a.seq: told_briefly(row, a, [f for f in later if f.version == a.version]) for a in after}
        parts = (row, game, state, last, set_off, after, changes, now_view, phases, told)
        text = self._recap_text(*parts, 2 * MOVE_LINE_CHARS)
        if len(text) > MAX_TEXT:
            # Too long for one message: each mover's line shorter, so what happened to the board
            # and whose turn it is stay in the message, and every move in full in a file.
            short = _within(self._recap_text(*parts, MOVE_LINE_CHARS // 2), "recap.txt")
            post = Post(caller.channel, short, to=caller.user_id)
            post.files.append(Attachment("recap.txt", text.encode()))
        else:
            post = Post(caller.channel, text, to=caller.user_id)
        picture = await self.drawing.recap(row, game, now_view, changes.marks(figures(now_view)))
        if picture is not None:
            post.images.append(picture)
            # On a phone a wide board reads only by its close-up, as every board post's does.
            await self.drawing.close_up_into(game, now_view, post)
        return [post]

    def _recap_text(
        self,
        row: SessionRow,
        game: Game[Any, Any],
        state: Any,
        last: ActionRow | None,
        set_off: bool,
        after: Sequence[ActionRow],
        changes: Changes,
        now_view: dict[str, Any],
        phases: Sequence[str],
        told: Mapping[int, str],
        per_mover: int,
    ) -> str:
        if last is None:
            head = "**Since the start** (you have not moved yet)"
        else:
            head = f"**Since your last move** ({_ago(self.clock() - last.at)}"
            head += ", with what it set off)" if set_off else ")"
        moves = [a for a in after if a.kind == "action"]
        # No count of pictures: several turns or phases fold into one posted message, so the
        # frames kept are not the messages the channel saw.
        lines = [f"{head}: {tally(moves)}."]
        if moves:
            # Each move as the channel was told it, a mover's moves in a row on one line.
            lines.append("Moves:")
            for who, run in itertools.groupby(moves, key=lambda a: _mover(row, a)):
                mine = list(run)
                many = f", {tally(mine)}" if len(mine) > 1 else ""
                lines.append(f"• {who}{many}: " + cut_text(" ".join(told[a.seq] for a in mine), per_mover))
        if phases:
            lines.append("The game ran: " + " ".join(cut_text(p, per_mover) for p in phases))
        # The players' figures lost, and the enemies' (minions, villains) destroyed, said apart.
        theirs = [(f, w) for f, w in changes.lost if f.kind in ENEMY_LISTS]
        ours = [(f, w) for f, w in changes.lost if f.kind not in ENEMY_LISTS]
        if ours:
            lost = ", ".join(
                f"{f.label} ({', '.join(filter(None, (_owner(f), f'at {where}')))})" for f, where in ours
            )
            lines.append(f"Lost: {lost}.")
        if theirs:
            gone = ", ".join(
                f"{f.label} ({', '.join(filter(None, (_owner(f), f'at {where}')))})" for f, where in theirs
            )
            lines.append(f"Enemies destroyed: {gone}.")
        if changes.hit:
            hit = ", ".join(
                f"{f.label}{f' ({_owner(f)})' if _owner(f) else ''} {_strength(old)}→{_strength(f.strength)}"
                for f, old in changes.hit.values()
            )
            lines.append(f"Hit: {hit}.")
        now = figures(now_view)
        moved = [(now[fid].label, p) for fid, p in changes.paths.items() if len(p) > 1 and fid in now]
        if moved:
            walks = ", ".join(
                f"{label} {' → '.join(p) if len(p) <= 3 else f'{p[0]} → … → {p[-1]}'}" for label, p in moved
            )
            lines.append(f"Moved: {walks} (the paths are drawn on the board).")
        if changes.new or changes.markers:
            new = [f"{f.label} at {f.place}" for f in changes.new] + changes.markers
            lines.append("New on the board: " + ", ".join(new) + ".")
        if changes.off_board or changes.lines_removed:
            off = [f"{piece.title()} {k}" for piece, k in changes.off_board.items()]
            if changes.lines_removed:
                off.append("lines removed: " + ", ".join(changes.lines_removed))
            lines.append("Taken off the board: " + "; ".join(off) + ".")
        if changes.bought:
            lines.append(
                "Bought: " + ", ".join(f"{n} ×{k}" if k > 1 else n for n, k in changes.bought.items()) + "."
            )
        if changes.revealed:
            lines.append("Revealed: " + "; ".join(changes.revealed) + ".")
        if changes.objectives:
            lines.append("Objectives: " + "; ".join(changes.objectives) + ".")
        defaults = [a for a in after if a.kind == "timeout"]
        if defaults:
            # What the table was told the default did (the log row's public events).
            taken = "; ".join(told[a.seq].rstrip(".") for a in defaults if told.get(a.seq))
            lines.append(f"Decisions taken by default: {len(defaults)}" + (f" ({taken})." if taken else "."))
        if row.outcome:
            # The result says it once; the position's own "Game over" line would say it again.
            lines.append(result_line(row, row.outcome, "\n".join(lines)))  # its reason said once
        else:
            # The position's first line (round, phase, standing): the board itself is in the picture.
            lines.append("Now: " + game.describe(now_view).split("\n")[0])
            lines.append(seating.turn_line(row, game, state))
        return "\n".join(lines)


def _within(text: str, filename: str) -> str:
    """A recap shortened to one message that points to `filename` for every move. When even its
    shortened lines are too many, the oldest movers' lines give way: the first line, the latest
    moves, what happened to the board and whose turn it is now stay."""
    note = f"(Every move in full: {filename}.)"
    lines = text.split("\n")
    movers = [k for k, line in enumerate(lines) if line.startswith("• ")]
    cut = 0
    while cut < len(movers) and len("\n".join([*_without(lines, movers[:cut], filename), note])) > MAX_TEXT:
        cut += 1
    out = "\n".join([*_without(lines, movers[:cut], filename), note])
    # A board whose changes alone overflow: cut at a line, the file still holds it all.
    return out if len(out) <= MAX_TEXT else out[: MAX_TEXT - 2].rsplit("\n", 1)[0] + "\n…"


def _without(lines: list[str], gone: list[int], filename: str) -> list[str]:
    """`lines` less the movers' lines at `gone` (the first of them on), said in one line."""
    if not gone:
        return lines
    rest = lines[gone[-1] + 1 :]
    more = rest[0].startswith("• ") if rest else False
    skipped = f"• … {count(len(gone), 'earlier line')}" if more else f"• {count(len(gone), 'line')}"
    return [*lines[: gone[0]], f"{skipped} of moves in {filename}", *rest]


def _mover(row: SessionRow, action: ActionRow) -> str:
    """Who made a logged move, by who acted then, not who holds the seat now: a seat the bot
    played for a while and a person took back credits the bot's moves to the bot."""
    seat = action.seat or ""
    held = row.seat_row(seat)
    if held is not None and held.user_id == action.user_id:
        return seating.who(row, seat)  # the seat's holder made it, as the channel names them
    if action.user_id == BOT_USER:
        return f"{seating.title(row, seat)} (the bot)"
    person = next((s for s in row.seats if s.user_id == action.user_id), None)
    name = seating.title(row, seat)
    return f"{name} ({person.user_name})" if person is not None else f"{name} (a former player)"


def _owner(f: Figure) -> str:
    """Whose a figure is, unless its name says it already ("white L1 m4")."""
    owner = f.owner or f.kind
    return "" if owner in f.label else owner


MOVE_LINE_CHARS = 300  # a line of the moves list; the whole of each is in the channel


def tally(moves: Sequence[ActionRow]) -> str:
    """How many moves, with the answers to the game's questions among them counted apart
    (said_of): "5 moves", "2 moves and 3 answers", "1 answer"."""
    answers = sum(a.answered for a in moves)
    if not answers:
        return count(len(moves), "move")
    played = len(moves) - answers
    return f"{count(played, 'move')} and {count(answers, 'answer')}" if played else count(answers, "answer")


def told_briefly(row: SessionRow, action: ActionRow, frames: Sequence[FrameRow]) -> str:
    """A logged move as the channel was told it: its public events, else its public form. A move
    that let the game run a phase by itself (ending the round, answering a prompt) is told up to
    where its own turn ended, as its picture's caption says it: the phase is told on its own line."""
    said, _, events = action.summary.partition(SAID_END)
    if frames:
        own = [f for f in frames if not ran_by_itself(row, action, f)]
        if own:
            return cut_text(own[0].caption.partition(": ")[2] or said, MOVE_LINE_CHARS)
        # An answer: its opening sentence, unless that is the phase it let run (told on the
        # phase's own line), when the answer is told as given.
        opening = cut_text(events, 0).removesuffix(" …")
        if opening and not any(opening.rstrip(".") in f.caption for f in frames):
            return opening
        return said
    if action.answered:
        # An answer that let no phase end: its own sentence ("No divine favor token spent: …");
        # what follows is the game going on by itself (the next card drawn, the next question).
        return cut_text(events, 0).removesuffix(" …") or said
    return cut_text(events or said, MOVE_LINE_CHARS)


def _ago(seconds: float) -> str:
    if seconds < 3600:
        return count(max(1, round(seconds / 60)), "minute") + " ago"
    if seconds < 2 * 86400:
        return count(round(seconds / 3600), "hour") + " ago"
    return count(round(seconds / 86400), "day") + " ago"
