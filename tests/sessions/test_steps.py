"""The one way to write a step: a form whose fields refuse before its action runs."""

import pytest
from django.http import Http404

from blades.rules.errors import RuleError
from sessions import steps
from sessions.models import Clock
from tests.factories import ClockFactory, TableFactory


class TickStep(steps.Step):
    clock = steps.OneOf(label="Clock")
    times = steps.whole(low=1, high=3)
    why = steps.text(20)

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["clock"].queryset = Clock.objects.filter(table=self.table)
        self.taken = []

    def execute(self):
        self.taken.append(self.cleaned_data)
        return "ticked"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"clock": "x", "times": "1"}, "clock", "Clock: choose one from the list."),
        ({"clock": str(2**31), "times": "1"}, "clock", "Clock: choose one from the list."),
        ({"clock": "", "times": "4"}, "times", "Times: Ensure this value is less than"),
        ({"clock": "", "times": "1.5"}, "times", "Times: Enter a whole number."),
        ({"times": "1", "why": "x" * 21}, "why", "Why: Ensure this value has at most 20"),
        ({"times": "1", "why": "a\x00b"}, "why", "Why: Null characters are not allowed."),
    ],
)
def test_a_field_that_does_not_parse_is_refused_before_the_action(data, field, message):
    table = TableFactory()
    step = TickStep(data, by=None, table=table)
    with pytest.raises(RuleError) as refused:
        step.take()
    assert (refused.value.field, str(refused.value).startswith(message)) == (field, True)
    assert step.taken == []


@pytest.mark.django_db
def test_an_id_of_another_table_is_not_among_the_choices():
    mine, theirs = TableFactory(), TableFactory()
    clock = ClockFactory(table=theirs)
    with pytest.raises(steps.InputError):
        TickStep({"clock": str(clock.pk), "times": "1"}, by=None, table=mine).take()
    step = TickStep({"clock": str(clock.pk), "times": "2"}, by=None, table=theirs)
    assert step.take() == "ticked"
    assert step.taken == [{"clock": clock, "times": 2, "why": ""}]


def test_an_unknown_step_is_no_page():
    with pytest.raises(Http404):
        steps.step_for({"tick": TickStep}, "tock", {}, by=None)
