"""Who may do what with a table's settings and backup: one predicate per question,
asked by the view or step that does it."""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy

from sessions.models import Membership

KEEPER_ONLY = gettext_lazy("Only the GM keeps the table's settings.")


def can_keep_table(is_gm: bool) -> bool:
    """The table's settings, its export (every secret of the table is in it) and the
    restored characters handed to their players."""
    return is_gm


def require_keeper(membership: Membership) -> None:
    if not can_keep_table(membership.is_gm):
        raise PermissionDenied(KEEPER_ONLY)
