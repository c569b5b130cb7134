"""No user can flood: one command causes a bounded number of posts, whatever it is, and every
parameter is read up to a bound. (The caps on lobbies and lobby seats, and their races, are in
test_seat_races.py.)"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.host.core import MAX_ARG, MAX_OTHER_CHANNELS, MAX_POSTS_PER_CHANNEL, bounded
from bot.posts import Attachment, Caller, Choice, Post
from tests.reliability.rel_kit import open_host


def _audiences(posts: list[Post]) -> dict[tuple[str, str | None], int]:
    out: dict[tuple[str, str | None], int] = {}
    for p in posts:
        out[p.channel, p.to] = out.get((p.channel, p.to), 0) + 1
    return out


def _everything_said(posts: list[Post]) -> str:
    return "\n".join(
        [p.text for p in posts]
        + [f.data.decode() for p in posts for f in p.files if f.filename.endswith(".txt")]
    )


async def test_a_game_between_two_bots_is_one_command_with_a_bounded_number_of_posts(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "bots.sqlite3", renderer=lambda *_: b"png", rate_limit_per_minute=0)
    try:
        opener = Caller("a", "a", "t")
        await host.command(opener, "new", {"game": "ignis", "seed": "3"})
        await host.command(opener, "ai", {"seat": "fire", "level": "easy"})
        await host.command(opener, "ai", {"seat": "water", "level": "easy"})
        posts = await host.command(opener, "start", {})
        row = await host.repo.latest_session_in("t")
        assert row is not None and row.status == "finished"
        moves = [a.notation for a in await host.repo.actions(row.id) if a.kind == "action"]
        assert len(moves) > 2 * MAX_POSTS_PER_CHANNEL, "the run would have posted more than the bound"
        assert max(_audiences(posts).values()) <= MAX_POSTS_PER_CHANNEL
        said = _everything_said(posts)
        assert all(f"`{m}`" in said for m in moves), "folded, not lost: every move is still told"
        assert sum(len(p.images) for p in posts) == 1
    finally:
        await host.close()


_post = st.builds(
    Post,
    channel=st.sampled_from([f"c{i}" for i in range(15)]),
    text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=300),
    to=st.sampled_from([None, None, "u1", "u2"]),
    images=st.lists(st.builds(Attachment, st.just("p.png"), st.just(b"png")), max_size=1),
    choices=st.lists(st.builds(Choice, st.just("b"), st.just("g:1:1:a:x")), max_size=2),
    mentions=st.lists(st.sampled_from(["u1", "u2", "u3"]), max_size=2),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_post, max_size=60))
def test_bounded_keeps_every_audience_and_channel_count_within_the_limits(posts: list[Post]) -> None:
    before = [(p.channel, p.to, p.text, len(p.images)) for p in posts]
    out = bounded(posts, "c0")
    assert max(_audiences(out).values(), default=0) <= MAX_POSTS_PER_CHANNEL
    assert len({p.channel for p in out} - {"c0"}) <= MAX_OTHER_CHANNELS
    kept = {p.channel for p in out}
    said = _everything_said(out)
    for channel, _, text, _ in before:
        if channel in kept and text:
            assert text in said, "a folded post's text is kept, in the message or its file"
    assert sum(len(p.images) for p in out) == sum(n for c, _, _, n in before if c in kept)


async def test_a_parameter_longer_than_any_command_reads_is_refused_whole(tmp_path: Path) -> None:
    host = await open_host(tmp_path / "long.sqlite3", rate_limit_per_minute=0)
    try:
        opener = Caller("a", "a", "t")
        long = "layout=random " + "x" * (MAX_ARG + 1)
        for name, args in (("new", {"game": "ignis", "options": long}), ("play", {"action": long})):
            refused = await host.command(opener, name, args)
            assert refused[0].to == "a" and f"at most {MAX_ARG} are read" in refused[0].text, name
            assert len(refused[0].text) < 200, "the refusal does not echo the text back"
        assert await host.repo.open_session_in("t") is None
        assert await host.check_new(opener, {"game": "ignis", "options": long})
        unknown = await host.command(opener, "[x](https://x.co/a)" + "y" * 5000, {})
        assert "[x](" not in unknown[0].text and len(unknown[0].text) < 600
    finally:
        await host.close()
