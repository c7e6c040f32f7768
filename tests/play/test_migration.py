"""A database from before the phase loop had its own app (its models in crews, crews at
0002_phases) keeps every score, phase, flashback and downtime row when migrated forward.

The rows are written with the historical crews models, as that code wrote them; the
migration then moves them to the play app, and today's models read them back."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from play.models import DowntimeActivity, Flashback, Phase, Score
from tests.factories import CharacterFactory, ClockFactory, FactionFactory, RollFactory

BEFORE_THE_MOVE = [("crews", "0002_phases"), ("play", None)]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def old_state_apps():
    """The models as the code before the move knew them: what the database holds once
    play and everything built on it (the journal's happenings) are unapplied."""
    executor = MigrationExecutor(connection)
    return executor.loader.project_state(list(executor.loader.applied_migrations)).apps


@pytest.mark.django_db(transaction=True)
def test_a_database_from_before_the_move_keeps_its_phase_loop(table, player):
    # Rows of the apps that stay where they are; the migration never touches them.
    character = CharacterFactory(table=table, owner=player, name="Cross")
    faction = FactionFactory(table=table, name="Bluecoats", tier=2)
    engagement = RollFactory(table=table, roller=table.gm)
    vice = RollFactory(table=table, roller=player, character=character)
    project = ClockFactory(table=table, name="Forge papers", segments=8)

    try:
        migrate(BEFORE_THE_MOVE)
        old = old_state_apps()
        assert "play" not in old.app_configs
        OldScore = old.get_model("crews", "Score")
        score = OldScore.objects.create(
            table_id=table.pk,
            target_faction_id=faction.pk,
            target_name="Bluecoats",
            target_tier=2,
            plan="stealth",
            detail="The roof",
            engagement_roll_id=engagement.pk,
            position="risky",
            rep=3,
            coin=4,
            heat=2,
            entanglements=["Rivals", "Unquiet dead"],
            entanglement="Rivals",
        )
        earlier = OldScore.objects.create(
            table_id=table.pk, target_name="Lampblacks", plan="assault", detail="The door"
        )
        old.get_model("crews", "Phase").objects.create(
            table_id=table.pk, step="activities", score_id=score.pk, xp_done=[character.pk]
        )
        flashback = old.get_model("crews", "Flashback").objects.create(
            score_id=score.pk, character_id=character.pk, stress=2, note="Bribed the guard"
        )
        activity = old.get_model("crews", "DowntimeActivity").objects.create(
            score_id=score.pk,
            character_id=character.pk,
            kind="project",
            detail="Forge papers",
            roll_id=vice.pk,
            outcome="partial",
            amount=2,
            clock_id=project.pk,
        )
    finally:
        # Whatever happened above, later tests get today's schema back.
        migrate(latest())

    phase = Phase.objects.select_related("score").get(table=table)
    assert phase.step == "activities" and phase.xp_done == [character.pk]
    assert phase.score.pk == score.pk
    moved = Score.objects.get(pk=score.pk)
    assert (moved.target_faction, moved.engagement_roll) == (faction, engagement)
    assert (moved.plan, moved.position, moved.rep, moved.coin, moved.heat) == (
        "stealth",
        "risky",
        3,
        4,
        2,
    )
    assert moved.entanglements == ["Rivals", "Unquiet dead"] and moved.entanglement == "Rivals"
    assert set(table.scores.values_list("pk", flat=True)) == {score.pk, earlier.pk}
    assert Flashback.objects.get(pk=flashback.pk).note == "Bribed the guard"
    assert list(moved.flashbacks.values_list("pk", flat=True)) == [flashback.pk]
    done = DowntimeActivity.objects.get(pk=activity.pk)
    assert (done.character, done.roll, done.clock) == (character, vice, project)
    assert (done.kind, done.outcome, done.amount) == ("project", "partial", 2)

    # The tables carry the play app's names now, and new rows get fresh ids past the old.
    tables = connection.introspection.table_names()
    assert {"play_score", "play_phase", "play_flashback", "play_downtimeactivity"} <= set(tables)
    assert not {t for t in tables if t in ("crews_score", "crews_phase", "crews_flashback")}
    newer = Score.objects.create(table=table, target_name="Red Sashes", plan="social", detail="x")
    assert newer.pk > max(score.pk, earlier.pk)
