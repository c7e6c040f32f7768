"""The table view for a shared screen: crew books, visible clocks, the roll in progress, the
party and the latest rolls, laid out to fill a TV across the room; and, under the same
link, the overlays a stream shows (each part alone, on a transparent page).

Read-only and always the players' view, whoever opens it: the GM's own page is the place
for secrets, and a screen is seen by everyone in the room. It holds a socket of its own
(crews/consumers.py) that says only "something changed"; the page then fetches its body
here once, so every entry point (a member's, the token link, each overlay) draws it the
same way.
"""

from collections.abc import Callable

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from blades.rules.rolls import PUSH_DICE
from characters.queries import party, party_view
from sessions import audience, links
from sessions import queries as table_queries
from sessions.access import SCREEN, access_table, is_token
from sessions.language import said_in_table_language, table_language
from sessions.models import Table

from . import access, queries
from .models import Screen

PAGE = "crews/screen.html"
OVERLAY = "crews/overlay.html"
LATEST_ROLLS = 3
# What one TV screenful holds (tests/browser/test_screen_tv.py measures it at 720p, 1080p
# and 4K); beyond it the screen says how many more there are. An overlay shows all: a
# stream sizes its browser source to what it shows.
TV_CLOCKS = 8
TV_PARTY = 4
# Each overlay is one part of the screen, alone: its name in the URL, the part it draws.
OVERLAYS = {"clocks": _("Clocks"), "roll": _("Roll"), "party": _("Party")}
REVOKED_MESSAGE = _("This screen's link was revoked — ask the GM for the new one.")


# What the apps above crews add to the screen (the rolls in progress, the phase): each
# registers from its AppConfig.ready() a function of the table's id giving the variables
# the screen draws them from. crews names none of them, in its code or its templates.
ScreenPart = Callable[[int], dict]
_parts: list[ScreenPart] = []


def add_part(part: ScreenPart) -> None:
    """Adding one twice keeps one: Django may run `ready()` more than once."""
    if part not in _parts:
        _parts.append(part)


def _at_most(items: list, most: int | None) -> tuple[list, int]:
    """The first `most` of `items` (all when None), and how many more are left out."""
    shown = items if most is None else items[:most]
    return shown, len(items) - len(shown)


def _context(table: Table, socket_url: str, *, on_a_tv: bool = False, **extra) -> dict:
    added = {}
    for part in _parts:
        added.update(part(table.pk))
    # Counted from what the players see: a hidden clock is in neither the list nor the count.
    clocks = list(table_queries.visible_clocks(table.pk, is_gm=False))
    clocks, more_clocks = _at_most(clocks, TV_CLOCKS if on_a_tv else None)
    characters, more_party = _at_most(list(party(table.pk)), TV_PARTY if on_a_tv else None)
    return {
        **added,
        "table": table,
        "crew": queries.crew_sheet(table.pk),
        "clocks": audience.clock_views(clocks, SCREEN),
        "more_clocks": more_clocks,
        "party": [(character, party_view(character)) for character in characters],
        "more_party": more_party,
        "rolls": table_queries.recent_rolls(table.pk, is_gm=False)[:LATEST_ROLLS],
        "socket_url": socket_url,
        "is_gm": False,  # every fragment is drawn as the players see it
        "bonus": {"push_dice": PUSH_DICE},
        **extra,
    }


def _render(request: HttpRequest, table: Table, socket_url: str, **extra) -> HttpResponse:
    template = f"{PAGE}#screen-body" if request.htmx else PAGE
    with table_language(table):
        response = render(request, template, _context(table, socket_url, on_a_tv=True, **extra))
    return said_in_table_language(table, response)


def shared_screen(token: str) -> Screen | None:
    """The link's screen while the link stands (None once revoked or made anew)."""
    if not is_token(token):
        return None
    return Screen.objects.filter(token=token, active=True).select_related("table").first()


def revoked(request: HttpRequest) -> HttpResponse:
    """A revoked, renewed or mistyped link says so in the app's look, not a bare Not Found."""
    context = {"revoked_message": REVOKED_MESSAGE}
    # A page's own fetch of its body gets the message in the body's place.
    template = f"{PAGE}#screen-revoked" if request.htmx else "crews/screen_revoked.html"
    return render(request, template, context, status=404)


def _share(request: HttpRequest, table: Table) -> dict:
    """The link the GM hands out (the share fold), while one stands."""
    shared = Screen.objects.filter(table=table, active=True).first()
    link = shared and links.absolute(request, reverse("screen_shared", args=[shared.token]))
    return {"share_link": link}


@login_required
def screen(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    extra = {}
    if access.can_share_screen(membership.is_gm):
        # The GM's copy also offers the link to hand out, outside the redrawn part.
        extra = {"can_share": True, **_share(request, table)}
    return _render(request, table, f"/ws/tables/{table.pk}/screen/", **extra)


def share_answer(request: HttpRequest, table: Table) -> HttpResponse:
    """The share fold after the link was made anew or revoked, for the GM who asked: open,
    the new link focused (the TVs on the old link hear it from their sockets)."""
    with table_language(table):
        context = {"table": table, "share_open": True, **_share(request, table)}
        response = render(request, f"{PAGE}#screen-share", context)
    return said_in_table_language(table, response)


def screen_shared(request: HttpRequest, token: str) -> HttpResponse:
    shared = shared_screen(token)
    if shared is None:
        return revoked(request)
    return _render(request, shared.table, f"/ws/screen/{token}/")


class OverlaySize(forms.Form):
    """How a browser source sizes an overlay: its width in CSS pixels (the page's own
    width when left out) and a scale for everything drawn in it."""

    width = forms.IntegerField(min_value=100, max_value=7680, required=False)
    scale = forms.DecimalField(min_value=0.25, max_value=4, decimal_places=2, required=False)


def overlay(request: HttpRequest, token: str, part: str) -> HttpResponse:
    shared = shared_screen(token)
    if shared is None:
        return revoked(request)
    size = OverlaySize(request.GET)
    named = {"part": part, "part_name": OVERLAYS[part]}
    with table_language(shared.table):
        if not size.is_valid():
            errors = [f"{name}: {error[0]}" for name, error in size.errors.items()]
            response = render(request, OVERLAY, {"errors": errors, **named}, status=400)
        else:
            context = _context(shared.table, f"/ws/screen/{token}/", **named, **size.cleaned_data)
            template = f"{OVERLAY}#screen-body" if request.htmx else OVERLAY
            response = render(request, template, context)
    return said_in_table_language(shared.table, response)
