"""Who may change what on the crew sheet and the faction ladder: one predicate per
question, asked by the step that changes it (crews/steps.py) and by the page that draws
its control (`may` in the sheet's context), so a control is drawn exactly when its step
is allowed.

How a Blades group shares the sheet: the crew belongs to the players. Anyone at the
table founds it (000, 001: each player "works with the other players to create the
crew"), and by default the players write its identity (name, reputation, lair, hunting
grounds, notes), spend its advances on special abilities and upgrades, and look after
their cohorts. The books the GM runs through the phases (tier, hold, rep, claims, heat,
wanted level, coin and crew xp) are the GM's by default, because payoff, heat and
entanglements set them. A GM can change either default on the sheet:
`players_edit_sheet` (on by default) and `players_keep_books` (off by default). The GM
can always do everything, and some calls are the GM's alone whatever the settings.
Factions are the GM's alone; players only see what is not hidden.

Each predicate takes the audience (GM or player) rather than a user: every player at a
table has the same rights on its crew, so one render serves all of them.
"""

from collections.abc import Callable

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from sessions.models import Membership, Table

from .models import Crew

Question = Callable[[bool, Crew | None], bool]


def can_edit_sheet(is_gm: bool, crew: Crew | None) -> bool:
    """The crew's identity, its advances spent, its cohorts."""
    return is_gm or crew is not None and crew.players_edit_sheet


def can_keep_books(is_gm: bool, crew: Crew | None) -> bool:
    """Rep, heat, coin, crew xp, developing the crew, its claims."""
    return is_gm or crew is not None and crew.players_keep_books


def can_found_crew(is_gm: bool, crew: Crew | None = None) -> bool:
    """Founding the table's crew: its type, name and the choices of crew creation. Any
    member, GM or player, while the table has none. Nothing chosen there is a GM's call:
    the books a crew starts with are the rules' numbers. The GM's calls of crew creation
    (the status of the factions its upgrades helped or hurt, its contact's friend and
    enemy) are faction status, kept on the ladder (`can_keep_factions`); who keeps the
    sheet afterwards is `can_settle_keepers`."""
    return crew is None


def can_correct_books(is_gm: bool, crew: Crew | None) -> bool:
    """Tier, hold and wanted level set outright: payoff and entanglements move them."""
    return is_gm


def can_settle_keepers(is_gm: bool, crew: Crew | None) -> bool:
    """Who keeps the sheet and the books, and the crew xp track's length."""
    return is_gm


def can_refund_ability(is_gm: bool, crew: Crew | None) -> bool:
    """Dropping a special ability gives its advance back."""
    return is_gm


def can_override_map(is_gm: bool, crew: Crew | None) -> bool:
    """Seizing a claim no held claim reaches on the map: the fiction can allow it."""
    return is_gm


def can_grant_cohort(is_gm: bool, crew: Crew | None) -> bool:
    """A cohort gained in play costs no upgrade boxes."""
    return is_gm


def can_keep_factions(is_gm: bool, crew: Crew | None = None) -> bool:
    return is_gm


def can_share_screen(is_gm: bool, crew: Crew | None = None) -> bool:
    """Making or revoking the shared screen's link."""
    return is_gm


REFUSALS: dict[Question, str] = {
    can_found_crew: _("This table already has a crew."),
    can_edit_sheet: _("The GM keeps the crew sheet at this table."),
    can_keep_books: _("The GM keeps the crew's books at this table."),
    can_correct_books: _("Only the GM corrects tier, hold and wanted level."),
    can_settle_keepers: _("Only the GM says who keeps the crew sheet."),
    can_refund_ability: _("Only the GM removes a special ability."),
    can_override_map: _("Only the GM seizes a claim the map does not reach."),
    can_grant_cohort: _("Only the GM grants a cohort for free."),
    can_keep_factions: _("Only the GM keeps the factions."),
    can_share_screen: _("Only the GM shares the screen."),
}


def may(is_gm: bool, crew: Crew | None) -> dict[str, bool]:
    """Every question's answer for one audience, by name (`can_keep_books` is
    `may.keep_books` in a template)."""
    return {question.__name__.removeprefix("can_"): question(is_gm, crew) for question in REFUSALS}


def require(question: Question, membership: Membership, crew: Crew | None) -> None:
    if not question(membership.is_gm, crew):
        raise PermissionDenied(REFUSALS[question])


def table_crew(table: Table) -> Crew:
    """The table's crew; 404 if there is none yet."""
    crew = Crew.objects.filter(table=table).first()
    if crew is None:
        raise Http404
    crew.table = table  # the sheet asks the table for factions; spare a query
    return crew
