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
