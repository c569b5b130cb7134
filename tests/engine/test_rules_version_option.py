"""The rules version a session is opened under: written in its options, version 1 as the key's
absence, refused when this code does not know it. Checked for every registered game."""

from __future__ import annotations

import pytest

from engine import OptionError, all_games, rules_of
from engine.game import RULES


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_a_new_session_records_the_current_rules_version(game):
    stored = game.session_options({})
    assert rules_of(stored) == game.rules_version
    assert stored[RULES] == str(game.rules_version)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_version_one_is_the_absence_of_the_key_so_old_snapshots_still_match(game):
    opts = game.validate_options({RULES: "1"})
    assert RULES not in opts
    assert rules_of(opts) == 1


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_a_rules_version_newer_than_the_code_is_refused_in_one_line(game):
    with pytest.raises(OptionError) as exc:
        game.validate_options({RULES: str(game.rules_version + 1)})
    assert "newer version of the bot" in str(exc.value)
    with pytest.raises(OptionError):
        game.validate_options({RULES: "two"})


def test_a_state_without_the_key_was_opened_under_version_one():
    assert rules_of({"layout": "checker"}) == 1
    assert rules_of({RULES: "3"}) == 3


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_an_option_a_later_version_brought_is_not_among_an_earlier_versions_options(game):
    """A session of an earlier version keeps the options it had, so its states stay as written."""
    for version in range(1, game.rules_version + 1):
        opts = game.validate_options({RULES: str(version)})
        later = {spec.name for spec in game.options if spec.since > version}
        assert not later & set(opts), (version, later & set(opts))


def test_ignite_version_1_has_no_market_size_option():
    from engine import get_game

    ignite = get_game("ignite")
    assert "market_size" not in ignite.validate_options({RULES: "1"})
    assert ignite.validate_options({})["market_size"] == "16"
