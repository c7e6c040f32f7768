"""What the table sees change when the crew or the factions do: sent through
sessions.live, which names the groups."""

from django.template.loader import render_to_string

from sessions import live

from . import access
from . import queries as crew_queries

CREW_PAGE = "crews/crew.html"
FACTIONS_PAGE = "crews/factions.html"


def push_crew(table_id: int, *, parts, players: bool = True) -> None:
    """Push the named sections of the crew sheet (and the crew summary other pages show).

    Rendered after commit, from the committed books: the write lock is not held while
    templates render, and concurrent changes each push the state they left behind.
    Players all share the crew's permission flags, so one render serves every player.
    `players=False` when the change was to something players cannot see (a hidden
    faction): their books did not change, and a push arriving would tell of the GM's move.
    """

    def render(is_gm: bool) -> str:
        crew = crew_queries.crew_sheet(table_id)
        if crew is None:
            return ""
        context = {**crew_queries.sheet_context(crew, is_gm=is_gm), "parts": parts}
        return render_to_string(f"{CREW_PAGE}#crew-push", context)

    live.push(
        table_id, gm=lambda: render(True), players=(lambda: render(False)) if players else None
    )


def push_factions(table_id: int, *, players: bool = True) -> None:
    """The whole ladder, per audience, rendered after commit: a tier change reorders it,
    and a hidden faction is simply absent from the players' render. `players=False` when
    only a hidden faction changed: even an unchanged ladder arriving then would tell the
    players that the GM just did something with a faction they cannot see."""
    live.push(
        table_id,
        gm=lambda: _faction_ladder(table_id, True),
        players=(lambda: _faction_ladder(table_id, False)) if players else None,
    )


def _faction_ladder(table_id: int, is_gm: bool) -> str:
    context = {
        "factions": crew_queries.visible_factions(table_id, is_gm),
        "is_gm": is_gm,
        "may": access.may(is_gm, None),
        "table_id": table_id,
        "oob": True,
    }
    return render_to_string(f"{FACTIONS_PAGE}#faction-ladder", context)


def crew_snapshot(table_id: int, is_gm: bool) -> str:
    """The crew's books and the faction ladder, for a page catching up after a reconnect."""
    html = _faction_ladder(table_id, is_gm)
    crew = crew_queries.crew_sheet(table_id)
    if crew is not None:
        context = {
            **crew_queries.sheet_context(crew, is_gm=is_gm),
            "parts": ("books", "claims", "cohorts"),
        }
        html += render_to_string(f"{CREW_PAGE}#crew-push", context)
    return html
