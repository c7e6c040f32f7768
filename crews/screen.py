"""The table view for a shared screen: crew books, visible clocks, the latest rolls, big.

Read-only and always the players' view, whoever opens it: the GM's own page is the place
for secrets, and a screen is seen by everyone in the room. The page refreshes itself
every few seconds rather than holding the table socket: the token link has no login, so
it cannot join the table's groups, and polling one players-only fragment keeps both
entry points (members and token) on the same path.
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from sessions import queries as table_queries
from sessions.access import access_table, require_gm
from sessions.inputs import is_token
from sessions.models import Table

from . import actions, queries
from .models import Screen

PAGE = "crews/screen.html"
LATEST_ROLLS = 3
REFRESH_SECONDS = 3


def _render(request: HttpRequest, table: Table, refresh_url: str, **extra) -> HttpResponse:
    context = {
        "table": table,
        "crew": queries.crew_sheet(table.pk),
        "clocks": table_queries.visible_clocks(table.pk, is_gm=False),
        "rolls": table_queries.recent_rolls(table.pk, is_gm=False)[:LATEST_ROLLS],
        "refresh_url": refresh_url,
        "refresh_seconds": REFRESH_SECONDS,
        "is_gm": False,  # every fragment is drawn as the players see it
        **extra,
    }
    template = f"{PAGE}#screen-body" if request.htmx else PAGE
    return render(request, template, context)


@login_required
def screen(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    extra = {}
    if membership.is_gm:
        # The GM's copy also offers the link to hand out, outside the refreshed part.
        shared = Screen.objects.filter(table=table, active=True).first()
        extra = {
            "can_share": True,
            "share_link": shared
            and request.build_absolute_uri(reverse("screen_shared", args=[shared.token])),
        }
    return _render(request, table, reverse("screen", args=[table.pk]), **extra)


def screen_shared(request: HttpRequest, token: str) -> HttpResponse:
    shared = Screen.objects.filter(token=token, active=True).select_related("table")
    shared = shared.first() if is_token(token) else None
    if shared is None:
        raise Http404
    return _render(request, shared.table, reverse("screen_shared", args=[token]))


@login_required
@require_POST
def screen_link(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    if request.POST.get("revoke"):
        actions.revoke_screen_link(table=table)
    else:
        actions.new_screen_link(table=table)
    return redirect("screen", table_id=table.pk)
