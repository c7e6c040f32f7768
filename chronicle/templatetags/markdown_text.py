"""User text written into the journal's Markdown file as text, never as Markdown.

A player's line is one line of the file: a newline in it, or a `#`, `- `, `1.`, `>`,
backtick, `<script>` or `[x](...)`, would otherwise make a heading, a list, code, raw
HTML or a link in every member's copy (a forged "GM notes" section among them). So
whitespace runs become one space, every character that opens inline markup is
backslash-escaped wherever it stands, and the few that open a block only where a line
begins are escaped there. CommonMark lets any ASCII punctuation be escaped, and a
reader sees the character itself.
"""

import re

from django import template

register = template.Library()

# Emphasis, code, links and images, autolinks and raw HTML, entities, tables,
# strikethrough, headings and quotes (the last two only matter where a line begins, but
# one set is simpler than two).
INLINE = re.compile(r"([\\`*_\[\]<>&|~#])")
# A bullet, a thematic break or a setext underline (`-`, `+`, `=`), or an ordered list
# item (`1.`, `1)`), at the start of a line.
LEADING = re.compile(r"^(\d+(?=[.)])|(?=[-+=]))")


@register.filter
def md(value) -> str:
    """Text for one line of Markdown: a heading, a list item, a sentence."""
    text = INLINE.sub(r"\\\1", " ".join(str(value).split()))
    return LEADING.sub(r"\1\\", text, count=1)


@register.filter
def md_lines(value) -> str:
    """Text of several lines (the GM's notes): each line escaped as `md` does, kept as a
    line of its own with a hard break; a blank line between paragraphs stays one."""
    paragraphs = re.split(r"\n\s*\n", str(value).replace("\r\n", "\n").replace("\r", "\n"))
    escaped = (
        "\\\n".join(md(line) for line in paragraph.split("\n") if line.strip())
        for paragraph in paragraphs
    )
    return "\n\n".join(part for part in escaped if part)
