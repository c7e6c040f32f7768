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
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.apps import apps
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from blades.rules.rolls import Effect, Position, RollKind
from characters.wording import trauma_name
from crews.models import STATUS_LABELS
from sessions import audience
from sessions.language import table_language

from .models import Happening, Learned, PlaySession
from .recorder import XP_TRACKS, new_harm
from .terms import rules_word

# How the GM's journal marks what players' journals leave out.
SECRET = gettext_lazy("[secret]")
GM_ONLY = gettext_lazy("[GM only]")


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
    return f" {GM_ONLY}" if thing.hidden else ""


def _secret_mark(roll) -> str:
    return f" {SECRET}" if roll.secret else ""


def _dice(dice, pool: int) -> str:
    faces = ", ".join(map(str, dice))
    if pool <= 0:
        return gettext("%(faces)s on %(pool)sd (two dice, lowest counts)") % {
            "faces": faces,
            "pool": pool,
        }
    return gettext("%(faces)s on %(pool)sd") % {"faces": faces, "pool": pool}


def _person(user, character: str = "") -> str:
    name = user.username if user else gettext("someone")
    if character:
        return gettext("%(character)s (%(player)s)") % {"character": character, "player": name}
    return name


# --- One sentence per event ---------------------------------------------------------------
# A roll or an advance is named in a sentence by a whole phrase, article and all ("an
# action roll", "una tirada de acción"): no language's grammar is guessed from a word's
# first letter, and no translated word is lowercased to fit inside another's sentence.

ROLL_PHRASES = {
    RollKind.ACTION: pgettext_lazy("a roll, in a sentence", "an action roll"),
    RollKind.RESISTANCE: pgettext_lazy("a roll, in a sentence", "a resistance roll"),
    RollKind.FORTUNE: pgettext_lazy("a roll, in a sentence", "a fortune roll"),
    RollKind.ENGAGEMENT: pgettext_lazy("a roll, in a sentence", "an engagement roll"),
    RollKind.INFORMATION: pgettext_lazy("a roll, in a sentence", "a gather information roll"),
    RollKind.VICE: pgettext_lazy("a roll, in a sentence", "an indulge vice roll"),
    RollKind.DOWNTIME: pgettext_lazy("a roll, in a sentence", "a downtime roll"),
    RollKind.ENTANGLEMENT: pgettext_lazy("a roll, in a sentence", "an entanglement roll"),
    RollKind.INCARCERATION: pgettext_lazy("a roll, in a sentence", "an incarceration roll"),
    RollKind.GROUP: pgettext_lazy("a roll, in a sentence", "a group action roll"),
}
ADVANCE_PHRASES = {
    "playbook": pgettext_lazy("an advance, in a sentence", "a playbook advance"),
    "insight": pgettext_lazy("an advance, in a sentence", "an insight advance"),
    "prowess": pgettext_lazy("an advance, in a sentence", "a prowess advance"),
    "resolve": pgettext_lazy("an advance, in a sentence", "a resolve advance"),
}
POSITION_WORDS = {
    Position.CONTROLLED: pgettext_lazy("a position, in a sentence", "controlled"),
    Position.RISKY: pgettext_lazy("a position, in a sentence", "risky"),
    Position.DESPERATE: pgettext_lazy("a position, in a sentence", "desperate"),
}
EFFECT_PHRASES = {
    Effect.ZERO: pgettext_lazy("an effect, in a sentence", "zero effect"),
    Effect.LIMITED: pgettext_lazy("an effect, in a sentence", "limited effect"),
    Effect.STANDARD: pgettext_lazy("an effect, in a sentence", "standard effect"),
    Effect.GREAT: pgettext_lazy("an effect, in a sentence", "great effect"),
    Effect.EXTREME: pgettext_lazy("an effect, in a sentence", "extreme effect"),
}
NEW_CLOCK_PHRASES = {
    "danger": pgettext_lazy("a new clock, in a sentence", "A new danger clock"),
    "racing": pgettext_lazy("a new clock, in a sentence", "A new racing clock"),
    "linked": pgettext_lazy("a new clock, in a sentence", "A new linked clock"),
    "mission": pgettext_lazy("a new clock, in a sentence", "A new mission clock"),
    "tug": pgettext_lazy("a new clock, in a sentence", "A new tug-of-war clock"),
    "project": pgettext_lazy("a new clock, in a sentence", "A new long-term project clock"),
    "faction": pgettext_lazy("a new clock, in a sentence", "A new faction clock"),
}
PLAN_PHRASES = {
    "assault": pgettext_lazy("a plan, in a sentence", "an assault plan"),
    "deception": pgettext_lazy("a plan, in a sentence", "a deception plan"),
    "stealth": pgettext_lazy("a plan, in a sentence", "a stealth plan"),
    "occult": pgettext_lazy("a plan, in a sentence", "an occult plan"),
    "social": pgettext_lazy("a plan, in a sentence", "a social plan"),
    "transport": pgettext_lazy("a plan, in a sentence", "a transport plan"),
}
XP_TRACK_WORDS = {
    "playbook": pgettext_lazy("an xp track, in a sentence", "playbook"),
    "insight": pgettext_lazy("an xp track, in a sentence", "insight"),
    "prowess": pgettext_lazy("an xp track, in a sentence", "prowess"),
    "resolve": pgettext_lazy("an xp track, in a sentence", "resolve"),
}


def _logged_roll(roll) -> Line:
    # The summary reads the dice in the roll's own terms (an outcome, an effect, a position).
    words = {
        "who": _person(roll.roller, roll.character_name),
        "roll": ROLL_PHRASES[RollKind(roll.kind)],
        "dice": _dice(roll.dice, roll.pool),
        "summary": roll.summary,
        "note": roll.note,
    }
    if roll.note:
        text = gettext("%(who)s made %(roll)s (%(dice)s): %(summary)s, “%(note)s”.")
    else:
        text = gettext("%(who)s made %(roll)s (%(dice)s): %(summary)s.")
    return Line(text % words + _secret_mark(roll))


def _action_roll(roll) -> Line:
    who = roll.character.name if roll.character else _person(roll.started_by)
    words = {"who": who, "roll": ROLL_PHRASES[RollKind(roll.kind)]}
    if roll.kind == roll.Kind.FORTUNE:
        text = gettext("%(who)s made %(roll)s") % words
    else:
        words |= {
            "action": rules_word(roll.action.capitalize()),
            "position": POSITION_WORDS[Position(roll.position)],
            "effect": EFFECT_PHRASES[Effect(roll.effect)],
        }
        text = gettext("%(who)s made %(roll)s with %(action)s (%(position)s, %(effect)s)") % words
    if roll.goal:
        text = gettext("%(roll)s to %(goal)s") % {"roll": text, "goal": roll.goal}
    text = gettext("%(roll)s (%(dice)s): %(outcome)s.") % {
        "roll": text,
        "dice": _dice(roll.dice, roll.pool),
        "outcome": rules_word(roll.outcome_label),
    }
    if roll.step == roll.Step.UNDONE:
        text += " " + gettext("The GM undid it.")
    return Line(text + _secret_mark(roll), [event.text for event in roll.events.all()])


def _clock_started(clock) -> Line:
    text = ngettext(
        "%(clock)s: %(name)s (%(segments)s segment).",
        "%(clock)s: %(name)s (%(segments)s segments).",
        clock.segments,
    ) % {"clock": NEW_CLOCK_PHRASES[clock.kind], "name": clock.name, "segments": clock.segments}
    return Line(text + _hidden_mark(clock))


def _score_started(score, is_gm: bool) -> Line:
    words = {
        "plan": PLAN_PHRASES[score.plan],
        "target": audience.target(
            faction=score.target_faction, named=score.target_name, is_gm=is_gm
        ),
    }
    if score.detail:
        words |= {"detail_label": score.detail_label, "detail": score.detail}
        text = gettext(
            "The crew set out on a score: %(plan)s against %(target)s"
            " (%(detail_label)s: %(detail)s)."
        )
    else:
        text = gettext("The crew set out on a score: %(plan)s against %(target)s.")
    return Line(text % words)


def _who(event: Happening) -> str:
    return event.character.name if event.character else gettext("Someone")


def _clock_filled(event: Happening, is_gm: bool) -> Line | None:
    # Filling is progress: not told of a clock whose progress players do not see.
    if not _sees(event.clock, is_gm) or not is_gm and event.clock.progress_hidden:
        return None
    text = ngettext(
        "The clock %(name)s filled (%(segments)s segment).",
        "The clock %(name)s filled (%(segments)s segments).",
        event.clock.segments,
    ) % {"name": event.clock.name, "segments": event.clock.segments}
    return Line(text + _hidden_mark(event.clock))


def _faction_status(event: Happening, is_gm: bool) -> Line | None:
    if not _sees(event.faction, is_gm):
        return None
    status = event.data["status"]
    label = str(STATUS_LABELS.get(status, status))
    text = gettext("%(faction)s now stand at %(status)s with the crew: %(label)s.") % {
        "faction": event.faction.name,
        "status": f"{status:+d}",
        "label": label,
    }
    return Line(text + _hidden_mark(event.faction))


def _harm(event: Happening, is_gm: bool) -> Line:
    data = event.data
    return Line(
        gettext("%(who)s suffered level %(level)s harm: %(text)s.")
        % {"who": _who(event), "level": data["level"], "text": data["text"]}
    )


def _trauma(event: Happening, is_gm: bool) -> Line:
    data = event.data
    trauma = trauma_name(data["trauma"])
    words = {"who": _who(event), "trauma": trauma, "reason": data.get("reason", "")}
    if data.get("cleared"):
        if words["reason"]:
            return Line(gettext("%(who)s is no longer %(trauma)s (GM: %(reason)s).") % words)
        return Line(gettext("%(who)s is no longer %(trauma)s.") % words)
    if words["reason"]:
        return Line(gettext("%(who)s took a trauma: %(trauma)s (GM: %(reason)s).") % words)
    return Line(gettext("%(who)s took a trauma: %(trauma)s.") % words)


def _xp(event: Happening, is_gm: bool) -> Line:
    data = event.data
    words = {"who": _who(event), "xp": data["xp"], "track": XP_TRACK_WORDS[data["track"]]}
    if data.get("earned"):
        words["earned"] = data["earned"]
        text = ngettext(
            "%(who)s marked %(xp)s %(track)s xp, earning %(earned)s advance.",
            "%(who)s marked %(xp)s %(track)s xp, earning %(earned)s advances.",
            data["earned"],
        )
    else:
        text = gettext("%(who)s marked %(xp)s %(track)s xp.")
    return Line(text % words)


def _advance(event: Happening, is_gm: bool) -> Line:
    data = event.data
    words = {"who": _who(event), "advance": ADVANCE_PHRASES[data["track"]]}
    if data.get("action"):
        words["action"] = rules_word(data["action"].capitalize())
        text = gettext("%(who)s spent %(advance)s on a dot in %(action)s.")
    else:
        text = gettext("%(who)s spent %(advance)s on a new special ability.")
    return Line(text % words)


def _payoff(event: Happening, is_gm: bool) -> Line:
    data = event.data
    words = {"rep": data["rep"], "coin": data["coin"], "tithe": data.get("tithe")}
    if words["tithe"]:
        text = ngettext(
            "Payoff: %(rep)s rep and %(coin)s coin (%(tithe)s of it paid as tithe).",
            "Payoff: %(rep)s rep and %(coin)s coin (%(tithe)s of it paid as tithe).",
            data["coin"],
        )
    else:
        text = ngettext(
            "Payoff: %(rep)s rep and %(coin)s coin.",
            "Payoff: %(rep)s rep and %(coin)s coin.",
            data["coin"],
        )
    return Line(text % words)


def _heat(event: Happening, is_gm: bool) -> Line:
    data = event.data
    if "heat" in data:
        text = gettext("The crew took %(taken)s heat (heat now %(heat)s, wanted level %(wanted)s).")
        return Line(text % data)
    return Line(gettext("The crew took %(taken)s heat.") % data)


def _entanglement(event: Happening, is_gm: bool) -> Line:
    data = event.data
    text = gettext("Entanglement: %(name)s.") % {"name": gettext(data["name"])}
    # Read from the score, in words; a happening whose score is gone has only its data
    # (where an older one wrote the resolution, in its writer's language).
    resolution = event.score.resolution if event.score else data.get("resolution", "")
    return Line(f"{text} {resolution}".strip())


def _flashback(event: Happening, is_gm: bool) -> Line:
    data = event.data
    if data["downtime"]:
        cost = gettext("1 coin or 1 rep")
    else:
        cost = gettext("%(stress)s stress") % {"stress": data["stress"]}
    words = {"who": _who(event), "note": data["note"], "cost": cost}
    if data["note"]:
        return Line(gettext("%(who)s: flashback, “%(note)s” (%(cost)s).") % words)
    return Line(gettext("%(who)s: flashback (%(cost)s).") % words)


def _stress(event: Happening, is_gm: bool) -> Line:
    stress = event.data["stress"]
    return Line(
        ngettext(
            "%(who)s took %(stress)s stress for not indulging their vice.",
            "%(who)s took %(stress)s stress for not indulging their vice.",
            stress,
        )
        % {"who": _who(event), "stress": stress}
    )


def _downtime(event: Happening, is_gm: bool) -> Line:
    activity = event.activity
    if activity is None:
        return Line(gettext("%(who)s spent a downtime activity.") % {"who": _who(event)})
    text = gettext("%(who)s: %(activity)s") % {
        "who": _who(event),
        "activity": activity.get_kind_display(),
    }
    if detail := _activity_detail(activity):
        text += f" ({detail})"
    if activity.result:
        text += f". {activity.result}"
    return Line(text.rstrip(".") + ".")


# The sentence for each kind of happening; one returns None where its audience does not
# see it (a hidden clock or faction).
TOLD = {
    Happening.Kind.CLOCK_FILLED: _clock_filled,
    Happening.Kind.FACTION_STATUS: _faction_status,
    Happening.Kind.HARM: _harm,
    Happening.Kind.TRAUMA: _trauma,
    Happening.Kind.XP: _xp,
    Happening.Kind.ADVANCE: _advance,
    Happening.Kind.PAYOFF: _payoff,
    Happening.Kind.HEAT: _heat,
    Happening.Kind.ENTANGLEMENT: _entanglement,
    Happening.Kind.FLASHBACK: _flashback,
    Happening.Kind.STRESS: _stress,
    Happening.Kind.DOWNTIME: _downtime,
}


def _happening(event: Happening, is_gm: bool) -> Line | None:
    """The sentence for a happening, or None where this audience does not see it."""
    told = TOLD.get(event.kind)
    return told(event, is_gm) if told else None


def _activity_detail(activity) -> str:
    """An activity's detail in the journal's language. Where the player chose from a list
    it is a key: an action or an xp track is named in words; a healer is told by the
    activity's own roll line; a cohort tended is named as the crew sheet names it (an
    unnamed one by its types, in words). Elsewhere (an asset) it is the player's words."""
    Kind = activity.Kind
    if activity.kind in (Kind.PROJECT, Kind.REDUCE_HEAT, Kind.TRAIN):
        return rules_word(activity.detail.capitalize())
    if activity.kind == Kind.RECOVER:
        return ""
    if activity.kind == Kind.TEND_COHORT and activity.cohort is not None:
        return str(activity.cohort)
    return activity.detail


# --- The whole table's journal ------------------------------------------------------------


def _phase_label(step: str) -> str:
    Phase = apps.get_model("play", "Phase")
    return str(Phase.Step(step).label) if step in Phase.Step.values else gettext("Free play")


def _told_by_rolls(rolls) -> Counter:
    """The sheet changes a shown action roll's steps tell (harm written, xp marked),
    whoever ended up with them: the sheet's own record of them would say them twice, or
    wrongly once the roll moved them on (protected, resisted, undone)."""
    told: Counter = Counter()
    for roll in rolls:
        for event in roll.events.all():
            for change in event.changes:
                who, field = change.get("character"), change["field"]
                if who is None:
                    continue
                if field == "harm":
                    for level, text in new_harm(change["before"] or {}, change["after"] or {}):
                        told[who, Happening.Kind.HARM, int(level), text] += 1
                elif field.removesuffix("_xp") in XP_TRACKS and change["after"] > change["before"]:
                    told[who, Happening.Kind.XP, field.removesuffix("_xp")] += 1
    return told


def _told_key(event: Happening) -> tuple | None:
    if event.kind == Happening.Kind.HARM:
        return (event.character_id, event.kind, event.data["level"], event.data["text"])
    if event.kind == Happening.Kind.XP:
        return (event.character_id, event.kind, event.data["track"])
    return None


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
    """Every session of the table (or just one), newest first, for this audience, written
    in the table's language whoever reads it: the journal is the whole table's."""
    with table_language(table):
        return _build(table, is_gm=is_gm, session_id=session_id)


def _build(table, *, is_gm: bool, session_id: int | None) -> list[SessionJournal]:
    sessions = list(PlaySession.objects.filter(table=table))
    if session_id is not None:
        sessions = [s for s in sessions if s.pk == session_id]
    if not sessions:
        return []
    Clock = apps.get_model("table_sessions", "Clock")
    since = min(s.started for s in sessions)
    until = max(s.ended or timezone.now() for s in sessions)
    clocks = list(Clock.objects.filter(table=table))
    events = _events(table, is_gm=is_gm, since=since, until=until, clocks=clocks)

    learned: dict[int, list[Learned]] = {s.pk: [] for s in sessions}
    for line in Learned.objects.filter(session__in=sessions).select_related("author"):
        learned[line.session_id].append(line)

    parts = _deal(sessions, events)
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


# What happened, when, and which comes first at the same instant (the lower first); a
# str is a phase change.
Event = tuple[datetime, int, Line | str]


def _events(table, *, is_gm: bool, since: datetime, until: datetime, clocks: list) -> list[Event]:
    """Everything the audience may read of the table between `since` and `until`, in the
    order it happened."""
    span = {"created__gte": since, "created__lte": until}
    logged, shared = _rolls(table, is_gm=is_gm, span=span)
    events: list[Event] = []
    events += [(roll.created, 1, _logged_roll(roll)) for roll in logged]
    events += [(roll.created, 2, _action_roll(roll)) for roll in shared]
    events += [
        (clock.created, 0, _clock_started(clock))
        for clock in clocks
        if since <= clock.created <= until and _sees(clock, is_gm)
    ]
    events += _happenings(table, is_gm=is_gm, span=span, told=_told_by_rolls(shared))
    events.sort(key=lambda event: (event[0], event[1]))
    return events


def _rolls(table, *, is_gm: bool, span: dict) -> tuple[Iterable, list]:
    """The roll log's lines told on their own, and the shared action rolls with their
    steps, as this audience sees them."""
    Roll = apps.get_model("table_sessions", "Roll")
    ActionRoll = apps.get_model("rolls", "ActionRoll")
    RollEvent = apps.get_model("rolls", "RollEvent")
    Consequence = apps.get_model("rolls", "Consequence")
    # A shared roll is told with every step; its dice are lines of the roll log too (the
    # roll's own line, and each group participant's), told once, there.
    resisted = Consequence.objects.filter(roll__table=table).exclude(resist_log=None)
    logged = (
        Roll.objects.filter(table=table, **span)
        .exclude(pk__in=ActionRoll.objects.filter(table=table).exclude(log=None).values("log"))
        .exclude(pk__in=resisted.values("resist_log"))
        .exclude(kind=RollKind.GROUP)
        .select_related("roller")
    )
    shared = (
        ActionRoll.objects.filter(table=table, **span)
        .exclude(dice=None)
        .select_related("character", "started_by")
        .prefetch_related(Prefetch("events", queryset=RollEvent.objects.order_by("pk")))
    )
    if not is_gm:
        logged, shared = logged.filter(secret=False), shared.filter(secret=False)
    return logged, list(shared)


def _happenings(table, *, is_gm: bool, span: dict, told: Counter) -> list[Event]:
    """The recorder's happenings as events, less what a shown roll already `told`."""
    events: list[Event] = []
    happenings = Happening.objects.filter(table=table, **span).select_related(
        "clock", "faction", "character", "activity__cohort", "score__target_faction"
    )
    for event in happenings:
        if event.kind == Happening.Kind.PHASE:
            events.append((event.created, -1, event.data["step"]))
            if event.score is not None:
                events.append((event.created, 0, _score_started(event.score, is_gm)))
            continue
        key = _told_key(event)
        if told[key] > 0:
            told[key] -= 1
            continue
        line = _happening(event, is_gm)
        if line is not None:
            events.append((event.created, 3, line))
    return events


def _deal(sessions: list, events: list[Event]) -> dict[int, list[Part]]:
    """Deal the events out to their sessions by time (sessions do not overlap), each
    session's in parts by the phase they happened in."""
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
    return parts
