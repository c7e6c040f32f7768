"""A GM moves a campaign in: uploads an export, sees what will be made, restores it,
and lands on the new table as its GM."""

import pytest
from django.apps import apps
from playwright.sync_api import expect

from backup.tables import dumps, export_table
from characters.content import load_standard_content
from sessions.models import Table
from tests.backup.full_table import full_table
from tests.browsers import assert_accessible

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def standard_content(transactional_db):
    load_standard_content(apps)


def test_a_gm_restores_a_table_from_a_file(person, make_user):
    table = full_table()
    export = dumps(export_table(table.pk)).encode()
    make_user("gm")
    gm = person("gm")

    gm.get_by_role("link", name="Restore a table from a file").click()
    gm.get_by_label("Table export (.json)").set_input_files(
        files=[{"name": "table-1.json", "mimeType": "application/json", "buffer": export}]
    )
    gm.get_by_role("button", name="Read the file").click()

    made = gm.get_by_role("region", name="What will be made")
    expect(made).to_contain_text("Character: 3")
    expect(made).to_contain_text("Custom made")
    expect(made).to_contain_text("Bluecoats close in")
    expect(made).to_contain_text("The Red Sashes")
    assert_accessible(gm)
    assert Table.objects.count() == 1
    gm.get_by_role("button", name="Restore “The Lampblacks' table” as a new table").click()

    expect(gm.get_by_role("heading", name="The Lampblacks' table", level=1)).to_be_visible()
    # The invite link is the GM's alone: the new table is theirs.
    expect(gm.get_by_label("Invite link")).to_be_visible()
    restored = Table.objects.exclude(pk=table.pk).get()
    assert restored.gm.username == "gm"
    assert gm.url.rstrip("/").endswith(f"/tables/{restored.pk}")
