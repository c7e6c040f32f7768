import factory
from django.contrib.auth import get_user_model

from sessions.models import Clock, Membership, Roll, Table


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"scoundrel{n}")
    password = factory.django.Password("a-long-test-password")


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
