"""Non-members get a 404 for every table URL; players change nothing that is not theirs."""

import pytest
from django.forms.models import model_to_dict

from characters.models import Character, GmNote
from sessions.models import Clock, Membership, Roll, Table
from tests.security.urls import table_patterns


def snapshot(scene) -> dict:
    """Everything a forbidden request could have changed."""
    return {
        "table": model_to_dict(Table.objects.get(pk=scene.table.pk)),
        "members": sorted(Membership.objects.values_list("user_id", "role")),
        "clocks": list(Clock.objects.values()),
        "rolls": Roll.objects.count(),
        "characters": list(Character.objects.order_by("pk").values()),
        "notes": list(GmNote.objects.values()),
    }


def test_the_enumeration_sees_the_table_urls():
    names = {p.name for p in table_patterns()}
    assert {"table_detail", "clock_tick", "character_move", "roll_create"} <= names


@pytest.mark.parametrize("method", ["get", "post"])
def test_non_members_get_404_everywhere(client, scene, outsider, method):
    before = snapshot(scene)
    for user in (outsider, None):
        if user:
            client.force_login(user)
        else:
            client.logout()
        for url in scene.urls():
            response = getattr(client, method)(url.url, {"ticks": "1"})
            if user is None:
                # Anonymous: sent to the login page (or 404), never shown anything.
                assert response.status_code in {302, 404, 405}, url
                if response.status_code == 302:
                    assert response["Location"].startswith("/accounts/login/"), url
            else:
                assert response.status_code in {404, 405}, url
    assert snapshot(scene) == before


GM_ONLY = {
    "invite_regenerate",
    "invite_revoke",
    "member_remove",
    "clock_update",
    "clock_tick",
    "clock_delete",
    "custom_playbook_new",
    "table_settings",
    "table_export",
    "character_hand_over",
    "table_language",
}
# What a player may post about the table itself (their own roll, their own new character,
# their own clock) and pages that ignore a POST; the snapshot still proves these changed
# nothing else.
PLAYER_ALLOWED = {
    "roll_create", "character_new", "clock_create", "table_detail", "character_sheet",
}  # fmt: skip


def test_player_changes_nothing_of_another_or_of_the_gm(client, scene):
    client.force_login(scene.player)
    before = snapshot(scene)
    refused = []
    for url in scene.urls(character=scene.other_character):
        name = url.name.split(":")[0]
        if name in PLAYER_ALLOWED:
            continue
        response = client.post(url.url, {"ticks": "1", "amount": "1", "text": "x", "name": "x"})
        # Pages of other apps (crew, roll flows) may answer a player's post with a form
        # or a 422; what matters is the snapshot below: nothing of theirs changed.
        assert response.status_code < 500, url
        if response.status_code in {403, 404, 405}:
            refused.append(name)
    assert snapshot(scene) == before
    assert GM_ONLY - {"table_settings", "table_export"} <= set(refused)


def test_player_cannot_make_gm_only_moves_on_their_own_sheet(client, scene):
    client.force_login(scene.player)
    before = snapshot(scene)
    for url in scene.urls(character=scene.character):
        if url.name in {"character_move:gm-note"} or url.name.split(":")[0] in GM_ONLY:
            assert client.post(url.url, {"text": "mine now", "amount": "1"}).status_code in {
                403,
                405,
            }, url
    assert snapshot(scene) == before


def test_player_cannot_kill_their_own_character(client, scene):
    client.force_login(scene.player)
    url = f"/tables/{scene.table.pk}/characters/{scene.character.pk}/do/state/"
    assert client.post(url, {"state": "dead"}).status_code == 403
    assert Character.objects.get(pk=scene.character.pk).state == "active"
