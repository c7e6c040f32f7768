"""Special abilities applied where the numbers are used: the roll, the resistance, the
sheet (issue 28). Each test quotes the text it follows."""

import re

import pytest

from characters import actions
from characters.models import Character
from crews.models import Crew
from rolls import actions as flow
from rolls import group as flow_group
from rolls import outcome as flow_outcome
from tests.factories import CrewFactory
from tests.helpers import Dice, fresh, start
from tests.helpers import give_ability as give

pytestmark = pytest.mark.django_db


def test_survivor_has_a_tenth_stress_box_and_marks_trauma_only_on_it(ada):
    """Survivor: "+1 stress box" (SRD_FACTS §4): 9 stress is no trauma yet."""
    give(ada, "survivor")
    assert fresh(ada).stress_max == 10
    Character.objects.filter(pk=ada.pk).update(stress=8)
    actions.mark_stress(character=ada, amount=1)
    assert (fresh(ada).stress, fresh(ada).trauma_pending) == (9, 0)
    actions.mark_stress(character=ada, amount=1)
    assert (fresh(ada).stress, fresh(ada).trauma_pending) == (0, 1)


def test_survivor_with_steady_stores_ten_stress(ada):
    """Steady and Survivor together: 11 boxes; the database takes 10 marked."""
    CrewFactory(table=ada.table, upgrades={"steady": 3})
    give(ada, "survivor")
    actions.set_stress(character=ada, stress=10)
    assert fresh(ada).stress == 10 and fresh(ada).stress_max == 11


def test_tough_as_nails_rolls_with_severe_harm_at_minus_1d(ada_m, gm_m, ada):
    """Tough as Nails (000): "level 3 harm doesn't incapacitate you; instead you take -1d
    to your rolls (as if it were level 2 harm)" and the harm stays at its level."""
    actions.add_harm(character=ada, level=3, description="Broken Leg")
    roll = start(ada_m, ada)
    with pytest.raises(Exception, match="incapacitated"):
        flow.roll_dice(by=ada_m, roll=roll, rng=Dice(1, 1))
    give(ada, "tough_as_nails")
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(4))
    assert roll.pool == 1  # Prowl 2, -1d
    assert fresh(ada).harm["3"] == ["Broken Leg"]


def test_tough_as_nails_lesser_harm_leaves_effect_whole(ada_m, ada):
    """Tough as Nails (000): "Level 1 harm has no effect on you"."""
    give(ada, "tough_as_nails")
    actions.add_harm(character=ada, level=1, description="Bruised")
    roll = start(ada_m, ada)
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(4, 4))
    assert roll.pool == 2 and roll.as_effect.label == "Standard"


def resist_harm(ada_m, gm_m, ada, attribute: str, dice):
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(2, 3))
    consequence = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=2, description="Scared", attribute=attribute
    )
    flow_outcome.resist(by=ada_m, consequence=consequence, rng=Dice(*dice))
    return str(roll.events.order_by("pk").last().text)


def test_iron_will_gives_1d_to_resist_with_resolve(ada_m, gm_m, ada):
    """Iron Will (000): "When you make a resistance roll with Resolve, take +1d." Ada's
    Resolve is 1 (Command), so she rolls two dice."""
    give(ada, "iron_will")
    text = resist_harm(ada_m, gm_m, ada, "resolve", [5, 2])
    assert "(+1d Iron Will): 2d, 5, 2; takes 1 stress" in text


def test_forged_in_the_fire_gives_the_crew_1d_to_resist(ada_m, gm_m, ada):
    """Forged in the Fire (Bravos): "PCs get +1d to resistance rolls"."""
    CrewFactory(table=ada.table, crew_type="bravos", abilities=["forged_in_the_fire"])
    assert Crew.objects.get(table=ada.table).abilities == ["forged_in_the_fire"]
    text = resist_harm(ada_m, gm_m, ada, "prowess", [1, 1, 1, 6])
    assert "(+1d Forged in the Fire): 4d, 1, 1, 1, 6; takes 0 stress" in text


def panel(client, user, table) -> str:
    from django.urls import reverse

    client.force_login(user)
    return client.get(reverse("flow_panel", args=[table.pk])).content.decode()


def test_the_roll_panel_reminds_of_the_rollers_and_the_crews_abilities(
    client, ada_m, bo_m, gm, ada, bo
):
    """Savage (000): "When you Command a frightened target, take +1d": the GM judges
    it, so the panel shows it while the roll is set up; the crew's Ghost Echoes and
    Bo's Foresight (for Bo, who may assist: "assist a teammate without paying stress")
    too. Iron Will is applied, not reminded."""
    give(ada, "savage")
    give(ada, "iron_will")
    give(bo, "foresight")
    CrewFactory(table=ada.table, abilities=["ghost_echoes"])
    start(ada_m, ada)
    page = panel(client, gm, ada.table)
    assert "<strong>Savage</strong>" in page and "<strong>Ghost Echoes</strong>" in page
    assert "Iron Will" not in page and "Foresight" not in page
    # The roller takes the bonus the GM grants from the same list: a card per ability.
    ada_page = panel(client, ada_m.user, ada.table)
    assert '<input type="hidden" name="reason" value="Savage">' in ada_page
    assert "<strong>Foresight</strong>" in panel(client, bo_m.user, ada.table)


def test_the_roll_panel_reminds_of_no_upgrade_that_guards_the_lair(client, ada_m, gm, ada):
    """Secure: "Locks, alarms and traps; the 2nd box adds arcane wards against spirits."
    It is tested when intruders come for the lair, never on a scoundrel's action roll:
    the panel does not list it; the Carriage beside it, which a roll may use, it does."""
    CrewFactory(table=ada.table, upgrades={"secure": 1, "carriage": 1})
    start(ada_m, ada)
    page = panel(client, gm, ada.table)
    assert "<strong>Carriage</strong>" in page and "Secure" not in page


def test_a_consequence_reminds_of_what_its_sufferer_may_resist_with(client, ada_m, gm_m, ada):
    """Daredevil (000): "-1d to any resistance rolls against consequences from your
    action" when taken on a desperate roll: shown with the consequence, until resisted."""
    give(ada, "daredevil")
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(2, 3))
    consequence = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=2, description="Cut", attribute="prowess"
    )
    page = panel(client, gm_m.user, ada.table)
    assert page.count("<strong>Daredevil</strong>") == 1
    flow_outcome.resist(by=ada_m, consequence=consequence, rng=Dice(6, 1, 1))
    assert "<strong>Daredevil</strong>" not in panel(client, gm_m.user, ada.table)


def test_synchronized_two_sixes_in_a_group_action_are_a_critical(ada_m, bo_m, ada, bo):
    """Synchronized (Shadows): "In a group action, 6s on different characters' rolls
    together count as a critical"."""
    from rolls import group as flow_group

    CrewFactory(table=ada.table, abilities=["synchronized"])
    roll = flow_group.join_group(by=bo_m, roll=start(ada_m, ada, group=True))
    flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 2))
    roll = flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(6))
    assert roll.outcome == "critical"
    assert "(Synchronized: Critical)" in str(roll.events.order_by("pk").last().text)


def test_vengeful_is_an_xp_trigger_of_its_own(client, ada, player):
    """Vengeful (Hound): "Extra xp trigger: you got payback on someone who hurt you or
    yours"."""
    from django.urls import reverse

    give(ada, "vengeful")
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[ada.table_id, ada.pk])).content.decode()
    assert "You got payback against someone who harmed you or someone you care about." in page


def test_tough_as_nails_sheet_labels_severe_harm_minus_1d(client, ada, player):
    """Tough as Nails (000): "level 3 harm doesn't incapacitate you; instead you take -1d
    to your rolls (as if it were level 2 harm)": the sheet's harm rows and the party
    list show that penalty, not "Need help"."""
    from django.urls import reverse

    give(ada, "tough_as_nails")
    actions.add_harm(character=ada, level=3, description="Broken Leg")
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[ada.table_id, ada.pk])).content.decode()
    row = re.search(rf'<tr id="harm-row-{ada.pk}-3">.*?</tr>', page, re.S).group(0)
    assert '<td class="penalty"><strong>−1d</strong></td>' in row
    assert "Need help" not in page
    table = client.get(reverse("table_detail", args=[ada.table_id])).content.decode()
    table = " ".join(table.split())  # as read: a template line may break between words
    assert "3: Broken Leg (−1d)" in table and "Need help" not in table


def test_the_sheets_own_resistance_roll_counts_iron_will_too(client, ada, player):
    """Iron Will (000): "When you make a resistance roll with Resolve, take +1d": on the
    sheet's resistance button as in the shared roll."""
    from django.urls import reverse

    from sessions.models import Roll

    give(ada, "iron_will")
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[ada.table_id, ada.pk])).content.decode()
    assert "Resist with Resolve (2d)" in page and "Resist with Prowess (3d)" in page
    actions.resist(character=ada, roller=player, attribute="resolve", rng=Dice(3, 1))
    roll = Roll.objects.get(character_name=ada.name, kind="resistance")
    assert roll.pool == 2 and str(roll.note) == "Resolve (+1d Iron Will)"


def test_rooks_gambit_rolls_the_best_action_for_2_stress(client, ada_m, ada):
    """Rook's Gambit (000): "Take 2 stress to roll your best action rating while
    performing a different action." Ada's best is Prowl 2; she is doing Skirmish (1)."""
    from blades.rules.errors import RuleError
    from tests.helpers import call

    roll = call(flow.start_roll(by=ada_m, character=ada, goal="hold the door", action="skirmish"))
    assert "Rook's Gambit: roll your best action" not in panel(client, ada_m.user, ada.table)
    with pytest.raises(RuleError, match="does not have Rook's Gambit"):
        flow.rooks_gambit(by=ada_m, roll=roll)
    give(ada, "rooks_gambit")
    assert "Rook's Gambit: roll your best action (2 stress)" in panel(client, ada_m.user, ada.table)
    roll = flow.rooks_gambit(by=ada_m, roll=roll)
    assert roll.action == "prowl" and fresh(ada).stress == 2
    with pytest.raises(RuleError, match="already your best"):
        flow.rooks_gambit(by=ada_m, roll=roll)
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(4, 1))
    assert roll.pool == 2 and roll.goal == "hold the door"


def test_a_group_action_reminds_of_its_leaders_and_the_crews_group_abilities(
    client, ada_m, bo_m, gm, ada, bo
):
    """Expertise (Lurk): "Pick an action; leading a group action with it costs you at most
    1 stress"; Blood Brothers (Bravos): "Cohorts fighting beside you get +1d on setups and
    group actions": both shown on the group action's panel while it is set up, and not
    on a single roll's."""
    give(ada, "expertise")
    CrewFactory(table=ada.table, crew_type="bravos", abilities=["blood_brothers"])
    single = start(ada_m, ada)
    page = panel(client, gm, ada.table)
    assert "<strong>Expertise</strong>" not in page and "Blood Brothers" not in page
    flow.cancel(by=ada_m, roll=single)
    start(ada_m, ada, group=True)
    page = panel(client, gm, ada.table)
    assert "<strong>Expertise</strong>: Pick an action" in page
    assert "<strong>Blood Brothers</strong>" in page


def test_a_crew_upgrade_is_reminded_on_the_roll(client, ada_m, gm, ada):
    """crew_upgrades.json, Documents: "+1 quality for Documents", a judgement of the GM's:
    shown on the roll panel once the crew has marked it, not before."""
    crew = CrewFactory(table=ada.table)
    start(ada_m, ada)
    assert "<strong>Documents</strong>" not in panel(client, gm, ada.table)
    Crew.objects.filter(pk=crew.pk).update(upgrades={"documents": 1})
    assert "<strong>Documents</strong>: +1 quality for Documents" in panel(client, gm, ada.table)


def test_expertise_caps_the_leaders_stress_at_1(client, ada_m, bo_m, gm_m, ada, bo):
    """Expertise (000): "Choose one of your action ratings. When you lead a group action
    using that action, you can suffer only 1 stress at most, regardless of the number of
    failed rolls." Ada chose Prowl on her sheet and leads a Prowl group action; both roll
    1-3: 1 stress, not 2. No box to tick: the action recorded with the ability says it."""
    from django.urls import reverse

    give(ada, "expertise")
    client.force_login(ada_m.user)
    url = reverse("character_move", args=[ada.table_id, ada.pk, "expertise"])
    assert client.post(url, {"action": "prowl"}, HTTP_HX_REQUEST="true").status_code == 200
    roll = flow_group.join_group(by=bo_m, roll=start(ada_m, ada, group=True))
    page = panel(client, bo_m.user, ada.table)
    assert "Expertise: Ada leads with Prowl, the action chosen for it" in page
    flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(2, 1))
    roll = flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(3))
    assert fresh(ada).stress == 1
    assert "Ada leads and takes 1 stress (Expertise)" in str(roll.events.order_by("pk").last().text)


def test_expertise_does_not_cap_a_group_action_with_another_action(ada_m, bo_m, ada, bo):
    """Expertise (000): "When you lead a group action using that action": Ada chose
    Skirmish, so leading a Prowl group action she takes 1 stress per roll of 1-3 (004
    §Lead a group action), 2 here; the old box to say "my chosen action" is gone."""
    from characters import actions as sheet

    give(ada, "expertise")
    sheet.choose_expertise(character=ada, action="skirmish")
    roll = flow_group.join_group(by=bo_m, roll=start(ada_m, ada, group=True))
    flow_group.set_group_bonus(by=ada_m, roll=roll, push=False, bargain="")
    flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(2, 1))
    flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(3))
    assert fresh(ada).stress == 2


def test_without_expertise_the_leader_takes_1_stress_per_failed_roll(ada_m, bo_m, ada, bo):
    """004 §Lead a group action: "the character leading the group action takes 1 stress
    for each PC that rolled 1-3 as their best result"; Expertise with no action chosen
    yet caps nothing."""
    give(ada, "expertise")  # had, no action chosen
    roll = flow_group.join_group(by=bo_m, roll=start(ada_m, ada, group=True))
    flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(2, 1))
    flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(3))
    assert fresh(ada).stress == 2


def test_foresight_assists_twice_a_score_without_stress(client, table, gm, ada_m, bo_m, ada, bo):
    """Foresight (000): "Two times per score you can assist a teammate without paying
    stress": Bo's first two free assists cost nothing, the third is refused (a plain one
    costs 1 stress), and the next score's engagement roll brings them back."""
    from django.urls import reverse

    from blades.rules.errors import RuleError
    from tests.factories import RollFactory

    RollFactory(table=table, roller=gm, kind="engagement")  # the score starts
    first = start(ada_m, ada)
    with pytest.raises(RuleError, match="Only a character with Foresight"):
        flow.assist(by=bo_m, roll=first, foresight=True)
    give(bo, "foresight")
    assert "Assist with Foresight (+1d, no stress; 2 left this score)" in panel(
        client, bo_m.user, table
    )
    url = reverse("flow_step", args=[table.pk, first.pk, "assist"])
    client.post(url, {"foresight": "1"}, HTTP_HX_REQUEST="true")
    first = flow.roll_dice(by=ada_m, roll=first, rng=Dice(1, 1, 1))
    assert first.pool == 3 and fresh(bo).stress == 0
    second = start(ada_m, ada)
    assert "1 left this score" in panel(client, bo_m.user, table)
    flow.assist(by=bo_m, roll=second, foresight=True)
    flow.roll_dice(by=ada_m, roll=second, rng=Dice(1, 1, 1))
    third = start(ada_m, ada)
    assert "Assist with Foresight" not in panel(client, bo_m.user, table)
    with pytest.raises(RuleError, match="Foresight is spent: 2 free assists this score"):
        flow.assist(by=bo_m, roll=third, foresight=True)
    flow.assist(by=bo_m, roll=third)
    flow.roll_dice(by=ada_m, roll=third, rng=Dice(1, 1, 1))
    assert fresh(bo).stress == 1
    RollFactory(table=table, roller=gm, kind="engagement")  # the next score
    start(ada_m, ada)
    assert "2 left this score" in panel(client, bo_m.user, table)


def test_foresight_assists_a_group_action_participant_for_free(client, table, ada_m, bo_m, ada, bo):
    """Foresight (000): "assist a teammate without paying stress", in a group action as
    on a single roll."""
    from rolls import group as flow_group
    from tests.factories import BoFactory, MembershipFactory

    cy_m = MembershipFactory(table=table)
    cy = BoFactory(table=table, owner=cy_m.user, name="Cy")
    give(cy, "foresight")
    roll = flow_group.join_group(by=bo_m, roll=start(ada_m, ada, group=True))
    assert "With Foresight: no stress (2 left this score)" in panel(client, cy_m.user, table)
    roll = flow_group.assist_group(by=cy_m, roll=roll, participant=bo, foresight=True)
    flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6))
    roll = flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(1, 1, 1))
    assert fresh(cy).stress == 0
    assert "Cy assists Bo (+1d, with Foresight, no stress)" in " ".join(
        str(event.text) for event in roll.events.all()
    )


def test_bodyguard_gives_1d_to_resist_what_they_took_for_a_teammate(ada_m, bo_m, gm_m, ada, bo):
    """Bodyguard (000): "When you protect a teammate, take +1d to your resistance roll."
    Bo (Prowess 2) protects Ada from a cut and resists with 3d; resisting his own harm he
    rolls 2d."""
    give(bo, "bodyguard")
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(2, 3))
    cut = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=2, description="Cut", attribute="prowess"
    )
    flow_outcome.protect(by=bo_m, consequence=cut)
    flow_outcome.resist(by=bo_m, consequence=cut, rng=Dice(5, 2, 2))
    text = str(roll.events.order_by("pk").last().text)
    assert "(+1d Bodyguard): 3d, 5, 2, 2" in text
    own = start(bo_m, bo)
    own = flow.roll_dice(by=bo_m, roll=own, rng=Dice(2, 2))  # Prowl 1, −1d for the cut
    bruise = flow_outcome.add_consequence(
        by=gm_m, roll=own, kind="harm", level=1, description="Bruise", attribute="prowess"
    )
    flow_outcome.resist(by=bo_m, consequence=bruise, rng=Dice(5, 1))
    assert "Prowess: 2d, 5, 1" in str(own.events.order_by("pk").last().text)


def test_battleborn_pays_a_push_with_special_armor_not_stress(client, ada_m, ada):
    """Battleborn (000): "You may expend your special armor ... to push yourself during a
    fight"; "If you use this ability to push yourself, you get one of the benefits (+1d,
    +1 effect, act despite severe harm) but you don't take 2 stress." Until the armor comes
    back (at the start of downtime) the next push costs stress again."""
    from django.urls import reverse

    from blades.rules.errors import RuleError

    roll = start(ada_m, ada)
    assert "Pay one push with special armor" not in panel(client, ada_m.user, ada.table)
    with pytest.raises(RuleError, match="no special armor left"):
        flow.set_push(by=ada_m, roll=roll, dice_=True, effect=False, special=True)
    give(ada, "battleborn")
    page = panel(client, ada_m.user, ada.table)
    assert "Pay one push with special armor (Battleborn), not 2 stress" in page
    url = reverse("flow_step", args=[ada.table_id, roll.pk, "push"])
    data = {"push_dice": "1", "push_effect": "1", "push_special": "1"}
    client.post(url, data, HTTP_HX_REQUEST="true")
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(4, 4, 4))
    assert roll.pool == 3 and fresh(ada).stress == 2  # two pushes, one of them free
    assert fresh(ada).special_used
    again = start(ada_m, ada)
    assert "Pay one push with special armor" not in panel(client, ada_m.user, ada.table)
    with pytest.raises(RuleError, match="no special armor left"):
        flow.set_push(by=ada_m, roll=again, dice_=True, effect=False, special=True)


def test_anointed_resists_a_consequence_the_gm_marked_supernatural_with_1d_more(
    client, table, gm, player, ada_m, ada
):
    """Anointed (Cult): "+1d to resist supernatural threats" (the app's ability text).
    Whether the threat is supernatural is the GM's judgment: the consequence form asks
    it of a crew with Anointed, and only what the GM marked is resisted with +1d. Ada's
    Resolve is 1 (Command)."""
    from django.urls import reverse

    from rolls.models import Consequence

    CrewFactory(table=table, crew_type="cult", abilities=["anointed"])
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(2, 3))
    assert "A supernatural threat" in panel(client, gm, table)
    url = reverse("flow_step", args=[table.pk, roll.pk, "consequence"])
    for description, marked in (("Possessed", {"supernatural": "1"}), ("Punched", {})):
        data = {"kind": "harm", "level": "2", "description": description, "attribute": "resolve"}
        assert client.post(url, data | marked, HTTP_HX_REQUEST="true").status_code == 200
    assert "(supernatural)" in panel(client, player, table)
    for consequence in Consequence.objects.all():
        step = [table.pk, roll.pk, consequence.pk, "resist"]
        assert client.post(reverse("flow_consequence_step", args=step)).status_code in (200, 302)
    pools = dict(Consequence.objects.values_list("description", "resist_dice"))
    assert (pools["Possessed"][0], pools["Punched"][0]) == (2, 1)
    texts = [str(event.text) for event in roll.events.all()]
    assert sum("(+1d Anointed)" in text for text in texts) == 1


def test_the_supernatural_question_is_asked_only_of_a_crew_with_anointed(
    client, table, gm, ada_m, ada
):
    """Anointed's "+1d to resist supernatural threats" is the only number the question
    changes: a crew without it is not asked."""
    CrewFactory(table=table, crew_type="cult", abilities=[])
    flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(2, 3))
    assert "A supernatural threat" not in panel(client, gm, table)


def test_emberdeath_marks_its_3_stress_from_the_roll_panel(client, table, player, ada_m, ada):
    """Emberdeath (Assassins): "Take 3 stress as you kill someone to burn away their
    spirit and body in a shower of sparks" (the app's ability text): the roller uses it
    from the roll panel, and the stress is marked."""
    from django.urls import reverse

    roll = start(ada_m, ada)
    assert "Use Emberdeath" not in panel(client, player, table)
    url = reverse("flow_step", args=[table.pk, roll.pk, "ability-stress"])
    refused = client.post(url, {"ability": "emberdeath"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422 and "does not have Emberdeath" in refused.content.decode()
    CrewFactory(table=table, crew_type="assassins", abilities=["emberdeath"])
    assert "Use Emberdeath (3 stress)" in panel(client, player, table)
    before = fresh(ada).stress
    assert client.post(url, {"ability": "emberdeath"}, HTTP_HX_REQUEST="true").status_code == 200
    assert fresh(ada).stress == before + 3
    assert str(roll.events.order_by("pk").last().text) == "Emberdeath: Ada takes 3 stress"


def test_ghost_veil_marks_2_stress_and_1_more_for_each_extra(client, table, player, ada_m, ada):
    """Ghost Veil (Lurk): "Take 2 stress to turn shadowy and insubstantial for a moment;
    +1 stress each for minutes instead, invisibility, or floating" (the app's ability
    text): for minutes and floating, 4 stress."""
    from django.urls import reverse

    give(ada, "ghost_veil")
    roll = start(ada_m, ada)
    assert "Use Ghost Veil (2 stress)" in panel(client, player, table)
    before = fresh(ada).stress
    url = reverse("flow_step", args=[table.pk, roll.pk, "ability-stress"])
    data = {"ability": "ghost_veil", "veil_minutes": "1", "veil_floating": "1"}
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    assert fresh(ada).stress == before + 4
    text = str(roll.events.order_by("pk").last().text)
    assert text == "Ghost Veil (floating, for minutes): Ada takes 4 stress"


def test_only_the_roller_pays_for_their_ability(client, table, other_player, ada_m, bo, ada):
    """Ghost Veil is the roller's own: a teammate's post is refused, their stress kept."""
    from django.urls import reverse

    give(ada, "ghost_veil")
    roll = start(ada_m, ada)
    client.force_login(other_player)
    url = reverse("flow_step", args=[table.pk, roll.pk, "ability-stress"])
    answer = client.post(url, {"ability": "ghost_veil"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 403
    assert fresh(ada).stress == ada.stress and fresh(bo).stress == bo.stress


def test_a_mastermind_pays_a_push_with_special_armor_only_gathering_information(
    client, table, player, ada_m, ada
):
    """Mastermind (000): "You may expend your special armor to ... push yourself when you
    gather information or work on a long-term project": on an action roll that gathers
    no information the push is paid in stress; on one that gathers it, the armor pays."""
    from django.urls import reverse

    give(ada, "mastermind")
    roll = start(ada_m, ada)
    assert "Pay one push with special armor" not in panel(client, player, table)
    url = reverse("flow_step", args=[table.pk, roll.pk, "push"])
    data = {"push_dice": "1", "push_special": "1"}
    refused = client.post(url, data, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422 and "only to gather information" in refused.content.decode()
    flow.cancel(by=ada_m, roll=roll)
    roll = start(ada_m, ada, gather_information=True)
    assert "Pay one push with special armor (Mastermind)" in panel(client, player, table)
    url = reverse("flow_step", args=[table.pk, roll.pk, "push"])
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    stress = fresh(ada).stress
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(4, 4, 4))
    assert fresh(ada).special_used and fresh(ada).stress == stress


def test_a_cancelled_roll_gives_back_ghost_veils_stress(ada_m, ada):
    """Ghost Veil's "Take 2 stress" is a cost of the roll it was used on, and "a
    cancelled roll leaves no cost" (issue 39): cancelling before the dice takes it back,
    as it takes back Rook's Gambit's."""
    give(ada, "ghost_veil")
    roll = start(ada_m, ada)
    before = fresh(ada).stress
    flow.ability_stress(by=ada_m, roll=roll, ability="ghost_veil", extras=("invisible",))
    assert fresh(ada).stress == before + 3
    flow.cancel(by=ada_m, roll=roll)
    assert fresh(ada).stress == before
