"""What play writes, a restore takes back: the shapes of the JSON fields are declared
once, beside the fields (sessions/shapes.py), and both sides keep to them."""

import json

import pytest
from django.apps import apps
from django.db import models
from django.utils import translation

from backup.restore import ImportRefused, read_document, restore_table
from backup.tables import PARTS, dumps, export_table
from rolls import group as flow_group
from rolls.models import ActionRoll
from sessions.fields import WordsField
from sessions.shapes import ShapedJSONField, ShapeError
from tests.factories import CharacterFactory
from tests.helpers import Dice, start


@pytest.fixture
def zero_dice_group(table, player, other_player):
    """Ada leads a Prowl group action; Cy, who has no Prowl, joins it and rolls two
    dice taking the lower (stored as [0, d1, d2])."""
    from tests.helpers import member

    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=2)
    cy = CharacterFactory(table=table, owner=other_player, name="Cy", prowl=0)
    ada_m, cy_m = member(table, player), member(table, other_player)
    roll = start(ada_m, ada, group=True)
    roll = flow_group.join_group(by=cy_m, roll=roll)
    roll = flow_group.roll_dice(by=cy_m, roll=roll, rng=Dice(5, 2))
    roll = flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 1))
    assert roll.group[str(cy.pk)] == [0, 5, 2]
    return roll


def test_a_group_action_with_a_member_at_zero_dice_restores(zero_dice_group, gm):
    """Tried as a new user would: the restore refused the group's own file."""
    document = export_table(zero_dice_group.table_id)

    restored = restore_table(read_document(dumps(document)), gm=gm)

    roll = ActionRoll.objects.get(table=restored.table, kind="group")
    cy = restored.table.characters.get(name="Cy")
    assert roll.group[str(cy.pk)] == [0, 5, 2]
    assert roll.dice == [6, 1] and roll.outcome == zero_dice_group.outcome
    # The ids inside the fields are the new table's.
    logs = {entry["log"] for entry in roll.group_bonuses.values()}
    assert logs <= set(restored.table.rolls.values_list("pk", flat=True))


def test_a_writer_cannot_store_what_the_restore_would_refuse(zero_dice_group):
    """The other side of the same shape: a value no game writes is refused at the write."""
    with pytest.raises(ShapeError):
        ActionRoll.objects.filter(pk=zero_dice_group.pk).update(group={"1": [0, 5]})
    zero_dice_group.group_bonuses = {"1": {"pushed": True}}
    with pytest.raises(ShapeError):
        zero_dice_group.save()


def test_every_json_field_of_a_table_has_its_shape():
    """A new JSON field of a table's rows fails here until it says what it holds; then
    the restore checks and moves it with no code of its own."""
    for label, _ in PARTS:
        for field in apps.get_model(label)._meta.fields:
            if isinstance(field, models.JSONField):
                assert isinstance(field, ShapedJSONField | WordsField), f"{label}.{field.name}"


def test_a_refusal_names_the_object_and_its_field_in_the_readers_language(zero_dice_group, gm):
    document = json.loads(dumps(export_table(zero_dice_group.table_id)))
    number, item = next(
        (n, i)
        for n, i in enumerate(document["objects"], start=1)
        if i["model"] == "rolls.actionroll"
    )
    key = next(iter(item["fields"]["group"]))
    item["fields"]["group"][key] = [0, 5]
    with translation.override("es"), pytest.raises(ImportRefused) as refused:
        restore_table(read_document(json.dumps(document)), gm=gm)
    assert str(refused.value) == (
        f"Objeto {number} (tirada de acción), su campo «grupo»: una reserva de 0 tira 2 dados, no 1"
    )


@pytest.mark.parametrize("depth", [40, 900, 990, 5000])
def test_a_file_nested_too_deep_is_refused_with_a_sentence(zero_dice_group, gm, depth):
    document = json.loads(dumps(export_table(zero_dice_group.table_id)))
    item = next(i for i in document["objects"] if i["model"] == "rolls.rollevent")
    item["fields"]["changes"] = [{"field": "stress", "before": "DEEP", "after": 1}]
    raw = json.dumps(document).replace('"DEEP"', "[" * depth + "]" * depth)
    with translation.override("es"), pytest.raises(ImportRefused) as refused:
        restore_table(read_document(raw), gm=gm)
    assert "recursion" not in str(refused.value)
    assert str(refused.value) == "El archivo anida demasiado hondo: no es una exportación de mesa."
