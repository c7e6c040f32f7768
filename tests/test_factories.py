"""Every model has a factory, and every factory builds a row on its own."""

import factory
import pytest
from django.apps import apps

from tests import factories

FACTORIES = [
    value
    for value in vars(factories).values()
    if isinstance(value, type)
    and issubclass(value, factory.django.DjangoModelFactory)
    and value._meta.model is not None
]


@pytest.mark.parametrize("model_factory", FACTORIES, ids=lambda f: f.__name__)
def test_the_factory_makes_a_row(db, model_factory):
    row = model_factory()
    assert type(row).objects.filter(pk=row.pk).exists()


def test_every_model_of_ours_has_a_factory():
    ours = {"table_sessions", "characters", "crews", "accounts", "rolls", "play"}
    models = {model for model in apps.get_models() if model._meta.app_label in ours}
    made = {f._meta.get_model_class() for f in FACTORIES}
    assert sorted(m.__name__ for m in models - made) == []
