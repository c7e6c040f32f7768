"""What each member may see, asked once here for the page, the socket's catch-up and pushes."""

from datetime import datetime

from django.contrib.auth import get_user_model

from . import access
from .models import Clock, Presence, Roll

ROLL_LOG_LENGTH = 30


def clock_faces():
    """Clocks with what their faces show of the clocks they are linked to."""
    return Clock.objects.select_related("unlocks", "rival", "owner").prefetch_related("unlocked_by")


def clocks_seen_by(table_id: int, viewer):
    """`viewer`: a Membership or an access.Audience."""
    return clock_faces().filter(access.clocks_seen(viewer), table_id=table_id)


def visible_clocks(table_id: int, is_gm: bool):
    """The GM's, or the players' at large (the shared screen's): none a player owns alone."""
    return clocks_seen_by(table_id, access.GM if is_gm else access.PUBLIC)


def clock_owners(table_id: int) -> frozenset[int]:
    """The players who own a clock at the table."""
    owners = Clock.objects.filter(table_id=table_id, owner__isnull=False)
    return frozenset(owners.values_list("owner_id", flat=True))


# What a line of the log shows (sessions/table.html#roll), and nothing more: a user's row
# carries its password hash, and loading rows whole was most of what drawing a pushed
# line cost.
LOG_LINE_FIELDS = (
    "table_id",
    "kind",
    "pool",
    "dice",
    "outcome",
    "summary",
    "note",
    "secret",
    "created",
    "roller__username",
    "character_name",
)


def _log():
    return Roll.objects.select_related("roller").only(*LOG_LINE_FIELDS)


def recent_rolls(table_id: int, is_gm: bool):
    rolls = _log().filter(table_id=table_id)
    if not is_gm:
        rolls = rolls.exclude(secret=True)
    return rolls[:ROLL_LOG_LENGTH]


def log_line(roll_id: int) -> Roll | None:
    """One line of the log as committed (None once its table is gone)."""
    return _log().filter(pk=roll_id).first()


def present_users(table_id: int, since: datetime):
    user_ids = Presence.objects.filter(table_id=table_id, seen__gte=since).values("user_id")
    return get_user_model().objects.filter(pk__in=user_ids).order_by("username")
