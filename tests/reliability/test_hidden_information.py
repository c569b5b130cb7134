"""Hidden information: in every game with private cards, nothing a seat or a spectator is shown (posts,
buttons, captions, files, exports, /game log, the picture's input) holds what only another seat may know.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rel_kit import caller, live_state, open_host, resign

from bot.host import Host
from bot.menus import QUICK, QUICK_LABEL, ButtonId
from bot.posts import Post
from engine import Dice, Event, Game, Outcome, ToAct, all_games, get_game
from engine.refusals import Form, starting
from engine.registry import GAMES

SPECTATOR = "watcher"
# A stand-in replay (the test scans what a replay is drawn from, not its pixels).
ONE_PIXEL_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360606060000000050001a5f645400000000049454e44ae426082"
)
HAND_GAMES = [g for g in all_games() if g.has_hands]


def _seen(post: Post) -> str:
    """Everything a Discord client shows or carries for a post: text, file contents, buttons, names."""
    parts = [post.text, post.placeholder]
    parts += [f"{c.label} {c.custom_id}" for c in post.choices]
    parts += [a.filename for a in post.images]
    parts += [f"{a.filename} {a.data.decode('utf-8', 'replace')}" for a in post.files]
    return "\n".join(parts)


@dataclass
class Table:
    host: Host
    game: Game[Any, Any]
    users: dict[str, str]  # seat -> user id
    rendered: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    scanned: int = 0

    async def state(self) -> Any:
        row = await self.host.repo.latest_session_in("t")
        assert row is not None
        data = await self.host.repo.state(row.id)
        return None if data is None else self.game.from_json(data)

    async def check(self, posts: Sequence[Post], what: str) -> None:
        """Every post against the secrets of the moment: a public post may hold no seat's secret, a
        private one only its reader's own."""
        state = await self.state()
        if state is None:
            return  # the lobby: no cards are dealt yet
        secrets = {seat: self.game.secrets(state, seat) for seat in self.users}
        everything = set().union(*secrets.values())
        seat_of = {u: s for s, u in self.users.items()}
        over = self.game.outcome(state) is not None
        for post in posts:
            if over and what.startswith("/game export"):
                continue  # a finished game's export may reveal everything (tested below)
            text = _seen(post)
            mine = secrets.get(seat_of.get(post.to or "", ""), set())
            hidden = everything - mine
            found = sorted(s for s in hidden if s in text)
            self.scanned += 1
            if found:
                self.leaks.append(f"{what} to {post.to or 'everyone'}: {found}")
        # Buttons under a public post offer moves: they must not name a card held in some hand that
        # the table cannot see (Ignite's secrets read `name#serial`, with dashes for spaces).
        public_view = json.dumps(self.game.view(state, None))
        held = {s.split("#")[0].replace("-", " ") for s in everything} - {""}
        unseen = {name for name in held if name not in public_view}
        for post in posts:
            if post.to is None:
                offered = " ".join(f"{c.label} {c.custom_id}" for c in post.choices)
                named = sorted(n for n in unseen if f" {n}" in f" {offered}")
                if named:
                    self.leaks.append(f"public buttons after {what} name held cards: {named}")
        for view in self.rendered:
            found = sorted(s for s in everything if s in view)
            if found:
                self.leaks.append(f"picture of {what}: {found}")
        self.rendered.clear()

    async def look_around(self) -> None:
        """Every way a seat or a spectator can look at the game, each checked."""
        row = await self.host.repo.latest_session_in("t")
        assert row is not None
        for user in [*self.users.values(), SPECTATOR]:
            who = caller(user, "t")
            for name in ("status", "log", "export", "board", "hand", "moves", "recap", "replay"):
                await self.check(await self.host.command(who, name, {}), f"/game {name} by {user}")
            await self.check(
                await self.host.press(who, str(ButtonId(row.id, 0, "h"))), f"hand button by {user}"
            )
            await self.check(
                await self.host.press(who, str(ButtonId(row.id, row.version, "p", "0 "))),
                f"move menu by {user}",
            )
            await self.check(
                [Post("t", "\n".join(await self.host.autocomplete(who, "")), to=user)],
                f"autocomplete by {user}",
            )


async def _play(
    tmp_path: Path, game: Game[Any, Any], n_seats: int, steps: int, seed: int, raw: str = ""
) -> Table:
    rendered: list[str] = []

    def renderer(game_id: str, view: dict[str, Any], names: dict[str, str]) -> bytes:
        rendered.append(json.dumps(view))
        return b"\x89PNG stand-in picture"

    def animator(game_id: str, frames: Any, names: dict[str, str], most: int) -> bytes:
        # A replay's frames are pictures' inputs too: each caption and view is scanned.
        rendered.extend(json.dumps([caption, view]) for caption, view in frames)
        return ONE_PIXEL_PNG

    host = await open_host(tmp_path / "h.sqlite3", renderer=renderer, rate_limit_per_minute=0)
    host.animator = animator  # type: ignore[method-assign,assignment]
    options = game.validate_options(dict(kv.split("=", 1) for kv in raw.split()))
    seats = game.seat_names(options)[:n_seats]
    table = Table(host, game, {seat: f"user-{seat}" for seat in seats}, rendered)
    first = caller(table.users[seats[0]], "t")
    new = {"game": game.id, "seed": str(seed), "seat": seats[0], "options": raw}
    await table.check(await host.command(first, "new", new), "new")
    for seat in seats[1:]:
        await table.check(await host.command(caller(table.users[seat], "t"), "join", {"seat": seat}), "join")
    await table.check(await host.command(first, "start", {}), "start")
    dice = Dice(seed)
    for step in range(steps):
        state = await table.state()
        if game.outcome(state) is not None:
            break
        seat = sorted(game.to_act(state).seats)[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        # Ending turns often carries play into enemy phases, draws and reshuffles, where secrets move.
        move = "end" if "end" in legal and dice.below(3) == 0 else dice.choice(legal)
        who = caller(table.users[seat], "t")
        await table.check(await host.command(who, "play", {"action": move}), f"/play {move}")
        if step % 10 == 0:
            await table.look_around()
    await table.look_around()
    return table


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "seed"), [(3, 7), (4, 11), (2, 12)])
@pytest.mark.parametrize("game", HAND_GAMES, ids=[g.id for g in HAND_GAMES])
async def test_no_seat_or_spectator_sees_another_seats_secrets(
    tmp_path: Path, game: Game[Any, Any], seats: int, seed: int
) -> None:
    table = await _play(tmp_path, game, n_seats=seats, steps=200, seed=seed)
    try:
        assert table.scanned > 200
        assert not table.leaks, "\n".join(table.leaks[:10])
    finally:
        await table.host.close()


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "seed"), [(4, 5), (2, 13)])
async def test_no_hero_or_spectator_sees_another_heros_cards_in_raid_mode(
    tmp_path: Path, seats: int, seed: int
) -> None:
    table = await _play(
        tmp_path, get_game("dire-alliance"), n_seats=seats, steps=200, seed=seed, raw="mode=raid"
    )
    try:
        assert table.scanned > 200
        assert not table.leaks, "\n".join(table.leaks[:10])
    finally:
        await table.host.close()


@pytest.mark.parametrize("game", HAND_GAMES, ids=[g.id for g in HAND_GAMES])
async def test_export_of_a_finished_game_may_reveal_everything(tmp_path: Path, game: Game[Any, Any]) -> None:
    table = await _play(tmp_path, game, n_seats=2, steps=4, seed=3)
    try:
        running = json.loads(
            (await table.host.command(caller(SPECTATOR, "t"), "export", {}))[0].files[0].data
        )
        assert "public_view" in running and "final_state" not in running
        state = await table.state()
        first = next(iter(table.users.values()))
        await resign(table.host, first, "t")
        done = json.loads((await table.host.command(caller(SPECTATOR, "t"), "export", {}))[0].files[0].data)
        assert done["status"] == "finished"
        assert done["final_state"] == game.to_json(state)  # hands included, now that the game is over
    finally:
        await table.host.close()


class _LeakyGame(Game[dict[str, Any], str]):
    """A two-seat test game that announces the next seat's secret card in public: the scan must see it."""

    id = "leaky"
    title = "Leaky (test only)"
    blurb = "Stand-in test game."
    has_hands = True

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return ["north", "south"]

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return {"schema": 1, "turn": 0, "seats": list(seats)}

    def to_act(self, state: dict[str, Any]) -> ToAct:
        return ToAct(frozenset() if state["turn"] >= 4 else {state["seats"][state["turn"] % 2]})

    def legal_actions(self, state: dict[str, Any], seat: str) -> list[str]:
        return ["pass"] if seat in self.to_act(state).seats else []

    def parse(self, state: dict[str, Any], text: str) -> str:
        if text.strip() != "pass":
            raise self.notation_error(text, [Form("`pass`", starting("pass"))])
        return "pass"

    def apply(self, state: dict[str, Any], seat: str, action: str) -> list[Event]:
        state["turn"] += 1
        nxt = state["seats"][state["turn"] % 2]
        return [Event("pass", f"{seat} passes; {nxt} now holds secret-{nxt}-{state['turn']}.")]

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        return {"turn": state["turn"]}

    def describe(self, view: dict[str, Any]) -> str:
        return f"Turn {view['turn']}."

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return Outcome(frozenset(), frozenset(), "over") if state["turn"] >= 4 else None

    def to_json(self, state: dict[str, Any]) -> dict[str, Any]:
        return dict(state)

    def from_json(self, data: dict[str, Any]) -> dict[str, Any]:
        return dict(data)

    def secrets(self, state: dict[str, Any], seat: str) -> set[str]:
        return {f"secret-{seat}-{state['turn']}"}


async def test_the_scan_catches_a_leak_when_there_is_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    get_game("ignis")  # load the shipped games first, then add the test game beside them
    monkeypatch.setitem(GAMES, "leaky", _LeakyGame())
    table = await _play(tmp_path, _LeakyGame(), n_seats=2, steps=2, seed=1)
    await table.host.close()
    assert any("/play pass to everyone" in leak for leak in table.leaks), table.leaks


@pytest.mark.parametrize("game", HAND_GAMES, ids=[g.id for g in HAND_GAMES])
async def test_the_public_turn_post_opens_each_players_own_menu_privately(
    tmp_path: Path, game: Game[Any, Any]
) -> None:
    host = await open_host(tmp_path / "m.sqlite3", renderer=None)
    seats = game.seat_names(game.validate_options({}))[:2]
    users = {seat: f"user-{seat}" for seat in seats}
    await host.command(caller(users[seats[0]], "t"), "new", {"game": game.id, "seed": "5", "seat": seats[0]})
    await host.command(caller(users[seats[1]], "t"), "join", {"seat": seats[1]})
    started = await host.command(caller(users[seats[0]], "t"), "start", {})
    public = started[-1]
    labels = [c.label for c in public.choices]
    assert public.to is None and labels[:2] == ["Choose my move", "Show my hand"]
    # Then the buttons that answer privately and name no move: the terms, and a suggestion.
    assert set(labels[2:]) <= {"Explain terms", "Suggest a move"}
    _, _, seat, legal = await live_state(host, "t")
    other = next(s for s in seats if s != seat)
    mine = await host.press(caller(users[seat], "t"), public.choices[0].custom_id)
    assert mine[0].to == users[seat] and mine[0].choices
    moves = [c for c in mine[0].choices if c.label not in ("more …", "Explain terms")]
    assert all(
        c.label.split()[0] in " ".join(legal) or (c.label == QUICK_LABEL and QUICK in legal) for c in moves
    )
    theirs = await host.press(caller(users[other], "t"), public.choices[0].custom_id)
    assert (
        theirs[0].to == users[other] and not theirs[0].choices and "not your turn" in theirs[0].text.lower()
    )
    await host.close()
