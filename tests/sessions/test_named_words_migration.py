"""Lines written before a vice, a claim given up and a faction's price in coin were kept
as the content's names and as counted coin (issue 38) read as the new ones do once
migrated (table_sessions 0013, play 0008): in the reader's language."""

import pytest
from django.utils import translation

from blades.rules import words
from play.models import Score
from sessions.models import Roll
from tests.factories import RollFactory, ScoreFactory
from tests.sessions.test_roll_name_migration import migrate

BEFORE = [("table_sessions", "0012_roll_lines_in_words"), ("play", "0007_phase_results_in_words")]


@pytest.mark.django_db(transaction=True)
def test_old_lines_name_the_vice_the_claim_and_count_the_coin():
    vice, fortune = RollFactory(kind="vice"), RollFactory(kind="fortune")
    score = ScoreFactory()
    executor = migrate(BEFORE)
    old = executor.loader.project_state(list(executor.loader.applied_migrations)).apps
    old.get_model("table_sessions", "Roll").objects.filter(pk=vice.pk).update(note="Faith")
    old.get_model("table_sessions", "Roll").objects.filter(pk=fortune.pk).update(note="Faith")
    resolution = words.Joined(
        "; ",
        [
            words.Words("Forfeit %(coin)s coin", coin=1),
            words.Words("gave up %(claim)s", claim="Informants"),
        ],
    )
    old.get_model("play", "Score").objects.filter(pk=score.pk).update(resolution=resolution)

    migrate(executor.loader.graph.leaf_nodes())
    with translation.override("es"):
        assert str(Roll.objects.get(pk=vice.pk).note) == "Fe"
        # Another roll's note is the players' words, whatever they wrote.
        assert str(Roll.objects.get(pk=fortune.pk).note) == "Faith"
        assert str(Score.objects.get(pk=score.pk).resolution) == (
            "Perder 1 moneda; cede Informantes"
        )
