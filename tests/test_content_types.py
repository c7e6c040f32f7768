"""Models that moved between apps leave no content type (nor permission) under their old
app: on a fresh database none is ever made, and a database migrated from before the
clean-up loses the ones it had."""

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

LEFT_BEHIND = [
    ("table_sessions", "actionroll"),
    ("table_sessions", "consequence"),
    ("table_sessions", "rollevent"),
    ("crews", "downtimeactivity"),
    ("crews", "flashback"),
    ("crews", "phase"),
    ("crews", "score"),
]
BEFORE_THE_CLEAN_UP = [
    ("rolls", "0004_action_roll_log_line"),
    ("play", "0002_flashback_to_downtime"),
]


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    ContentType.objects.clear_cache()


def stale() -> list[tuple[str, str]]:
    return sorted(
        (kind.app_label, kind.model)
        for kind in ContentType.objects.all()
        if kind.model_class() is None
    )


@pytest.mark.django_db
def test_a_fresh_database_names_every_model_under_its_own_app():
    assert stale() == []
    assert ContentType.objects.filter(app_label="rolls", model="actionroll").exists()
    assert ContentType.objects.filter(app_label="play", model="score").exists()


@pytest.mark.django_db(transaction=True)
def test_a_migrated_database_forgets_the_content_types_of_moved_models():
    try:
        migrate(BEFORE_THE_CLEAN_UP)
        # What a database migrated through the moves holds: the old content types, each
        # with its permissions, made when the models still lived there.
        for app_label, model in LEFT_BEHIND:
            kind = ContentType.objects.create(app_label=app_label, model=model)
            Permission.objects.create(
                content_type=kind, codename=f"view_{model}", name=f"Can view {model}"
            )
        assert stale() == sorted(LEFT_BEHIND)
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    assert stale() == []
    assert not Permission.objects.filter(content_type__app_label="table_sessions").exclude(
        content_type__model__in=["table", "roll", "presence", "membership", "clock"]
    )
    assert not Permission.objects.filter(
        content_type__app_label="crews", codename__in=[f"view_{m}" for _, m in LEFT_BEHIND]
    )
    # The models' content types under their new apps, and their permissions, stay.
    assert Permission.objects.filter(content_type__app_label="rolls", codename="view_actionroll")
    assert Permission.objects.filter(content_type__app_label="play", codename="view_score")
