"""engine.refusals: the forms a game makes from example moves."""

from __future__ import annotations

from engine.refusals import example_forms, forms_legal_now


def test_an_example_form_is_the_example_backticked() -> None:
    assert [f.text for f in example_forms("buy arrow", "end")] == ["`buy arrow`", "`end`"]


def test_an_example_form_fits_the_moves_starting_with_its_first_word() -> None:
    (buy,) = example_forms("buy arrow")
    assert buy.fits("buy sword")
    assert buy.fits("BUY arrow")
    assert not buy.fits("buyer arrow")
    assert not buy.fits("end")


def test_placeholders_before_the_first_written_word_fit_any_word() -> None:
    (move,) = example_forms("<card> move <area>")
    assert move.fits("parry move 3")
    assert not move.fits("move 3")  # a step's move is another form
    assert not move.fits("parry melee villain")


def test_an_example_of_placeholders_only_fits_a_move_at_least_as_long() -> None:
    (two,) = example_forms("<card> <special>")
    assert two.fits("hypnotist beguile")
    assert not two.fits("pass")


def test_a_refusal_keeps_only_the_example_forms_of_moves_legal_now() -> None:
    forms = example_forms("boost <card>", "<card> move <area>", "stop")
    kept = forms_legal_now(forms, ["parry move 4", "stop"])
    assert [f.text for f in kept] == ["`<card> move <area>`", "`stop`"]
