import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.urls import reverse

from blades.rules.character import RuleError
from crews import actions
from crews.models import Claim, Cohort, Crew
from tests.factories import CrewFactory, FactionFactory
from tests.helpers import listen


def test_create_crew_takes_the_types_defaults(crew):
    assert (crew.tier, crew.hold, crew.rep, crew.coin, crew.boxes_free) == (0, "strong", 0, 2, 2)
    assert crew.abilities == ["everyone_steals"]
    assert crew.upgrades == {"hidden": 1, "prowess": 1}
    assert crew.claims.count() == 15
    assert list(crew.claims.filter(held=True).values_list("name", flat=True)) == ["Lair"]


def test_bravos_start_with_their_thugs(table):
    crew = actions.create_crew(table=table, crew_type="bravos", name="Red Sashes")
    assert list(crew.cohorts.values_list("kind", "types")) == [("gang", ["thugs"])]


def test_custom_crew_has_no_map(table):
    crew = actions.create_crew(table=table, crew_type="custom", name="X", custom_type="Doctors")
    assert crew.type_name == "Doctors"
    assert not crew.claims.exists() and crew.abilities == []


def test_one_crew_per_table(crew, table):
    with pytest.raises(RuleError):
        actions.create_crew(table=table, crew_type="cult", name="Again")


def test_gm_creates_the_crew_through_the_page(client, table, gm):
    client.force_login(gm)
    url = reverse("crew_create", args=[table.pk])
    response = client.post(url, {"crew_type": "custom", "name": "Keep me", "custom_type": ""})
    assert response.status_code == 422
    assert 'value="Keep me"' in response.content.decode()
    assert not Crew.objects.exists()
    client.post(url, {"crew_type": "cult", "name": "Forgotten Gods"})
    assert table.crew.crew_type == "cult"


def test_the_crew_chooses_its_ability_vehicle_upgrades_and_contact(client, table, gm):
    """Issue 29: the crew sheet's choices are made in creation, not by the GM's Remove
    then Take; 2 pre-selected upgrades + 2 chosen (SRD_FACTS §6.1)."""
    client.force_login(gm)
    url = reverse("crew_create", args=[table.pk])
    data = {"crew_type": "smugglers", "name": "Tide", "ability": "ghost_passage",
            "start_0": "carriage", "upgrades": ["vault", "boat"], "contact": "Sera"}  # fmt: skip
    page = client.get(reverse("crew_detail", args=[table.pk]), {"crew_type": "smugglers"})
    assert "Ghost Passage" in page.text and "Sera, arms dealer" in page.text
    refused = client.post(url, {**data, "upgrades": ["vault", "boat", "workshop"]})
    assert refused.status_code == 422 and "Mark at most 2." in refused.text
    assert not Crew.objects.exists()
    client.post(url, data)
    crew = table.crew
    assert crew.abilities == ["ghost_passage"] and crew.contact == "Sera"
    assert crew.upgrades == {"carriage": 1, "prowess": 1, "vault": 1, "boat": 1}
    assert crew.boxes_free == 0


def test_each_crew_type_is_a_card_with_its_hunting_grounds_and_xp(client, table, player):
    """Issue 40: the crew type, its ability and upgrades are chosen from cards; a type's
    card says what it hunts and what earns its xp. The first type's card is the one
    drawn chosen, as its choices are the ones drawn below."""
    client.force_login(player)
    page = client.get(reverse("crew_detail", args=[table.pk])).text
    assert 'value="assassins" hx-get=' in page  # a tap draws that type's choices
    assert "checked" in page.split('id="id_crew_type_0"')[1].split(">")[0]
    assert "Accident, Disappearance, Murder, Ransom" in page
    assert "Cargo types:" in page and "Execute a successful smuggling operation" in page
    assert page.count('class="pick-card"') > 7 + 2  # the types, then the abilities
    assert 'type="checkbox" name="upgrades"' in page


def test_a_refused_founding_keeps_the_cards_chosen(client, table, gm):
    client.force_login(gm)
    data = {"crew_type": "smugglers", "name": "Tide", "ability": "ghost_passage",
            "upgrades": ["vault", "boat", "workshop"]}  # fmt: skip
    refused = client.post(reverse("crew_create", args=[table.pk]), data)
    assert refused.status_code == 422
    chosen = [tag for tag in refused.text.split("<input") if " checked" in tag.split(">")[0]]
    values = sorted(tag.split('value="')[1].split('"')[0] for tag in chosen)
    assert values == sorted(["smugglers", "ghost_passage", "vault", "boat", "workshop", ""])
    assert 'id="id_upgrades_error" role="alert"' in refused.text


def test_an_ability_of_the_type_picked_before_is_refused_by_name(client, table, gm):
    """The form sent before the new type's abilities were drawn carries the old
    type's ability: the GM is told which list to choose from, and keeps the name."""
    client.force_login(gm)
    url = reverse("crew_create", args=[table.pk])
    refused = client.post(url, {"crew_type": "shadows", "name": "Lamps", "ability": "deadly"})
    assert refused.status_code == 422
    assert "Choose one of the Shadows abilities." in refused.text
    assert 'value="Lamps"' in refused.text
    assert not Crew.objects.exists()


def test_a_player_founds_the_crew_and_every_page_gets_the_sheet(
    client, table, player, django_capture_on_commit_callbacks
):
    """Issue 40: each player "works with the other players to create the crew" (000,
    001), through the GM's own founding form, choices and all."""
    client.force_login(player)
    page = client.get(reverse("crew_detail", args=[table.pk]), {"crew_type": "smugglers"})
    assert "anyone at the table may found it" in page.text
    assert f'action="{reverse("crew_create", args=[table.pk])}"' in page.text
    probes = [listen(table.pk, is_gm) for is_gm in (False, True)]
    data = {"crew_type": "smugglers", "name": "Tide", "ability": "ghost_passage",
            "start_0": "carriage", "upgrades": ["vault", "boat"], "contact": "Sera"}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("crew_create", args=[table.pk]), data)
    assert response.status_code == 302
    crew = Crew.objects.get(table=table)
    assert (crew.name, crew.abilities, crew.contact) == ("Tide", ["ghost_passage"], "Sera")
    assert crew.upgrades == {"carriage": 1, "prowess": 1, "vault": 1, "boat": 1}
    # The rules' starting books, whoever founds it (SRD_FACTS §6.2).
    assert (crew.tier, crew.hold, crew.rep, crew.coin, crew.heat) == (0, "strong", 0, 2, 0)
    layer = get_channel_layer()
    for probe in probes:
        frame = async_to_sync(layer.receive)(probe)["html"]
        assert 'id="crew-body" hx-swap-oob="morph"' in frame and "Ghost Passage" in frame


@pytest.mark.parametrize("who", ["outsider", "logged out"])
def test_a_stranger_cannot_found_the_crew(client, table, outsider, who):
    if who == "outsider":
        client.force_login(outsider)
    data = {"crew_type": "cult", "name": "Interlopers"}
    response = client.post(reverse("crew_create", args=[table.pk]), data)
    if who == "outsider":
        assert response.status_code == 404
    else:
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not Crew.objects.exists()


def test_the_gms_calls_stay_the_gms_after_a_player_founds(client, table, player):
    """Founding sets only what the rules fix or the players choose. Who keeps the sheet
    and the books, and the factions' status (the GM's calls of crew creation: the
    factions its upgrades helped or hurt, its contact's friend and enemy), stay the
    GM's."""
    faction = FactionFactory(table=table, status=0)
    client.force_login(player)
    client.post(reverse("crew_create", args=[table.pk]), {"crew_type": "cult", "name": "Us"})
    crew = Crew.objects.get(table=table)
    settings = {"players_keep_books": "on", "players_edit_sheet": "on", "xp_track": "10"}
    refused = client.post(reverse("crew_settings", args=[table.pk]), settings)
    assert refused.status_code == 403
    status = reverse("faction_status", args=[table.pk, faction.pk])
    assert client.post(status, {"status": "1"}).status_code == 403
    page = client.get(reverse("crew_detail", args=[table.pk])).text
    assert "/crew/settings/" not in page and "/crew/heat/" not in page
    crew.refresh_from_db()
    faction.refresh_from_db()
    assert (crew.players_keep_books, crew.xp_track, faction.status) == (False, 8, 0)
    # A second founding, by anyone, is refused beside the form.
    again = client.post(
        reverse("crew_create", args=[table.pk]), {"crew_type": "cult", "name": "Two"}
    )
    assert again.status_code == 422 and "This table already has a crew." in again.text
    assert Crew.objects.get().name == "Us"


def test_heat_rolls_over_into_wanted(crew):
    for _ in range(7):
        actions.add_heat(crew=crew, amount=1)
    change = actions.add_heat(crew=crew, amount=4)
    crew.refresh_from_db()
    assert (crew.heat, crew.wanted, change.wanted_gained) == (2, 1, 1)


def test_coin_by_hand_stops_at_the_vault(crew):
    actions.add_coin(crew=crew, amount=2)  # on top of the starting 2
    with pytest.raises(RuleError):
        actions.add_coin(crew=crew, amount=1)
    crew.refresh_from_db()
    assert crew.coin == 4


def test_payoff_may_leave_excess(crew):
    change = actions.add_coin(crew=crew, amount=6, allow_excess=True)
    crew.refresh_from_db()
    assert (crew.coin, change.excess, crew.coin_excess) == (8, 4, 4)


def test_vault_raises_the_limit(crew):
    """001 §Coin: "If they upgrade to a vault, they can expand their stores to 8 and then
    16 coin" (Vault's first box: 8)."""
    actions.mark_upgrade(crew=crew, key="vault", by=1)
    crew.refresh_from_db()
    assert (crew.coin_limit, crew.boxes_free) == (8, 1)


def test_turf_shortens_the_rep_track_and_stays_when_rep_resets(crew):
    turf = crew.claims.filter(turf=True).order_by("pk")
    for claim in turf[:2]:
        actions.set_claim(claim=claim, held=True, override=True)
    crew = Crew.objects.get(pk=crew.pk)
    assert (crew.turf, crew.rep_track) == (2, 10)
    actions.add_rep(crew=crew, amount=12)
    crew.refresh_from_db()
    assert crew.rep == 10
    actions.mark_upgrade(crew=crew, key="vault", by=1)
    actions.mark_upgrade(crew=crew, key="vault", by=1)
    actions.add_coin(crew=crew, amount=6)  # 8 with the starting 2
    result = actions.develop(crew=crew)
    crew = Crew.objects.get(pk=crew.pk)
    assert (result.kind, crew.tier, crew.hold, crew.rep, crew.coin, crew.turf) == (
        "tier_up",
        1,
        "weak",
        0,
        0,
        2,
    )


def test_develop_weak_hold_becomes_strong(crew):
    Crew.objects.filter(pk=crew.pk).update(hold="weak", rep=12)
    actions.develop(crew=crew)
    crew.refresh_from_db()
    assert (crew.hold, crew.rep, crew.tier) == ("strong", 0, 0)


def test_develop_refused_without_the_coin(crew):
    Crew.objects.filter(pk=crew.pk).update(rep=12)
    with pytest.raises(RuleError, match="costs 8 coin"):
        actions.develop(crew=crew)
    crew.refresh_from_db()
    assert (crew.tier, crew.rep) == (0, 12)


def test_crew_xp_gives_an_advance_spent_on_ability_or_boxes(crew):
    actions.mark_xp(crew=crew, amount=9)
    crew.refresh_from_db()
    assert (crew.xp, crew.advances) == (1, 1)
    actions.take_ability(crew=crew, key="ghost_echoes")
    crew.refresh_from_db()
    assert crew.abilities == ["everyone_steals", "ghost_echoes"] and crew.advances == 0
    with pytest.raises(RuleError):
        actions.spend_advance_on_upgrades(crew=crew)


def test_crew_advance_pays_every_active_scoundrel_tier_plus_two(crew):
    from tests.factories import CharacterFactory

    Crew.objects.filter(pk=crew.pk).update(tier=1)
    active = CharacterFactory(table=crew.table, stash=3)
    retired = CharacterFactory(table=crew.table, stash=3, state="retired")
    elsewhere = CharacterFactory(stash=3)
    actions.mark_xp(crew=crew, amount=7)
    active.refresh_from_db()
    assert active.stash == 3
    actions.mark_xp(crew=crew, amount=1)
    for character in (active, retired, elsewhere):
        character.refresh_from_db()
    assert (active.stash, retired.stash, elsewhere.stash) == (6, 3, 3)


def test_xp_track_length_is_a_setting(crew):
    actions.update_settings(
        crew=crew, players_edit_sheet=True, players_keep_books=False, xp_track=10
    )
    actions.mark_xp(crew=crew, amount=9)
    crew.refresh_from_db()
    assert (crew.xp, crew.advances) == (9, 0)


def test_mastery_and_training(crew):
    """crew_upgrades.json: Prowess "Training Prowess marks 2 xp instead of 1" (the Shadows
    start with it); Mastery, its four boxes marked: "Action ratings can advance up to 4"."""
    assert not crew.has_mastery
    assert crew.training_for("prowess") == 2 and crew.training_for("insight") == 1
    Crew.objects.filter(pk=crew.pk).update(boxes_free=4)
    for _ in range(4):
        actions.mark_upgrade(crew=crew, key="mastery", by=1)
    assert Crew.objects.get(pk=crew.pk).has_mastery


def test_upgrade_of_another_crew_type_refused(crew):
    with pytest.raises(RuleError):
        actions.mark_upgrade(crew=crew, key="ordained", by=1)


def test_cohort_costs_two_boxes_per_type_and_takes_harm(crew):
    """crew_upgrades.json: New cohort, 2 boxes, "Recruit a gang or an expert" (Add cohort
    type is 2 boxes more); SRD_FACTS 6.4: "Impaired (−1d quality)"."""
    cohort = actions.recruit_cohort(
        crew=crew, name="Rooks", kind="gang", types=["rooks"], edges=["loyal"], flaws=["wild"]
    )
    crew.refresh_from_db()
    assert crew.boxes_free == 0
    assert cohort.quality(crew) == 0 and cohort.scale(crew) == "1-2"
    with pytest.raises(RuleError):
        actions.recruit_cohort(
            crew=crew, name="", kind="expert", types=["Doctor"], edges=["loyal"], flaws=["wild"]
        )
    actions.set_cohort_harm(cohort=cohort, harm=2)
    assert Cohort.objects.get(pk=cohort.pk).harm_label == "Impaired"


def test_gm_grants_a_cohort_in_play(crew):
    actions.recruit_cohort(
        crew=crew,
        name="",
        kind="expert",
        types=["Spy"],
        edges=["loyal", "fearsome"],
        flaws=["wild", "savage"],
        gained_in_play=True,
    )
    crew.refresh_from_db()
    assert crew.boxes_free == 2
    assert crew.cohorts.get().quality(crew) == 1  # an expert is tier + 1


def test_war_lowers_hold_and_restores_it(crew, table):
    faction = FactionFactory(table=table, status=-2)
    actions.shift_status(faction=faction, delta=-1)
    crew = Crew.objects.get(pk=crew.pk)
    assert crew.at_war and (crew.shown_hold, crew.shown_tier) == ("weak", 0)
    assert crew.war.downtime_activities == 1 and crew.war.extra_heat == 1
    actions.shift_status(faction=faction, delta=1)
    crew = Crew.objects.get(pk=crew.pk)
    assert not crew.at_war and crew.shown_hold == "strong"


def test_war_with_a_hidden_faction_has_no_effect_yet(crew, table):
    FactionFactory(table=table, status=-3, hidden=True)
    assert not Crew.objects.get(pk=crew.pk).at_war


def test_custom_claim_counts_as_turf(table):
    crew = CrewFactory(table=table, crew_type="custom")
    claim = actions.add_claim(crew=crew, name="Docks", effect="", turf=True)
    actions.set_claim(claim=claim, held=True, override=True)
    assert Crew.objects.get(pk=crew.pk).rep_track == 11
    actions.remove_claim(claim=claim)
    assert not Claim.objects.exists()


def test_map_claims_cannot_be_removed(crew):
    with pytest.raises(RuleError):
        actions.remove_claim(claim=crew.claims.first())


def test_steady_gives_a_tenth_stress_box_and_hardened_a_fifth_trauma(table, player):
    """SRD_FACTS §6.3: Steady "+1 stress box", Hardened "+1 trauma box": the database no
    longer holds stress at 9, and the fifth trauma is the one that retires."""
    from characters import actions as character_actions
    from characters.models import Character
    from tests.factories import CharacterFactory

    crew = actions.create_crew(table=table, crew_type="shadows", name="Tenth Box")
    pc = CharacterFactory(table=table, owner=player, stress=8)
    Crew.objects.filter(pk=crew.pk).update(upgrades={"steady": 3, "hardened": 3})
    character_actions.mark_stress(character=pc, amount=1)
    pc = Character.objects.get(pk=pc.pk)
    assert (pc.stress, pc.trauma_pending, pc.stress_max) == (9, 0, 10)
    character_actions.mark_stress(character=pc, amount=1)
    pc = Character.objects.get(pk=pc.pk)
    assert (pc.stress, pc.trauma_pending) == (0, 1)
    Character.objects.filter(pk=pc.pk).update(traumas=["cold", "soft", "vicious", "haunted"])
    character_actions.choose_trauma(character=pc, condition="reckless")
    assert len(Character.objects.get(pk=pc.pk).traumas) == 5
