"""Dire Alliance notation: a move is a few words, read leniently and written canonically.

Canonical forms (what /game moves lists and parse gives back):
  play <card> <card>              play two cards (turn 1); names in alphabetical order
  <card> move <area>              a basic action of the card's fighter: move, melee, shoot, focus
  <card> melee|shoot|focus <fighter>
  <card> control | interact | return-dread | recover | idle | <special>
                                  (idle: the card is discarded and its fighter not activated)
  dread                           play a dread card for no effect
  claim <card>                    the defender discards a played card unresolved for the initiative
  move|withdraw <area>, melee|shoot|heal|offering <fighter>, push <fighter> <area>, melee-all, skip
                                  the next step of a special action
  oppose <fighter> | allow        opportunity attacks, one at a time, in the order you choose
Areas are numbers (or their names with dashes: `witch-pond`); fighters and cards are their ids
(`unbroken`), and `the` is ignored.

Raid Mode (parse_raid):
  <card> special                  play a card face up and perform its ➤ special (steps follow)
  <card> down | move <area> | melee <enemy> | shoot <enemy> | rest <card> | interact
                                  play a card face down: no action, or one basic action
  boost <card>                    play a card face up for its modifiers only
  exert <area> | stop | gain <card> | gain none | roll | pass | lose <card> | choose <option> | skip
Enemies are `villain` or a minion by its name, `Shambler #7` (`shambler 7`, `shambler#7` and its
old id `shambler-13` are read too); a hero's cards are their ids (`parry`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.errors import NotationError
from engine.refusals import Form, example_forms, form_of
from engine.words import count
from games.dire_alliance.content import Content
from games.dire_alliance.state import RaidState

CARD_VERBS = ("move", "melee", "shoot", "focus", "control", "interact", "return-dread", "recover", "idle")
STEP_VERBS = ("move", "withdraw", "melee", "shoot", "heal", "offering", "push", "melee-all", "skip")


def _is_special(move: str) -> bool:
    """`hypnotist beguile`: a card's fighter and a word that is none of the basic actions."""
    words = move.split()
    heads = ("play", "claim", "oppose", *STEP_VERBS)
    return len(words) == 2 and words[0] not in heads and words[1] not in CARD_VERBS


# Every move a seat can type has a form, a special's steps each their own (a typo at a `withdraw`
# step is not shown `melee`): a typo's answer shows the shapes of the moves legal now.
FORMS = (
    *example_forms(
        "play <card> <card>",
        "<card> move <area>",
        "<card> melee <enemy>",
        "<card> shoot <enemy>",
        "<card> focus <fighter>",
        "<card> control",
        "<card> interact",
        "<card> return-dread",
        "<card> recover",
        "<card> idle",
    ),
    Form("`<card> <special>`", _is_special),
    *example_forms(
        "dread",
        "move <area>",
        "withdraw <area>",
        "melee <enemy>",
        "shoot <enemy>",
        "heal <fighter>",
        "offering <fighter>",
        "push <fighter> <area>",
        "melee-all",
        "skip",
        "claim <card>",
        "oppose <fighter>",
        "allow",
    ),
)
# How many words follow each verb: an area (a) or a fighter (f).
_ARGS = {
    "move": "a",
    "withdraw": "a",
    "melee": "f",
    "shoot": "f",
    "focus": "f",
    "heal": "f",
    "offering": "f",
    "push": "fa",
    "oppose": "f",
    "claim": "c",
}


class SpecialNamesNoTarget(NotationError):
    """`hypnotist beguile ellis`: a special typed with targets, which its steps ask for instead.
    The game, knowing the position, says whether the special itself may be used now."""

    def __init__(self, move: str, refused: NotationError) -> None:
        super().__init__(refused.reason, refused.forms)
        self.move = move


def slug(text: str) -> str:
    return "-".join(text.lower().replace("'", "").split())


def parse(text: str, content: Content) -> str:
    raw = text.strip().lower().replace(",", " ").replace("_", "-")
    words = [w for w in raw.split() if w != "the"]
    if not words:
        raise NotationError("An empty move is not a move.", FORMS)
    # A fighter is typed by its id or by the name players read on the card and the picture
    # (`gravedigger` for The Gravedigger, whose id is `digger`), "The" left out.
    roster = [*(f for fa in content.roster.factions for f in fa.fighters), *content.roster.leaders]
    fighters = {f.id: f.id for f in roster} | {slug(f.name).removeprefix("the-"): f.id for f in roster}
    specials = {s.id for fa in content.roster.factions for f in fa.fighters for s in f.specials}
    specials |= {s.id for x in content.roster.leaders for s in x.specials}
    areas = {slug(a.name): a.id for a in content.board.areas} | {str(a.id): a.id for a in content.board.areas}

    def bad(why: str) -> NotationError:
        return NotationError(f"`{text.strip()}` is not a move: {why}.", FORMS)

    def area(w: str) -> str:
        if w not in areas:
            raise bad(
                f"`{w}` is not an area (1-{len(content.board.areas)} or a name such as "
                f"{slug(content.board.areas[0].name)})"
            )
        return str(areas[w])

    def fighter(w: str) -> str:
        if w not in fighters:
            # No list of the roster here: it holds the other side's fighters and the fallen; the
            # engine adds the moves this seat can type now.
            raise bad(f"`{w}` is not a fighter")
        return fighters[w]

    def card(w: str) -> str:
        return "dread" if w == "dread" else fighter(w)

    def args(verb: str, rest: list[str], after_card: bool = False) -> list[str]:
        kinds = _ARGS.get(verb, "")
        if len(rest) != len(kinds):
            raise bad(wrong_length(FORMS, verb, kinds, after_card))
        conv = {"a": area, "f": fighter, "c": card}
        return [conv[k](w) for k, w in zip(kinds, rest, strict=True)]

    head = words[0]
    if head == "play":
        if len(words) != 3:
            raise bad("`play` names two cards")
        return "play " + " ".join(sorted(card(w) for w in words[1:]))
    if head in ("claim", "oppose"):
        return " ".join([head, *args(head, words[1:])])
    if head in ("allow", "skip", "dread", "melee-all") and len(words) == 1:
        return head
    if head in STEP_VERBS:
        return " ".join([head, *args(head, words[1:])])
    card_id = card(head)
    if len(words) < 2:
        raise bad(f"say what {head} does (`{head} move <area>`, `{head} melee <enemy>`, ...)")
    verb = words[1]
    if verb in CARD_VERBS:
        return " ".join([card_id, verb, *args(verb, words[2:], after_card=True)])
    if verb in specials and len(words) == 2:
        return f"{card_id} {verb}"
    if verb in specials:
        move = f"{card_id} {verb}"
        raise SpecialNamesNoTarget(move, bad(f"a special names no target, its steps ask for them: `{move}`"))
    # Neither every verb nor a special of another card: the engine adds this seat's moves now.
    raise bad(f"`{verb}` is not an action")


RAID_FORMS = example_forms(
    "<card> special",
    "<card> down",
    "<card> move <area>",
    "<card> melee <enemy>",
    "<card> shoot <enemy>",
    "<card> rest <card>",
    "<card> interact",
    "boost <card>",
    "exert <area>",
    "stop",
    # a special's steps
    "move <area>",
    "withdraw <area>",
    "melee <enemy>",
    "melee-all",
    "shoot <enemy>",
    "heal <card>",
    "skip",
    # questions
    "gain <card>",
    "roll",
    "pass",
    "lose <card>",
    "choose <option>",
)
_RAID_ARGS = {
    "move": "a",
    "withdraw": "a",
    "exert": "a",
    "melee": "e",
    "shoot": "e",
    "heal": "c",
    "rest": "c",
    "boost": "c",
    "lose": "c",
    "gain": "g",
}
_RAID_CARD_VERBS = ("special", "down", "move", "melee", "shoot", "rest", "interact")


def minion_word(content: Content, state: RaidState, eid: str) -> str:
    """A minion's name as players read and type it: its rank and its number among the minions of
    that rank ("Shambler #7"). The pool is fixed at setup, so the number never changes."""
    m = state.minions[eid]
    same = [i for i, o in state.minions.items() if o.rank == m.rank]
    return f"{content.rank(m.rank).name} #{same.index(eid) + 1}"


def minion_words(content: Content, state: RaidState) -> dict[str, str]:
    """Every minion's name by id, as minion_word gives it, counted in one pass (a move list or a
    view names many minions: one minion_word each would scan the pool for each)."""
    seen: dict[int, int] = {}
    words: dict[str, str] = {}
    for eid, m in state.minions.items():
        seen[m.rank] = seen.get(m.rank, 0) + 1
        words[eid] = f"{content.rank(m.rank).name} #{seen[m.rank]}"
    return words


def raid_words(content: Content, state: RaidState, move: str) -> str:
    """A move as players read it: each minion's id replaced by its name."""
    parts = move.split()
    if not any(w in state.minions for w in parts):
        return " ".join(parts)
    words = minion_words(content, state)
    return " ".join(words.get(w, w) for w in parts)


def raid_ids(content: Content, state: RaidState, move: str) -> str:
    """The move the rules apply: each minion's name (`Shambler #7`, `shambler#7`) replaced by its id."""
    if "#" not in move:
        return move  # no name in it (_NAMED needs a "#")
    named = {w.lower().replace(" ", ""): i for i, w in minion_words(content, state).items()}
    return _NAMED.sub(lambda m: named.get(f"{m.group(1)}#{m.group(2)}".lower(), m.group(0)), move)


_NAMED = re.compile(r"\b([A-Za-z]+) ?#(\d+)\b")


def parse_raid(text: str, content: Content) -> str:
    """Raid Mode moves; a card is its name (`parry`), an enemy `villain` or a minion by name
    (`shambler #7`, given back as `Shambler #7`) or by its id (`shambler-13`)."""
    raw = text.strip().lower().replace(",", " ").replace("_", "-")
    ranks = {r.name.lower(): r.name for r in content.raid.minions.ranks}
    # A minion's name is one word to the parser: `shambler #7`, `shambler # 7`, `shambler 7`.
    raw = re.sub(r"\b([a-z]+)\s*#\s*(\d+)\b", r"\1#\2", raw)
    raw = re.sub(rf"\b({'|'.join(map(re.escape, ranks))})\s+(\d+)\b", r"\1#\2", raw)
    words = [w for w in raw.split() if w != "the"]
    raid = content.raid
    cards = {h.card.id for h in raid.heroes} | {c.id for k in raid.classes for c in k.cards}
    areas = {slug(a.name): a.id for a in content.board.areas} | {str(a.id): a.id for a in content.board.areas}

    def bad(why: str) -> NotationError:
        return NotationError(f"`{text.strip()}` is not a move: {why}.", RAID_FORMS)

    def word(kind: str, w: str) -> str:
        if kind == "a":
            if w not in areas:
                raise bad(f"`{w}` is not an area (1-{len(content.board.areas)} or a name)")
            return str(areas[w])
        if kind == "e":
            if (rank := re.fullmatch(r"([a-z]+)#(\d+)", w)) and rank.group(1) in ranks:
                return f"{ranks[rank.group(1)]} #{rank.group(2)}"
            if w == "villain" or re.fullmatch(r"[a-z][a-z-]*\d+", w):
                return w
            raise bad(f"`{w}` is not an enemy")
        if w in cards or (kind == "g" and w == "none"):
            return w
        # No list of names: the villain may be out of sight, a minion off the board, a card in
        # no hand; the engine adds the moves this hero can type now, their names among them.
        raise bad(f"`{w}` is not a card")

    def args(verb: str, rest: list[str], after_card: bool = False) -> list[str]:
        kinds = _RAID_ARGS.get(verb, "")
        if len(rest) != len(kinds):
            raise bad(wrong_length(RAID_FORMS, verb, kinds, after_card))
        return [word(k, w) for k, w in zip(kinds, rest, strict=True)]

    if not words:
        raise bad("it is empty")
    head = words[0]
    if head in ("stop", "roll", "pass", "skip", "melee-all") and len(words) == 1:
        return head
    if head == "choose" and len(words) == 2:
        return f"choose {words[1]}"
    if head in _RAID_ARGS:
        return " ".join([head, *args(head, words[1:])])
    if head in cards and len(words) >= 2 and words[1] in _RAID_CARD_VERBS:
        return " ".join([head, words[1], *args(words[1], words[2:], after_card=True)])
    if head in cards:
        # A card named alone, or with a word that is no way to play it (the sixth play-test typed
        # `parry`). The forms a move takes and the ways this card may be played now follow.
        raise bad(f"`{head}` is a card; after its name, say how it is played")
    raise bad(f"`{head}` does not start a move")


def wrong_length(forms: Sequence[Form], verb: str, kinds: str, after_card: bool) -> str:
    """Why a move with `verb` has too few or too many words, with the form it takes (`heal`:
    "`heal` takes 1 more word: `heal <card>`"); the engine then lists what is legal now."""
    takes = f"`{verb}` takes {count(len(kinds), 'more word') if kinds else 'no more words'}"
    shape = form_of(forms, f"<card> {verb}" if after_card else verb)
    return f"{takes}: {shape}" if shape else takes
