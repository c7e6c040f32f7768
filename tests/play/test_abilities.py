"""Crew and playbook abilities applied in the score, payoff and downtime (issue 28).
Each test quotes the ability's text (blades/content, SRD_FACTS §1 and §6, 000)."""

import pytest

from characters.models import Character
from crews import actions as crew_actions
from crews.models import Crew
from play import downtime, phases
from play.models import Phase
from sessions.models import Roll
from tests.factories import CharacterFactory, FactionFactory
from tests.helpers import give_ability as give
from tests.play.test_phases import FixedDice, books, fresh, to_step

pytestmark = pytest.mark.django_db


def crew_takes(crew, *keys: str) -> None:
    Crew.objects.filter(pk=crew.pk).update(abilities=list(keys))


def test_second_story_adds_1d_to_a_stealth_plans_engagement_roll(table, crew, faction, gm):
    """Second Story (Shadows): "+1d to the engagement roll for clandestine
    infiltrations" (the stealth plan); Door Kickers' assault plan gets nothing."""
    crew_takes(crew, "second_story", "door_kickers")
    to_step(table, crew, faction, "score", gm)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=FixedDice(2, 5))
    roll = Roll.objects.get(table=table, kind="engagement")
    assert roll.pool == 2 and str(roll.note).endswith("+1d Second Story")


def test_door_kickers_adds_1d_to_an_assault_plans_engagement_roll(table, crew, faction, gm):
    """Door Kickers (Bravos): "+1d to the engagement roll for assault plans"; Second
    Story's stealth plan gets nothing from it."""
    crew_takes(crew, "door_kickers", "second_story")
    phases.start_score(table=table, plan="assault", detail="The front gate", target_faction=faction)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=FixedDice(2, 5))
    roll = Roll.objects.get(table=table, kind="engagement")
    assert roll.pool == 2 and str(roll.note).endswith("+1d Door Kickers")
    assert "Second Story" not in str(roll.note)


def test_no_traces_and_leverage_change_the_scores_rep(table, crew, faction, gm):
    """No Traces (Assassins): "A quiet or 'accidental' job earns half the target's rep
    value (round up) instead of none"; Leverage (Smugglers): "whenever you gain rep, gain
    +1 more". Tier 2 target, tier 0 crew: 4 rep, half is 2, and 1 more."""
    crew_takes(crew, "no_traces", "leverage")
    to_step(table, crew, faction, "payoff", gm)
    phases.payoff(table=table, size="standard", quiet=True)
    assert books(crew)["rep"] == 3


def test_patron_halves_the_coin_to_advance_tier(crew):
    """Patron: "A powerful backer halves the coin cost of advancing Tier" (8 becomes 4)."""
    Crew.objects.filter(pk=crew.pk).update(rep=12, coin=4, hold="strong")
    crew_takes(crew, "patron")
    assert Crew.objects.get(pk=crew.pk).tier_up_cost == 4
    crew_actions.develop(crew=crew)
    after = Crew.objects.get(pk=crew.pk)
    assert (after.tier, after.coin) == (1, 0)


def test_fiends_counts_each_wanted_level_as_turf(crew):
    """Fiends (Bravos): "each wanted level counts as a turf": the rep track shortens."""
    Crew.objects.filter(pk=crew.pk).update(wanted=2)
    assert Crew.objects.get(pk=crew.pk).rep_track == 12
    crew_takes(crew, "fiends")
    assert Crew.objects.get(pk=crew.pk).rep_track == 10


def test_accord_counts_up_to_three_allies_as_turf(table, crew):
    """Accord (Hawkers): "Up to three +3 faction relationships each count as a turf"."""
    for n in range(4):
        FactionFactory(table=table, name=f"Ally {n}", status=3)
    crew_takes(crew, "accord")
    assert Crew.objects.get(pk=crew.pk).rep_track == 9


@pytest.fixture
def in_downtime(table, crew, faction, gm):
    to_step(table, crew, faction, "activities", gm)
    return Phase.objects.get(table=table).score


def test_pack_rats_and_connected_on_acquire_asset(in_downtime, crew, pc, player):
    """Pack Rats (Shadows): "+1d to acquire asset rolls"; Connected (Spider): "+1 result
    level on acquire asset". Tier 0 with Pack Rats: 1d; a 5 raised to a 6 is quality 1."""
    crew_takes(crew, "pack_rats")
    give(pc, "connected")
    activity = downtime.acquire_asset(
        character=pc, roller=player, description="A boat", rng=FixedDice(5)
    )
    assert activity.roll.pool == 1 and activity.amount == 1


def test_slippery_and_connected_on_reduce_heat(in_downtime, crew, pc, player):
    """Slippery (Shadows): "+1d to reduce heat"; Connected: "+1 result level on ... reduce
    heat". Skirmish 2 and Slippery: 3d; a 3 raised to a 4-5 removes 2 heat, not 1."""
    Crew.objects.filter(pk=crew.pk).update(heat=6)
    crew_takes(crew, "slippery")
    give(pc, "connected")
    activity = downtime.reduce_heat(
        character=pc, roller=player, action="skirmish", rng=FixedDice(3, 2, 1)
    )
    assert activity.roll.pool == 3 and books(crew)["heat"] == 4


def test_physicker_gives_the_whole_crew_1d_to_healing_treatment(
    in_downtime, table, other_player, pc, player
):
    """Physicker (Leech): "the whole crew gets +1d to healing treatment rolls"."""
    give(CharacterFactory(table=table, owner=other_player), "physicker")
    activity = downtime.recover(
        character=pc, roller=player, healer="npc", quality=2, rng=FixedDice(1, 1, 1)
    )
    assert activity.roll.pool == 3


def test_the_end_of_downtime_with_side_stash_heat_and_no_traces(in_downtime, table, crew, pc):
    """A Little Something on the Side (Slide): "+2 stash at the end of every downtime";
    High Society (Hawkers) and Just Passing Through (Smugglers): "-1 heat each downtime";
    No Traces: "ending downtime at 0 heat gives +1 rep". The score left 2 heat."""
    give(pc, "a_little_something_on_the_side")
    crew_takes(crew, "high_society", "just_passing_through", "no_traces")
    rep = books(crew)["rep"]
    downtime.end_downtime(table=table)
    assert fresh(pc).stash == 2
    assert books(crew)["heat"] == 0 and books(crew)["rep"] == rep + 1


def test_ironhook_contacts_and_jail_bird_in_prison(table, crew, gm, pc):
    """Ironhook Contacts: "+1 Tier while in prison (incarceration roll)"; Jail Bird
    (Spider): "your wanted level counts 1 lower and your Tier 1 higher". Tier 1, wanted 2:
    3d, and the sentence of wanted 1 (not "several months")."""
    Crew.objects.filter(pk=crew.pk).update(wanted=2, tier=1, upgrades={"ironhook_contacts": 1})
    give(pc, "jail_bird")
    phases.incarcerate(
        crew=crew, roller=gm, prisoner="", prison_claim="hardcase", character=pc,
        rng=FixedDice(6, 2, 2),
    )  # fmt: skip
    roll = Roll.objects.get(table=table, kind="incarceration")
    assert roll.pool == 3 and str(roll.note) == "Cross serves time: a month or two"
    assert Character.objects.get(pk=pc.pk).trauma_pending == 0


def test_crows_veil_takes_no_extra_heat_for_killing(table, crew, faction, gm):
    """Crow's Veil (Assassins): "no extra heat when a score involves killing"."""
    crew_takes(crew, "crows_veil")
    to_step(table, crew, faction, "heat", gm)
    phases.take_heat(table=table, exposure="contained", killing=True)
    assert books(crew)["heat"] == 2


def test_war_dogs_loses_no_hold_at_war(table, crew):
    """War Dogs (Bravos): "At war (status -3) the crew loses no hold"."""
    Crew.objects.filter(pk=crew.pk).update(hold="strong", tier=1)
    FactionFactory(table=table, name="Red Sashes", status=-3)
    assert Crew.objects.get(pk=crew.pk).shown_hold == "weak"
    crew_takes(crew, "war_dogs")
    shown = Crew.objects.get(pk=crew.pk)
    assert (shown.shown_hold, shown.shown_tier) == ("strong", 1)


def test_the_phase_page_reminds_of_abilities_at_their_step(client, table, crew, faction, gm, pc):
    """Slippery (Shadows): "Roll entanglements twice and keep the one you prefer" is
    shown at the entanglement step; Analyst (Leech): "Each downtime, get two free ticks to
    spread over long-term projects" in downtime, with whose it is."""
    from django.urls import reverse

    crew_takes(crew, "slippery")
    give(pc, "analyst")
    client.force_login(gm)
    url = reverse("phase_panel", args=[table.pk])
    to_step(table, crew, faction, "entanglement", gm)
    page = client.get(url).content.decode()
    assert "<strong>Slippery</strong>" in page and "Analyst" not in page
    phases.roll_entanglement(table=table, roller=gm, rng=FixedDice(6, 6, 6, 6))  # Slippery: twice
    phases.resolve_entanglement(table=table, roller=gm, name="Cooperation", choice="avoid")
    page = client.get(url).content.decode()
    assert "<strong>Analyst</strong> (Cross)" in page and "Slippery" not in page


def test_vengeful_marks_xp_at_the_review(client, in_downtime, table, pc, player):
    """Vengeful (Hound): "Extra xp trigger: you got payback on someone who hurt you or
    yours": the review offers the line and takes its xp; without it the mark is refused;
    "if the crew helped, mark crew xp too" is the GM's, reminded at the review."""
    from django.urls import reverse

    from blades.rules.errors import RuleError

    downtime.end_downtime(table=table)
    downtime.start_xp_review(table=table)
    with pytest.raises(RuleError, match="Mark only"):
        downtime.review_character_xp(character=pc, triggers={"vengeful": 2}, tracks={"playbook": 2})
    give(pc, "vengeful")
    client.force_login(player)
    page = client.get(reverse("phase_panel", args=[table.pk])).content.decode()
    assert "You got payback against someone who harmed you" in page
    assert "<strong>Vengeful</strong> (Cross): Extra xp trigger" in page
    # The extra line is ticked like the others, its xp on the track tapped.
    url = reverse("xp_character", args=[table.pk, pc.pk])
    client.post(url, {"vengeful": "2", "vengeful_track": "prowess"})
    assert fresh(pc).prowess_xp == 2


def test_calculating_gives_one_free_extra_activity_each_downtime(
    client, in_downtime, table, crew, pc, player, other_player
):
    """Calculating (Spider): "give yourself or another crew member one extra downtime
    activity": the Spider's teammate takes a third activity for nothing, once."""
    from django.urls import reverse

    from blades.rules.errors import RuleError

    downtime.train(character=pc, track="insight")
    downtime.train(character=pc, track="prowess")
    with pytest.raises(RuleError, match="No one in the crew has Calculating"):
        downtime.train(character=pc, track="resolve", pay_with="calc")
    give(CharacterFactory(table=table, owner=other_player), "calculating")
    client.force_login(player)
    url = reverse("phase_panel", args=[table.pk])
    assert "Calculating (free, once this downtime)" in client.get(url).content.decode()
    downtime.train(character=pc, track="resolve", pay_with="calc")
    assert (fresh(pc).coin, books(crew)["rep"]) == (0, 4)  # nothing paid
    page = client.get(url).content.decode()
    assert "(an extra activity from Calculating)" in page and "free, once" not in page
    with pytest.raises(RuleError, match="taken this downtime"):
        downtime.train(character=pc, track="playbook", pay_with="calc")


def test_each_spider_with_calculating_gives_an_extra_activity(
    in_downtime, table, crew, pc, player, other_player
):
    """Calculating (Spider): "give yourself or another crew member one extra downtime
    activity": the ability is each Spider's, so two Spiders who have it give two."""
    from blades.rules.errors import RuleError

    give(pc, "calculating")
    give(CharacterFactory(table=table, owner=other_player), "calculating")
    downtime.train(character=pc, track="insight")
    downtime.train(character=pc, track="prowess")
    downtime.train(character=pc, track="resolve", pay_with="calc")
    downtime.train(character=pc, track="playbook", pay_with="calc")
    with pytest.raises(RuleError, match="taken this downtime"):
        downtime.recover(character=pc, roller=player, healer="npc", quality=1, pay_with="calc")


def test_the_score_step_reminds_of_the_abilities_of_its_engagement_roll(
    client, table, crew, faction, gm, pc
):
    """Predators (Assassins): "+1d to the engagement roll when you murder through stealth
    or subterfuge"; Weaving the Web (Spider): "+1d to that score's engagement roll" (after
    Consort on its target): both the GM's to judge, shown at the score step."""
    from django.urls import reverse

    Crew.objects.filter(pk=crew.pk).update(crew_type="assassins", abilities=["predators"])
    give(pc, "weaving_the_web")
    client.force_login(gm)
    to_step(table, crew, faction, "score", gm)
    page = client.get(reverse("phase_panel", args=[table.pk])).content.decode()
    assert "<strong>Predators</strong>: +1d to the engagement roll" in page
    assert "<strong>Weaving the Web</strong> (Cross)" in page


def test_leverage_adds_a_rep_to_the_incarceration_rolls_rep(table, crew, gm, pc):
    """Leverage (Smugglers): "whenever you gain rep, gain +1 more": a critical inside
    gives "+3 rep" (RULES.md "Incarceration roll"), 4 with Leverage."""
    Crew.objects.filter(pk=crew.pk).update(wanted=2, tier=2, rep=0)
    crew_takes(crew, "leverage")
    phases.incarcerate(
        crew=crew, roller=gm, prisoner="", prison_claim="hardcase", character=pc,
        rng=FixedDice(6, 6),
    )  # fmt: skip
    assert books(crew)["rep"] == 4


def test_slippery_rolls_the_entanglement_twice_and_offers_both(table, crew, faction, gm):
    """Slippery (Shadows): "Roll entanglements twice and keep the one you prefer": two
    rolls in the log, and the GM picks from what either offered (heat 2: a 6 offers
    Cooperation, a 2 Gang Trouble or The Usual Suspects)."""
    crew_takes(crew, "slippery")
    to_step(table, crew, faction, "entanglement", gm)
    Crew.objects.filter(pk=crew.pk).update(heat=2, wanted=1)
    score = phases.roll_entanglement(table=table, roller=gm, rng=FixedDice(6, 2))
    assert score.entanglements == ["Cooperation", "Gang Trouble", "The Usual Suspects"]
    assert Roll.objects.filter(table=table, kind="entanglement").count() == 2
    phases.resolve_entanglement(
        table=table, roller=gm, name="Cooperation", choice="avoid"
    )  # the crew keeps the roll it prefers
    assert Phase.objects.get(table=table).step == "activities"


def _indulged(pc, player, stress: int, die: int):
    """Cross indulges at `stress` and the counting die falls on `die` (every die alike)."""
    Character.objects.filter(pk=pc.pk).update(stress=stress)
    return downtime.indulge_vice(character=pc, roller=player, rng=FixedDice(*[die] * 6))


def test_functioning_vice_shifts_the_die_after_seeing_it(client, in_downtime, pc, player):
    """Functioning Vice (Spider): "When you indulge, shift the die result up or down by 1
    or 2" (the app's ability text): a 3 at 6 stress clears 3; shifted +2 it clears 5.
    Offered only to a Spider who has it, once."""
    from django.urls import reverse

    activity = _indulged(pc, player, stress=6, die=3)
    assert fresh(pc).stress == 3
    client.force_login(player)
    url = reverse("activity_vice_shift", args=[pc.table_id, activity.pk])
    refused = client.post(url, {"shift": "2"}, HTTP_HX_REQUEST="true")
    assert (
        refused.status_code == 422 and "does not have Functioning Vice" in refused.content.decode()
    )
    give(pc, "functioning_vice")
    page = client.get(reverse("phase_panel", args=[pc.table_id])).content.decode()
    assert "Functioning Vice: shift the die" in page
    assert client.post(url, {"shift": "2"}, HTTP_HX_REQUEST="true").status_code == 200
    assert fresh(pc).stress == 1
    activity.refresh_from_db()
    assert (activity.vice_shift, activity.amount) == (2, 5)
    assert str(activity.result) == "Functioning Vice: the die reads 5; clear 5 stress"
    page = client.get(reverse("phase_panel", args=[pc.table_id])).content.decode()
    assert "Functioning Vice: shift the die" not in page
    again = client.post(url, {"shift": "-1"}, HTTP_HX_REQUEST="true")
    assert again.status_code == 422 and fresh(pc).stress == 1


def test_functioning_vice_shifts_an_overindulgence_away(client, in_downtime, pc, player):
    """Functioning Vice: "shift the die result up or down by 1 or 2": a 4 at 2 stress
    overindulges; shifted -2 it clears the 2 stress and no more, so no overindulgence is
    left to choose. A shift of 3 is refused with the rule's message."""
    from django.urls import reverse

    give(pc, "functioning_vice")
    activity = _indulged(pc, player, stress=2, die=4)
    assert activity.overindulged and fresh(pc).stress == 0
    client.force_login(player)
    url = reverse("activity_vice_shift", args=[pc.table_id, activity.pk])
    wrong = client.post(url, {"shift": "3"}, HTTP_HX_REQUEST="true")
    assert wrong.status_code == 422
    assert client.post(url, {"shift": "-2"}, HTTP_HX_REQUEST="true").status_code == 200
    activity.refresh_from_db()
    assert (activity.overindulged, activity.amount, fresh(pc).stress) == (False, 2, 0)
    page = client.get(reverse("phase_panel", args=[pc.table_id])).content.decode()
    assert "Choose overindulgence" not in page


def _project(client, player, pc, **data):
    from django.urls import reverse

    client.force_login(player)
    url = reverse("downtime_activity", args=[pc.table_id, pc.pk])
    post = {"kind": "project", "action": "study", "clock_name": "The cipher", **data}
    return client.post(url, post, HTTP_HX_REQUEST="true")


def test_analyst_puts_its_two_free_ticks_on_a_project(client, in_downtime, pc, player):
    """Analyst (Leech): "Each downtime, get two free ticks to spread over long-term
    projects for investigation or learning a formula or design" (the app's ability
    text): offered on the project form, the ticks go on its clock beside the roll's;
    once the two are spread, none is left this downtime."""
    from django.urls import reverse

    from blades.rules.dice import Outcome
    from blades.rules.rolls import downtime_ticks
    from play.models import DowntimeActivity

    refused = _project(client, player, pc, analyst="2")
    assert (
        refused.status_code == 422 and "Only a character with Analyst" in refused.content.decode()
    )
    give(pc, "analyst")
    page = client.get(reverse("phase_panel", args=[pc.table_id])).content.decode()
    assert "Analyst's free ticks" in page and "(2 left this downtime)" in page
    assert _project(client, player, pc, analyst="2").status_code == 200
    activity = DowntimeActivity.objects.get(character=pc, kind="project")
    assert activity.free_ticks == 2
    assert activity.amount == downtime_ticks(Outcome(activity.outcome)) + 2
    assert activity.clock.filled == min(activity.amount, activity.clock.segments)
    assert "(2 from Analyst)" in str(activity.result)
    more = _project(client, player, pc, analyst="1", pay_with="coin")
    assert more.status_code == 422 and "0 left" in more.content.decode()
    page = client.get(reverse("phase_panel", args=[pc.table_id])).content.decode()
    assert "Analyst's free ticks" not in page


def test_a_mastermind_pays_a_projects_push_with_special_armor(client, in_downtime, pc, player):
    """Mastermind (000): "You may expend your special armor to ... push yourself when you
    ... work on a long-term project ... you get one of the benefits (+1d, +1 effect, act
    despite severe harm) but you don't take 2 stress": the project's push gives its die,
    the special armor is marked and no stress is."""
    from django.urls import reverse

    from play.models import DowntimeActivity

    refused = _project(client, player, pc, push="1", push_special="1")
    assert refused.status_code == 422 and "Only a Mastermind" in refused.content.decode()
    give(pc, "mastermind")
    page = client.get(reverse("phase_panel", args=[pc.table_id])).content.decode()
    assert "Pay the push with special armor (Mastermind)" in page
    stress = fresh(pc).stress
    assert _project(client, player, pc, push="1", push_special="1").status_code == 200
    activity = DowntimeActivity.objects.get(character=pc, kind="project")
    assert activity.roll.pool == fresh(pc).study + 1
    assert fresh(pc).special_used and fresh(pc).stress == stress
    page = client.get(reverse("phase_panel", args=[pc.table_id])).content.decode()
    assert "Pay the push with special armor" not in page


def test_jail_bird_gains_status_with_the_faction_helped_inside(
    client, in_downtime, table, crew, faction, gm, pc
):
    """Jail Bird (Spider): "When jailed, your wanted level counts 1 lower and your Tier 1
    higher, and you gain +1 status with a faction you help inside" (the app's ability
    text): whatever the roll, on top of its own +1 on a 6. The GM names the faction; the
    prison form says so. Tier 0 and Jail Bird: 1d, so no critical."""
    from django.urls import reverse

    from crews.models import Faction

    give(pc, "jail_bird")
    client.force_login(gm)
    page = client.get(reverse("phase_panel", args=[table.pk])).content.decode()
    assert "Jail Bird (Cross): serving the time, +1 status" in page
    before = Faction.objects.get(pk=faction.pk).status
    url = reverse("crew_incarcerate", args=[table.pk])
    data = {"character": pc.pk, "faction": faction.pk, "prison_claim": "hardcase"}
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    roll = Roll.objects.get(table=table, kind="incarceration")
    from_roll = 1 if roll.outcome == "success" else 0
    assert roll.pool == 1
    assert Faction.objects.get(pk=faction.pk).status == before + 1 + from_roll


def test_jail_bird_handed_over_for_an_arrest_gains_status_too(table, crew, gm, pc):
    """Jail Bird (Spider): "you gain +1 status with a faction you help inside" (the app's
    ability text), also when an Arrest hands them over: the way out names the faction
    helped inside as the prison form does. Tier 1 and Jail Bird: 2d; a 4-5 earns the
    roll nothing, Jail Bird its +1."""
    from crews.models import Faction

    give(pc, "jail_bird")
    Crew.objects.filter(pk=crew.pk).update(tier=1)
    helped = FactionFactory(table=table, tier=2)
    to_step(table, crew, helped, "entanglement", gm)
    Crew.objects.filter(pk=crew.pk).update(heat=7, wanted=1)
    phases.roll_entanglement(table=table, roller=gm, rng=FixedDice(6))
    before = Faction.objects.get(pk=helped.pk).status
    phases.resolve_entanglement(
        table=table, roller=gm, name="Arrest", choice="hand_over", character=pc,
        faction=helped, prison_claim="smuggling", rng=FixedDice(4, 5),
    )  # fmt: skip
    assert Faction.objects.get(pk=helped.pk).status == before + 1
