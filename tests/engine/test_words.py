"""The one helper for articles and plurals (engine.words)."""

from engine.words import a, a_named, agree, count, listing, plural


def test_article_follows_the_sound_of_the_first_word() -> None:
    assert a("Ignis game") == "an Ignis game"
    assert a("BattleLore game") == "a BattleLore game"
    assert a("unit") == "a unit"
    assert a("hour") == "an hour"
    assert a("one-eyed troll") == "a one-eyed troll"
    assert a("8") == "an 8"
    assert a("28") == "a 28"


def test_a_named_card_of_a_name_with_its_own_article() -> None:
    assert a_named("Ellis", "card") == "an Ellis card"
    assert a_named("The Hypnotist", "card") == "a card of The Hypnotist"
    assert a_named("Countess", "card") == "a Countess card"


def test_count_says_one_without_a_plural() -> None:
    assert count(1, "minute") == "1 minute"
    assert count(3, "minute") == "3 minutes"
    assert count(0, "hit") == "0 hits"
    assert count(2, "lore token") == "2 lore tokens"
    assert count(2, "hex") == "2 hexes"
    assert count(2, "enemy") == "2 enemies"
    assert count(2, "die") == "2 dice"
    assert count(1.5, "hour") == "1.5 hours"


def test_plural_and_listing() -> None:
    assert plural("flag") == "flags"
    assert plural("flag", 1) == "flag"
    assert plural("ratman") == "ratmen"
    assert listing(["a"]) == "a"
    assert listing(["a", "b", "c"], "or") == "a, b or c"


def test_a_verb_agrees_with_the_count() -> None:
    assert f"{count(1, 'token')} {agree(1, 'shift')}" == "1 token shifts"
    assert f"{count(3, 'token')} {agree(3, 'shift')}" == "3 tokens shift"
    assert agree(1, "push") == "pushes"
    assert agree(1, "carry") == "carries"
    assert agree(1, "be") == "is"
    assert agree(2, "be") == "are"
    assert agree(1, "have") == "has"
    assert agree(1, "die") == "dies"
