"""Posts and move menus link their terms to their entries: a turn's message, a private move menu
and a hand carry an "Explain terms" button whose private answer is the `/game card` entry of each
rules term that text names, within Discord's 2,000 characters, and never more than the presser
can already read. A property over every registered game and mode, played through the host."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from bot.host.announce import TURN_KEY
from bot.host.terms import LABEL, TERMS_KEY, explained, fits_beside, shown
from bot.posts import Caller, Post
from engine import Dice, Game, get_game
from engine.glossary import Glossary, Term
from tests.bot.tables import seat_a_table
from tests.bot.test_table_conformance import Clock, picture_of
from tests.test_conformance import VARIANT_IDS, VARIANTS

ACTIONS = 60
DISCORD_LIMIT = 2000
ALSO = re.compile(r"Also named there: (.*)\. `/game card name:<term>` explains each\.$", re.S)


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    settings = Settings(db_path=str(tmp_path / "t.sqlite3"), rate_limit_per_minute=0)
    h = await Host.open(settings, renderer=picture_of, clock=Clock())
    yield h
    await h.close()


def terms_button(post: Post) -> str | None:
    return next((c.custom_id for c in post.choices if c.label == LABEL), None)


def answered(text: str) -> tuple[list[str], list[str], int]:
    """The terms an answer explains (each entry opens with its name in bold), those it only
    names for /game card, and how many more it counts without naming them."""
    blocks = text.split("\n\n")
    also = ALSO.search(blocks[-1])
    entries = blocks[:-1] if also else blocks
    shown = [re.match(r"\*\*(.+?)\*\*", b).group(1) for b in entries]  # type: ignore[union-attr]
    if not also:
        return shown, [], 0
    listed = also.group(1)
    more = re.search(r" and (\d+) more$", listed)
    names = listed[: more.start()] if more else listed
    return shown, names.split(", "), int(more.group(1)) if more else 0


def _said(term: Term) -> re.Pattern[str]:
    """A term as a text may say it: its name or another of its names, with or without "the", in
    the plural too."""
    said = {re.sub(r"^the ", "", n, flags=re.IGNORECASE) for n in (term.name, *term.also)}
    said |= {f"{n}{end}" for n in said for end in ("s", "es")} | {
        f"{n[:-1]}ies" for n in said if n.endswith("y")
    }
    # `-`, `_` and a space are one to a name (`melee-all` is Melee All).
    names = "|".join(re.escape(n).replace(r"\ ", "[ _-]") for n in sorted(said, key=len, reverse=True))
    # A thing named after what it shows is the thing: an "Earth token", the "scenario phase".
    named_by = r"(?: (?:token|marker|result|face|step|phase)s?)?"
    return re.compile(rf"(?<![\w-])(?:the )?(?:{names}){named_by}(?![\w-])", re.IGNORECASE)


def check_answer(game: Game[Any, Any], text: str, answer: str) -> None:
    """The answer explains (or names, where room ran out) the terms `text` names and only them:
    each term it gives is said in the text; each term whose exact name is left in the text once
    those are taken out is among them, unless the text spells out its whole entry already."""
    glossary: Glossary = game.glossary()
    assert len(answer) <= DISCORD_LIMIT, len(answer)
    shown, listed, more = answered(answer)
    assert shown, answer
    for name in shown:
        assert game.explain(name) in answer, name
    given = [glossary.find(n) for n in [*shown, *listed]]
    assert all(t is not None for t in given), [*shown, *listed]
    rest = text
    for term in sorted((t for t in given if t is not None), key=lambda t: -len(t.name)):
        assert _said(term).search(text), f"{term.name} is not in: {text}"
        rest = _said(term).sub(" · ", rest)
    if more:
        return  # the rest are counted, not named: what is named was checked
    left = {
        t.name
        for t in glossary.terms.values()
        if re.search(rf"(?<![\w-]){re.escape(t.name)}(?![\w-])", rest, re.IGNORECASE)
        and game.explain(t.name) not in text
    }
    assert not left, f"{sorted(left)} left out of the answer for: {text}"


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=VARIANT_IDS)
async def test_every_turn_message_explains_the_terms_it_names(
    host: Host, game: Game[Any, Any], options: dict[str, str]
) -> None:
    people = await seat_a_table(host, game, options)
    # Someone watching, with no seat: the message is public, so are its terms.
    watcher = Caller("w", "watcher", "table", guild="g1")
    posts = await host.command(people[0], "start", {})
    row = await host.repo.open_session_in("table")
    assert row is not None
    user_of = {s.seat: s.user_id for s in row.seats}
    by_user = {p.user_id: p for p in people}
    dice = Dice(11)
    message, key, pressed, older = "", "", 0, None
    for _ in range(ACTIONS):
        public = [p for p in posts if p.to is None]
        assert len(public) == 1, [p.text for p in posts]
        post = public[0]
        # The channel's newest message as it reads now: a continued turn is added to it.
        # Its pictures' words (alt text) are part of what it shows: the Round card, the terrain.
        message = f"{message}\n{shown(post)}".strip() if post.append_key == key else shown(post)
        key = post.append_key
        button = terms_button(post)
        if button is not None:
            before = await host.repo.state(row.id)
            answer = await host.press(watcher, button)
            # One private answer; nothing public, nothing changed.
            assert [p.to for p in answer] == [watcher.user_id], [p.text for p in answer]
            assert await host.repo.state(row.id) == before
            check_answer(game, message, answer[0].text)
            pressed += 1
            if older is not None and older != button:
                # The message before this one lost its buttons; a press that still comes says so.
                stale = await host.press(watcher, older)
                assert [p.to for p in stale] == [watcher.user_id] and "/game card" in stale[0].text
            older = button
        elif fits_beside(post.choices) and any(not c.label.startswith("Rematch") for c in post.choices):
            # A turn's message without the button names no term (or has no room for one more).
            assert not game.glossary().in_text(message), message
        row = await host.repo.open_session_in("table")
        if row is None or row.status != "active":
            break
        state = game.from_json(await host.repo.state(row.id) or {})
        seat = sorted(game.to_act(state).seats)[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        posts = await host.command(by_user[user_of[seat]], "play", {"action": legal[dice.below(len(legal))]})
    assert pressed >= 10


HANDS = [(v, i) for v, i in zip(VARIANTS, VARIANT_IDS, strict=True) if v[0].has_hands]


@pytest.mark.parametrize(("game", "options"), [v for v, _ in HANDS], ids=[i for _, i in HANDS])
async def test_a_private_menu_and_hand_explain_only_their_own_terms(
    host: Host, game: Game[Any, Any], options: dict[str, str]
) -> None:
    people = await seat_a_table(host, game, options)
    posts = await host.command(people[0], "start", {})
    row = await host.repo.open_session_in("table")
    assert row is not None
    user_of = {s.seat: s.user_id for s in row.seats}
    state = game.from_json(await host.repo.state(row.id) or {})
    mover = next(p for p in people if p.user_id == user_of[sorted(game.to_act(state).seats)[0]])
    other = next(p for p in people if p is not mover)
    opener = next(c.custom_id for p in posts for c in p.choices if c.label == "Choose my move")
    (menu,) = await host.press(mover, opener)
    assert menu.to == mover.user_id
    button = terms_button(menu)
    assert button is not None, menu.text
    (answer,) = await host.press(mover, button)
    assert answer.to == mover.user_id
    check_answer(game, menu.text, answer.text)
    # Another player pressing the same id is not shown the mover's menu: the menu is rebuilt
    # for whoever presses, so it is their own (where they act too) or none.
    (theirs,) = await host.press(other, button)
    assert theirs.to == other.user_id
    if row.seat_of(other.user_id)[0] in game.to_act(state).seats:
        (own_menu,) = await host.press(other, opener)
        check_answer(game, own_menu.text, theirs.text)
    else:
        assert "**" not in theirs.text, theirs.text
    for person in (mover, other):
        (hand,) = await host.command(person, "hand", {})
        button = terms_button(hand)
        assert button is not None, hand.text
        (answer,) = await host.press(person, button)
        check_answer(game, hand.text, answer.text)
    # Someone with no seat has no hand to explain, whoever's button they press.
    (refused,) = await host.press(Caller("w", "watcher", "table", guild="g1"), button)
    assert "no seat" in refused.text and "**" not in refused.text
    # A hand shown before the game moved on is not explained as it is now.
    legal = [str(a) for a in game.legal_actions(state, sorted(game.to_act(state).seats)[0])]
    await host.command(mover, "play", {"action": legal[0]})
    (stale,) = await host.press(person, button)
    assert "/game hand" in stale.text and "**" not in stale.text


def test_an_answer_too_long_for_one_message_names_the_rest_for_game_card() -> None:
    game = get_game("dire-alliance")
    names = game.glossary().names()
    answer = explained(game, names, "that message")
    assert len(answer) <= DISCORD_LIMIT
    shown, listed, more = answered(answer)
    assert shown == names[: len(shown)] and listed == names[len(shown) : len(shown) + len(listed)]
    assert len(shown) + len(listed) + more == len(names) and (listed or more)
    assert "`/game card name:<term>`" in answer


async def _turn_keys(host: Host, session: int) -> list[str | None]:
    return [await host.repo.meta_get(k + str(session)) for k in (TURN_KEY, TERMS_KEY)]


async def test_a_game_that_ends_leaves_no_turn_keys_behind(host: Host) -> None:
    """However a game ends (by its rules, a resignation, being abandoned), the keys of its turn
    message leave storage with it."""
    game = get_game("ignis")
    dice = Dice(3)
    for ending in ("rules", "resign", "abandon"):
        people = await seat_a_table(host, game, {})
        await host.command(people[0], "start", {})
        row = await host.repo.open_session_in("table")
        assert row is not None
        by_seat = {s.seat: next(p for p in people if p.user_id == s.user_id) for s in row.seats}
        assert all(await _turn_keys(host, row.id)), "a running game keeps its turn message's keys"
        if ending == "resign":
            (confirm,) = await host.command(people[0], "resign", {})
            await host.press(people[0], confirm.choices[0].custom_id)
        elif ending == "abandon":  # by a manager: the opener's would be a resignation
            await host.command(replace(people[0], user_id="mod", is_manager=True), "abandon", {})
        else:
            state = game.from_json(await host.repo.state(row.id) or {})
            while game.outcome(state) is None:
                seat = sorted(game.to_act(state).seats)[0]
                legal = [str(a) for a in game.legal_actions(state, seat)]
                await host.command(by_seat[seat], "play", {"action": legal[dice.below(len(legal))]})
                state = game.from_json(await host.repo.state(row.id) or {})
        ended = await host.repo.session(row.id)
        assert ended is not None and ended.status in ("finished", "abandoned"), ending
        assert await _turn_keys(host, row.id) == [None, None], ending


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=VARIANT_IDS)
def test_every_move_menu_page_keeps_room_for_explain_terms(
    game: Game[Any, Any], options: dict[str, str]
) -> None:
    """Every page of every private move menu (Ignis's first moves are 20) leaves a button's room
    for "Explain terms" within Discord's 25 buttons, and no label is cut inside a word."""
    from bot.menus import QUICK, QUICK_LABEL, ButtonId, menu

    opts = game.validate_options(options)
    lo, _ = game.seat_range(opts)
    state = game.setup(game.seat_names(opts)[: max(lo, 2)], opts, 7)
    dice = Dice(5)
    pages = 0
    for _ in range(40):
        if game.outcome(state) is not None:
            break
        seat = sorted(game.to_act(state).seats)[0]
        legal = [str(a) for a in game.legal_actions(state, seat)]
        todo = [("", 0)]
        while todo:
            prefix, page = todo.pop()
            choices, _ = menu(1, 1, legal, prefix, page)
            pages += 1
            assert fits_beside(choices), (prefix, len(choices))
            for c in choices:
                whole = c.label.removesuffix(" …")
                # A move's words, or "more", or the quick start's label (for `quick`).
                assert len(c.label) <= 80 and (
                    whole == "more"
                    or any(f" {whole} " in f" {n} " for n in legal)
                    or (whole == QUICK_LABEL and QUICK in legal)
                ), c.label
                parsed = ButtonId.parse(c.custom_id)
                if parsed is not None and parsed.kind == "p":
                    number, _, sub = parsed.payload.partition(" ")
                    todo.append((sub, int(number)))
        game.act(state, seat, legal[dice.below(len(legal))])
    # Twenty menu pages at least, unless the game ended first (a game whose menu is one page a move).
    assert pages >= 20 or game.outcome(state) is not None, pages
