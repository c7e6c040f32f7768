"""Downtime, heat and the crew as the texts have them: raising an asset past a
critical, Attract Trouble, incarceration and its prison claims, cohorts."""

import pytest
from django.urls import reverse

from blades.rules.errors import RuleError
from characters.models import Character
from crews import actions as crew_actions
from crews.models import Crew
from play import downtime, phases
from play.models import Phase
from sessions.models import Roll
from tests.factories import CharacterFactory, CohortFactory, FactionFactory
from tests.play.test_phases import HX, FixedDice, books, fresh, to_step


@pytest.fixture
def pc(table, player):
    return CharacterFactory(table=table, owner=player, name="Cross")


@pytest.fixture
def in_downtime(table, crew, gm):
    to_step(table, crew, FactionFactory(table=table, tier=2), "activities", gm)
    return Phase.objects.get(table=table).score


def test_an_asset_past_a_critical_costs_2_coin_a_quality_level(
    client, in_downtime, table, crew, pc, player
):
    """RULES.md "Acquire asset": "crit → tier + 2 (beyond that 2 coin per extra level)"."""
    Crew.objects.filter(pk=crew.pk).update(tier=2)
    Character.objects.filter(pk=pc.pk).update(coin=4)
    activity = downtime.acquire_asset(
        character=pc, roller=player, description="A fine carriage", rng=FixedDice(6, 6)
    )
    assert activity.amount == 4  # tier 2, critical: tier + 2
    client.force_login(player)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert "Spend 2 coin for +1 quality" in page
    url = reverse("activity_raise", args=[table.pk, activity.pk])
    assert client.post(url, {"coin": "2"}, headers=HX).status_code == 200
    activity.refresh_from_db()
    assert (activity.amount, str(activity.result)) == (
        5,
        "A fine carriage: quality 5 (raised for 2 coin)",
    )
    assert fresh(pc).coin == 2
    refused = client.post(url, {"coin": "1"}, headers=HX)
    assert refused.status_code == 422 and "costs 2 coin" in refused.content.decode()
    assert client.post(url, {"coin": "2"}, headers=HX).status_code == 200
    activity.refresh_from_db()
    assert activity.amount == 6 and fresh(pc).coin == 0 and books(crew)["heat"] == 2


# --- Incarceration and the prison claims ------------------------------------------------


def test_a_critical_inside_gives_a_held_prison_claim_whose_effect_applies(table, crew, gm, pc):
    """RULES.md "Incarceration roll": "critical: +3 rep, one prison claim"; 003 Prison
    claims: Cell block control "You never take trauma from incarceration"."""
    Crew.objects.filter(pk=crew.pk).update(wanted=2, tier=2)
    phases.incarcerate(
        crew=crew, roller=gm, prisoner="", prison_claim="cell_block_control", character=pc,
        rng=FixedDice(6, 6),
    )  # fmt: skip
    claim = crew.claims.get(name="Cell Block Control")
    assert claim.held and claim.effect == "Never take trauma from incarceration."
    assert books(crew)["rep"] == 3 and books(crew)["wanted"] == 1
    phases.incarcerate(
        crew=crew, roller=gm, prisoner="", prison_claim="guard_payoff", character=pc,
        rng=FixedDice(1, 2),
    )  # fmt: skip
    assert fresh(pc).trauma_pending == 0  # 1-3 would have been a trauma
    assert not crew.claims.filter(name="Guard Payoff").exists()


def test_the_gm_sends_a_pc_to_prison_from_the_phase_page(client, table, crew, gm, pc, player):
    """003 Incarceration: "your wanted level is reduced by 1 and you clear your heat"."""
    Crew.objects.filter(pk=crew.pk).update(heat=4, wanted=2)
    client.force_login(gm)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert "Send someone to prison" in page and "Hardcase: " in page
    url = reverse("crew_incarcerate", args=[table.pk])
    data = {"form": "prison", "character": pc.pk, "prison_claim": "no such claim"}
    refused = client.post(url, data, headers=HX)
    assert refused.status_code == 422
    assert "Choose the prison claim the crew takes." in refused.content.decode()
    assert books(crew)["wanted"] == 2 and not Roll.objects.filter(kind="incarceration").exists()
    data["prison_claim"] = "hardcase"
    assert client.post(url, data, headers=HX).status_code == 200
    assert (books(crew)["heat"], books(crew)["wanted"]) == (0, 1)
    assert str(Roll.objects.get(kind="incarceration").note) == "Cross serves time: several months"
    client.force_login(player)
    assert client.post(url, data, headers=HX).status_code == 403


def test_at_wanted_level_0_time_served_is_a_few_weeks_not_a_beating(client, table, crew, gm, pc):
    """003 Incarceration: "Wanted Level 0: A few weeks. Or, the constables give you a
    beating": whoever is handed over to serve time serves a few weeks; the beating is
    the Arrest's other way out, not a sentence."""
    Crew.objects.filter(pk=crew.pk).update(heat=4, wanted=0)
    client.force_login(gm)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert "Wanted level 0: a few weeks." in page and "beating" not in page
    phases.incarcerate(
        crew=crew, roller=gm, prisoner="", character=pc, prison_claim="hardcase",
        rng=FixedDice(6, 6),  # tier 0: two dice, the lower counts
    )  # fmt: skip
    assert str(Roll.objects.get(kind="incarceration").note) == "Cross serves time: a few weeks"


def test_an_arrest_hands_a_pc_over_and_the_claim_is_the_one_chosen(table, crew, gm, pc):
    """003 Arrest: "hand someone over for arrest (this clears your heat)"."""
    Crew.objects.filter(pk=crew.pk).update(tier=1)
    to_step(table, crew, FactionFactory(table=table, tier=2), "entanglement", gm)
    Crew.objects.filter(pk=crew.pk).update(heat=7, wanted=1)
    phases.roll_entanglement(table=table, roller=gm, rng=FixedDice(6))
    phases.resolve_entanglement(
        table=table, roller=gm, name="Arrest", choice="hand_over", character=pc,
        prison_claim="smuggling", rng=FixedDice(6),
    )  # fmt: skip
    assert crew.claims.get(name="Smuggling").held
    assert str(Roll.objects.get(kind="incarceration").note) == "Cross serves time: a month or two"


# --- Attract Trouble -------------------------------------------------------------------


def test_attract_trouble_gives_an_extra_entanglement_the_gm_rolls_and_resolves(
    client, in_downtime, table, crew, pc, gm, player
):
    """SRD_FACTS 1.7 Overindulge: "Attract Trouble — take (choose or roll) one extra
    entanglement"."""
    Character.objects.filter(pk=pc.pk).update(stress=2, prowl=1, study=1)
    activity = downtime.indulge_vice(character=pc, roller=player, rng=FixedDice(5))
    client.force_login(player)
    url = reverse("activity_overindulge", args=[table.pk, activity.pk])
    assert client.post(url, {"choice": "attract_trouble"}, headers=HX).status_code == 200
    roll_url = reverse("activity_trouble", args=[table.pk, activity.pk])
    assert client.post(roll_url, headers=HX).status_code == 403  # the GM's roll
    client.force_login(gm)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert "Roll the extra entanglement for Cross" in page
    Crew.objects.filter(pk=crew.pk).update(heat=2, wanted=0)
    phases.roll_trouble(activity=activity, roller=gm, rng=FixedDice(4, 5))  # 4: heat 0-3
    activity.refresh_from_db()
    assert activity.entanglements == ["Rivals", "Unquiet Dead"]
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert f'id="trouble-{activity.pk}-choice"' in page
    resolve = reverse("entanglement_resolve", args=[table.pk])
    data = {"activity": activity.pk, "choice": "Unquiet Dead:deal", "dice": "2"}
    assert client.post(resolve, data, headers=HX).status_code == 200
    activity.refresh_from_db()
    assert str(activity.trouble) == "Unquiet Dead: Deal with it yourselves: play it out"
    assert Phase.objects.get(table=table).step == "activities"
    assert client.post(resolve, data, headers=HX).status_code == 422  # resolved once


# --- Cohorts ---------------------------------------------------------------------------


def test_cohorts_heal_a_level_each_downtime_and_two_when_a_pc_tends_them(
    client, in_downtime, table, crew, pc, gm, player
):
    """SRD_FACTS 6.4: "Cohorts heal 1 level each downtime, or 2 if a PC spends an activity
    on them"."""
    thugs = CohortFactory(crew=crew, name="Thugs", harm=3)  # broken
    CohortFactory(crew=crew, name="Rooks", harm=2)  # impaired
    ghosts = CohortFactory(crew=crew, name="Ghosts", harm=4)  # dead
    client.force_login(player)
    url = reverse("downtime_activity", args=[table.pk, pc.pk])
    data = {"kind": "tend_cohort", "cohort": thugs.pk}
    assert client.post(url, data, headers=HX).status_code == 200
    again = client.post(url, data, headers=HX)
    assert again.status_code == 422 and "Thugs is already tended" in again.content.decode()
    dead = client.post(url, {**data, "cohort": ghosts.pk}, headers=HX)
    assert dead.status_code == 422 and "no harm to heal" in dead.content.decode()
    downtime.end_downtime(table=table)
    harm = dict(crew.cohorts.values_list("name", "harm"))
    assert harm == {"Thugs": 1, "Rooks": 1, "Ghosts": 4}


def test_downtime_does_not_end_with_more_coin_than_the_lair_keeps(in_downtime, table, crew, pc):
    """ "A crew can also store 4 coin in their lair, by default ... Any coin beyond their
    limit must be spent as soon as possible (typically before the next score) or
    distributed among the crew members" (001 §Coin): downtime is when it is spent, so
    it does not end with 5 coin and no vault."""
    Crew.objects.filter(pk=crew.pk).update(coin=5, upgrades={})
    with pytest.raises(RuleError, match="more than its lair keeps"):
        downtime.end_downtime(table=table)
    assert Phase.objects.get(table=table).step == "activities"
    crew_actions.share_coin(crew=Crew.objects.get(pk=crew.pk), character=pc, amount=1)
    downtime.end_downtime(table=table)
    assert Phase.objects.get(table=table).step == "free_play"


def test_closing_the_session_warns_of_a_pc_with_no_end_of_session_xp(
    client, table, crew, pc, gm, player
):
    """ "At the end of the session, review the xp triggers on your character sheet" (001
    §PC Advancement): the GM closing the review before Cross's player has is warned."""
    downtime.start_xp_review(table=table)
    client.force_login(gm)
    warning = "No end-of-session xp is marked yet for Cross"
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert warning in page and 'hx-confirm="No end-of-session xp' in page
    client.force_login(player)
    url = reverse("xp_character", args=[table.pk, pc.pk])
    client.post(url, {"playbook": "1"}, headers=HX)
    client.force_login(gm)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert warning not in page and "hx-confirm" not in page.split("Close the session")[0][-400:]
