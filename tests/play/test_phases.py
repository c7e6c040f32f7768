"""The phase machine, step by step: who may run each step, and what it does to the books."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from blades.rules.character import RuleError
from characters import actions as character_actions
from characters.models import Character
from crews import actions as crew_actions
from crews.models import Crew, Faction
from play import downtime, phases
from play.models import DowntimeActivity, Flashback, Phase
from sessions.models import Clock, Roll
from tests.factories import CharacterFactory, FactionFactory


class FixedDice:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, low, high):
        return self.faces.pop(0)


HX = {"HX-Request": "true"}


@pytest.fixture
def other_pc(table, other_player):
    return CharacterFactory(table=table, owner=other_player, name="Slane")


def books(crew):
    c = Crew.objects.get(pk=crew.pk)
    return {"rep": c.rep, "heat": c.heat, "wanted": c.wanted, "coin": c.coin, "xp": c.xp}


def step(table):
    return Phase.objects.get(table=table).step


def fresh(character):
    return Character.objects.get(pk=character.pk)


def to_step(table, crew, faction, wanted_step, gm):
    """Play the loop up to `wanted_step` with fixed dice."""
    phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
    if wanted_step == "score":
        return
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=FixedDice(4))
    phases.end_score(table=table)
    if wanted_step == "payoff":
        return
    # A minor job's 2 coin leave the crew at the 4 its lair keeps: downtime can end.
    phases.payoff(table=table, size="minor")
    if wanted_step == "heat":
        return
    phases.take_heat(table=table, exposure="contained")
    if wanted_step == "entanglement":
        return
    phases.roll_entanglement(table=table, roller=gm, rng=FixedDice(6, 6))
    # No faction stands at +3 with the crew: Cooperation passes them by.
    phases.resolve_entanglement(table=table, roller=gm, name="Cooperation", choice="avoid")


# --- The score -------------------------------------------------------------------------


def test_gm_starts_a_score_against_a_faction_and_everyone_sees_the_phase(
    client, table, crew, faction, gm, player
):
    client.force_login(player)
    url = reverse("score_start", args=[table.pk])
    data = {"plan": "stealth", "detail": "The roof", "faction": faction.pk}
    assert client.post(url, data).status_code == 403
    client.force_login(gm)
    assert client.post(url, data, headers=HX).status_code == 200
    score = Phase.objects.get(table=table).score
    # The faction is kept by reference only: its name is named per audience.
    assert (score.target_faction, score.target_name, score.target_tier) == (faction, "", 2)
    assert (score.plan, score.detail, str(score)) == ("stealth", "The roof", "Stealth on Bluecoats")
    assert score.detail_label == "Point of infiltration"
    client.force_login(player)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert "Stealth on Bluecoats" in page


def test_a_bad_plan_is_refused_with_a_message_and_nothing_starts(client, table, crew, gm):
    client.force_login(gm)
    response = client.post(
        reverse("score_start", args=[table.pk]),
        {"plan": "heist", "detail": "x", "target_name": "A bank", "target_tier": "1"},
        headers=HX,
    )
    assert response.status_code == 422
    assert "not a plan" in response.content.decode()
    assert step(table) == "free_play"


def test_each_player_chooses_their_own_load_and_armor_comes_back(
    client, table, crew, faction, pc, other_pc, gm, player
):
    Character.objects.filter(pk=pc.pk).update(armor_used=True)
    to_step(table, crew, faction, "score", gm)
    client.force_login(player)
    response = client.post(reverse("score_load", args=[table.pk, pc.pk]), {"load": "light"})
    assert response.status_code == 302
    assert (fresh(pc).load, fresh(pc).armor_used) == ("light", False)
    response = client.post(reverse("score_load", args=[table.pk, other_pc.pk]), {"load": "heavy"})
    assert response.status_code == 403
    assert fresh(other_pc).load == ""


@pytest.mark.parametrize(
    "marks,faces,position,past",
    [
        ({}, (6,), "controlled", False),
        ({"plan": "advantage"}, (6, 6), "controlled", True),
        ({"plan": "advantage", "detail": "disadvantage"}, (4,), "risky", False),
        ({"plan": "disadvantage"}, (6, 2), "desperate", False),  # 0d: the lower die
    ],
)
def test_the_engagement_roll_sets_the_starting_position(
    table, crew, faction, gm, marks, faces, position, past
):
    to_step(table, crew, faction, "score", gm)
    score = phases.roll_engagement(table=table, roller=gm, marks=marks, rng=FixedDice(*faces))
    assert (score.position, score.past_first_obstacle) == (position, past)
    roll = Roll.objects.get(pk=score.engagement_roll_id)
    assert (roll.kind, roll.pool) == ("engagement", 1 + sum(
        {"advantage": 1, "disadvantage": -1}[m] for m in marks.values()
    ))  # fmt: skip
    with pytest.raises(RuleError):
        phases.roll_engagement(table=table, roller=gm, marks={}, rng=FixedDice(3))


def test_flashback_priced_by_the_gm_and_paid_by_its_player(
    client, table, crew, faction, pc, gm, player, other_player
):
    to_step(table, crew, faction, "score", gm)
    client.force_login(player)
    assert client.post(reverse("score_flashback", args=[table.pk]),
                       {"character": pc.pk, "stress": "2"}).status_code == 403  # fmt: skip
    client.force_login(gm)
    client.post(reverse("score_flashback", args=[table.pk]), {"character": pc.pk, "stress": "2"})
    flashback = Phase.objects.get(table=table).score.flashbacks.get()
    pay = reverse("flashback_pay", args=[table.pk, flashback.pk])
    client.force_login(other_player)
    assert client.post(pay).status_code == 403
    client.force_login(player)
    client.post(pay)
    assert fresh(pc).stress == 2
    assert client.post(pay, headers=HX).status_code == 422  # paid once only
    assert fresh(pc).stress == 2


# --- Payoff and heat -------------------------------------------------------------------


def test_payoff_rep_by_tiers_coin_by_size_less_tithe_and_excess_flagged(
    client, table, crew, faction, gm, player
):
    to_step(table, crew, faction, "payoff", gm)
    client.force_login(player)
    url = reverse("phase_payoff", args=[table.pk])
    assert client.post(url, {"size": "big", "tithe": "1"}).status_code == 403
    client.force_login(gm)
    client.post(url, {"size": "big", "tithe": "1"})
    # Tier 0 crew against a tier-2 faction: 2 + 2 rep. Big job 8 coin, tithe 0 + 1, on top
    # of the starting 2.
    assert books(crew) | {} == {"rep": 4, "heat": 0, "wanted": 0, "coin": 9, "xp": 0}
    assert Crew.objects.get(pk=crew.pk).coin_excess == 5  # the lair holds 4
    assert step(table) == "heat"
    assert client.post(url, {"size": "big"}, headers=HX).status_code == 422  # once only
    assert books(crew)["coin"] == 9


def test_a_quiet_score_earns_no_rep_and_a_full_track_none_either(table, crew, faction, gm):
    to_step(table, crew, faction, "payoff", gm)
    phases.payoff(table=table, size="minor", quiet=True)
    assert books(crew)["rep"] == 0
    Crew.objects.filter(pk=crew.pk).update(rep=12)
    Phase.objects.filter(table=table).update(step="payoff")
    phases.payoff(table=table, size="minor")
    assert books(crew)["rep"] == 12


@pytest.mark.parametrize(
    "exposure,flags,at_war,heat",
    [
        ("quiet", {}, False, 0),
        ("contained", {}, False, 2),
        ("loud", {"high_profile": True}, False, 5),
        ("wild", {"hostile_turf": True, "killing": True}, False, 9),
        ("contained", {}, True, 3),
    ],
)
def test_heat_by_exposure_with_war_automatic(
    table, crew, faction, gm, exposure, flags, at_war, heat
):
    to_step(table, crew, faction, "heat", gm)
    if at_war:
        Faction.objects.filter(pk=faction.pk).update(status=-3)
    score = phases.take_heat(table=table, exposure=exposure, **flags)
    assert score.heat == heat
    after = books(crew)
    assert after["heat"] + 9 * after["wanted"] == heat  # 9 rolls over into wanted 1
    assert step(table) == "entanglement"


def test_heat_rolls_over_into_wanted(table, crew, faction, gm):
    Crew.objects.filter(pk=crew.pk).update(heat=7)
    to_step(table, crew, faction, "heat", gm)
    phases.take_heat(table=table, exposure="loud")
    assert (books(crew)["heat"], books(crew)["wanted"]) == (2, 1)


def test_giving_up_skips_payoff(table, crew, faction, gm):
    to_step(table, crew, faction, "score", gm)
    phases.end_score(table=table, gave_up=True)
    assert step(table) == "heat" and books(crew)["rep"] == 0


# --- Entanglements and incarceration ---------------------------------------------------


def test_entanglement_rolls_wanted_dice_in_the_heat_column(table, crew, faction, gm):
    to_step(table, crew, faction, "entanglement", gm)
    Crew.objects.filter(pk=crew.pk).update(heat=7, wanted=2)
    score = phases.roll_entanglement(table=table, roller=gm, rng=FixedDice(6, 1))
    assert score.entanglements == ["Arrest"]
    assert Roll.objects.get(pk=score.entanglement_roll_id).pool == 2


def test_wanted_zero_rolls_two_and_keeps_the_lowest(table, crew, faction, gm):
    to_step(table, crew, faction, "entanglement", gm)  # heat 2, wanted 0
    score = phases.roll_entanglement(table=table, roller=gm, rng=FixedDice(6, 2))
    assert score.entanglements == ["Gang Trouble", "The Usual Suspects"]


def _entangle(table, crew, faction, gm, heat, wanted, faces):
    to_step(table, crew, faction, "entanglement", gm)
    Crew.objects.filter(pk=crew.pk).update(heat=heat, wanted=wanted)
    return phases.roll_entanglement(table=table, roller=gm, rng=FixedDice(*faces))


def test_arrest_paid_in_coin(client, table, crew, faction, gm, player):
    _entangle(table, crew, faction, gm, 7, 1, (6,))
    Crew.objects.filter(pk=crew.pk).update(coin=3, upgrades={"vault": 1})
    url = reverse("entanglement_resolve", args=[table.pk])
    client.force_login(player)
    assert client.post(url, {"choice": "Arrest:pay"}).status_code == 403
    client.force_login(gm)
    assert client.post(url, {"choice": "Arrest:pay"}, headers=HX).status_code == 422
    assert books(crew)["coin"] == 3  # wanted 1 + 3 = 4 coin: more than the crew has
    Crew.objects.filter(pk=crew.pk).update(coin=6)
    client.post(url, {"choice": "Arrest:pay"})
    assert books(crew)["coin"] == 2
    assert step(table) == "activities"


def test_arrest_hand_someone_over_incarcerates(table, crew, faction, gm):
    _entangle(table, crew, faction, gm, 7, 2, (6, 1))
    phases.resolve_entanglement(
        table=table, roller=gm, name="Arrest", choice="hand_over", prisoner="Lyssa",
        prison_claim="guard_payoff", rng=FixedDice(6, 6),  # tier 0: 2d keep lowest, 6 → a claim
    )  # fmt: skip
    assert (books(crew)["heat"], books(crew)["wanted"]) == (0, 1)
    assert crew.claims.get(name="Guard Payoff").held
    assert Roll.objects.filter(table=table, kind="incarceration").exists()


def test_show_of_force_costs_a_claim_or_war(table, crew, faction, gm):
    claim = crew.claims.filter(lair=False).first()
    claim.held = True
    claim.save()
    _entangle(table, crew, faction, gm, 4, 1, (6,))
    phases.resolve_entanglement(
        table=table, roller=gm, name="Show of Force", choice="claim", faction=faction, claim=claim
    )
    claim.refresh_from_db()
    assert not claim.held


def test_a_claim_given_up_is_named_in_its_readers_language(table, crew, faction, gm):
    """Issue 38: the resolution kept the claim's English name inside a Spanish line."""
    claim = crew.claims.get(name="Informants")
    claim.held = True
    claim.save()
    _entangle(table, crew, faction, gm, 4, 1, (6,))
    phases.resolve_entanglement(
        table=table, roller=gm, name="Show of Force", choice="claim", faction=faction, claim=claim
    )
    resolution = Phase.objects.get(table=table).score.resolution
    with translation.override("es"):
        assert "cede Informantes" in str(resolution)
    assert "gave up Informants" in str(resolution)


def test_show_of_force_war(table, crew, faction, gm):
    claim = crew.claims.filter(lair=False).first()
    crew.claims.filter(pk=claim.pk).update(held=True)
    _entangle(table, crew, faction, gm, 4, 1, (6,))
    phases.resolve_entanglement(
        table=table, roller=gm, name="Show of Force", choice="war", faction=faction
    )
    assert Faction.objects.get(pk=faction.pk).status == -3


def test_show_of_force_without_claims_costs_hold(table, crew, faction, gm):
    _entangle(table, crew, faction, gm, 4, 1, (6,))
    phases.resolve_entanglement(
        table=table, roller=gm, name="Show of Force", choice="hold", faction=faction
    )
    assert Crew.objects.get(pk=crew.pk).hold == "weak"


def test_rivals_forfeit_rep_by_faction_tier_refused_without_it(table, crew, faction, gm):
    _entangle(table, crew, faction, gm, 2, 1, (4,))
    Crew.objects.filter(pk=crew.pk).update(rep=1)
    with pytest.raises(RuleError):
        phases.resolve_entanglement(table=table, roller=gm, name="Rivals", choice="rep",
                                    faction=faction)  # fmt: skip
    assert step(table) == "entanglement"
    Crew.objects.filter(pk=crew.pk).update(rep=3)
    phases.resolve_entanglement(table=table, roller=gm, name="Rivals", choice="rep",
                                faction=faction)  # fmt: skip
    assert books(crew)["rep"] == 1


def test_questioning_fortune_roll_adds_heat(table, crew, faction, gm):
    _entangle(table, crew, faction, gm, 4, 1, (2,))
    phases.resolve_entanglement(
        table=table, roller=gm, name="Questioning", choice="fortune", rng=FixedDice(3, 2)
    )
    assert books(crew)["heat"] == 6
    # Issue 38: the roll's note is the entanglement's name, a word of the rules by itself,
    # read in its reader's language ("— Questioning" in a Spanish log).
    note = Roll.objects.get(table=table, kind="fortune").note
    with translation.override("es"):
        assert f"{note}" == "Preguntas"


def test_cooperation_with_a_plus_3_faction_is_a_favour_without_one_nothing(
    table, crew, faction, gm
):
    """003 Cooperation: "A +3 status faction asks you for a favor ... If you don't have a
    +3 faction status, you avoid entanglements right now"."""
    _entangle(table, crew, faction, gm, 2, 1, (6,))
    with pytest.raises(RuleError, match="ways out of Cooperation"):
        phases.resolve_entanglement(
            table=table, roller=gm, name="Cooperation", choice="forfeit", faction=faction
        )
    Faction.objects.filter(pk=faction.pk).update(status=3)
    Crew.objects.filter(pk=crew.pk).update(rep=5)
    phases.resolve_entanglement(
        table=table, roller=gm, name="Cooperation", choice="forfeit", faction=faction
    )
    assert books(crew)["rep"] == 3  # 1 rep per tier of the friendly faction (tier 2)


def test_reprisals_cost_1_rep_and_1_coin_per_tier_of_the_enemy(table, crew, faction, gm):
    """003 Reprisals: "Pay them (1 rep and 1 coin) per Tier of the enemy"."""
    _entangle(table, crew, faction, gm, 4, 1, (4,))
    Crew.objects.filter(pk=crew.pk).update(rep=5, coin=4)
    phases.resolve_entanglement(
        table=table, roller=gm, name="Reprisals", choice="pay", faction=faction
    )
    assert (books(crew)["rep"], books(crew)["coin"]) == (3, 2)


def test_questioning_dice_vary_with_the_person_questioned(client, table, crew, faction, gm):
    """003 Questioning: "Roll 2d for a normal person ... 3d or 4d ... 1d or 0d"."""
    _entangle(table, crew, faction, gm, 4, 1, (2,))
    client.force_login(gm)
    url = reverse("entanglement_resolve", args=[table.pk])
    data = {"choice": "Questioning:fortune", "dice": "5"}
    assert client.post(url, data, headers=HX).status_code == 422
    assert client.post(url, {**data, "dice": "4"}, headers=HX).status_code == 200
    assert Roll.objects.filter(table=table, kind="fortune").get().pool == 4


def test_interrogation_talking_is_level_2_harm_to_the_pc_and_3_heat(table, crew, faction, gm, pc):
    """003 Interrogation: "they beat you up (level 2 harm) and you tell them what they want
    to know (+3 heat)"."""
    _entangle(table, crew, faction, gm, 6, 1, (2,))
    with pytest.raises(RuleError, match="Choose the PC"):
        phases.resolve_entanglement(table=table, roller=gm, name="Interrogation", choice="talk")
    phases.resolve_entanglement(
        table=table, roller=gm, name="Interrogation", choice="talk", character=pc
    )
    assert fresh(pc).harm["2"] == ["Interrogation"]
    assert books(crew)["heat"] == 0 and books(crew)["wanted"] == 2  # 6 + 3 rolls over


def test_interrogation_harm_and_heat_are_resisted_separately(table, crew, faction, gm, pc):
    """003 Interrogation: "they beat you up (level 2 harm) and you tell them what they want
    to know (+3 heat). You can resist each of those consequences separately"."""
    _entangle(table, crew, faction, gm, 6, 1, (2,))
    phases.resolve_entanglement(
        table=table, roller=gm, name="Interrogation", choice="resisted-harm1-heat3",
        character=pc,
    )  # fmt: skip
    assert fresh(pc).harm["1"] == ["Interrogation"] and not fresh(pc).harm.get("2")
    assert books(crew)["wanted"] == 2  # the talking stood: 6 + 3 heat rolls over


def test_at_wanted_level_0_the_arrest_may_be_a_beating(table, crew, faction, gm, pc):
    """003 Incarceration: "Wanted Level 0: A few weeks. Or, the constables give you a
    beating to teach you a lesson (suffer level 3 harm, no resistance roll allowed)"."""
    _entangle(table, crew, faction, gm, 7, 0, (6, 6))
    phases.resolve_entanglement(
        table=table, roller=gm, name="Arrest", choice="beating", character=pc
    )
    assert fresh(pc).harm["3"] == ["Arrest"]
    assert (books(crew)["heat"], books(crew)["wanted"]) == (0, 0)
    assert not Roll.objects.filter(table=table, kind="incarceration").exists()


def test_incarceration_from_the_crew_sheet(client, table, crew, gm, player):
    Crew.objects.filter(pk=crew.pk).update(heat=5, wanted=2, tier=1)
    url = reverse("crew_incarcerate", args=[table.pk])
    client.force_login(player)
    assert client.post(url, {"prisoner": "Lyssa"}).status_code == 403
    phases.incarcerate(
        crew=crew, roller=gm, prisoner="Lyssa", prison_claim="hardcase", rng=FixedDice(2)
    )
    assert (books(crew)["heat"], books(crew)["wanted"]) == (0, 1)
    roll = Roll.objects.get(table=table, kind="incarceration")
    assert str(roll.summary) == "The prisoner takes 1 trauma"


# --- Downtime --------------------------------------------------------------------------


@pytest.fixture
def in_downtime(table, crew, faction, gm):
    to_step(table, crew, faction, "activities", gm)
    return Phase.objects.get(table=table).score


def test_two_free_activities_then_one_coin_or_rep_each(in_downtime, table, crew, pc, player):
    Character.objects.filter(pk=pc.pk).update(coin=1)
    downtime.train(character=pc, track="insight")
    downtime.train(character=pc, track="prowess")
    with pytest.raises(RuleError):
        downtime.train(character=pc, track="resolve")
    downtime.train(character=pc, track="resolve", pay_with="coin")
    assert fresh(pc).coin == 0
    Crew.objects.filter(pk=crew.pk).update(rep=2)
    downtime.train(character=pc, track="playbook", pay_with="rep")
    assert books(crew)["rep"] == 1


def test_at_war_one_free_activity(in_downtime, table, crew, faction, pc):
    Faction.objects.filter(pk=faction.pk).update(status=-3)
    downtime.train(character=pc, track="insight")
    with pytest.raises(RuleError):
        downtime.train(character=pc, track="prowess")


def test_train_each_track_once_two_xp_with_the_upgrade(in_downtime, crew, pc):
    Crew.objects.filter(pk=crew.pk).update(upgrades={"insight": 1})
    downtime.train(character=pc, track="insight")
    assert fresh(pc).insight_xp == 2
    with pytest.raises(RuleError):
        downtime.train(character=pc, track="insight")


def test_acquire_asset_rolls_crew_tier_for_quality(in_downtime, crew, pc, player):
    Crew.objects.filter(pk=crew.pk).update(tier=2)
    activity = downtime.acquire_asset(
        character=pc, roller=player, description="A carriage", restricted=True,
        rng=FixedDice(6, 3),
    )  # fmt: skip
    assert activity.amount == 3 and books(crew)["heat"] == 2 + 2  # score heat 2, restricted 2


def test_coin_that_raises_an_asset_raises_its_log_line(in_downtime, crew, pc, player):
    Crew.objects.filter(pk=crew.pk).update(tier=1)
    Character.objects.filter(pk=pc.pk).update(coin=2)
    activity = downtime.acquire_asset(
        character=pc, roller=player, description="A carriage", rng=FixedDice(2),
    )  # fmt: skip
    assert str(Roll.objects.get(pk=activity.roll_id).summary) == "Quality 0"
    downtime.raise_result(activity=activity, coin=2)  # 1-3 → 6: tier 1 + 1
    assert str(Roll.objects.get(pk=activity.roll_id).summary) == "Quality 2 (raised for 2 coin)"


def test_project_ticks_a_new_project_clock(in_downtime, table, pc, player):
    activity = downtime.long_term_project(
        character=pc, roller=player, action="skirmish", name="Learn the wards",
        rng=FixedDice(5, 2),
    )  # fmt: skip
    clock = Clock.objects.get(pk=activity.clock_id)
    assert (clock.kind, clock.segments, clock.filled) == ("project", 8, 2)


def test_recover_ticks_the_healing_clock_and_full_clock_heals(in_downtime, table, pc, player):
    Character.objects.filter(pk=pc.pk).update(harm={"2": ["Cut"]}, healing=2)
    downtime.recover(character=pc, roller=player, healer="npc", quality=2, rng=FixedDice(6, 1))
    after = fresh(pc)
    assert after.healing == 1 and after.harm.get("1") == ["Cut"]


def test_recover_untreated_costs_stress(in_downtime, pc, player):
    downtime.recover(character=pc, roller=player, healer="none", rng=FixedDice(1, 4))
    assert fresh(pc).stress == 1 and fresh(pc).healing == 1


def test_reduce_heat_and_coin_raises_the_result(in_downtime, crew, pc, player):
    Crew.objects.filter(pk=crew.pk).update(heat=6)
    Character.objects.filter(pk=pc.pk).update(coin=2)
    activity = downtime.reduce_heat(character=pc, roller=player, action="skirmish",
                                    rng=FixedDice(3, 2))  # fmt: skip
    assert books(crew)["heat"] == 5
    downtime.raise_result(activity=activity, coin=2)  # 1-3 → 6: 3 removed in all
    assert books(crew)["heat"] == 3 and fresh(pc).coin == 0


def test_indulge_vice_and_overindulge_brag(in_downtime, crew, pc, player):
    Character.objects.filter(pk=pc.pk).update(stress=2, prowl=1, study=1)
    activity = downtime.indulge_vice(character=pc, roller=player, rng=FixedDice(5))
    assert fresh(pc).stress == 0 and activity.overindulged
    downtime.overindulge(activity=activity, choice="brag")
    assert books(crew)["heat"] == 4


def test_end_of_downtime_costs_stress_per_trauma_to_those_who_did_not_indulge(
    in_downtime, table, pc, other_pc, player
):
    Character.objects.filter(pk=pc.pk).update(traumas=["cold", "haunted"])
    Character.objects.filter(pk=other_pc.pk).update(traumas=["cold"], stress=3, prowl=1, study=1)
    downtime.indulge_vice(character=other_pc, roller=player, rng=FixedDice(1))
    downtime.end_downtime(table=table)
    assert fresh(pc).stress == 2 and fresh(other_pc).stress == 2
    assert step(table) == "free_play"


def test_players_act_only_for_their_own_characters(
    client, in_downtime, table, pc, other_pc, player
):
    client.force_login(player)
    url = reverse("downtime_activity", args=[table.pk, other_pc.pk])
    assert client.post(url, {"kind": "train", "track": "insight"}).status_code == 403
    url = reverse("downtime_activity", args=[table.pk, pc.pk])
    assert client.post(url, {"kind": "train", "track": "insight"}).status_code == 302
    assert DowntimeActivity.objects.get().character_id == pc.pk


# --- End of session --------------------------------------------------------------------


def test_xp_review_for_each_pc_and_the_crew(client, table, crew, pc, gm, player):
    client.force_login(gm)
    client.post(reverse("session_end", args=[table.pk]))
    assert step(table) == "xp_review"
    client.force_login(player)
    url = reverse("xp_character", args=[table.pk, pc.pk])
    client.post(url, {"playbook": "2", "beliefs": "1", "vice": "0"})
    assert fresh(pc).playbook_xp == 3
    assert client.post(url, {"playbook": "1"}, headers=HX).status_code == 422
    assert client.post(reverse("xp_crew", args=[table.pk]), {"station": "1"}).status_code == 403
    client.force_login(gm)
    client.post(reverse("xp_crew", args=[table.pk]), {"crew_type": "2", "station": "1"})
    assert books(crew)["xp"] == 3
    client.post(reverse("session_end", args=[table.pk]))
    assert step(table) == "free_play"


def test_a_trigger_gives_at_most_two(table, crew, pc):
    downtime.start_xp_review(table=table)
    with pytest.raises(RuleError):
        downtime.review_character_xp(character=pc, triggers={"playbook": 3}, tracks={"playbook": 3})


def test_end_of_session_xp_goes_on_any_xp_tracks_you_want(client, table, crew, pc, player):
    """001 §PC Advancement: "You may mark end-of-session xp on any xp tracks you want (any
    attribute or your playbook xp track)"."""
    downtime.start_xp_review(table=table)
    client.force_login(player)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert 'name="beliefs_track" value="prowess"> Prowess</label>' in " ".join(page.split())
    url = reverse("xp_character", args=[table.pk, pc.pk])
    data = {"playbook": "2", "playbook_track": "insight", "beliefs": "2", "vice": "1"}
    response = client.post(url, {**data, "vice_track": "luck"}, headers=HX)
    assert response.status_code == 422 and "is not an xp track" in response.content.decode()
    assert fresh(pc).insight_xp == 0
    assert client.post(url, {**data, "beliefs_track": "prowess"}, headers=HX).status_code == 200
    after = fresh(pc)
    assert (after.playbook_xp, after.insight_xp, after.prowess_xp, after.resolve_xp) == (1, 2, 2, 0)


# --- What everyone sees ----------------------------------------------------------------


def test_the_phase_shows_on_the_table_page_and_the_table_view(
    client, table, crew, faction, gm, player
):
    to_step(table, crew, faction, "score", gm)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=FixedDice(5))
    client.force_login(player)
    for name in ("table_detail", "screen"):
        page = client.get(reverse(name, args=[table.pk])).content.decode()
        assert "Stealth on Bluecoats" in page and "Risky position" in page


def test_the_phase_line_names_the_score_once_and_a_later_step_beside_its_stage(
    client, table, crew, faction, gm, player
):
    """ "Score · The score" said the stage and the step alike; a step that says more than
    its stage (Payoff, within Downtime) is still named beside it."""
    to_step(table, crew, faction, "score", gm)
    client.force_login(player)
    pages = ("phase_detail", "screen")
    for name in pages:
        line = phase_line(client.get(reverse(name, args=[table.pk])).content.decode())
        assert line.startswith("Score · Stealth on Bluecoats"), (name, line)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=FixedDice(4))
    phases.end_score(table=table)
    for name in pages:
        line = phase_line(client.get(reverse(name, args=[table.pk])).content.decode())
        assert line.startswith("Downtime · Payoff"), (name, line)


def phase_line(page: str) -> str:
    """The line that says where the table is in its evening, as read."""
    found = re.search(r'class="(?:screen-phase|phase-line)[^"]*"[^>]*>(.*?)</p>', page, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


def test_players_see_no_gm_controls_and_no_hidden_factions(
    client, table, crew, faction, gm, player
):
    FactionFactory(table=table, name="The Secret Hand", hidden=True)
    client.force_login(player)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert "Start the score" not in page and "Secret Hand" not in page
    client.force_login(gm)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert "Start the score" in page and "Secret Hand" in page


def test_a_step_pushes_the_phase_line_to_everyone(
    table, crew, faction, gm, django_capture_on_commit_callbacks
):
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from tests.helpers import listen

    layer = get_channel_layer()
    channel = listen(table.pk, is_gm=False)
    with django_capture_on_commit_callbacks(execute=True):
        phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
    html = async_to_sync(layer.receive)(channel)["html"]  # the one push of this step
    assert f'id="phase-{table.pk}-line"' in html and "Stealth on Bluecoats" in html
    assert f'id="phase-{table.pk}-signal"' in html


def test_trauma_satisfies_the_vice_for_the_next_downtime(in_downtime, table, pc, player):
    """001 §Trauma: "When you return, you have zero stress and your vice has been
    satisfied for the next downtime": no stress for not indulging, this downtime only."""
    Character.objects.filter(pk=pc.pk).update(traumas=["cold"], stress=8)
    character_actions.mark_stress(character=pc, amount=1)  # the last box: trauma
    character_actions.choose_trauma(character=pc, condition="haunted")
    downtime.end_downtime(table=table)
    after = fresh(pc)
    assert (after.stress, after.vice_satisfied) == (0, False)


# --- Coin: the start, the payoff's shares, the vault (issue 14 items 5, 17, 22) ----------


def test_a_new_crew_starts_with_2_coin(crew):
    """SRD_FACTS §6.2: "Start: Tier 0, strong hold, 0 rep, 2 coin"."""
    assert books(crew)["coin"] == 2


def test_payoff_is_divvied_up_among_the_pcs_and_the_crew_keeps_the_rest(
    client, table, crew, faction, pc, other_pc, gm
):
    """003 Payoff: "Record the coin on the crew sheet, or divvy it up among the crew members
    as you see fit"; a purse holds 4 and more goes to the stash (001 §Coin and Stash)."""
    to_step(table, crew, faction, "payoff", gm)
    Character.objects.filter(pk=pc.pk).update(coin=2)
    client.force_login(gm)
    url = reverse("phase_payoff", args=[table.pk])
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert f'<label for="share-{pc.pk}">Cross\'s share</label>' in page
    data = {"size": "standard", f"share_{pc.pk}": "3", f"share_{other_pc.pk}": "2"}
    assert client.post(url, data, headers=HX).status_code == 200
    assert (fresh(pc).coin, fresh(pc).stash) == (4, 1)
    assert fresh(other_pc).coin == 2
    assert books(crew)["coin"] == 2 + 1  # started with 2, kept 1 of the 6
    # The payoff's card reads the split back, as the books were written.
    score = Phase.objects.get(table=table).score
    assert (score.coin, score.crew_coin) == (6, 1)
    assert sorted(score.shares) == sorted([[pc.name, 3], [other_pc.name, 2]])
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert f"<dt>To {pc.name}</dt><dd>3</dd>" in page
    assert "<dt>To the crew</dt><dd>1</dd>" in page


def test_payoff_shares_beyond_the_take_are_refused(client, table, crew, faction, pc, gm):
    to_step(table, crew, faction, "payoff", gm)
    client.force_login(gm)
    url = reverse("phase_payoff", args=[table.pk])
    response = client.post(url, {"size": "minor", f"share_{pc.pk}": "3"}, headers=HX)
    assert response.status_code == 422 and "the payoff is 2" in response.content.decode()
    assert step(table) == "payoff" and fresh(pc).coin == 0


def test_coin_past_the_vault_blocks_the_next_score_until_shared(
    client, table, crew, faction, pc, gm
):
    """001 §Coin and Stash: "Any coin beyond their limit must be spent as soon as possible
    (typically before the next score) or distributed among the crew members"."""
    Crew.objects.filter(pk=crew.pk).update(coin=6)
    with pytest.raises(RuleError, match="2 coin more than its lair keeps"):
        phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
    client.force_login(gm)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert "2 over: spend or share it before the next score" in page
    url = reverse("crew_share_coin", args=[table.pk])
    assert client.post(url, {"character": pc.pk, "amount": "2"}, headers=HX).status_code == 200
    assert books(crew)["coin"] == 4 and fresh(pc).coin == 2
    phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
    assert step(table) == "score"


def test_only_the_gm_shares_the_crews_coin(client, table, crew, pc, player):
    client.force_login(player)
    url = reverse("crew_share_coin", args=[table.pk])
    assert client.post(url, {"character": pc.pk, "amount": "1"}).status_code == 403
    assert books(crew)["coin"] == 2


def test_special_armor_comes_back_by_itself_at_the_start_of_downtime(table, crew, faction, pc, gm):
    """000 §Special Armor: "Your special armor is restored at the beginning of downtime"."""
    to_step(table, crew, faction, "score", gm)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=FixedDice(4))
    Character.objects.filter(pk=pc.pk).update(special_used=True, armor_used=True)
    phases.end_score(table=table)
    after = fresh(pc)
    assert (after.special_used, after.armor_used) == (False, True)


def test_vigorous_takes_1d_more_on_healing_treatment_rolls(in_downtime, pc, player):
    """Vigorous: "+1d to healing treatment rolls" (000, SRD_FACTS §2)."""
    from characters.models import SpecialAbility
    from tests.factories import CharacterAbilityFactory

    ability = SpecialAbility.objects.get(key="vigorous", playbook__key="cutter")
    CharacterAbilityFactory(character=pc, ability=ability)
    activity = downtime.recover(
        character=pc, roller=player, healer="npc", quality=2, rng=FixedDice(1, 1, 1)
    )
    assert activity.roll.pool == 3


def test_incarceration_1_3_gives_the_pc_prisoner_a_trauma(table, crew, gm, pc):
    """003 incarceration roll (RULES.md): "1-3: the prisoner takes 1 trauma"."""
    Crew.objects.filter(pk=crew.pk).update(wanted=2, tier=1)
    phases.incarcerate(
        crew=crew, roller=gm, prisoner="", prison_claim="hardcase", character=pc,
        rng=FixedDice(2),
    )  # fmt: skip
    assert fresh(pc).trauma_pending == 1
    roll = Roll.objects.get(table=table, kind="incarceration")
    assert str(roll.note) == "Cross serves time: several months"


def test_prison_claims_guard_payoff_and_cell_block_control_change_the_roll(table, crew, gm, pc):
    """003 Prison claims: Guard payoff "+1d to your Tier roll"; Cell block control "You
    never take trauma from incarceration"."""
    for name in ("Guard Payoff", "Cell Block Control"):
        crew_actions.add_claim(crew=crew, name=name, effect="", turf=False)
    crew.claims.filter(name__in=["Guard Payoff", "Cell Block Control"]).update(held=True)
    phases.incarcerate(
        crew=crew, roller=gm, prisoner="", prison_claim="hardcase", character=pc,
        rng=FixedDice(1),
    )  # fmt: skip
    assert Roll.objects.get(table=table, kind="incarceration").pool == 1  # tier 0 + 1d
    assert fresh(pc).trauma_pending == 0


def test_a_flashback_to_a_downtime_activity_costs_1_coin_or_1_rep_instead_of_stress(
    client, table, crew, faction, pc, gm, player
):
    """000 §Flashbacks: "If a flashback involves a downtime activity, pay 1 coin or 1 rep
    for it, instead of stress"."""
    to_step(table, crew, faction, "score", gm)
    Character.objects.filter(pk=pc.pk).update(coin=2)
    Crew.objects.filter(pk=crew.pk).update(rep=3)
    client.force_login(gm)
    data = {"character": pc.pk, "stress": "2", "note": "Acquired a boat", "downtime": "1"}
    client.post(reverse("score_flashback", args=[table.pk]), data, headers=HX)
    second = phases.call_flashback(
        table=table, character=pc, stress=0, note="Hired a boat", downtime=True
    )
    client.force_login(player)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert "Pay 1 coin for the flashback" in page and "Pay 2 stress" not in page
    flashbacks = list(Flashback.objects.filter(score__table=table))
    pay = reverse("flashback_pay", args=[table.pk, flashbacks[0].pk])
    assert client.post(pay, headers=HX).status_code == 422  # coin or rep: say which
    assert client.post(pay, {"pay_with": "coin"}, headers=HX).status_code == 200
    phases.pay_flashback(flashback=second, pay_with="rep")
    assert (fresh(pc).stress, fresh(pc).coin, books(crew)["rep"]) == (0, 1, 2)


def test_pushing_yourself_on_a_downtime_roll_and_harm_on_downtime_action_rolls(
    client, in_downtime, table, crew, pc, player
):
    """001 §Pushing Yourself: "+1d to your roll. (This may be used for an action roll or
    downtime roll ...)"; 001 §Harm: moderate harm −1d, severe harm needs help or a push,
    and "For each bonus you choose below, take 2 stress": acting while incapacitated is a
    push of its own."""
    Crew.objects.filter(pk=crew.pk).update(heat=6)
    Character.objects.filter(pk=pc.pk).update(skirmish=2, harm={"2": ["Cut"], "3": ["Lung"]})
    client.force_login(player)
    url = reverse("downtime_activity", args=[table.pk, pc.pk])
    data = {"kind": "reduce_heat", "action": "skirmish"}
    response = client.post(url, data, headers=HX)
    assert response.status_code == 422 and "incapacitated" in response.content.decode()
    response = client.post(url, {**data, "push": "1"}, headers=HX)  # +1d is no push to act
    assert response.status_code == 422 and "incapacitated" in response.content.decode()
    pushed = {**data, "push": "1", "push_act": "1"}
    assert client.post(url, pushed, headers=HX).status_code == 200
    assert Roll.objects.get(table=table, kind="downtime").pool == 2  # 2, +1 push, −1 harm
    assert fresh(pc).stress == 4


def test_the_engagement_rolls_position_carries_into_the_first_action_roll(
    table, crew, faction, pc, gm, player
):
    """000 §Engagement roll: the result "sets the starting position of the score"
    (1-3 desperate); the score's first action roll starts there, the next at risky."""
    from rolls import actions as roll_actions
    from sessions.models import Membership

    to_step(table, crew, faction, "score", gm)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=FixedDice(2))
    by = Membership.objects.get(table=table, user=player)
    first = roll_actions.start_roll(by=by, character=pc, goal="in", action="prowl")
    assert first.position == "desperate"
    roll_actions.cancel(by=by, roll=first)
    second = roll_actions.start_roll(by=by, character=pc, goal="on", action="prowl")
    assert second.position == "risky"
