"""`/game help game:<id>`: a game taught to a newcomer, in the same order for every game.

First how to win and what a turn looks like (at most OPENING_LINES short lines), then the
commands of this game, then anything more a player needs (races, decisions), then the options
in plain words. How the bot reads rules the rulebook leaves open, and what was written fresh as a
stand-in, come last under their own labels, so a newcomer can stop reading before them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.game import Game, OptionSpec

OPENING_LINES = 10  # how to win + a turn: what a newcomer reads before anything else
LINE_CHARS = 200  # one opening line: a sentence or two, not a paragraph

HEADINGS = (
    "How to win",
    "A turn",
    "Commands",
    "Options",
    "Reading choices",
    "Stand-ins",
)


@dataclass(frozen=True)
class Teaching:
    """What a game says to teach itself. Every text is in players' words."""

    win: tuple[str, ...]  # how to win (and to lose), a line each
    turn: tuple[str, ...]  # what a turn looks like, one step a line
    commands: tuple[str, ...]  # this game's moves, "`notation`: what it does"
    more: tuple[tuple[str, str], ...] = ()  # (heading, text): races, decisions, the bot's levels
    # How the bot reads what the rulebook leaves open, each by the name that marks it in the code
    # (`# reading: <name>`) and in docs/rules-gaps.md; players see only the text.
    readings: Mapping[str, str] = field(default_factory=dict)
    stand_ins: tuple[str, ...] = ()  # what was written fresh for this bot, not printed


def option_line(o: OptionSpec) -> str:
    values = " or ".join(f"`{c}`" for c in o.choices)
    return f"• `{o.name}` — {o.help.rstrip('.')} (choose {values}; `{o.default}` if not set)"


def teach_parts(game: Game[Any, Any]) -> list[str]:
    """`/game help game:<id>` as the posts it is sent in: the lesson (title to options), then, if the
    game has any, its readings and stand-ins, which a newcomer may skip. Two posts keep each short
    enough for the chat (a long text would arrive as a file)."""
    t = game.teaching()
    parts = [f"**{game.title}** — how to play"]
    parts.append(f"**{HEADINGS[0]}**\n" + "\n".join(t.win))
    parts.append(f"**{HEADINGS[1]}**\n" + "\n".join(f"{i}. {step}" for i, step in enumerate(t.turn, 1)))
    parts.append(f"**{HEADINGS[2]}**\n" + "\n".join(f"• {c}" for c in t.commands))
    parts += [f"**{head}**\n{text}" for head, text in t.more]
    options = "\n".join(option_line(o) for o in game.options) or "none"
    parts.append(
        f'**{HEADINGS[3]}** (set them when opening: `/game new game:{game.id} options:"name=value"`)'
        f"\n{options}"
    )
    notes = []
    if t.readings:
        notes.append(
            f"**{HEADINGS[4]}** (where the rulebook leaves a rule open, this is how the bot plays it)\n"
            + "\n".join(f"• {r}" for r in t.readings.values())
        )
    if t.stand_ins:
        notes.append(
            f"**{HEADINGS[5]}** (written fresh for this bot where the printed game is not ours to copy)\n"
            + "\n".join(f"• {s}" for s in t.stand_ins)
        )
    return ["\n\n".join(parts), *(["\n\n".join(notes)] if notes else [])]


def teach_text(game: Game[Any, Any]) -> str:
    """The whole of `/game help game:<id>`, built from the game's Teaching and its options."""
    return "\n\n".join(teach_parts(game))


def opening(t: Teaching) -> Sequence[str]:
    """The lines a newcomer reads first: how to win and the turn."""
    return [*t.win, *t.turn]
