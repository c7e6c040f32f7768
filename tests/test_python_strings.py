"""The Python code's texts shown to users are marked for translation, as the templates'
are (tests/test_translations.py).

A scan of the apps' modules finds each text written where a reader is given it (a
refusal and its params, a form's label, help or error, a 403's reason, an HTTP body, a
message, a choice's label, a model field's name, the name players read for a hidden
thing) and each piece of prose written anywhere else (three words in a row), and asks
that it is inside a marking call: `gettext`, `gettext_lazy`, `ngettext`, `gettext_noop`,
`pgettext`..., or the rules' `_` and `ngettext` (blades/rules/errors.py); a refusal's
param that is a word of the rules is an `errors.Term`. Prose may be marked in another
module than the one that keeps it (the rules keep English words that
characters/wording.py marks).

What no one at the table reads is left out by where it is: docstrings, a management
command (the operator's console), logging, an `assert`, an exception raised for the
programmer, an app's verbose name (the admin's, which is not installed). What remains
unmarked is in ALLOWED, with why."""

import ast
import re
from pathlib import Path

from django.conf import settings

BASE = Path(settings.BASE_DIR)
APPS = ("accounts", "sessions", "characters", "crews", "rolls", "play", "backup", "chronicle")
APPS += ("blades",)
SKIPPED_FOLDERS = {"migrations", "management"}

MARKING = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"}
MARKING |= {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}
# A reader is given the first argument of these.
SHOWN_CALLS = {"RuleError", "InputError", "ValidationError", "PermissionDenied", "HttpResponse"}
SHOWN_CALLS |= {"HttpResponseBadRequest", "HttpResponseForbidden", "HttpResponseNotFound"}
SHOWN_CALLS |= {"InviteError", "FoundryError", "ImportRefused"}  # the app's own refusals
SHOWN_KEYWORDS = {"label", "help_text", "empty_label", "verbose_name", "verbose_name_plural"}
SHOWN_KEYWORDS |= {"hidden", "gone"}  # sessions.audience.Kind: what players read for a name
SHOWN_DICTS = {"error_messages", "labels", "help_texts"}  # a form field's, a ModelForm Meta's
MESSAGE_LEVELS = {"debug", "info", "success", "warning", "error", "add_message"}
LOGGING = {"debug", "info", "warning", "error", "exception", "critical"}
# Fields whose first argument is a model, not a name.
RELATIONS = {"ForeignKey", "OneToOneField", "ManyToManyField"}
PROSE = re.compile(r"\b[A-Za-z]+ [a-z]+ [a-z]+\b")

# Prose left unmarked: (module, text) → why.
ALLOWED: dict[tuple[str, str], str] = {
    ("backup/tables.py", "an open websocket of a running server, gone on restore"): (
        "why a model stays out of an export: for the code's reader"
    ),
    (
        "backup/tables.py",
        "a live hand-out link: a leaked export must not open the table's shared screen, so "
        "the GM hands out a new link after a restore",
    ): "why a model stays out of an export: for the code's reader",
    (
        "backup/tables.py",
        "the webhook URLs are secrets (anyone holding one posts to the channel): the GM "
        "pastes them again after a restore",
    ): "why a model stays out of an export: for the code's reader",
    (
        "backup/tables.py",
        "a restore's list of the file's members not here yet: an export of the new table "
        "holds the rows, and whoever restores it hands their own seats",
    ): "why a model stays out of an export: for the code's reader",
    ("backup/tables.py", "seat {number}: the player of {', '.join(sheets[username])}"): (
        "a seat's name inside an export file: the file's own words, read as written by the GM "
        "who restores it, like the names players typed"
    ),
    ("sessions/live.py", "channel layer unreachable; the snapshot will catch pages up"): (
        "a log line for the operator"
    ),
    ("characters/models.py", "GM note on {self.character}"): "a __str__ no page shows",
}


def name_of(function: ast.expr) -> str:
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return ""


def bare(node: ast.expr) -> str | None:
    """The text of an unmarked string expression (a literal, an f-string, a % or
    .format() on one), or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if re.search(r"[A-Za-z]{2}", node.value) else None
    if isinstance(node, ast.JoinedStr):
        text = ast.unparse(node)[2:-1]
        return text if re.search(r"[A-Za-z]{2}", re.sub(r"\{.*?\}", "", text)) else None
    if isinstance(node, ast.BinOp):
        return bare(node.left) or bare(node.right)
    if isinstance(node, (ast.List, ast.Tuple)):
        return next(filter(None, map(bare, node.elts)), None)
    if isinstance(node, ast.IfExp):
        return bare(node.body) or bare(node.orelse)
    if isinstance(node, ast.Call) and name_of(node.func) == "format":
        return bare(node.func.value)
    return None


class Scan(ast.NodeVisitor):
    def __init__(self):
        self.shown: list[tuple[int, str]] = []  # unmarked where a reader is given it
        self.prose: list[tuple[int, str]] = []  # unmarked elsewhere
        self.marked: set[str] = set()
        self.quiet: set[int] = set()  # nodes no reader sees, or marked

    def found(self, node: ast.expr) -> None:
        text = bare(node)
        if text is not None:
            self.shown.append((node.lineno, text))

    def hush(self, node: ast.AST) -> None:
        self.quiet.update(id(inner) for inner in ast.walk(node))

    def docstring(self, node) -> None:
        first = node.body[0] if node.body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            self.hush(first)

    def visit_Module(self, node):
        self.docstring(node)
        self.generic_visit(node)

    def visit_FunctionDef(self, node):
        self.docstring(node)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.docstring(node)
        bases = {name_of(base) for base in node.bases}
        for statement in node.body:
            if not (
                isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name)
            ):
                continue
            target = statement.targets[0].id
            choices = any(base.endswith("Choices") for base in bases)
            if choices and isinstance(statement.value, ast.Tuple):  # NAME = value, label
                self.found(statement.value.elts[-1])
            if node.name == "Meta" and target in SHOWN_DICTS | SHOWN_KEYWORDS:
                for value in getattr(statement.value, "values", [statement.value]):
                    self.found(value)
            if "AppConfig" in bases and target == "verbose_name":
                self.hush(statement)
        self.generic_visit(node)

    def visit_Assert(self, node):
        self.hush(node)

    def visit_Raise(self, node):
        if isinstance(node.exc, ast.Call) and name_of(node.exc.func) not in SHOWN_CALLS:
            self.hush(node)  # raised for the programmer
        self.generic_visit(node)

    def visit_Call(self, node):
        name = name_of(node.func)
        receiver = name_of(node.func.value) if isinstance(node.func, ast.Attribute) else ""
        if name in MARKING:
            for argument in node.args:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    self.marked.add(argument.value)
            self.hush(node)
        elif name in LOGGING and receiver in ("logger", "logging", "log"):
            self.hush(node)
        else:
            self.shown_by(node, name, receiver)
        self.generic_visit(node)

    def shown_by(self, node: ast.Call, name: str, receiver: str) -> None:
        if node.args and (
            name in SHOWN_CALLS
            or (receiver == "models" and name.endswith("Field") and name not in RELATIONS)
        ):
            self.found(node.args[0])  # a model field's first argument is its name
        if name in MESSAGE_LEVELS and receiver == "messages" and len(node.args) > 1:
            self.found(node.args[1])
        for keyword in node.keywords:
            if name == "RuleError" and keyword.arg != "field":
                self.found(keyword.value)  # a param: a player's words, or an errors.Term
            if keyword.arg in SHOWN_KEYWORDS:
                self.found(keyword.value)
            elif keyword.arg in SHOWN_DICTS and isinstance(keyword.value, ast.Dict):
                for value in keyword.value.values:
                    self.found(value)
            elif keyword.arg == "choices" and isinstance(keyword.value, (ast.List, ast.Tuple)):
                for choice in keyword.value.elts:
                    if isinstance(choice, ast.Tuple) and len(choice.elts) == 2:
                        self.found(choice.elts[1])

    def visit_Constant(self, node):
        text = node.value
        if isinstance(text, str) and id(node) not in self.quiet and PROSE.search(text):
            self.prose.append((node.lineno, node.value))

    def visit_JoinedStr(self, node):
        if id(node) not in self.quiet:
            text = ast.unparse(node)[2:-1]
            if PROSE.search(re.sub(r"\{.*?\}", "", text)):
                self.prose.append((node.lineno, text))
            self.hush(node)  # its pieces are no prose of their own


def scan(source: str) -> Scan:
    found = Scan()
    found.visit(ast.parse(source))
    return found


def modules() -> dict[str, str]:
    """Module path → source, for every module of the apps."""
    return {
        str(path.relative_to(BASE)): path.read_text(encoding="utf-8")
        for app in APPS
        for path in sorted((BASE / app).rglob("*.py"))
        if not SKIPPED_FOLDERS & set(path.relative_to(BASE).parts)
    }


def unmarked(sources: dict[str, str]) -> list[str]:
    scans = {module: scan(source) for module, source in sources.items()}
    marked = set().union(*(found.marked for found in scans.values()))
    problems = []
    for module, found in scans.items():
        prose = [(line, text) for line, text in found.prose if text not in marked]
        for line, text in sorted(set(found.shown) | set(prose)):
            if (module, text) not in ALLOWED:
                problems.append(f"{module}:{line}: {text}")
    return problems


def test_every_text_the_python_code_shows_is_marked():
    problems = unmarked(modules())
    assert problems == [], "\n".join(["not marked for translation:", *problems])


def test_the_scan_finds_each_kind_of_unmarked_text_and_passes_marked_ones():
    source = """
class Kind(models.TextChoices):
    GANG = "gang", "Gang"
    EXPERT = "expert", _("Expert")

class Meta:
    labels = {"name": "Name", "look": _("Look")}

GM_ONLY = "Only the GM can do that."
MARKED = gettext_lazy("Only the GM can do this.")

def view(request, n):
    messages.error(request, "Saved")
    name = models.CharField("Custom crew type", max_length=60)
    field = forms.IntegerField(label="Dice", help_text=_("How many"))
    hold = forms.ChoiceField(choices=[("weak", "Weak"), ("strong", _("Strong"))])
    if n:
        raise PermissionDenied(f"Not yours, {n}")
    if not n:
        raise RuleError(_("%(action)s is rated %(n)s."), action="Hunt", n=n)
    if n > 9:
        raise RuleError(_("%(action)s is rated %(n)s."), action=Term("Hunt"), n=n)
    raise ValueError("a pool of dice cannot be negative")
"""
    found = scan(source)
    assert [text for _line, text in found.shown] == [
        "Gang",
        "Name",
        "Saved",
        "Custom crew type",
        "Dice",
        "Weak",
        "Not yours, {n}",
        "Hunt",
    ]
    assert [text for _line, text in found.prose] == [
        "Only the GM can do that.",
        "Custom crew type",  # twice found, once told
    ]
    assert "Only the GM can do this." in found.marked
