"""The slips players saw ("a Ignis", "1 minutes", "a The Hypnotist card", "card(s)", "1 points
left", a sentence without its full stop) cannot come back: over seeded games of every mode, every
text a player reads uses engine.words' article and plural, checked against the helper itself, and
every post, prompt, move text and glossary entry ends its last sentence."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from seeded_play import MODE_IDS, MODES, everything_read, play

from bot.config import Settings
from bot.console import run_console
from engine import get_game
from engine.teaching import opening
from engine.words import article

ONE_OF_MANY = re.compile(r"(?:(\w+) )?(?<![\d.])\b1 ([a-z]+s)\b")
LABELS = {"level", "round", "rank", "turn", "ply", "area", "row", "column", "hex", "step", "rolled", "rolls"}
# A verb as after "they", right after one thing ("1 token shift"): engine.words.agree says "shifts".
ONE_THEN_THEY = re.compile(
    r"(?<![\d.])\b1 [a-z]+ (shift|move|leave|enter|go|attack|take|fall|stay|spawn|come|are|have)\b"
)
# One thing named with a word before its plural ("1 muster points left").
ONE_OF_KIND = re.compile(r"(?<![\d.])\b1 [a-z]+ (?:points|tokens|cards|units|minions|figures|players)\b")
ENDS = (".", "!", "?", ")", "`", "*", ":")
ARTICLE = re.compile(r"(?<![\w`'-])(a|an|A|An) ([A-Za-z][\w'-]*)")


def _slips(text: str) -> list[str]:
    found = [m.group(0) for m in re.finditer(r"\w\(s\)", text)]
    # One of a plural noun ("1 points"); "Level 1 minions" and "round 1 begins" name a number.
    for m in ONE_OF_MANY.finditer(text):
        if (m.group(1) or "").lower() not in LABELS and not m.group(2).endswith(("ss", "us", "is")):
            found.append(m.group(0))
    found += [m.group(0) for m in ONE_THEN_THEY.finditer(text)]
    found += [m.group(0) for m in ONE_OF_KIND.finditer(text)]
    found += re.findall(r"(?<![\d.])\b0 (?:seconds|minutes|hours)\b", text)  # a time too short to say
    found += re.findall(r"\b\d+\.0 [a-z]+", text)  # "26.0 hours" is 26 hours
    for m in ARTICLE.finditer(text):
        said, word = m.group(1).lower(), m.group(2)
        if word in ("The", "the") or article(word) != said:
            found.append(m.group(0))
    return found


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_no_article_or_plural_slip_in_what_players_read(
    game_id: str, options: dict[str, str], seats: int
) -> None:
    slips: set[str] = set()
    for seed in (1, 2):
        for m in play(game_id, options, seats, seed, plies=150):
            for t in everything_read(m):
                slips |= set(_slips(t))
            turn = m.game.to_act(m.state)
            ends = [e.text for e in m.events] + [turn.prompt]
            ends += [
                m.game.action_text(m.state, s, a)
                for s in sorted(turn.seats)[:1]
                for a in m.game.legal_actions(m.state, s)
            ]
            slips |= {f"no full stop: {t[-60:]}" for t in ends if t.strip() and not t.rstrip().endswith(ENDS)}
    game = get_game(game_id)
    slips |= set(_slips(game.rules_help()))
    # Each line of how to win and a turn is a whole sentence, not one running on into the next.
    slips |= {f"no full stop: {t[-60:]}" for t in opening(game.teaching()) if not t.rstrip().endswith(ENDS)}
    names = {o.name for o in game.options}
    opts = game.validate_options(options)
    for seat in game.seat_names(opts):
        joined = game.joined_help(seat, seats, opts)
        slips |= set(_slips(joined))
        # An option is named only inside the command a player types (`/game new ... options:"..."`).
        slips |= {f"bare option: {c}" for c in re.findall(r"`([^`/]*)`", joined) if c in names}
    for name in game.glossary().names():
        entry = game.explain(name)
        slips |= set(_slips(entry))
        if not entry.rstrip().endswith(ENDS):
            slips.add(f"no full stop: {entry[-60:]}")
        if entry.count(f"**{name}**") > 1:
            slips.add(f"said twice: {entry[:60]}")
    assert not slips, sorted(slips)[:20]


# A table's life around the moves: opening, joining, waiting past a reminder, going away, the
# lists of games, the log, resigning, the results and the stats.
HOST_SCRIPT = """
@alice /game new ignis seed:3
@alice /game join fire
@bob /game join
@alice /game start
@alice /play earth a3 east
@bob /game status
/wait 30s
@bob /play earth f1 north
/wait 25h
@alice /seat away days:1
@alice /game mine
@alice /game log
@bob /vote resign
@bob /press 1
@bob /game stats
@alice /game stats
"""


async def test_no_slip_in_what_the_host_says_around_a_game(tmp_path: Path) -> None:
    script = tmp_path / "table.txt"
    script.write_text(HOST_SCRIPT)
    out = io.StringIO()
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"))
    await run_console(settings, script=str(script), as_json=True, out=out)
    texts = [json.loads(line)["text"] for line in out.getvalue().splitlines()]
    assert any("per move" in t for t in texts) and any("Reminder" in t for t in texts)
    slips = {s for t in texts for s in _slips(t)}
    # A line that holds a sentence ends with its stop ("Moves: 2" is a label, not a sentence).
    lines = [line.rstrip() for t in texts for line in t.splitlines()]
    slips |= {f"no full stop: {x[-60:]}" for x in lines if ". " in x and not x.endswith(ENDS)}
    assert not slips, sorted(slips)
