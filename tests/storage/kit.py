"""Small builders for storage tests: a session in play with numbered moves."""

from __future__ import annotations

from storage import Repository, SeatRow


async def playing(
    repo: Repository, channel: str = "c", *, guild: str | None = "g", users: tuple[str, ...] = ("u",)
) -> tuple[int, int]:
    """A started session with one seat per user (seats s0, s1, …); (session id, version)."""
    sid = await repo.create_session(
        guild=guild,
        channel=channel,
        game="ignis",
        options={},
        seed=1,
        host_user=users[0],
        seat=SeatRow("s0", users[0], users[0].upper(), None),
    )
    version = 0
    for i, user in enumerate(users[1:], start=1):
        version = await repo.take_seat(sid, version, SeatRow(f"s{i}", user, user.upper(), None))
    version = await repo.store_state(sid, version, {"n": 0}, status="active")
    return sid, version


async def move(
    repo: Repository, sid: int, version: int, n: int, *, seat: str = "s0", user: str = "u", **fields: object
) -> int:
    """The move `move n`, whose state is {"n": n}."""
    return await repo.commit_action(
        sid,
        version,
        kind="action",
        seat=seat,
        user_id=user,
        notation=f"move {n}",
        summary="",
        undoable=True,
        state={"n": n},
        **fields,
    )
