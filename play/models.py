"""The phase machine's records: where the table is in the loop, the score, its
flashbacks and the downtime activities."""

from django.db import models
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from blades.rules import score as score_rules
from blades.rules.rolls import Position
from sessions import shapes
from sessions.fields import WordsField
from sessions.models import Clock, Roll, Table

ENTANGLEMENTS = shapes.ListOf(shapes.Text())


class Phase(models.Model):
    """Where the table is: free play, a score, one of downtime's steps, or the xp review.

    Every phase action locks this row first, so two clicks on the same step run one after
    the other and the second finds the step already done.
    """

    class Step(models.TextChoices):
        FREE_PLAY = "free_play", gettext_lazy("Free play")
        SCORE = "score", gettext_lazy("The score")
        PAYOFF = "payoff", gettext_lazy("Payoff")
        HEAT = "heat", gettext_lazy("Heat")
        ENTANGLEMENT = "entanglement", gettext_lazy("Entanglements")
        ACTIVITIES = "activities", gettext_lazy("Downtime activities")
        XP_REVIEW = "xp_review", gettext_lazy("End of session: xp")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="phase")
    step = models.CharField(max_length=20, choices=Step.choices, default=Step.FREE_PLAY)
    score = models.ForeignKey(
        "Score", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The xp review: characters (ids) who have marked theirs, and whether the crew has.
    xp_done = shapes.ShapedJSONField(
        default=list,
        shape=shapes.ListOf(shapes.Ref("characters.Character")),
        label=gettext_noop("xp marked"),
    )
    crew_xp_done = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.table}: {self.get_step_display()}"

    @property
    def stage_label(self) -> str:
        """The stage in the reader's language (`stage` is what the page compares)."""
        return gettext(self.stage)

    @property
    def step_beyond_stage(self) -> str:
        """The step, named beside its stage only where it says more: free play and the
        score are their stages' own names ("Score · The score" said it twice)."""
        if self.step in (self.Step.FREE_PLAY, self.Step.SCORE):
            return ""
        return self.get_step_display()

    @property
    def stage(self) -> str:
        """The three phases everyone sees: free play, the score, downtime."""
        if self.step == self.Step.SCORE:
            return gettext_noop("Score")
        if self.step in (self.Step.FREE_PLAY, self.Step.XP_REVIEW):
            return gettext_noop("Free play")
        return gettext_noop("Downtime")


class Score(models.Model):
    class Plan(models.TextChoices):
        ASSAULT = "assault", gettext_lazy("Assault")
        DECEPTION = "deception", gettext_lazy("Deception")
        STEALTH = "stealth", gettext_lazy("Stealth")
        OCCULT = "occult", gettext_lazy("Occult")
        SOCIAL = "social", gettext_lazy("Social")
        TRANSPORT = "transport", gettext_lazy("Transport")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scores")
    target_faction = models.ForeignKey(
        "crews.Faction", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # A target named by hand; empty when the target is a faction (see phases.start_score).
    target_name = models.CharField(gettext_lazy("Target"), max_length=120)
    target_tier = models.PositiveSmallIntegerField(default=0)
    plan = models.CharField(max_length=10, choices=Plan.choices)
    detail = models.CharField(max_length=200)

    advantages = models.PositiveSmallIntegerField(default=0)
    disadvantages = models.PositiveSmallIntegerField(default=0)
    engagement_roll = models.ForeignKey(
        Roll, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    position = models.CharField(
        max_length=10,
        choices=[
            (Position.CONTROLLED, gettext_lazy("Controlled")),
            (Position.RISKY, gettext_lazy("Risky")),
            (Position.DESPERATE, gettext_lazy("Desperate")),
        ],
        blank=True,
    )
    past_first_obstacle = models.BooleanField(default=False)

    # Payoff and heat, as applied (null until then).
    rep = models.PositiveSmallIntegerField(null=True, blank=True)
    coin = models.PositiveSmallIntegerField(null=True, blank=True)
    tithe = models.PositiveSmallIntegerField(default=0)
    # The payoff's split as the table made it: [name, coin] per scoundrel who took a share
    # (the name as it was then, like a line in the books), and what the crew kept.
    shares = shapes.ShapedJSONField(
        default=list,
        blank=True,
        shape=shapes.ListOf(shapes.Pair(shapes.Text(), shapes.Whole(0))),
        label=gettext_noop("shares"),
    )
    crew_coin = models.SmallIntegerField(null=True, blank=True)
    heat = models.PositiveSmallIntegerField(null=True, blank=True)

    entanglement_roll = models.ForeignKey(
        Roll, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entanglements = shapes.ShapedJSONField(  # the names the roll offers
        default=list, shape=ENTANGLEMENTS, label=gettext_noop("entanglements")
    )
    entanglement = models.CharField(max_length=40, blank=True)  # the one resolved
    resolution = WordsField(blank=True, default=str)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        # For the GM and the admin: what players see goes through sessions.audience.
        target = self.target_faction.name if self.target_faction else self.target_name
        return f"{self.get_plan_display()} on {target}"

    @property
    def detail_label(self) -> str:
        return gettext(score_rules.plan_detail_label(self.plan))

    @property
    def position_label(self) -> str:
        return self.get_position_display()


class Flashback(models.Model):
    """A flashback the GM priced; the player pays its stress (or it stands unpaid)."""

    score = models.ForeignKey(Score, on_delete=models.CASCADE, related_name="flashbacks")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="+"
    )
    stress = models.PositiveSmallIntegerField()
    # A flashback to a downtime activity costs 1 coin or 1 rep instead of stress.
    downtime = models.BooleanField(default=False)
    note = models.CharField(max_length=200, blank=True)
    paid = models.BooleanField(default=False)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"Flashback for {self.character}: {self.stress} stress"


class DowntimeActivity(models.Model):
    """One activity a PC spent in the downtime after `score`."""

    class Kind(models.TextChoices):
        ACQUIRE_ASSET = "acquire_asset", gettext_lazy("Acquire asset")
        PROJECT = "project", gettext_lazy("Long-term project")
        RECOVER = "recover", gettext_lazy("Recover")
        REDUCE_HEAT = "reduce_heat", gettext_lazy("Reduce heat")
        TRAIN = "train", gettext_lazy("Train")
        INDULGE_VICE = "indulge_vice", gettext_lazy("Indulge vice")
        TEND_COHORT = "tend_cohort", gettext_lazy("Tend a cohort")

    score = models.ForeignKey(Score, on_delete=models.CASCADE, related_name="activities")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    paid_with = models.CharField(max_length=4, blank=True)  # "" free, "coin" or "rep"
    detail = models.CharField(max_length=200, blank=True)  # track, action, or the asset
    roll = models.ForeignKey(
        Roll, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    outcome = models.CharField(max_length=10, blank=True)  # after any coin raised it
    raised = models.PositiveSmallIntegerField(default=0)
    amount = models.PositiveSmallIntegerField(default=0)  # ticks, heat removed or quality
    # Analyst's free ticks among a project's `amount` (two to spread each downtime).
    free_ticks = models.PositiveSmallIntegerField(default=0)
    clock = models.ForeignKey(
        Clock, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    cohort = models.ForeignKey(
        "crews.Cohort", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    overindulged = models.BooleanField(default=False)
    # Functioning Vice: how far the player shifted the indulgence's die (0: not shifted).
    vice_shift = models.SmallIntegerField(default=0)
    overindulgence = models.CharField(max_length=20, blank=True)
    # Attract Trouble's extra entanglement: what its roll offers, then how it was resolved.
    entanglements = shapes.ShapedJSONField(
        default=list, blank=True, shape=ENTANGLEMENTS, label=gettext_noop("entanglements")
    )
    trouble = WordsField(blank=True, default=str)
    result = WordsField(blank=True, default=str)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.character}: {self.get_kind_display()}"
