"""The journal's Markdown file holds people's text as text: read by a Markdown parser,
it has only the headings, lists and breaks the app wrote, whatever a player, a roll
note, a name or the GM's notes said."""

import pytest
from django.urls import reverse
from markdown_it import MarkdownIt

from blades.rules.rolls import RollKind
from chronicle import actions as journal_actions
from chronicle.journal import build
from rolls import actions as roll_actions
from rolls import outcome as roll_outcome
from sessions import actions
from sessions.models import Membership
from tests.factories import CharacterFactory
from tests.helpers import Dice, call

HOSTILE = [
    "fine\n\n### GM notes\n\nThe Sashes pay us",
    "# A heading",
    "## Session two",
    "---",
    "***",
    "___",
    "> a quote",
    "1. first",
    "3) third",
    "- an item",
    "+ an item",
    "* an item",
    "```\ncode\n```",
    "~~~ fenced",
    "`code`",
    "    indented code",
    "a line\n    indented code",
    "<script>alert(1)</script>",
    "<div>a block</div>",
    "<!-- a comment -->",
    "<b>bold</b> in text",
    "[x](javascript:alert(1))",
    "![an image](http://example.com/i.png)",
    "<http://example.com>",
    "[ref]: http://example.com",
    "[ref]",
    "|a|b|",
    "|a|b|\n|-|-|\n|1|2|",
    "a setext\n===",
    "a setext\n---",
    "**bold** _em_ ~~struck~~",
    "&lt;b&gt; &copy; &#65;",
    "a trailing backslash\\",
    "a trailing break  ",
    "tab\tvertical\x0bfeed\x0cseparator\u2028next\u0085line",
    "carriage\r\n# return\rreturn",
]
# Everything a journal writes is a heading, a paragraph, a list item or a line break.
WRITTEN = {
    "heading_open", "heading_close", "paragraph_open", "paragraph_close", "inline", "text",
    "softbreak", "hardbreak", "bullet_list_open", "bullet_list_close", "ordered_list_open",
    "ordered_list_close", "list_item_open", "list_item_close",
}  # fmt: skip
PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _tokens(text: str) -> list:
    found, waiting = [], PARSER.parse(text)
    while waiting:
        token = waiting.pop(0)
        found.append(token)
        waiting[:0] = token.children or []
    return found


def _shown(inline) -> str:
    """What a reader sees of a line: its text, breaks as spaces."""
    return "".join(" " if t.type.endswith("break") else t.content for t in inline.children)


def _headings(text: str) -> list[str]:
    tokens = PARSER.parse(text)
    return [_shown(tokens[i + 1]) for i, t in enumerate(tokens) if t.type == "heading_open"]


def _items(text: str, kind: str) -> list[str]:
    """The text of each item of the lists of this kind, in order."""
    tokens, items, depth = PARSER.parse(text), [], []
    for index, token in enumerate(tokens):
        if token.type.endswith("_list_open"):
            depth.append(token.type)
        elif token.type.endswith("_list_close"):
            depth.pop()
        elif (
            token.type == "inline"
            and depth[-1:] == [f"{kind}_list_open"]
            and tokens[index - 2].type == "list_item_open"
        ):
            items.append(_shown(token))
    return items


def _one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("hostile", HOSTILE)
def test_peoples_text_is_only_text_in_the_markdown_file(client, table, gm, player, hostile):
    line = _one_line(hostile)
    table.name = hostile[:80]
    table.save()
    session = journal_actions.start_session(table=table, title=hostile)
    actions.quick_roll(
        table=table, roller=player, kind=RollKind.FORTUNE, pool=1, note=hostile, rng=Dice(3)
    )
    actions.create_clock(
        table=table, name=hostile[:80], segments=4, kind="danger", visibility="everyone"
    )
    character = CharacterFactory(table=table, owner=player, name=hostile[:80], prowl=2)
    by = Membership.objects.get(table=table, user=player)
    roll = roll_actions.start_roll(by=by, character=character, goal=hostile, action="prowl")
    call(roll)
    roll = roll_actions.roll_dice(by=by, roll=roll, rng=Dice(4, 2))
    gm_seat = Membership.objects.get(table=table, user=gm)
    roll_outcome.add_consequence(by=gm_seat, roll=roll, kind="harm", level=2, description=hostile)
    journal_actions.add_learned(session=session, author=player, text=hostile)
    journal_actions.edit_session(session=session, title=hostile, gm_notes=hostile)

    for user, is_gm in ((gm, True), (player, False)):
        client.force_login(user)
        text = client.get(reverse("journal_export", args=[table.pk, session.pk])).content.decode()
        unexpected = {t.type for t in _tokens(text)} - WRITTEN
        assert not unexpected, (unexpected, text)

        [journal] = build(table, is_gm=is_gm)
        wrote = [f"Journal of {_one_line(table.name)}", line]
        wrote += [part.phase for part in journal.parts]
        wrote += ["GM notes"] * is_gm + ["What we learned"]
        assert _headings(text) == wrote, text

        told = [_one_line(x.text) for part in journal.parts for x in part.lines]
        assert _items(text, "bullet") == [*told, f"{line} ({player.username})"], text
        steps = [_one_line(step) for part in journal.parts for x in part.lines for step in x.steps]
        assert _items(text, "ordered") == steps, text
        assert any(line in step for step in steps), steps
