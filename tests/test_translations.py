"""The interface's messages: every text a template shows is marked for translation, the
Spanish catalog holds every marked string (and no other), and each has its translation.

A template not yet marked is listed in NOT_YET_MARKED until it is; a listed template
that has become fully marked must leave the list, so the list only shrinks."""

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

TEMPLATES = Path(settings.BASE_DIR) / "templates"
CATALOG = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.po"

NOT_YET_MARKED: set[str] = set()
# Names that are the same in every language.
PROPER_NAMES = ("Blades Table", "Blades in the Dark", "Discord", "Foundry VTT", "Foundry")

MARKED_OR_CODE = [
    r"\{% comment %\}.*?\{% endcomment %\}",
    r"\{#.*?#\}",
    r"\{% blocktranslate\b.*?\{% endblocktranslate %\}",
    r"\{%.*?%\}",  # {% translate "…" %} and every other tag
    r"\{\{.*?\}\}",  # what the context says: marked where it is made
]
# Attributes a reader (or a screen reader) is given as text.
SHOWN_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "aria-description"}


class ShownText(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self.in_code = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.in_code += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self.found.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.in_code -= 1

    def handle_data(self, data):
        if not self.in_code:
            self.found.append(data)


def unmarked_text(source: str) -> list[str]:
    for pattern in MARKED_OR_CODE:
        source = re.sub(pattern, " ", source, flags=re.S)
    for name in PROPER_NAMES:
        source = source.replace(name, " ")
    parser = ShownText()
    parser.feed(source)
    return [" ".join(text.split()) for text in parser.found if re.search(r"[A-Za-z]", text)]


def templates() -> list[str]:
    return sorted(
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*")
        if path.suffix in (".html", ".md", ".txt")
    )


@pytest.mark.parametrize("name", templates())
def test_a_template_marks_every_text_it_shows(name):
    found = unmarked_text((TEMPLATES / name).read_text(encoding="utf-8"))
    if name in NOT_YET_MARKED:
        assert found, f"{name} is marked now: take it off NOT_YET_MARKED"
    else:
        assert found == [], f"{name} shows text outside {{% translate %}}: {found[:5]}"


# `{% translate word|capfirst %}` looks "prowl" up before the filter makes it "Prowl": it
# is never found, and the reader gets the English. A filter that names the word in the
# reader's language (`action_name`, `xp_track_name`) is the way.
TRANSLATED_FILTER = re.compile(r"\{% *translate +[a-z_][\w.]*\|")


def test_no_template_translates_a_filtered_variable():
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for match in TRANSLATED_FILTER.finditer(path.read_text())
    ]
    assert found == []
    assert TRANSLATED_FILTER.search("{% translate a|capfirst %}")
    assert not TRANSLATED_FILTER.search('{% translate "Prowl" %}{{ a|action_name }}')


# A script writes no text for people: it takes the page's (marked) words from the page.
SCRIPT_TEXT = re.compile(
    r"(?:textContent|innerText|innerHTML|ariaLabel|placeholder|title)\s*=\s*[\"'`]\s*[A-Za-z]"
)


def test_no_script_writes_english_for_people():
    scripts = Path(settings.BASE_DIR) / "static" / "js"
    found = [
        f"{path.name}: {match.group(0)}"
        for path in sorted(scripts.glob("*.js"))
        for match in SCRIPT_TEXT.finditer(path.read_text())
    ]
    assert found == []
    assert SCRIPT_TEXT.search('button.firstChild.textContent = "Copied";')
    assert not SCRIPT_TEXT.search("button.firstChild.textContent = button.dataset.copied;")


def test_no_module_chooses_a_message_by_a_words_letters():
    """English's "a"/"an" guessed from a word's first letter is English grammar inside the
    i18n code: a whole phrase with its context (pgettext) is the way (issue 38)."""
    found = [str(path) for path in apps_code() if re.search(r"in [\"']aeiou", path.read_text())]
    assert found == []


def apps_code() -> list[Path]:
    return [
        path
        for path in Path(settings.BASE_DIR).glob("*/**/*.py")
        if not path.is_relative_to(Path(settings.BASE_DIR) / ".venv") and "tests" not in path.parts
    ]


def test_no_module_lowercases_a_translated_label_into_a_sentence():
    """A label translated and then lowercased (or capitalized) to sit inside another
    message assumes the other language cases its words as English does; a whole phrase
    with its context (pgettext) is the way (issue 38)."""
    recased = re.compile(
        r"(_display\(\)|\.label|_label|rules_word\([^()]*\)|gettext\([^()]*\))"
        r"\.(lower|capitalize)\(\)"
    )
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {match.group(0)}"
        for path in apps_code()
        for match in recased.finditer(path.read_text())
    ]
    # A template's: a value lowercased into a blocktranslate's sentence.
    into_a_sentence = re.compile(r"\{% blocktranslate [^%]*\|(lower|title)\b[^%]*%\}")
    found += [
        f"{name}: {match.group(0)}"
        for name in templates()
        for match in into_a_sentence.finditer((TEMPLATES / name).read_text())
    ]
    assert found == []


def test_the_scan_sees_bare_text_and_passes_marked_text():
    assert unmarked_text('<p title="Hidden">{% translate "Clocks" %} {{ n }} left</p>') == [
        "Hidden",
        "left",
    ]
    marked = (
        "<p>{% blocktranslate with n=n %}{{ n }} left{% endblocktranslate %} · "
        '<span aria-label="{% translate "Close" %}">×</span> Blades Table</p>'
    )
    assert unmarked_text(marked) == []


def blocks(catalog: Path):
    """Each entry's lines (but obsolete ones) and its parts: msgctxt, msgid, msgid_plural,
    msgstr or msgstr[n], each unwrapped."""
    for block in catalog.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        parts: dict[str, str] = {}
        key = None
        for line in lines:
            match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                parts[key] = match.group(2)
            elif line.startswith('"') and key:
                parts[key] += line[1:-1]
        yield lines, parts


def entries(catalog: Path) -> dict[tuple[str, str], tuple[str, bool]]:
    """(context, message) → (translation, fuzzy) for each entry but the header; plural
    forms are joined."""
    found = {}
    for lines, parts in blocks(catalog):
        if parts.get("msgid"):
            translation = "".join(v for k, v in parts.items() if k.startswith("msgstr"))
            all_forms = all(v for k, v in parts.items() if k.startswith("msgstr"))
            fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
            key = (parts.get("msgctxt", ""), parts["msgid"] + parts.get("msgid_plural", ""))
            found[key] = (translation if all_forms else "", fuzzy)
    return found


# A count before a noun that Spanish counts: "1 monedas" where the count can be 1. Such a
# message is a plural (ngettext, `blocktranslate count`), but where the rules make the
# count always more than one (each listed here with the number).
COUNTED = re.compile(
    r"%\(\w+\)[sd]\s+(monedas|puntos|segmentos|casillas|dados|habilidades|tiradas|dominios"
    r"|cohortes|ventajas|desventajas|avances|niveles|relojes)\b"
)
ALWAYS_MANY = {
    "Add exactly %(dots)s action dots at creation (you added %(spent)s).": "7",
    "Add %(budget)s action dots: one for your heritage, one for your background, the rest "
    "anywhere. No action may start above %(most)s.": "7",
    "No action can start above %(max)s dots (%(actions)s would).": "2",
    "No action can start above %(most)s dots.": "2",
    "%(action)s %(rating)s of %(most)s dots": "3 or 4",
    "A primary action (%(primary)s dots), a secondary (%(secondary)s dot), %(abilities)s "
    "special abilities, %(friends)s friends or rivals and %(items)s distinctive items. "
    "Players at this table can then choose it.": "2 dots, 7 abilities, 5 friends, 4 items",
    "Choose or write exactly %(most)s special abilities (you have %(n)s).": "7",
    "A scoundrel carries at most %(max)s coin; stash the rest.": "4",
    "The stash holds at most %(max)s coin.": "40",
    "The stash holds at most %(max)s coin; spend some first.": "40",
    "The lair holds %(limit)s coin; the crew has %(coin)s.": "4, 8 or 16",
    "A clock has %(min)s to %(max)s segments.": "12",
    "Rising to tier %(tier)s costs %(cost)s coin; the crew has %(coin)s.": "2 or more",
    "Develop: tier %(tier)s for %(cost)s coin": "2 or more",
    "Pay off the squad: %(coin)s coin": "wanted + 3",
    "Past a critical, each level of quality costs %(coin)s coin.": "2",
    "%(size)s: %(coin)s%(more)s coin": "2 to 10",
    "Cohort to tend (heals %(tended)s levels at the end of downtime, not %(untended)s)": "2",
    "Roll %(action)s (%(pool)sd: %(dice)s dice, lowest counts)": "2",
    "%(n)s dice, lowest counts": "2",
    "(%(n)s dice, lowest counts)": "2",
}


def test_a_count_before_a_counted_noun_is_a_plural():
    """Issue 38: "1 monedas"."""
    found = [
        parts["msgid"]
        for _, parts in blocks(CATALOG)
        if "msgid_plural" not in parts
        and COUNTED.search(parts.get("msgstr", ""))
        and parts["msgid"] not in ALWAYS_MANY
    ]
    assert found == []
    assert set(ALWAYS_MANY) <= {parts.get("msgid") for _, parts in blocks(CATALOG)}


def test_no_spanish_message_guesses_its_readers_gender():
    """Issue 38: "¿Eres nuevo?" says the reader is a man. A message speaking to its reader
    does without an adjective that takes a gender."""
    addressed = re.compile(r"\b(?:eres|estás|sé)\s+(?:un |una )?\w+[oa]s?\b", re.IGNORECASE)
    found = [
        parts["msgstr"] for _, parts in blocks(CATALOG) if addressed.search(parts.get("msgstr", ""))
    ]
    assert found == []


def test_every_spanish_message_is_translated_and_none_is_fuzzy():
    missing = [msg for msg, (text, fuzzy) in entries(CATALOG).items() if not text or fuzzy]
    assert missing == []


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt: make installs it")
def test_msgfmt_finds_the_catalog_whole_and_its_formats_consistent():
    report = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", os.devnull, str(CATALOG)],
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    assert "fuzzy" not in report and "untranslated" not in report, report


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext: make installs it")
def test_the_catalog_holds_every_marked_string_and_no_other(tmp_path, settings, monkeypatch):
    """As `make messages` would gather them now, into a scratch catalog: a string marked
    without `make messages` (or a catalog entry whose string is gone) fails here. The
    scratch folder mirrors the source folders and links only the files: makemessages writes
    its work files (`404.html.py`) beside each template, and through a linked folder those
    would land in the checkout, where a test running beside this one reads them."""
    # As the Makefile's: the docs' Markdown is no template (its examples hold tags).
    skipped = {
        ".venv", ".git", "staticfiles", "static", "tests", "build", "locale", "docs", "README.md"
    }  # fmt: skip
    base = Path(settings.BASE_DIR)
    for top in base.iterdir():
        if top.name in skipped:
            continue
        for path in [top] if top.is_file() else top.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                copy = tmp_path / path.relative_to(base)
                copy.parent.mkdir(parents=True, exist_ok=True)
                copy.symlink_to(path)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)
    call_command(
        "makemessages",
        locale=["es"],
        extensions=["html", "txt", "md", "py"],  # as the Makefile's (the journal's .md too)
        symlinks=True,
        ignore_patterns=list(skipped),
        verbosity=0,
    )
    fresh = entries(tmp_path / "locale" / "es" / "LC_MESSAGES" / "django.po")
    committed = entries(CATALOG)
    assert [m for m in fresh if m not in committed] == [], "marked, not in the catalog"
    assert [m for m in committed if m not in fresh] == [], "in the catalog, marked nowhere"
