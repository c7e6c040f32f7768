"""The shared screen as JSON (`/screen/<token>/feed.json`), for a group's own overlay or
bot: the crew's books, the visible clocks, the scoundrels' tracks, the rolls in
progress and the latest rolls, as the players see them. Its schema is
docs/feed.schema.json (described in docs/screen.md).

It lives here rather than beside the screen (crews/screen.py) because it reads the rolls
in progress, and the rolls are a floor above the crew. Like the screen it is read-only
and answers on the link alone: once the link is revoked or made anew it answers 404.
"""

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from characters import wording
from characters.queries import party, party_view
from crews import queries as crew_queries
from crews.screen import LATEST_ROLLS, REVOKED_MESSAGE, shared_screen
from sessions import audience
from sessions import queries as table_queries
from sessions.access import SCREEN
from sessions.language import said_in_table_language, table_language

from .templatetags.roll_tags import rolls_in_progress


def _who(line) -> str:
    if line.character_name:
        return line.character_name
    return line.roller.username if line.roller else gettext("Someone")


def _crew(table_id: int) -> dict | None:
    crew = crew_queries.crew_sheet(table_id)
    if crew is None:
        return None
    return {
        "name": crew.name,
        "type": crew.type_name,
        "tier": crew.shown_tier,
        "hold": crew.shown_hold,
        "rep": crew.rep,
        "rep_track": crew.rep_track,
        "heat": crew.heat,
        "heat_track": crew.heat_track,
        "wanted": crew.wanted,
        "coin": crew.coin,
        "coin_limit": crew.coin_limit,
        "at_war": crew.at_war,
    }


def _clock(clock: audience.ClockView) -> dict:
    return {
        "id": clock.pk,
        "name": clock.name,
        "kind": clock.kind,
        "segments": clock.segments,
        # Known, progress hidden: the screen shows that it runs, never how far.
        "progress_hidden": clock.progress is None,
        "filled": None if clock.progress is None else clock.progress.filled,
    }


def _scoundrel(character) -> dict:
    sheet = party_view(character)
    return {
        "id": character.pk,
        "name": character.name,
        "playbook": wording.playbook_text(character.playbook, "name"),
        "stress": sheet.stress,
        "stress_max": sheet.stress_max,
        "traumas": sheet.traumas,
        "trauma_max": sheet.trauma_max,
        "harm": [
            {"level": level, "entries": entries, "penalty": wording.rules_word(penalty)}
            for level, entries, penalty in sheet.harm
        ],
    }


def _dice(dice_roll) -> dict:
    return {"dice": list(dice_roll.dice), "counting": dice_roll.counting_index}


def _rolling(roll) -> dict:
    rolled = roll.as_dice
    return {
        "id": roll.pk,
        "who": roll.character.name if roll.character else roll.get_kind_display(),
        "kind": roll.kind,
        "action": roll.action or None,
        "goal": roll.goal,
        "position": roll.position,
        "effect": gettext(roll.as_effect.label),
        "assisted_by": roll.assister.name if roll.assister else None,
        "dice": None if rolled is None else list(rolled.dice),
        "counting": None if rolled is None else rolled.counting_index,
        "outcome": roll.outcome or None,
        "result": gettext(roll.outcome_label) if roll.outcome_label else None,
    }


def _line(line) -> dict:
    return {
        "id": line.pk,
        "who": _who(line),
        "kind": line.kind,
        "pool": line.pool,
        **_dice(line.as_dice),
        "outcome": line.outcome,
        "summary": str(line.summary),
        # A note may name a clock or faction; it is filled in as the players may see it.
        "note": audience.fill(line.note, is_gm=False),
        "at": line.created.isoformat(),
    }


def _feed(name: str, table_id: int) -> JsonResponse:
    return JsonResponse(
        {
            "table": name,
            "crew": _crew(table_id),
            "clocks": [
                _clock(c)
                for c in audience.clock_views(
                    table_queries.visible_clocks(table_id, is_gm=False), SCREEN
                )
            ],
            "scoundrels": [_scoundrel(c) for c in party(table_id)],
            "rolling": [_rolling(roll) for roll in rolls_in_progress(table_id)],
            "latest_rolls": [
                _line(line)
                for line in table_queries.recent_rolls(table_id, is_gm=False)[:LATEST_ROLLS]
            ],
        },
        json_dumps_params={"ensure_ascii": False},
    )


@require_GET
def feed(request: HttpRequest, token: str) -> JsonResponse:
    shared = shared_screen(token)
    if shared is None:
        response = JsonResponse({"error": REVOKED_MESSAGE}, status=404)
    else:
        table_id = shared.table_id
        # Its words (a crew type, an effect, a result) read as the screen's: the table's.
        with table_language(shared.table):
            response = said_in_table_language(shared.table, _feed(shared.table.name, table_id))
    # Read by a group's own page on another site as well; the link itself is the key.
    response["Access-Control-Allow-Origin"] = "*"
    response["Cache-Control"] = "no-store"
    return response
