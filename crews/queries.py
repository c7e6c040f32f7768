"""What each member may see of the crew and the factions, asked once here for pages,
pushes and the socket's catch-up."""

from dataclasses import dataclass, field
from functools import cache

from django.db.models import Prefetch

from blades.rules import crew as rules
from sessions.access import GM, PUBLIC
from sessions.audience import ClockView, clock_views
from sessions.models import Clock

from . import access
from .forms import BooksForm, ClaimForm, CohortForm, SettingsForm, SheetForm
from .models import COHORT_HARM_LABELS, STATUS_LABELS, Crew, Faction, FactionClock
from .sheet import ability_choices, claim_map, upgrade_rows


def crew_sheet(table_id: int) -> Crew | None:
    """The crew with everything its sheet draws, in a fixed number of queries."""
    crew = (
        Crew.objects.select_related("table")
        .prefetch_related("claims", "cohorts")
        .filter(table_id=table_id)
        .first()
    )
    if crew is not None:
        crew.at_war  # noqa: B018 - asked once here, so rendering asks nothing
    return crew


@dataclass(frozen=True)
class StatusStep:
    """One step of a faction's status track."""

    value: int
    shown: str  # "+2", "-1": the step's number as the track prints it
    label: str
    on: bool


@dataclass(frozen=True)
class FactionView:
    """A faction as one audience is shown it: players' views hold no notes the GM keeps
    to themself, and its goal clocks as they see them (sessions.audience). `model`: only
    for the GM, whose page edits it."""

    pk: int
    name: str
    tier: int
    hold: str
    status: int
    hidden: bool
    notes: str
    notes_hidden: bool
    goals: list[ClockView]
    model: Faction | None = field(default=None, compare=False)

    @property
    def status_label(self) -> str:
        return str(STATUS_LABELS[self.status])

    @property
    def status_track(self) -> list[StatusStep]:
        """The status track drawn war to allies, the faction's own step marked."""
        return [
            StatusStep(step, f"{step:+d}", str(STATUS_LABELS[step]), step == self.status)
            for step in range(rules.STATUS_MIN, rules.STATUS_MAX + 1)
        ]


def faction_view(faction: Faction, is_gm: bool) -> FactionView:
    viewer = GM if is_gm else PUBLIC
    return FactionView(
        pk=faction.pk,
        name=faction.name,
        tier=faction.tier,
        hold=faction.hold,
        status=faction.status,
        hidden=faction.hidden,
        notes=faction.notes if is_gm or not faction.notes_hidden else "",
        notes_hidden=faction.notes_hidden,
        goals=clock_views((link.clock for link in faction.goal_links.all()), viewer),
        model=faction if is_gm else None,
    )


def visible_factions(table_id: int, is_gm: bool) -> list[FactionView]:
    """The faction ladder: highest tier first; players never get hidden factions,
    hidden goal clocks or hidden notes."""
    factions = Faction.objects.filter(table_id=table_id)
    # A goal clock is drawn with the clocks it is linked to (sessions.queries.clock_faces).
    links = (
        FactionClock.objects.select_related("clock__unlocks", "clock__rival")
        .prefetch_related("clock__unlocked_by")
        .order_by("clock__created", "clock__pk")
    )
    if not is_gm:
        factions = factions.filter(hidden=False)
        links = links.exclude(clock__visibility=Clock.Visibility.GM)
    factions = factions.prefetch_related(Prefetch("goal_links", queryset=links))
    return [faction_view(faction, is_gm) for faction in factions]


def _lazy(make):
    """Built only if a template asks for it: a push of the books draws no forms."""
    return cache(make)


def sheet_context(crew: Crew, *, is_gm: bool, **extra) -> dict:
    """Everything the crew sheet's partials draw, for one audience."""
    sheet_fields = ("name", "reputation", "lair", "hunting_grounds", "notes")
    may = access.may(is_gm, crew)
    return {
        "crew": crew,
        "is_gm": is_gm,
        "may": may,
        "ability_choices": _lazy(lambda: ability_choices(crew, shown=True)),
        "upgrade_groups": _lazy(lambda: upgrade_rows(crew)),
        "claim_map": _lazy(lambda: claim_map(crew)),
        "harm_levels": list(COHORT_HARM_LABELS.items()),
        "cohort_boxes": rules.COHORT_BOXES,
        "advance_boxes": rules.ADVANCE_UPGRADE_BOXES,
        "crew_books_form": _lazy(
            lambda: BooksForm(initial={"tier": crew.tier, "hold": crew.hold, "wanted": crew.wanted})
        ),
        "crew_sheet_form": _lazy(
            lambda: SheetForm(initial={field: getattr(crew, field) for field in sheet_fields})
        ),
        "crew_settings_form": _lazy(
            lambda: SettingsForm(
                initial={
                    "players_edit_sheet": crew.players_edit_sheet,
                    "players_keep_books": crew.players_keep_books,
                    "xp_track": crew.xp_track,
                }
            )
        ),
        "blank_claim_form": _lazy(ClaimForm),
        "blank_cohort_form": _lazy(lambda: CohortForm(grants=may["grant_cohort"])),
        **extra,
    }
