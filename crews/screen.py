"""The table view for a shared screen: crew books, visible clocks, the roll in progress, the
party and the latest rolls, big enough for a TV across the room.

Read-only and always the players' view, whoever opens it: the GM's own page is the place
for secrets, and a screen is seen by everyone in the room. It holds a socket of its own
(crews/consumers.py) that says only "something changed"; the page then fetches its body
here once, so both entry points (a member's and the token link) draw it the same way.
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from blades.rules.rolls import PUSH_DICE
from sessions import queries as table_queries
from sessions.access import access_table, require_gm
from sessions.inputs import is_token
from sessions.models import Table

from . import actions, queries
from .models import Screen

PAGE = "crews/screen.html"
LATEST_ROLLS = 3


def _render(request: HttpRequest, table: Table, socket_url: str, **extra) -> HttpResponse:
    context = {
        "table": table,
        "crew": queries.crew_sheet(table.pk),
        "clocks": table_queries.visible_clocks(table.pk, is_gm=False),
        "rolls": table_queries.recent_rolls(table.pk, is_gm=False)[:LATEST_ROLLS],
        "socket_url": socket_url,
        "is_gm": False,  # every fragment is drawn as the players see it
        "bonus": {"push_dice": PUSH_DICE},
        **extra,
    }
    template = f"{PAGE}#screen-body" if request.htmx else PAGE
    return render(request, template, context)


@login_required
def screen(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    extra = {}
    if membership.is_gm:
        # The GM's copy also offers the link to hand out, outside the redrawn part.
        shared = Screen.objects.filter(table=table, active=True).first()
        extra = {
            "can_share": True,
            "share_link": shared
            and request.build_absolute_uri(reverse("screen_shared", args=[shared.token])),
        }
    return _render(request, table, f"/ws/tables/{table.pk}/screen/", **extra)


def screen_shared(request: HttpRequest, token: str) -> HttpResponse:
    shared = Screen.objects.filter(token=token, active=True).select_related("table")
    shared = shared.first() if is_token(token) else None
    if shared is None:
        raise Http404
    return _render(request, shared.table, f"/ws/screen/{token}/")


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
