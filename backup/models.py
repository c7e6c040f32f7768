"""A restored table's seats: who a file's rows named, waiting for a person who joined."""

from django.db import models
from django.utils.translation import gettext_noop

from sessions import shapes


class Seat(models.Model):
    """A member of the file's table who is not a member here (yet). Every row of the new
    table that named them (a sheet, a roll of the log, a step of a roll, a clock, what
    they learned) is listed, and holds nobody until the GM hands the seat to a person who
    joined (backup/steps.py); then every one of those rows names that person."""

    table = models.ForeignKey(
        "table_sessions.Table", on_delete=models.CASCADE, related_name="seats"
    )
    # The file's name for the member: only the GM restoring sees it, to know who is who.
    name = models.CharField(max_length=150)
    # [model label, row id, field]: the rows that named this member in the file.
    rows = shapes.ShapedJSONField(
        default=list,
        shape=shapes.ListOf(shapes.Pair(shapes.Text(), shapes.Whole(1), shapes.Text())),
        label=gettext_noop("rows"),
    )

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name
