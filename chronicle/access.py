"""Who may do what with the table's journal and its Discord webhooks: one predicate per
question, asked by the step that does it and by the page that draws its control."""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _

from sessions.models import Membership


def can_keep_journal(is_gm: bool) -> bool:
    """Starting and ending a play session, its title and the GM's notes on it."""
    return is_gm


def can_add_learned(is_gm: bool) -> bool:
    """A line of what we learned: anyone at the table."""
    return True


def can_set_webhooks(is_gm: bool) -> bool:
    """The webhook URLs are secrets: only the GM ever sees or sets them."""
    return is_gm


def can_read_secrets(is_gm: bool) -> bool:
    """The journal and the dice statistics with the secret rolls, the GM's notes and what
    the GM hides in them; everyone else's leave those out."""
    return is_gm


REFUSALS = {
    can_keep_journal: _("Only the GM starts, ends and annotates a session."),
    can_add_learned: _("Only the table's members add to its journal."),
    can_set_webhooks: _("Only the GM sets the table's Discord webhooks."),
}


def may(is_gm: bool) -> dict[str, bool]:
    """Every question's answer for one audience (`may.keep_journal` in a template)."""
    questions = [*REFUSALS, can_read_secrets]
    return {question.__name__.removeprefix("can_"): question(is_gm) for question in questions}


def require(question, membership: Membership) -> None:
    if not question(membership.is_gm):
        raise PermissionDenied(REFUSALS[question])
