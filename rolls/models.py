"""The shared roll: one row the player and the GM build together, step by step.

Every step is also written as a RollEvent (who, what, and the exact field changes it
made to sheets and clocks), so the finished roll reads as a record in the log and the
GM's undo can put every value back as it was.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy, gettext_noop

from blades.rules.dice import Outcome
from blades.rules.dice import Roll as DiceRoll
from blades.rules.flow import ABILITY_BONUS
from blades.rules.rolls import CONSEQUENCE_KINDS, Effect, Position
from sessions import shapes
from sessions.fields import WordsField

CHARACTER = "characters.Character"
LOG = "table_sessions.Roll"  # a line of the roll log


class ActionRoll(models.Model):
    class Kind(models.TextChoices):
        ACTION = "action", gettext_lazy("Action roll")
        GROUP = "group", gettext_lazy("Group action")
        FORTUNE = "fortune", gettext_lazy("Fortune roll")

    class Step(models.TextChoices):
        SETUP = "setup", gettext_lazy("Setting up")
        CONSEQUENCES = "consequences", gettext_lazy("Rolled")
        DONE = "done", gettext_lazy("Finished")
        CANCELLED = "cancelled", gettext_lazy("Cancelled")
        UNDONE = "undone", gettext_lazy("Undone")

    table = models.ForeignKey(
        "table_sessions.Table", on_delete=models.CASCADE, related_name="action_rolls"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ACTION)
    step = models.CharField(max_length=15, choices=Step.choices, default=Step.SETUP)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # The rolling character (the leader of a group action); none for a fortune roll.
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, null=True, related_name="+"
    )
    goal = models.CharField(max_length=200)
    action = models.CharField(max_length=12, blank=True)
    position = models.CharField(
        max_length=10, choices=[(p.value, p.label) for p in Position], default=Position.RISKY
    )
    effect = models.PositiveSmallIntegerField(
        choices=[(e.value, e.label) for e in Effect], default=Effect.STANDARD
    )
    # The GM has set position and effect, or taken them as proposed: the dice wait for it.
    called = models.BooleanField(default=False)
    trade_asked = models.BooleanField(default=False)
    # What the asked trade buys: "effect" (a worse position) or "position" (less effect).
    trade_for = models.CharField(max_length=10, blank=True, default="effect")
    gather_information = models.BooleanField(default=False)
    flashback = models.BooleanField(default=False)
    flashback_cost = models.PositiveSmallIntegerField(null=True, blank=True)

    assister = models.ForeignKey(
        "characters.Character", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # The assister's Foresight: no stress for the assist (a group's assists keep it in
    # group_bonuses, as "foresight").
    assist_foresight = models.BooleanField(default=False)
    push_dice = models.BooleanField(default=False)
    push_effect = models.BooleanField(default=False)
    # Pushing to act while incapacitated: a push of its own, on top of any other.
    push_act = models.BooleanField(default=False)
    # One of the pushes is paid with the roller's special armor, not stress.
    push_special = models.BooleanField(default=False)
    bargain = models.CharField(max_length=200, blank=True)
    bargain_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    bargain_accepted = models.BooleanField(default=False)
    ability_dice = models.PositiveSmallIntegerField(default=0)
    ability_effect = models.PositiveSmallIntegerField(default=0)
    ability_reason = models.CharField(max_length=120, blank=True)

    # Set up: this roll, if it succeeds, helps `setup_for` on their next roll.
    setup_for = models.ForeignKey(
        "characters.Character", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    setup_benefit = models.CharField(max_length=10, blank=True)
    # ...and this roll draws on a teammate's set up.
    setup_from = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, related_name="+")

    # Group action: {character id: dice or None until that participant rolls}.
    group = shapes.ShapedJSONField(
        default=dict,
        shape=shapes.MapOf(shapes.Ref(CHARACTER), shapes.Maybe(shapes.PoolAndDice())),
        label=gettext_noop("group"),
    )
    # ...and the bonus dice each participant takes for their own roll:
    # {character id: {"push": bool, "bargain": text, "assister": character id,
    # "ability_dice": dice, "ability_reason": text, ...}}.
    group_bonuses = shapes.ShapedJSONField(
        default=dict,
        shape=shapes.MapOf(
            shapes.Ref(CHARACTER),
            shapes.Record(
                push=shapes.Flag(),
                bargain=shapes.Text(),
                act=shapes.Flag(),
                expertise=shapes.Flag(),
                assister=shapes.Ref(CHARACTER),
                foresight=shapes.Flag(),
                ability_dice=shapes.Whole(0, ABILITY_BONUS),
                ability_reason=shapes.Text(),
                log=shapes.Ref(LOG),
            ),
        ),
        label=gettext_noop("group bonuses"),
    )
    # ...and the cohorts the leader leads in it, each rolling its quality:
    # {cohort id: {"name": text, "dice": [pool, *dice], "log": roll log line id}}.
    cohorts = shapes.ShapedJSONField(
        default=dict,
        shape=shapes.MapOf(
            shapes.Ref("crews.Cohort"),
            shapes.Record(name=shapes.Text(), dice=shapes.PoolAndDice(), log=shapes.Ref(LOG)),
        ),
        label=gettext_noop("cohorts"),
    )

    # Fortune roll: the pool the GM built, and whether players may see it at all.
    secret = models.BooleanField(default=False)

    # The clock a success filled (once per roll).
    target_clock = models.ForeignKey(
        "table_sessions.Clock", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    pool = models.SmallIntegerField(null=True)
    dice = shapes.ShapedJSONField(null=True, shape=shapes.Faces(), label=gettext_noop("dice"))
    outcome = models.CharField(
        max_length=10, blank=True, choices=[(o.value, o.label) for o in Outcome]
    )
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True)
    # The roll's line in the table's roll log, written when the dice fall (rolls/log.py).
    # The link lives here: the log, a floor below, knows nothing of action rolls.
    log = models.OneToOneField(
        "table_sessions.Roll", on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.goal}"

    @property
    def open(self) -> bool:
        return self.step in (self.Step.SETUP, self.Step.CONSEQUENCES)

    @property
    def as_position(self) -> Position:
        return Position(self.position)

    @property
    def as_effect(self) -> Effect:
        return Effect(self.effect)

    def clean(self) -> None:
        shapes.dice_fit_pool(self.pool, self.dice)

    @property
    def as_dice(self) -> DiceRoll | None:
        return DiceRoll(self.pool, tuple(self.dice)) if self.dice is not None else None

    @property
    def outcome_label(self) -> str:
        return Outcome(self.outcome).label if self.outcome else ""


class Consequence(models.Model):
    class Resisted(models.TextChoices):
        NO = "", gettext_lazy("Not resisted")
        ROLL = "roll", gettext_lazy("Resistance roll")
        ARMOR = "armor", gettext_lazy("Armor")

    class Result(models.TextChoices):
        STANDS = "", gettext_lazy("Stands")
        REDUCED = "reduced", gettext_lazy("Reduced")
        AVOIDED = "avoided", gettext_lazy("Avoided")

    roll = models.ForeignKey(ActionRoll, on_delete=models.CASCADE, related_name="consequences")
    kind = models.CharField(max_length=20, choices=list(CONSEQUENCE_KINDS.items()))
    # Who suffers it: the roller, or a teammate who protected them.
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, null=True, related_name="+"
    )
    description = models.CharField(max_length=120, blank=True)
    harm_level = models.PositiveSmallIntegerField(null=True)
    # The row the harm landed in (a full row pushes it up).
    harm_landed = models.PositiveSmallIntegerField(null=True)
    clock = models.ForeignKey(
        "table_sessions.Clock", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    ticks = models.PositiveSmallIntegerField(default=0)
    # A complication may give the crew heat instead: the steps it actually moved the
    # heat track (0 when the track was already full).
    heat = models.PositiveSmallIntegerField(default=0)
    resist_attribute = models.CharField(max_length=10, blank=True)
    # The GM's judgment when inflicting it: a supernatural threat (Anointed resists it).
    supernatural = models.BooleanField(default=False)
    resisted = models.CharField(max_length=5, choices=Resisted.choices, blank=True)
    resist_dice = shapes.ShapedJSONField(  # the pool, then its dice
        null=True, shape=shapes.PoolAndDice(), label=gettext_noop("resistance dice")
    )
    # The resistance roll's line in the table's roll log: the roll's steps tell it.
    resist_log = models.OneToOneField(
        "table_sessions.Roll", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    result = models.CharField(max_length=10, choices=Result.choices, blank=True)
    protected_by = models.ForeignKey(
        "characters.Character", on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.description}"

    @property
    def heavy_armor_reduces_again(self) -> bool:
        """Harm that armor has already reduced: heavy armor's second box reduces it again."""
        return (
            self.kind == "harm"
            and self.resisted == self.Resisted.ARMOR
            and self.result == self.Result.REDUCED
            and bool(self.harm_landed)
        )


class RollEvent(models.Model):
    """One step of a roll, in order. `changes` is a list of
    {"character"|"clock"|"crew": pk, "field": name, "before": value, "after": value}."""

    roll = models.ForeignKey(ActionRoll, on_delete=models.CASCADE, related_name="events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    text = WordsField()  # read in the reader's language
    changes = shapes.ShapedJSONField(
        default=list,
        shape=shapes.ListOf(
            shapes.Record(
                character=shapes.Ref(CHARACTER),
                clock=shapes.Ref("table_sessions.Clock"),
                crew=shapes.Ref("crews.Crew"),
                who=shapes.Anything(),  # the name, as it was
                field=shapes.Text(),
                before=shapes.Anything(),
                after=shapes.Anything(),
            )
        ),
        label=gettext_noop("changes"),
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return str(self.text)
