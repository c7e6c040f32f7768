"""The session journal: what happened at the table between a session's start and end,
written by the app in plain sentences, grouped by the phase the table was in.

Read from the rows the other apps keep (the roll log, the shared action rolls with their
steps, clocks, scores) and from the happenings the recorder heard (chronicle.recorder).
One build serves every session of the table in a constant number of queries, however
many sessions and events there are: each kind of row is read once over the whole span
and dealt out to its session by time.

The audience decides what is written. The GM's journal has everything; a player's has
what players saw at the table: no secret roll, no GM-only clock (a hidden faction's goal
clocks are GM-only while it is), no hidden faction, no GM notes. Every text the journal
writes, its own sentences and the lines the logs stored, is filled in at the end by the
table's audience rule (sessions.audience), which names a hidden clock or faction that a
public line refers to as players know it, in one query per kind for the whole journal.
"""

import bisect
from dataclasses import dataclass, field
from datetime import datetime

from django.apps import apps
from django.db.models import Prefetch
from django.utils import timezone

from blades.rules.crew import STATUS_LABELS
from blades.rules.rolls import Effect, Position, RollKind
from sessions import audience

from .models import Happening, Learned, PlaySession

# How the GM's journal marks what players' journals leave out.
SECRET = " [secret]"
GM_ONLY = " [GM only]"


@dataclass
class Line:
    text: str
    steps: list[str] = field(default_factory=list)


@dataclass
class Part:
    """The lines of one stretch of a session spent in one phase of the loop."""

    phase: str
    lines: list[Line] = field(default_factory=list)


@dataclass
class SessionJournal:
    session: PlaySession
    parts: list[Part]
    learned: list[Learned]
    gm_notes: str  # empty in a player's journal


def _sees(thing, is_gm: bool) -> bool:
    """A clock or a faction this audience may read of (None: deleted since)."""
    return thing is not None and (is_gm or not thing.hidden)


def _hidden_mark(thing) -> str:
    return GM_ONLY if thing.hidden else ""


def _dice(dice, pool: int) -> str:
    faces = ", ".join(map(str, dice))
    return f"{faces} on {pool}d" + (" (two dice, lowest counts)" if pool <= 0 else "")


def _a(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _person(user, character: str = "") -> str:
    name = user.username if user else "someone"
    return f"{character} ({name})" if character else name


# --- One sentence per event ---------------------------------------------------------------


def _logged_roll(roll) -> Line:
    kind = roll.kind_label.lower()
    # The summary reads the dice in the roll's own terms (an outcome, an effect, a position).
    text = f"{_person(roll.roller, roll.character_name)} made {_a(kind)} {kind} roll "
    text += f"({_dice(roll.dice, roll.pool)}): {roll.summary}"
    if roll.note:
        text += f", “{roll.note}”"
    text += "."
    if roll.secret:
        text += SECRET
    return Line(text)


def _action_roll(roll) -> Line:
    who = roll.character.name if roll.character else _person(roll.started_by)
    kind = roll.get_kind_display().lower()
    text = f"{who} made {_a(kind)} {kind}"
    if roll.kind != roll.Kind.FORTUNE:
        position, effect = Position(roll.position).label, Effect(roll.effect).label
        text += f" with {roll.action.capitalize()} ({position.lower()}, {effect.lower()} effect)"
    if roll.goal:
        text += f" to {roll.goal}"
    text += f" ({_dice(roll.dice, roll.pool)}): {roll.outcome_label}."
    if roll.step == roll.Step.UNDONE:
        text += " The GM undid it."
    if roll.secret:
        text += SECRET
    return Line(text, [event.text for event in roll.events.all()])


def _clock_started(clock) -> Line:
    kind = clock.get_kind_display().lower()
    text = f"A new {kind} clock: {clock.name} ({clock.segments} segments)."
    return Line(text + _hidden_mark(clock))


def _score_started(score, is_gm: bool) -> Line:
    text = f"The crew set out on a score: a {score.get_plan_display().lower()} plan against "
    text += audience.target(faction=score.target_faction, named=score.target_name, is_gm=is_gm)
    if score.detail:
        text += f" ({score.detail_label.lower()}: {score.detail})"
    return Line(text + ".")


def _happening(event: Happening, is_gm: bool) -> Line | None:
    """The sentence for a happening, or None where this audience does not see it."""
    Kind = Happening.Kind
    data = event.data
    who = event.character.name if event.character else "Someone"
    if event.kind == Kind.CLOCK_FILLED:
        # Filling is progress: not told of a clock whose progress players do not see.
        if not _sees(event.clock, is_gm) or not is_gm and event.clock.progress_hidden:
            return None
        text = f"The clock {event.clock.name} filled ({event.clock.segments} segments)."
        return Line(text + _hidden_mark(event.clock))
    if event.kind == Kind.FACTION_STATUS:
        if not _sees(event.faction, is_gm):
            return None
        status = data["status"]
        label = STATUS_LABELS.get(status, str(status))
        text = f"{event.faction.name} now stand at {status:+d} with the crew: {label.lower()}."
        return Line(text + _hidden_mark(event.faction))
    if event.kind == Kind.HARM:
        return Line(f"{who} suffered level {data['level']} harm: {data['text']}.")
    if event.kind == Kind.TRAUMA:
        why = f" (GM: {data['reason']})" if data.get("reason") else ""
        if data.get("cleared"):
            return Line(f"{who} is no longer {data['trauma']}{why}.")
        return Line(f"{who} took a trauma: {data['trauma']}{why}.")
    if event.kind == Kind.XP:
        text = f"{who} marked {data['xp']} {data['track']} xp"
        if data.get("earned"):
            text += f", earning {data['earned']} advance{'s' if data['earned'] > 1 else ''}"
        return Line(text + ".")
    if event.kind == Kind.ADVANCE:
        spent = f"{who} spent {_a(data['track'])} {data['track']} advance"
        if data.get("action"):
            return Line(f"{spent} on a dot in {data['action'].capitalize()}.")
        return Line(f"{spent} on a new special ability.")
    if event.kind == Kind.PAYOFF:
        text = f"Payoff: {data['rep']} rep and {data['coin']} coin"
        if data.get("tithe"):
            text += f" ({data['tithe']} of it paid as tithe)"
        return Line(text + ".")
    if event.kind == Kind.HEAT:
        text = f"The crew took {data['taken']} heat"
        if "heat" in data:
            text += f" (heat now {data['heat']}, wanted level {data['wanted']})"
        return Line(text + ".")
    if event.kind == Kind.ENTANGLEMENT:
        resolution = data.get("resolution", "")
        return Line(f"Entanglement: {data['name']}. {resolution}".strip())
    if event.kind == Kind.DOWNTIME:
        activity = event.activity
        if activity is None:
            return Line(f"{who} spent a downtime activity.")
        text = f"{who}: {activity.get_kind_display().lower()}"
        if activity.detail:
            text += f" ({activity.detail})"
        if activity.result:
            text += f". {activity.result}"
        return Line(text.rstrip(".") + ".")
    return None


# --- The whole table's journal ------------------------------------------------------------


def _phase_label(step: str) -> str:
    Phase = apps.get_model("play", "Phase")
    return Phase.Step(step).label if step in Phase.Step.values else "Free play"


def _harm_in_rolls(rolls) -> set[tuple[int, str]]:
    """Harm a shown action roll's consequences already tell of: the sheet's record of the
    same harm would say it twice."""
    return {
        (c.character_id, c.description)
        for roll in rolls
        for c in roll.consequences.all()
        if c.harm_level
    }


def _fill(lines: list[Line], is_gm: bool, clocks: list) -> None:
    """Name what every line refers to for this audience, all lines at once. Lines logged
    before references existed name clocks outright: `legacy` takes the hidden ones out."""
    texts = [line.text for line in lines] + [step for line in lines for step in line.steps]
    filled = iter(audience.fill_all(texts, is_gm=is_gm, legacy=clocks))
    for line in lines:
        line.text = next(filled)
    for line in lines:
        line.steps = [next(filled) for _ in line.steps]


def build(table, *, is_gm: bool, session_id: int | None = None) -> list[SessionJournal]:
    """Every session of the table (or just one), newest first, for this audience."""
    sessions = list(PlaySession.objects.filter(table=table))
    if session_id is not None:
        sessions = [s for s in sessions if s.pk == session_id]
    if not sessions:
        return []
    Roll = apps.get_model("table_sessions", "Roll")
    Clock = apps.get_model("table_sessions", "Clock")
    ActionRoll = apps.get_model("rolls", "ActionRoll")
    RollEvent = apps.get_model("rolls", "RollEvent")

    since = min(s.started for s in sessions)
    until = max(s.ended or timezone.now() for s in sessions)
    span = {"created__gte": since, "created__lte": until}

    clocks = list(Clock.objects.filter(table=table))

    # A shared roll is told below with every step; its dice are lines of the roll log
    # too (the roll's own line, and each group participant's), told once, there.
    logged = (
        Roll.objects.filter(table=table, **span)
        .exclude(pk__in=ActionRoll.objects.filter(table=table).exclude(log=None).values("log"))
        .exclude(kind=RollKind.GROUP)
        .select_related("roller")
    )
    shared = (
        ActionRoll.objects.filter(table=table, **span)
        .exclude(dice=None)
        .select_related("character", "started_by")
        .prefetch_related(
            Prefetch("events", queryset=RollEvent.objects.order_by("pk")), "consequences"
        )
    )
    if not is_gm:
        logged, shared = logged.filter(secret=False), shared.filter(secret=False)
    shared = list(shared)
    told_harm = _harm_in_rolls(shared)

    events: list[tuple[datetime, int, Line | str]] = []  # a str is a phase change
    events += [(roll.created, 1, _logged_roll(roll)) for roll in logged]
    events += [(roll.created, 2, _action_roll(roll)) for roll in shared]
    events += [
        (clock.created, 0, _clock_started(clock))
        for clock in clocks
        if since <= clock.created <= until and _sees(clock, is_gm)
    ]
    happenings = Happening.objects.filter(table=table, **span).select_related(
        "clock", "faction", "character", "activity", "score__target_faction"
    )
    for event in happenings:
        if event.kind == Happening.Kind.PHASE:
            events.append((event.created, -1, event.data["step"]))
            if event.score is not None:
                events.append((event.created, 0, _score_started(event.score, is_gm)))
            continue
        if event.kind == Happening.Kind.HARM and (
            (event.character_id, event.data["text"]) in told_harm
        ):
            continue
        line = _happening(event, is_gm)
        if line is not None:
            events.append((event.created, 3, line))
    events.sort(key=lambda event: (event[0], event[1]))

    learned: dict[int, list[Learned]] = {s.pk: [] for s in sessions}
    for line in Learned.objects.filter(session__in=sessions).select_related("author"):
        learned[line.session_id].append(line)

    # Deal the events out to their sessions by time: sessions do not overlap.
    ordered = sorted(sessions, key=lambda s: s.started)
    starts = [s.started for s in ordered]
    parts: dict[int, list[Part]] = {
        s.pk: [Part(_phase_label(s.start_step or "free_play"))] for s in sessions
    }
    for when, _, item in events:
        index = bisect.bisect_right(starts, when) - 1
        if index < 0:
            continue
        session = ordered[index]
        if session.ended is not None and when > session.ended:
            continue
        own = parts[session.pk]
        if isinstance(item, str):
            own.append(Part(_phase_label(item)))
        else:
            own[-1].lines.append(item)
    _fill([line for own in parts.values() for part in own for line in part.lines], is_gm, clocks)
    return [
        SessionJournal(
            session=s,
            # A phase the table passed through without anything happening says nothing.
            parts=[part for part in parts[s.pk] if part.lines],
            learned=learned[s.pk],
            gm_notes=s.gm_notes if is_gm else "",
        )
        for s in sessions
    ]
