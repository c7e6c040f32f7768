"""What the whole table shares (the shared screen, its overlays, the journal) is drawn in
the table's language, which only the GM sets; each person's own pages stay in theirs."""

import re

import pytest
from django.urls import reverse

from crews import actions as crew_actions
from sessions.models import Table

ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def page_language(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


def set_language(client, table, language):
    return client.post(reverse("table_language", args=[table.pk]), {"language": language})


def test_a_new_table_shares_english(table):
    assert table.language == "en"


def test_the_gm_sets_the_tables_language(client, table, gm):
    client.force_login(gm)
    response = set_language(client, table, "es")
    assert response.status_code == 302
    assert response["Location"] == reverse("table_settings", args=[table.pk])
    assert Table.objects.get(pk=table.pk).language == "es"


def test_a_player_is_refused(client, table, player):
    client.force_login(player)
    assert set_language(client, table, "es").status_code == 403
    assert Table.objects.get(pk=table.pk).language == "en"


@pytest.mark.parametrize("language", ["fr", "", "es" * 100])
def test_a_language_not_offered_is_refused(client, table, gm, language):
    client.force_login(gm)
    response = set_language(client, table, language)
    assert response.status_code == 422 and b"Language" in response.content
    assert Table.objects.get(pk=table.pk).language == "en"


def test_the_settings_page_offers_the_languages_with_the_tables_picked(client, table, gm):
    Table.objects.filter(pk=table.pk).update(language="es")
    client.force_login(gm)
    page = client.get(reverse("table_settings", args=[table.pk])).content.decode()
    assert '<option value="es" lang="es" selected>Español</option>' in page


def test_the_screen_and_journal_follow_the_table_not_the_reader(client, table, gm):
    Table.objects.filter(pk=table.pk).update(language="es")
    shared = crew_actions.new_screen_link(table=table)
    client.force_login(gm)
    for url in (
        reverse("screen", args=[table.pk]),
        reverse("screen_shared", args=[shared.token]),
        reverse("overlay_clocks", args=[shared.token]),
    ):
        response = client.get(url, **ENGLISH)
        assert page_language(response) == response["Content-Language"] == "es", url
    # The reader's own pages stay in the reader's language.
    assert page_language(client.get(reverse("table_detail", args=[table.pk]), **ENGLISH)) == "en"


def test_the_journal_is_the_readers_page_around_the_tables_record(client, table, gm):
    """Issue 38: the journal's header and language picker turned a Spanish reader's page
    English; its record is the table's, its chrome the reader's."""
    from chronicle import actions as journal_actions

    Table.objects.filter(pk=table.pk).update(language="es")
    journal_actions.start_session(table=table, title="Night one")
    client.force_login(gm)
    response = client.get(reverse("journal", args=[table.pk]), **ENGLISH)
    page = response.content.decode()
    assert page_language(response) == response["Content-Language"] == "en"
    assert "My tables" in page and "Journal of" in page
    record = page[page.index('<div class="journal-record" lang="es">') :]
    assert "Aún no ha pasado nada." in record[: record.index("</div>")]


def test_an_htmx_post_of_the_language_goes_back_to_the_settings_too(client, table, gm):
    client.force_login(gm)
    response = client.post(
        reverse("table_language", args=[table.pk]),
        {"language": "es"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("table_settings", args=[table.pk])


def test_an_overlays_title_names_its_part_in_the_tables_language(client, table):
    """Issue 38: "superposición clocks" named the part by its address, in English."""
    Table.objects.filter(pk=table.pk).update(language="es")
    shared = crew_actions.new_screen_link(table=table)
    page = client.get(reverse("overlay_clocks", args=[shared.token])).content.decode()
    assert "· Relojes (superposición)</title>" in page


def test_the_table_page_tells_a_spanish_reader_their_part_without_a_gender(client, table, player):
    """Issue 38: "Eres un jugador" took every player for a man."""
    client.force_login(player)
    page = client.get(reverse("table_detail", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="es")
    assert "Juegas en esta mesa" in page.content.decode()
