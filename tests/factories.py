"""A factory for every model, so that no test builds rows by hand."""

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from sessions.models import Clock, Membership, Presence, Roll, Table


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"scoundrel{n}")
    password = factory.django.Password("a-long-test-password")


class ProfileFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "accounts.Profile"

    user = factory.SubFactory(UserFactory)
    language = "es"


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Crew table {n}")
    gm = factory.SubFactory(UserFactory)

    @factory.post_generation
    def gm_membership(self, create, extracted, **kwargs):
        if create:
            Membership.objects.create(table=self, user=self.gm, role=Membership.Role.GM)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    table = factory.SubFactory(TableFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.PLAYER


class ClockFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Clock

    table = factory.SubFactory(TableFactory)
    name = factory.Sequence(lambda n: f"Clock {n}")
    segments = 4
    # The GM's clock until the GM says otherwise; linked and racing clocks name their
    # other clock: ClockFactory(unlocks=other), ClockFactory(kind="racing", rival=other).
    players_tick = False
    unlocks = None
    rival = None


class RollFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Roll

    table = factory.SubFactory(TableFactory)
    roller = factory.SubFactory(UserFactory)
    kind = "action"
    pool = 2
    dice = [4, 2]
    outcome = "partial"
    summary = "Partial success"
    character_name = factory.LazyAttribute(lambda o: o.character.name if o.character else "")

    class Params:
        character = None  # the sheet rolled from: the log keeps its name


class PresenceFactory(factory.django.DjangoModelFactory):
    """One open socket of a member's page."""

    class Meta:
        model = Presence

    table = factory.SubFactory(TableFactory)
    user = factory.LazyAttribute(lambda o: o.table.gm)
    channel_name = factory.Sequence(lambda n: f"specific.test!{n}")
    seen = factory.LazyFunction(timezone.now)


# --- Characters ---------------------------------------------------------------------------
# Standard playbooks and options come from the data migration, so factories pick them.


def _option(kind: str, key: str):
    from characters.models import Option

    return Option.objects.get(kind=kind, key=key)


def standard_playbook(key: str):
    from characters.models import Playbook

    return Playbook.objects.get(table=None, key=key)


class CharacterFactory(factory.django.DjangoModelFactory):
    """A Cutter at a table, owned by a player who is a member of that table."""

    class Meta:
        model = "characters.Character"

    table = factory.SubFactory(TableFactory)
    owner = factory.LazyAttribute(lambda o: MembershipFactory(table=o.table).user)
    playbook = factory.LazyFunction(lambda: standard_playbook("cutter"))
    name = factory.Sequence(lambda n: f"Scoundrel {n}")
    heritage = factory.LazyFunction(lambda: _option("heritage", "akoros"))
    background = factory.LazyFunction(lambda: _option("background", "academic"))
    vice = factory.LazyFunction(lambda: _option("vice", "faith"))
    skirmish = 2
    command = 1


# The shared roll's two players, the same wherever they play (the flow's action tests,
# its views and the browsers): Ada rolls, Bo helps.


class AdaFactory(CharacterFactory):
    name = "Ada"
    prowl = 2
    finesse = 1
    skirmish = 1


class BoFactory(CharacterFactory):
    name = "Bo"
    prowl = 1
    hunt = 1


class PlaybookFactory(factory.django.DjangoModelFactory):
    """A GM's custom playbook at a table (the standard ones come from the migration)."""

    class Meta:
        model = "characters.Playbook"

    table = factory.SubFactory(TableFactory)
    key = factory.Sequence(lambda n: f"custom-{n}")
    name = factory.Sequence(lambda n: f"Custom playbook {n}")
    dots = {"hunt": 2, "tinker": 1}
    xp_trigger = "You addressed a challenge with vermin or filth."


class SpecialAbilityFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "characters.SpecialAbility"

    playbook = factory.SubFactory(PlaybookFactory)
    key = factory.Sequence(lambda n: f"ability-{n}")
    name = factory.Sequence(lambda n: f"Ability {n}")
    description = "Does a thing well."


class PlaybookFriendFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "characters.PlaybookFriend"

    playbook = factory.SubFactory(PlaybookFactory)
    name = factory.Sequence(lambda n: f"Friend {n}")


class ItemFactory(factory.django.DjangoModelFactory):
    """A playbook's special item (no playbook: a standard item for everyone)."""

    class Meta:
        model = "characters.Item"

    playbook = factory.SubFactory(PlaybookFactory)
    name = factory.Sequence(lambda n: f"Special item {n}")


class OptionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "characters.Option"

    kind = "heritage"
    key = factory.Sequence(lambda n: f"option-{n}")
    name = factory.Sequence(lambda n: f"Option {n}")


class ContactFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "characters.Contact"

    character = factory.SubFactory(CharacterFactory)
    name = factory.Sequence(lambda n: f"Contact {n}")


class GmNoteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "characters.GmNote"

    character = factory.SubFactory(CharacterFactory)
    text = "Owes the Lampblacks."


class DraftFactory(factory.django.DjangoModelFactory):
    """The wizard's answers so far for a member at a table."""

    class Meta:
        model = "characters.Draft"

    table = factory.SubFactory(TableFactory)
    user = factory.LazyAttribute(lambda o: MembershipFactory(table=o.table).user)


class CharacterItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "characters.CharacterItem"

    character = factory.SubFactory(CharacterFactory)
    name = factory.Sequence(lambda n: f"Item {n}")
    load = 1


class CharacterAbilityFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "characters.CharacterAbility"

    character = factory.SubFactory(CharacterFactory)
    ability = factory.LazyAttribute(lambda o: o.character.playbook.abilities.first())


# --- Crews and factions ---------------------------------------------------------------


class CrewFactory(factory.django.DjangoModelFactory):
    """A bare crew; use `crews.actions.create_crew` for one with its type's map and defaults."""

    class Meta:
        model = "crews.Crew"

    table = factory.SubFactory(TableFactory)
    crew_type = "shadows"
    name = factory.Sequence(lambda n: f"The Crew {n}")


class ClaimFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "crews.Claim"

    crew = factory.SubFactory(CrewFactory)
    name = factory.Sequence(lambda n: f"Claim {n}")


class CohortFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "crews.Cohort"

    crew = factory.SubFactory(CrewFactory)
    kind = "gang"
    types = ["thugs"]
    edges = ["loyal"]
    flaws = ["wild"]


class FactionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "crews.Faction"

    table = factory.SubFactory(TableFactory)
    name = factory.Sequence(lambda n: f"Faction {n}")
    tier = 2


class FactionClockFactory(factory.django.DjangoModelFactory):
    """A faction's goal clock: a table clock of kind "faction", linked."""

    class Meta:
        model = "crews.FactionClock"

    faction = factory.SubFactory(FactionFactory)
    clock = factory.LazyAttribute(lambda o: ClockFactory(table=o.faction.table, kind="faction"))


class ScreenFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "crews.Screen"

    table = factory.SubFactory(TableFactory)


# --- The phase loop: score, payoff, heat, entanglements, downtime --------------------------


class PhaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "play.Phase"

    table = factory.SubFactory(TableFactory)


class ScoreFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "play.Score"

    table = factory.SubFactory(TableFactory)
    target_name = factory.Sequence(lambda n: f"Target {n}")
    plan = "stealth"
    detail = "the old tunnels"


class FlashbackFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "play.Flashback"

    score = factory.SubFactory(ScoreFactory)
    character = factory.LazyAttribute(lambda o: CharacterFactory(table=o.score.table))
    stress = 1


class DowntimeActivityFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "play.DowntimeActivity"

    score = factory.SubFactory(ScoreFactory)
    character = factory.LazyAttribute(lambda o: CharacterFactory(table=o.score.table))
    kind = "recover"


# --- The shared action roll ---------------------------------------------------------------


class ActionRollFactory(factory.django.DjangoModelFactory):
    """A roll set up by its character's owner (`kind="fortune", character=None` for the
    GM's fortune roll)."""

    class Meta:
        model = "rolls.ActionRoll"

    table = factory.SubFactory(TableFactory)
    character = factory.LazyAttribute(lambda o: CharacterFactory(table=o.table))
    started_by = factory.LazyAttribute(lambda o: o.character.owner if o.character else o.table.gm)
    goal = factory.Sequence(lambda n: f"Goal {n}")
    action = "prowl"


class ConsequenceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "rolls.Consequence"

    roll = factory.SubFactory(ActionRollFactory)
    kind = "harm"
    character = factory.LazyAttribute(lambda o: o.roll.character)
    description = "Stabbed"
    harm_level = 2


class RollEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "rolls.RollEvent"

    roll = factory.SubFactory(ActionRollFactory)
    actor = factory.LazyAttribute(lambda o: o.roll.started_by)
    text = factory.Sequence(lambda n: f"Step {n}")


# --- Accounts -----------------------------------------------------------------------------


class LoginFailureFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "accounts.LoginFailure"

    username = factory.Sequence(lambda n: f"scoundrel{n}")
    ip = "127.0.0.1"
    at = factory.LazyFunction(timezone.now)


# --- The chronicle: what leaves the table (Discord) --------------------------------------


class DiscordHookFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "chronicle.DiscordHook"

    table = factory.SubFactory(TableFactory)
    players_url = "https://discord.com/api/webhooks/1/players-token"


class PlaySessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "chronicle.PlaySession"

    table = factory.SubFactory(TableFactory)
    title = factory.Sequence(lambda n: f"Session {n}")


class LearnedFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "chronicle.Learned"

    session = factory.SubFactory(PlaySessionFactory)
    author = factory.SubFactory(UserFactory)
    text = "The Bluecoats patrol the canal at dawn"


class HappeningFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "chronicle.Happening"

    table = factory.SubFactory(TableFactory)
    kind = "phase"
    data = factory.LazyFunction(lambda: {"step": "score"})


class SeatFactory(factory.django.DjangoModelFactory):
    """A member of a restored file who waits to be handed to a person who joined."""

    class Meta:
        model = "backup.Seat"

    table = factory.SubFactory(TableFactory)
    name = "seat 2: the player of Nyx"
    rows = factory.LazyFunction(list)
