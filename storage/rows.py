"""What the repository hands out and takes in: plain rows of sessions, seats, the log, frames and
results (nothing here knows SQL)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SeatRow:
    seat: str
    user_id: str
    user_name: str
    ai_level: str | None


@dataclass(frozen=True)
class SessionRow:
    id: int
    guild: str | None
    channel: str
    game: str
    options: dict[str, str]
    seed: int
    status: str
    version: int
    host_user: str
    created: float
    updated: float
    turn_since: float | None
    remind_at: float | None
    deadline: float | None
    pending: dict[str, Any]
    outcome: dict[str, Any] | None
    seats: tuple[SeatRow, ...]
    started: float | None = None
    waiting_on: list[str] | None = None  # the seats the game waits for, when the host stored them

    def seat_of(self, user_id: str) -> list[str]:
        return [s.seat for s in self.seats if s.user_id == user_id and s.ai_level is None]

    def seat_row(self, seat: str) -> SeatRow | None:
        return next((s for s in self.seats if s.seat == seat), None)


@dataclass(frozen=True)
class FrameCaption:
    """A stored frame without its view: which move drew it, its place among that move's frames,
    and its caption (whose turn it shows)."""

    version: int
    n: int
    caption: str


@dataclass(frozen=True)
class RecentMoves:
    """A player's recent moves in one session, as far as a check of their absence needs."""

    last_at: float  # when they last moved
    moves: tuple[ActionRow, ...]  # their latest few moves the log knows the version of, oldest first
    frames: tuple[FrameCaption, ...]  # the frames those moves drew
    undo_since: bool  # an undo came after the oldest of them: they may not all be in force


@dataclass(frozen=True)
class ActionRow:
    seq: int
    kind: str
    seat: str | None
    user_id: str | None
    notation: str
    summary: str
    undoable: bool
    at: float
    version: int | None = None  # the session version this row produced (None in old databases)
    answered: bool = False  # it answered a question the game asked (a tie, a token to spend)


@dataclass(frozen=True)
class FrameRow:
    """The public view behind one public board picture, and its caption: a replay's frame."""

    version: int  # the session version whose action (or start) drew it
    n: int  # its place among that version's frames
    caption: str
    view: dict[str, Any]


# A frame handed to commit_action/store_state: (caption, public view).
NewFrame = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class UndoBase:
    """Where an undo starts: a stored state and the moves to replay on it to reach the target."""

    state: dict[str, Any]
    version: int
    moves_after: list[ActionRow]


@dataclass(frozen=True)
class GameStats:
    """One user's results in one game (a user at two seats of one game counts that game once)."""

    game: str
    played: int
    won: int
    lost: int
    drew: int
    moves: int
    avg_turn_s: float | None


@dataclass(frozen=True)
class UserResult:
    """One finished game of one user: its options (difficulty…), their result and rounds played."""

    game: str
    options: dict[str, str]
    result: str
    rounds: int | None


@dataclass(frozen=True)
class BulkSession:
    """One whole stored session for bulk_insert_sessions (benchmarks fill a file with these).

    `state` is the snapshot stored at `version` (only the latest: the host reads no other);
    `actions` are the log rows (seat, user_id, notation), numbered from 1.
    """

    channel: str
    game: str
    options: dict[str, str]
    seed: int
    status: str
    host_user: str
    version: int
    seats: tuple[SeatRow, ...]
    state: dict[str, Any] | None
    actions: tuple[tuple[str, str, str], ...] = ()
    guild: str | None = None
    outcome: dict[str, Any] | None = None
