"""What special abilities do to the numbers, as the texts give them (000 Special abilities,
SRD_FACTS §4, §5 and §6, and the ability texts in blades/content)."""

import pytest

from blades.rules import abilities
from blades.rules.character import harm_penalty


def test_survivor_gives_one_more_stress_box():
    """Survivor: "+1 stress box" (SRD_FACTS §4: "Hound *Survivor* +1"), on top of a crew's
    Composed or Steady."""
    assert abilities.stress_boxes(9, set()) == 9
    assert abilities.stress_boxes(9, {"survivor"}) == 10
    assert abilities.stress_boxes(10, {"survivor"}) == abilities.STRESS_BOXES_MOST == 11


def test_tough_as_nails_penalties_one_level_less_severe_level_4_still_fatal():
    """Tough as Nails (000): "level 3 harm doesn't incapacitate you; instead you take -1d
    to your rolls (as if it were level 2 harm). Level 2 harm affects you as if it were
    level 1 (less effect). Level 1 harm has no effect on you"; "level 4 harm is still
    fatal"."""
    harm = {1: ("Bruised",), 2: ("Cut",), 3: ("Broken Leg",)}
    plain = harm_penalty(abilities.felt_harm(harm, set()))
    assert (plain.dice, plain.effect, plain.incapacitated) == (-1, -1, True)
    tough = harm_penalty(abilities.felt_harm(harm, {"tough_as_nails"}))
    assert (tough.dice, tough.effect, tough.incapacitated) == (-1, -1, False)
    only_lesser = harm_penalty(abilities.felt_harm({1: ("Bruised",)}, {"tough_as_nails"}))
    assert (only_lesser.dice, only_lesser.effect) == (0, 0)
    assert harm_penalty(abilities.felt_harm({"4": ["Dead"]}, {"tough_as_nails"})).dead


def test_harm_rows_are_labelled_with_the_penalty_felt():
    """Tough as Nails (000): "level 3 harm doesn't incapacitate you; instead you take -1d
    to your rolls (as if it were level 2 harm)... Level 1 harm has no effect on you"."""
    assert abilities.harm_penalty_labels(set()) == {
        1: "Reduced effect", 2: "−1d", 3: "Need help", 4: "Fatal",
    }  # fmt: skip
    assert abilities.harm_penalty_labels({"tough_as_nails"}) == {
        1: "No effect", 2: "Reduced effect", 3: "−1d", 4: "Fatal",
    }  # fmt: skip


def test_tough_as_nails_warnings_say_the_penalties_are_lighter():
    warnings = abilities.warnings_before_a_roll({3: ["Broken Leg"]}, {"tough_as_nails"}, False)
    assert warnings == [
        "Tough as Nails: each harm's penalty is that of one level lower.",
        "Level 2 harm (Broken Leg): −1d.",
    ]
    assert abilities.warnings_before_a_roll({}, {"tough_as_nails"}, False) == []


def test_iron_will_and_forged_in_the_fire_add_resistance_dice():
    """Iron Will (000): "When you make a resistance roll with Resolve, take +1d." Forged
    in the Fire (Bravos): "PCs get +1d to resistance rolls"."""
    assert abilities.resistance_bonus("resolve", {"iron_will"}, []) == [("Iron Will", 1)]
    assert abilities.resistance_bonus("prowess", {"iron_will"}, []) == []
    assert abilities.resistance_bonus("insight", set(), ["forged_in_the_fire"]) == [
        ("Forged in the Fire", 1)
    ]


def test_score_rep_with_no_traces_and_leverage():
    """No Traces: "half the target's rep value (round up) instead of none"; Leverage:
    "whenever you gain rep, gain +1 more" (never on no rep)."""
    assert abilities.score_rep(3, True, []) == 0
    assert abilities.score_rep(3, True, ["no_traces"]) == 2
    assert abilities.score_rep(3, False, ["leverage"]) == 4
    assert abilities.score_rep(0, False, ["leverage"]) == 0
    assert abilities.downtime_rep(0, ["no_traces"]) == 1
    assert abilities.downtime_rep(1, ["no_traces", "leverage"]) == 0


def test_turf_from_fiends_and_accord():
    """Fiends: "each wanted level counts as a turf"; Accord: "Up to three +3 faction
    relationships each count as a turf"."""
    assert abilities.turf(1, wanted=2, allies=5, crew_abilities=[]) == 1
    assert abilities.turf(1, wanted=2, allies=5, crew_abilities=["fiends"]) == 3
    assert abilities.turf(1, wanted=2, allies=5, crew_abilities=["accord"]) == 4


def test_patron_halves_the_tier_cost_before_hardcase():
    from blades.rules.crew import tier_up_cost

    assert tier_up_cost(1, patron=True) == 8
    assert tier_up_cost(1, hardcase=True, patron=True) == 6


def test_downtime_numbers():
    assert abilities.downtime_heat(["high_society", "just_passing_through"]) == -2
    assert abilities.side_stash({"a_little_something_on_the_side"}) == 2
    assert abilities.acquire_bonus({"connected"}, ["pack_rats"]) == (1, 1)
    assert abilities.reduce_heat_bonus(set(), ["slippery"]) == (1, 0)
    assert abilities.engagement_bonus("assault", ["door_kickers", "second_story"]) == [
        ("Door Kickers", 1)
    ]
    assert abilities.incarceration(1, 2, ironhook_contacts=True, jail_bird=True) == (3, 1)


def test_crows_veil_and_war_dogs():
    assert abilities.killing_heat(True, []) and not abilities.killing_heat(True, ["crows_veil"])
    assert abilities.war_costs_hold(True, []) and not abilities.war_costs_hold(True, ["war_dogs"])


def test_reminders_name_only_known_moments_and_keep_the_order():
    import pytest

    assert set(m for ms in abilities.REMINDERS.values() for m in ms) <= set(abilities.MOMENTS)
    assert abilities.reminded(["savage", "iron_will", "ambush"], "roll") == ["savage", "ambush"]
    with pytest.raises(ValueError):
        abilities.reminded(["savage"], "lunch")


def test_a_crew_dot_once_per_ability_on_its_actions_up_to_3():
    """Deadly (Assassins): "Each PC may add a dot to Hunt, Prowl or Skirmish (max 3)"."""
    import pytest

    from blades.rules.errors import RuleError

    crew = ["deadly", "crows_veil"]
    assert abilities.crew_dot_choices(crew, []) == ["deadly"]
    assert abilities.crew_dot("deadly", "hunt", 2, crew_abilities=crew, taken=[]) == 3
    with pytest.raises(RuleError, match="up to 3"):
        abilities.crew_dot("deadly", "hunt", 3, crew_abilities=crew, taken=[])
    with pytest.raises(RuleError, match="Hunt, Prowl, Skirmish"):
        abilities.crew_dot("deadly", "sway", 0, crew_abilities=crew, taken=[])
    with pytest.raises(RuleError, match="no such dot"):
        abilities.crew_dot("deadly", "hunt", 0, crew_abilities=crew, taken=["deadly"])
    with pytest.raises(RuleError, match="no such dot"):
        abilities.crew_dot("chosen", "sway", 0, crew_abilities=crew, taken=[])


def test_each_crew_dot_goes_on_the_three_actions_its_text_names():
    """crew_types.json: Deadly (Assassins) "Each PC may add a dot to Hunt, Prowl or
    Skirmish (max 3)"; Dangerous (Bravos) "Hunt, Skirmish or Wreck"; Chosen (Cult)
    "Attune, Study or Sway"; Silver Tongues (Hawkers) "Command, Consort or Sway"; Everyone
    Steals (Shadows) "Prowl, Finesse or Tinker"; Renegades (Smugglers) "Finesse, Prowl or
    Skirmish"."""
    import re

    from blades import content

    named = {}
    for crew_type in content.crew_types():
        for ability in crew_type["abilities"]:
            said = re.fullmatch(
                r"Each PC may add a dot to (\w+), (\w+) or (\w+) \(max (\d)\)\.",
                ability["description"],
            )
            if said:
                *actions, most = said.groups()
                named[ability["key"]] = {a.lower() for a in actions}
                assert int(most) == abilities.CREW_DOT_MAX
    assert named == {key: set(actions) for key, actions in abilities.CREW_DOTS.items()}


@pytest.mark.parametrize(
    ("stress", "action", "chosen", "taken"),
    [(3, "prowl", "prowl", 1), (0, "prowl", "prowl", 0), (3, "prowl", "skirmish", 3),
     (3, "prowl", "", 3), (1, "sway", "sway", 1)],
)  # fmt: skip
def test_expertise_caps_the_leaders_stress_at_1_only_with_its_action(stress, action, chosen, taken):
    """Expertise (000): "Choose one of your action ratings. When you lead a group action
    using that action, you can suffer only 1 stress at most, regardless of the number of
    failed rolls": only when the group acts with the action chosen for it."""
    expertise = abilities.leads_with_expertise(action, chosen)
    assert abilities.leader_stress(stress, expertise=expertise) == taken


def test_expertise_is_chosen_once_among_the_actions():
    """Expertise (000): "Choose one of your action ratings": one of the twelve, once by
    the player; the GM may set it again."""
    from blades.rules.errors import RuleError

    choose = abilities.expertise_choice
    assert choose("prowl", has_it=True, chosen="", by_gm=False) == "prowl"
    assert choose("sway", has_it=True, chosen="prowl", by_gm=True) == "sway"
    with pytest.raises(RuleError, match="is chosen: Prowl"):
        choose("sway", has_it=True, chosen="prowl", by_gm=False)
    with pytest.raises(RuleError, match="twelve actions"):
        choose("dance", has_it=True, chosen="", by_gm=False)
    with pytest.raises(RuleError, match="Only a character with Expertise"):
        choose("prowl", has_it=False, chosen="", by_gm=True)


def test_foresight_makes_two_assists_a_score_free():
    """Foresight (000): "Two times per score you can assist a teammate without paying
    stress"."""
    import pytest

    from blades.rules import flow
    from blades.rules.errors import RuleError

    abilities.check_foresight(True, 1)
    with pytest.raises(RuleError, match="spent"):
        abilities.check_foresight(True, abilities.FORESIGHT_PER_SCORE)
    with pytest.raises(RuleError, match="Only a character with Foresight"):
        abilities.check_foresight(False, 0)
    assert flow.assist_stress(flow.Bonuses(assist=True, assist_free=True)) == 0
    assert flow.assist_stress(flow.Bonuses(assist=True)) == 1


def test_synchronized_needs_two_sixes_on_different_rolls():
    from blades.rules.dice import Outcome, Roll

    two = [Roll(2, (6, 1)), Roll(1, (6,)), Roll(1, (2,))]
    assert abilities.synchronized(Outcome.SUCCESS, two, ["synchronized"]) is Outcome.CRITICAL
    assert abilities.synchronized(Outcome.SUCCESS, two, []) is Outcome.SUCCESS
    one = [Roll(2, (6, 1)), Roll(0, (6, 2))]  # a zero pool keeps its lowest die
    assert abilities.synchronized(Outcome.SUCCESS, one, ["synchronized"]) is Outcome.SUCCESS


def test_vengeful_adds_its_trigger():
    assert list(abilities.character_triggers({"a": "A"}, {"vengeful"})) == ["a", "vengeful"]
    assert abilities.character_triggers({"a": "A"}, set()) == {"a": "A"}


def test_calculating_gives_one_extra_activity_when_asked_for():
    import pytest

    from blades.rules.errors import RuleError

    assert not abilities.calculating_gives("coin", spiders=1, used=0)
    assert abilities.calculating_gives("calc", spiders=1, used=0)
    # One per Spider who has it, not one per table.
    assert abilities.calculating_gives("calc", spiders=2, used=1)
    with pytest.raises(RuleError, match="taken this downtime"):
        abilities.calculating_gives("calc", spiders=2, used=2)
    with pytest.raises(RuleError, match="No one"):
        abilities.calculating_gives("calc", spiders=0, used=0)


def test_rooks_gambit_picks_the_best_rating():
    import pytest

    from blades.rules.errors import RuleError

    assert abilities.rooks_gambit("hunt", {"hunt": 0, "sway": 3, "prowl": 2}) == "sway"
    with pytest.raises(RuleError, match="already your best"):
        abilities.rooks_gambit("sway", {"hunt": 0, "sway": 3, "prowl": 3})


def test_daredevil_takes_1d_from_resisting_what_its_roll_brought():
    """Daredevil (000): "you get +1d to your roll if you also take -1d to any resistance
    rolls against consequences from your action"; without that roll, nothing."""
    assert abilities.resistance_bonus("prowess", {"daredevil"}, [], daredevil=True) == [
        ("Daredevil", -1)
    ]
    assert abilities.resistance_bonus("prowess", {"daredevil"}, []) == []
    assert abilities.resistance_bonus("prowess", set(), [], daredevil=True) == []


@pytest.mark.parametrize(
    ("crew_abilities", "supernatural", "bonus"),
    [
        (["anointed"], True, [("Anointed", 1)]),
        (["anointed"], False, []),
        ([], True, []),
        (["anointed", "forged_in_the_fire"], True, [("Forged in the Fire", 1), ("Anointed", 1)]),
    ],
)
def test_anointed_adds_1d_to_resist_only_a_supernatural_consequence(
    crew_abilities, supernatural, bonus
):
    """Anointed (Cult): "+1d to resist supernatural threats" (the app's ability text;
    the texts give no more): only a consequence the GM marked supernatural."""
    assert (
        abilities.resistance_bonus("resolve", set(), crew_abilities, supernatural=supernatural)
        == bonus
    )


@pytest.mark.parametrize(
    ("ability", "extras", "stress"),
    [
        ("emberdeath", (), 3),
        ("ghost_veil", (), 2),
        ("ghost_veil", ("minutes",), 3),
        ("ghost_veil", ("minutes", "invisible"), 4),
        ("ghost_veil", ("minutes", "invisible", "floating"), 5),
        ("ghost_veil", ("floating", "floating"), 3),
    ],
)
def test_emberdeath_and_ghost_veil_cost_their_stress(ability, extras, stress):
    """Emberdeath (Assassins): "Take 3 stress as you kill someone"; Ghost Veil (Lurk):
    "Take 2 stress to turn shadowy and insubstantial for a moment; +1 stress each for
    minutes instead, invisibility, or floating" (the app's ability texts)."""
    assert (
        abilities.ability_stress(
            ability, abilities={"ghost_veil"}, crew_abilities={"emberdeath"}, extras=extras
        )
        == stress
    )


@pytest.mark.parametrize(
    ("ability", "extras", "refusal"),
    [
        ("emberdeath", (), "does not have Emberdeath"),
        ("ghost_veil", (), "Only a character with Ghost Veil"),
        ("savage", (), "Choose Emberdeath or Ghost Veil"),
    ],
)
def test_ability_stress_only_with_the_ability(ability, extras, refusal):
    """Only whoever has Emberdeath (their crew) or Ghost Veil (their own) pays for it."""
    from blades.rules.errors import RuleError

    with pytest.raises(RuleError, match=refusal):
        abilities.ability_stress(ability, abilities=set(), crew_abilities=set(), extras=extras)


def test_ghost_veil_knows_only_its_three_extras():
    from blades.rules.errors import RuleError

    with pytest.raises(RuleError, match="extras are"):
        abilities.ability_stress(
            "ghost_veil", abilities={"ghost_veil"}, crew_abilities=(), extras=("flying",)
        )


@pytest.mark.parametrize(
    ("relief", "shift", "marked", "cleared", "die", "overindulged"),
    [
        (3, 2, 9, 5, 5, False),  # more relief
        (5, -2, 3, 3, 3, False),  # down, out of overindulging
        (5, -1, 3, 3, 4, True),  # down, still past the stress marked
        (2, 1, 6, 3, 3, False),
        (6, 2, 9, 6, 6, False),  # a die reads at most 6
        (1, -2, 4, 1, 1, False),  # and at least 1
        (4, 2, 5, 5, 6, True),  # up, into overindulging
    ],
)
def test_functioning_vice_shifts_the_indulgence_die(
    relief, shift, marked, cleared, die, overindulged
):
    """Functioning Vice (Spider): "When you indulge, shift the die result up or down by 1
    or 2" (the app's ability text; SRD_FACTS: "lets you shift the die by ±1 or ±2")."""
    result = abilities.functioning_vice(relief, shift, marked)
    assert (result.cleared, result.relief, result.overindulged) == (cleared, die, overindulged)


@pytest.mark.parametrize("shift", [0, 3, -3])
def test_functioning_vice_shifts_by_1_or_2_only(shift):
    from blades.rules.errors import RuleError

    with pytest.raises(RuleError, match="up or down by 1 or 2"):
        abilities.functioning_vice(3, shift, 5)


@pytest.mark.parametrize(
    ("asked", "used", "ticks"), [(0, 0, 0), (2, 0, 2), (1, 0, 1), (1, 1, 1), (0, 2, 0)]
)
def test_analyst_spreads_two_free_ticks_a_downtime(asked, used, ticks):
    """Analyst (Leech): "Each downtime, get two free ticks to spread over long-term
    projects for investigation or learning a formula or design" (the app's ability
    text; SRD_FACTS: "2 free ticks per downtime")."""
    assert abilities.analyst_ticks(asked, has_it=True, used=used) == ticks


@pytest.mark.parametrize(
    ("asked", "has_it", "used", "refusal"),
    [(1, False, 0, "Only a character with Analyst"), (3, True, 0, "2 free ticks"),
     (2, True, 1, "1 left"), (1, True, 2, "0 left"), (-1, True, 0, "2 free ticks")],
)  # fmt: skip
def test_analyst_gives_no_more_than_two(asked, has_it, used, refusal):
    from blades.rules.errors import RuleError

    with pytest.raises(RuleError) as refused:
        abilities.analyst_ticks(asked, has_it=has_it, used=used)
    assert refusal in str(refused.value)


@pytest.mark.parametrize(("pushes", "in_stress"), [(1, 0), (2, 1)])
def test_mastermind_pays_one_project_push_with_special_armor(pushes, in_stress):
    """Mastermind (000): "You may expend your special armor to ... push yourself when you
    gather information or work on a long-term project ... but you don't take 2
    stress": one push is paid with the armor, any other in stress."""
    assert abilities.mastermind_push({"mastermind"}, pushes) == in_stress


def test_only_a_mastermind_pays_a_project_push_with_armor():
    from blades.rules.errors import RuleError

    with pytest.raises(RuleError, match="Only a Mastermind"):
        abilities.mastermind_push({"battleborn"}, 1)
    with pytest.raises(RuleError, match="Choose the push"):
        abilities.mastermind_push({"mastermind"}, 0)


@pytest.mark.parametrize(
    ("ability", "gathering", "allowed"),
    [("mastermind", True, True), ("mastermind", False, False), ("battleborn", False, True)],
)
def test_mastermind_pushes_an_action_roll_with_armor_only_gathering_information(
    ability, gathering, allowed
):
    """Mastermind (000): "push yourself when you gather information or work on a
    long-term project": on an action roll, only one that gathers information."""
    assert abilities.special_push_allowed(ability, gather_information=gathering) is allowed


@pytest.mark.parametrize(
    ("roll_status", "jail_bird", "status"),
    [(0, True, 1), (1, True, 2), (1, False, 1), (0, False, 0)],
)
def test_jail_birds_status_comes_on_top_of_the_rolls(roll_status, jail_bird, status):
    """Jail Bird: "you gain +1 status with a faction you help inside", beside the
    incarceration roll's "+1 status with a faction you helped inside" on a 6 (003)."""
    assert abilities.prison_status(roll_status, jail_bird=jail_bird) == status
