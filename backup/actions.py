"""A restored table's seats handed to the people who joined it."""

from django.apps import apps
from django.db import transaction
from django.utils.translation import gettext_noop

from blades.rules.errors import RuleError
from characters.models import Character
from sessions.models import Membership

from .models import Seat


def hand_seat(*, seat: Seat, player) -> None:
    """Every row the file's member was named in now names `player`: their sheets, their
    rolls and steps of rolls, their clocks, what they learned. A row handed already (a
    character given on its own) keeps its player."""
    with transaction.atomic():
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        seated = Membership.objects.filter(
            table_id=seat.table_id, user=player, role=Membership.Role.PLAYER
        )
        if not seated.exists():
            raise RuleError(gettext_noop("%(player)s does not play at this table."), player=player)
        sheets = [pk for label, pk, name in seat.rows if label == "characters.Character"]
        active = Character.objects.filter(table_id=seat.table_id, state="active")
        if active.filter(pk__in=sheets).exists() and active.filter(owner=player).exists():
            raise RuleError(
                gettext_noop("%(player)s already has an active character at this table."),
                player=player,
            )
        for label, pk, name in seat.rows:
            rows = apps.get_model(label)._default_manager.filter(pk=pk)
            rows.filter(**{f"{name}__isnull": True}).update(**{name: player})
        seat.delete()
