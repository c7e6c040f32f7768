"""What the table sees change when a character does: sent through sessions.live.

Two things go out after each change, both free of anything hidden:
- the character's line in the table's Party section (stress, trauma, harm);
- a signal for open sheets, which makes each browser fetch the sheet again over
  HTTP, so every viewer gets the rendering their own permissions allow (the owner and
  the GM get the controls, the GM alone the private notes).
"""

from django.template.loader import render_to_string

from sessions import live

from . import queries
from .models import Character
from .templatetags.party import table_party


def party_member_html(character: Character, *, created: bool = False) -> str:
    return render_to_string(
        "characters/party.html#party-push",
        {"character": character, "sheet": queries.party_view(character), "created": created},
    )


def party_snapshot(table_id: int, is_gm: bool) -> str:
    """The Party section, and a signal for each open sheet, for a page catching up."""
    context = {"party": table_party(table_id), "oob": True}
    return render_to_string("characters/party.html#party-list", context) + render_to_string(
        "characters/party.html#sheet-signals", context
    )


def push_character(character: Character, *, created: bool = False) -> None:
    """The party line and the sheet signal, drawn after commit from the committed sheet:
    two changes at once each send the state they both left behind."""
    character_id = character.pk

    def render() -> str:
        committed = Character.objects.select_related("owner", "playbook").get(pk=character_id)
        return party_member_html(committed, created=created) + render_to_string(
            "characters/sheet.html#sheet-signal", {"character": committed, "oob": True}
        )

    live.push_to_table(character.table_id, render)
