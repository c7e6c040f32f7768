"""A player moves in from Foundry VTT: upload, preview, import, and the sheet."""

import json

import pytest
from django.apps import apps
from playwright.sync_api import expect

from characters.content import load_standard_content
from tests.browsers import assert_accessible, start_table
from tests.characters.foundry_samples import V11

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def standard_content(transactional_db):
    load_standard_content(apps)


def test_a_player_imports_a_foundry_export_and_the_gm_sees_it_live(person, make_user):
    gm, ada, _ = start_table(person, make_user)
    actor = {
        **V11,
        "items": [
            *V11["items"],
            {"name": "Ghost Hand", "type": "ability", "system": {"purchased": True}},
        ],
    }

    ada.get_by_role("link", name="Import from Foundry").click()
    ada.get_by_label("Foundry actor export (.json)").set_input_files(
        files=[
            {
                "name": "fvtt-Actor-silver.json",
                "mimeType": "application/json",
                "buffer": json.dumps(actor).encode(),
            }
        ]
    )
    ada.get_by_role("button", name="Read the export").click()

    matched = ada.locator("ul.matched")
    expect(matched).to_contain_text("Playbook: Cutter")
    expect(matched).to_contain_text("Ability: Battleborn")
    expect(ada.locator("ul.unmatched")).to_contain_text("Ability “Ghost Hand” is in no playbook")
    assert_accessible(ada)
    ada.get_by_role("button", name="Import Silver").click()

    expect(ada.get_by_role("heading", name="Silver", level=1)).to_be_visible()
    expect(ada.locator(".sheet")).to_contain_text("Battleborn")
    # The GM's open table shows the new scoundrel without a reload.
    expect(gm.locator("#party .party-member").filter(has_text="Silver")).to_be_visible()
