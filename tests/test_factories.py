"""Every model has a factory, and every factory builds a row on its own."""

from pathlib import Path

import factory
import pytest
from django.apps import apps

from tests import factories

ROOT = str(Path(__file__).resolve().parents[1])

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
    # The project's apps: in the checkout, and not in a virtualenv kept there.
    ours = [
        config
        for config in apps.get_app_configs()
        if config.path.startswith(ROOT) and "site-packages" not in config.path
    ]
    models = {model for config in ours for model in config.get_models()}
    made = {f._meta.get_model_class() for f in FACTORIES}
    assert sorted(m.__name__ for m in models - made) == []
