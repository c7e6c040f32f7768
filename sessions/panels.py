"""What the apps above sessions add to the table page and to its catch-up snapshot.

The table page shows the party, the crew, the phase, the journal's session and the
action roll beside the clocks and the roll log; a page that reconnects must catch up on
all of them. sessions is the floor those apps stand on and names none of them, in its
code or its templates: each registers its part here from its `AppConfig.ready()` (what
it draws, where, and the variables it needs), and the page and the snapshot take
whatever is registered.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest

from .models import Membership, Table

PageContext = Callable[[HttpRequest, Table, Membership], dict]
SnapshotPart = Callable[[int, bool], str]

# Where on the table page (sessions/table.html) a panel is drawn: in the line naming the
# GM, in the header above who is here, in the main column above the roll log, in the
# side column between the clocks and the players.
PLACES = ("about", "head", "main", "side")


@dataclass(frozen=True)
class Panel:
    """A part of the table page drawn by an app above: `template` (a partial of that
    app's, "crews/table_panels.html#summary"), drawn at `place` before the panels of a
    higher `order`. It is drawn with the page's variables and its app's `page_context`."""

    template: str
    place: str
    order: int

    def __post_init__(self):
        if self.place not in PLACES:
            raise ValueError(f"{self.template}: no place “{self.place}” on the table page")


_panels: list[Panel] = []
_page_contexts: list[PageContext] = []
_snapshot_parts: list[SnapshotPart] = []


def add(
    *,
    panel: Panel | None = None,
    page_context: PageContext | None = None,
    snapshot: SnapshotPart | None = None,
):
    """`panel` is drawn on the table page; `page_context(request, table, membership)`
    gives the variables it needs (the request: a link may ask the page to open
    something, e.g. a roll to propose); `snapshot(table_id, is_gm)` gives out-of-band
    fragments for a reconnecting page. Adding one twice keeps one: Django may run
    `ready()` more than once."""
    if panel is not None and panel not in _panels:
        _panels.append(panel)
    if page_context is not None and page_context not in _page_contexts:
        _page_contexts.append(page_context)
    if snapshot is not None and snapshot not in _snapshot_parts:
        _snapshot_parts.append(snapshot)


def page_context(request: HttpRequest, table: Table, membership: Membership) -> dict:
    """The variables of the registered panels, and `panels`: each place's templates in
    their order."""
    context: dict = {}
    for part in _page_contexts:
        context.update(part(request, table, membership))
    ordered = sorted(_panels, key=lambda panel: panel.order)
    context["panels"] = {
        place: [panel.template for panel in ordered if panel.place == place] for place in PLACES
    }
    return context


def snapshot(table_id: int, is_gm: bool) -> str:
    return "".join(part(table_id, is_gm) for part in _snapshot_parts)
