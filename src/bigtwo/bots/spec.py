"""Bot specifications, one spelling for the arena, `bigtwo simulate` and the table.

``search(iterations=200, candidates=4)`` or ``search:iterations=200:candidates=4`` -> a name and options.
A user's own class is written ``module:Class`` (``mybots.strong:StrongBot:depth=2`` or
``mybots.strong:StrongBot(depth=2)``): the arena imports it where it plays (see :mod:`bigtwo.bots.policy`);
the tables and the server take registered names only (a server's operator names one in its settings: ``bots``,
:func:`bigtwo.bots.registry.register_spec`).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bigtwo.bots import BOTS, make
from bigtwo.bots.policy import CLASS_TARGET, load_class
from bigtwo.bots.registry import unknown_option_message
from bigtwo.errors import BigTwoError

_CALL = re.compile(r"^\s*([A-Za-z][\w-]*|[A-Za-z_][\w.]*:[A-Za-z_][\w.]*)\s*\((.*)\)\s*$", re.S)


def is_class_target(name: str) -> bool:
    """Whether a spec's name is a user's class, ``module:Class``, rather than a registered bot."""
    return ":" in name and bool(CLASS_TARGET.match(name))


def split_lineup(text: str) -> list[str]:
    """``"search(iterations=30, candidates=3),greedy"`` -> its specs: commas inside parentheses stay."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        depth += (ch == "(") - (ch == ")")
        cur.append(ch)
    out.append("".join(cur))
    return [t.strip() for t in out if t.strip()]


def _call_options(text: str, args: str) -> dict[str, Any]:
    try:
        call = ast.parse(f"f({args})", mode="eval").body
    except SyntaxError:
        call = None
    form = ValueError(f"bot spec {text!r}: options are written name(key=value, ...)")
    if not isinstance(call, ast.Call) or call.args or any(kw.arg is None for kw in call.keywords):
        _refuse_unquoted(text, args.split(","))
        raise form
    options = {}
    for kw in call.keywords:
        try:
            options[str(kw.arg)] = ast.literal_eval(kw.value)
        except ValueError:
            _refuse_unquoted(text, [f"{kw.arg}={ast.get_source_segment(f'f({args})', kw.value)}"])
            raise form from None
    return options


def _refuse_unquoted(text: str, parts: list[str]) -> None:
    """Refuse the first ``key=value`` whose value is no number, quoted text, True, False or None: almost
    always a text written without its quotes (``weights=runs/x.npz``), which the refusal shows quoted."""
    for part in parts:
        key, sep, value = (t.strip() for t in part.partition("="))
        if not (sep and key.isidentifier() and value) or "'" in value or '"' in value:
            continue
        try:
            ast.literal_eval(value)
        except (ValueError, SyntaxError):
            raise ValueError(
                f"bot spec {text!r}: the value of {key}, {value}, is not a number, a quoted text, True, False "
                f"or None: write {key}={value!r} for a text"
            ) from None


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


@dataclass(frozen=True)
class BotSpec:
    """A bot by registry name with options; ``label`` (default: the spec text) names it in results."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """``name``, ``name:key=value:key=value`` (values read as JSON when they parse, else as text), or
        ``name(key=value, ...)`` (values as Python literals); a network's weights file (``runs/x/best.npz``) is
        the learned bot playing it (a spec that names its options, ``learned:weights=x.npz``, is a spec)."""
        if text.strip().lower().endswith(".npz") and "=" not in text:
            return cls("learned", {"weights": text.strip()}, text.strip())
        call = _CALL.match(text)
        if call:
            return cls(call.group(1), _call_options(text, call.group(2)), text.strip())
        parts = [p.strip() for p in text.strip().split(":")]
        if not parts[0]:
            raise ValueError(f"bot spec {text!r} has no bot name")
        if len(parts) > 1 and parts[0] not in BOTS and "=" not in parts[1] and is_class_target(":".join(parts[:2])):
            parts = [":".join(parts[:2]), *parts[2:]]  # module:Class, then its options
        options: dict[str, Any] = {}
        for p in parts[1:]:
            if "=" not in p:
                raise ValueError(f"bot spec {text!r}: option {p!r} is not key=value")
            k, v = p.split("=", 1)
            options[k.strip()] = _value(v.strip())
        return cls(parts[0], options, text.strip())

    @property
    def display(self) -> str:
        return self.label or self.name

    def __str__(self) -> str:
        """The canonical spelling, ``name`` or ``name(key=value, ...)``, whatever form was parsed."""
        if not self.options:
            return self.name
        return f"{self.name}({', '.join(f'{k}={v!r}' for k, v in self.options.items())})"

    def build(self, seed: int | None):
        if "seed" in self.options:  # the table's seed seeds every bot: an option would be passed twice
            raise BigTwoError(f"bot spec {self.display!r}: {unknown_option_message(self.name, 'seed', [])}")
        if is_class_target(self.name):
            return load_class(self.name, seed=seed, **self.options)
        try:
            return make(self.name, seed=seed, **self.options)
        except TypeError as e:  # an option the bot does not take
            raise BigTwoError(f"bot spec {self.display!r}: {e}") from None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "options": dict(self.options), "label": self.display}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BotSpec:
        return cls(d["name"], dict(d.get("options") or {}), d.get("label", ""))


def parse_lineup(text: str | Sequence[str | BotSpec]) -> list[BotSpec]:
    """A comma-separated lineup (``"heuristic,greedy,greedy,greedy"``) or a list of specs, one per seat."""
    items = split_lineup(text) if isinstance(text, str) else list(text)
    out = [t if isinstance(t, BotSpec) else BotSpec.parse(t) for t in items if not isinstance(t, str) or t.strip()]
    if not out:
        raise ValueError("the lineup names no bots")
    for spec in out:
        spec.build(seed=0)  # fail early on an unknown name or option
    return out
