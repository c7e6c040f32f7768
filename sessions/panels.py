"""What the apps above sessions add to the table page and to its catch-up snapshot.

The table page shows the party, the crew and the action roll beside the clocks and the
roll log; a page that reconnects must catch up on all of them. sessions is the floor
those apps stand on and imports none of them: each registers its part here from its
`AppConfig.ready()`, and the page and the snapshot take whatever is registered.
"""

from collections.abc import Callable

from django.http import HttpRequest

from .models import Membership, Table

PageContext = Callable[[HttpRequest, Table, Membership], dict]
SnapshotPart = Callable[[int, bool], str]

_page_contexts: list[PageContext] = []
_snapshot_parts: list[SnapshotPart] = []


def add(*, page_context: PageContext | None = None, snapshot: SnapshotPart | None = None):
    """`page_context(request, table, membership)` gives variables for the table page
    (the request: a link may ask the page to open something, e.g. a roll to propose);
    `snapshot(table_id, is_gm)` gives out-of-band fragments for a reconnecting page.
    Adding one twice keeps one: Django may run `ready()` more than once."""
    if page_context is not None and page_context not in _page_contexts:
        _page_contexts.append(page_context)
    if snapshot is not None and snapshot not in _snapshot_parts:
        _snapshot_parts.append(snapshot)


def page_context(request: HttpRequest, table: Table, membership: Membership) -> dict:
    context: dict = {}
    for part in _page_contexts:
        context.update(part(request, table, membership))
    return context


def snapshot(table_id: int, is_gm: bool) -> str:
    return "".join(part(table_id, is_gm) for part in _snapshot_parts)
