"""A `RuleError` keeps its message as written for the catalog and its numbers apart, and
is read through whatever translation the layer above installed."""

import pytest

from blades.rules.character import check_range
from blades.rules.errors import RuleError, Term, _, ngettext


def test_the_message_is_formatted_with_its_params():
    error = RuleError(_("Stress stops at %(limit)s."), limit=9, field="stress")
    assert (str(error), error.field, error.params) == ("Stress stops at 9.", "stress", {"limit": 9})


def test_a_message_without_params_is_read_as_written():
    assert str(RuleError(_("100% sure."))) == "100% sure."


def test_the_installed_translation_reads_the_message_and_the_marked_words(spanish):
    with pytest.raises(RuleError) as refused:
        check_range(10, 0, 9, _("Stress"))
    assert str(refused.value) == "Estrés debe estar entre 0 y 9."


def test_a_players_word_is_not_translated(spanish):
    error = RuleError(
        _("%(what)s must be between %(low)s and %(high)s."), what="Stress", low=0, high=9
    )
    assert str(error) == "Stress debe estar entre 0 y 9."
    assert str(RuleError(_("%(what)s."), what=Term("Stress"))) == "Estrés."


def test_a_count_chooses_the_form(spanish):
    def boxes(n):
        return str(RuleError(ngettext("%(n)s box.", "%(n)s boxes.", n), n=n))

    assert (boxes(1), boxes(2)) == ("1 casilla.", "2 casillas.")


def test_a_refusal_is_not_a_value_error():
    # An `except ValueError` meant for a bad number must not swallow a refusal.
    assert not issubclass(RuleError, ValueError)
