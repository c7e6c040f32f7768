"""The export's list of models against the models Django knows: a new model that
belongs to a table fails here until it is exported or said not to be."""

from django.apps import apps
from django.db import models

from backup.tables import NOT_EXPORTED, PARTS
from sessions.models import Table


def _references(model: type[models.Model]) -> list[type[models.Model]]:
    fields = [*model._meta.fields, *model._meta.many_to_many]
    return [f.related_model for f in fields if f.is_relation and f.related_model is not None]


def _reaches_table(model: type[models.Model], seen: frozenset = frozenset()) -> bool:
    if model is Table:
        return True
    return any(
        _reaches_table(other, seen | {model})
        for other in _references(model)
        if other not in seen and other is not model
    )


def test_every_model_that_belongs_to_a_table_is_exported_or_excused():
    belongs = {m._meta.label for m in apps.get_models() if _reaches_table(m)}
    exported = [label for label, _ in PARTS]
    assert len(exported) == len(set(exported))
    assert not set(exported) & set(NOT_EXPORTED)
    assert belongs == set(exported) | set(NOT_EXPORTED)
    assert all(reason.strip() for reason in NOT_EXPORTED.values())


def test_the_walk_follows_chains_of_foreign_keys():
    belongs = {m._meta.label for m in apps.get_models() if _reaches_table(m)}
    # Reaches the table only through Score, through ActionRoll, through Faction.
    assert {"play.Flashback", "rolls.RollEvent", "crews.FactionClock"} <= belongs
    assert "characters.Option" not in belongs
    assert "auth.User" not in belongs


def test_parts_come_after_the_rows_they_reference():
    order = {apps.get_model(label): i for i, (label, _) in enumerate(PARTS)}
    for model, position in order.items():
        for other in _references(model):
            if other in order and other is not model:
                assert order[other] < position, f"{model._meta.label} before {other._meta.label}"
