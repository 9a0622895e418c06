"""MkDocs hook: the reference tables, generated from the code when the site is built.

A page marks where a table goes with an HTML comment, ``<!-- generated: NAME -->``; this hook replaces it with
the table read from the code, so the settings, the server's limits and the bots' options on the site are
always the installed package's, never a copy that drifts. An unknown name fails the build.

- ``ruleset-settings``: every field of :class:`bigtwo.rules.ruleset.Ruleset` with its section, default,
  allowed values and description;
- ``server-settings``: every field of :class:`bigtwo.server.settings.Settings` with its default, environment
  variable and description;
- ``schema-limits``: the API's fixed shapes, :data:`bigtwo.server.settings.SCHEMA_LIMITS`;
- ``bots``: every bot in :data:`bigtwo.bots.registry.BOTS` with a player's sentence about it and the options
  its factory takes (read by :func:`inspect.signature`; a typed config taken as one argument, a dataclass or a
  pydantic model, is listed field by field);
- ``native-coverage``: which presets the compiled core (:mod:`bigtwo.native`) plays, at which table sizes, and
  what it leaves to the Python engine, read from :func:`bigtwo.native.uncovered`.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import re
import types
import typing
from collections.abc import Callable
from typing import Any

MARKER = re.compile(r"<!--\s*generated:\s*([a-z0-9-]+)\s*-->")


def _cell(text: object) -> str:
    """A value fit for one Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _code(value: object) -> str:
    """A value as the TOML or Python a person writes it, in code."""
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = f'"{value}"'
    elif isinstance(value, tuple | list):
        text = "[" + ", ".join(_code(v).strip("`") for v in value) + "]"
    elif value is None:
        text = "none"
    else:
        text = str(value)
    return f"`{_cell(text)}`"


def _bounds(metadata: list[Any]) -> str:
    """The numeric bounds pydantic holds for a field (``ge``/``le``/``gt``/``lt``), in words."""
    low = high = None
    for item in metadata:
        for attr, kind in (("ge", "low"), ("gt", "low"), ("le", "high"), ("lt", "high")):
            value = getattr(item, attr, None)
            if value is not None:
                if kind == "low":
                    low = value
                else:
                    high = value
    if low is not None and high is not None:
        return f"{low} to {high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return ""


def _allowed(annotation: Any, metadata: list[Any] | None = None) -> str:
    """The values a type annotation accepts, in words: the members of a Literal or an enum, a number's range,
    true/false, or the type's name."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _allowed(args[0], [*(metadata or []), *args[1:]])
    if origin is typing.Literal:
        return ", ".join(_code(a) for a in args)
    if inspect.isclass(annotation) and issubclass(annotation, enum.Enum):
        return ", ".join(_code(m.value) for m in annotation)
    if origin in (types.UnionType, typing.Union):
        parts = [_allowed(a, metadata) for a in args if a is not type(None)]
        none = " or none" if type(None) in args else ""
        return " or ".join(p for p in parts if p) + none
    if origin in (tuple, list, set, frozenset):
        inner = [a for a in args if a is not Ellipsis]
        return f"a list of: {_allowed(inner[0])}" if inner else "a list"
    if origin is dict:
        return "a table"
    if annotation is bool:
        return "`true`, `false`"
    if annotation is int:
        return _bounds(metadata or []) or "a whole number"
    if annotation is float:
        return _bounds(metadata or []) or "a number"
    if annotation is str:
        return "text"
    name = getattr(annotation, "__name__", None)
    return f"`{name}`" if name else _cell(annotation)


def ruleset_settings() -> str:
    from bigtwo.rules.ruleset import Ruleset

    rows = ["| setting | section | default | allowed values | what it does |", "| --- | --- | --- | --- | --- |"]
    for name, field in Ruleset.model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        section = extra.get("section")
        where = f"`[{section}]`" if section else "top of the file"
        default = field.get_default(call_default_factory=True)
        allowed = _allowed(field.annotation, list(field.metadata))
        rows.append(f"| `{name}` | {where} | {_code(default)} | {_cell(allowed)} | {_cell(field.description or '')} |")
    return "\n".join(rows)


def server_settings() -> str:
    from bigtwo.server.settings import ENV_PREFIX, Settings

    rows = [
        "| setting | default | environment variable | allowed values | what it bounds or sets |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, field in Settings.model_fields.items():
        default = field.get_default(call_default_factory=True)
        default_text = "unset" if default in (None, [], {}, ()) else _code(default)
        allowed = _allowed(field.annotation, list(field.metadata))
        rows.append(
            f"| `{name}` | {default_text} | `{ENV_PREFIX}{name.upper()}` | {_cell(allowed)} | "
            f"{_cell(field.description or '')} |"
        )
    return "\n".join(rows)


def schema_limits() -> str:
    from bigtwo.server.settings import SCHEMA_LIMITS

    rows = ["| shape | most |", "| --- | --- |"]
    rows += [f"| `{name}` | {value} |" for name, value in SCHEMA_LIMITS.items()]
    return "\n".join(rows)


def _config_fields(kind: Any) -> list[tuple[str, Any, str, str]]:
    """(name, default, allowed values, description) of a typed config class: a dataclass (its field's
    ``metadata["doc"]`` the description) or a pydantic model (its field's ``description``)."""
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        hints = typing.get_type_hints(kind, include_extras=True)
        out = []
        for f in dataclasses.fields(kind):
            if not f.init or f.name.startswith("_"):
                continue
            if f.default is not dataclasses.MISSING:
                default = f.default
            elif f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:
                default = inspect.Parameter.empty
            doc = str(f.metadata.get("doc", ""))
            out.append((f.name, default, _allowed(hints.get(f.name, f.type)), doc))
        return out
    fields = getattr(kind, "model_fields", None)
    if isinstance(fields, dict):
        return [
            (
                name,
                f.get_default(call_default_factory=True),
                _allowed(f.annotation, list(f.metadata)),
                f.description or "",
            )
            for name, f in fields.items()
        ]
    return []


def _options(factory: Callable[..., Any]) -> list[tuple[str, Any, str, str]]:
    """A bot factory's options by name, as its signature gives them (the seed is the table's, left out)."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return []
    target = factory.__init__ if inspect.isclass(factory) else factory  # type: ignore[misc]
    try:
        hints = typing.get_type_hints(target, include_extras=True)
    except Exception:  # an annotation that does not resolve here: the signature's words still serve
        hints = {}
    out: list[tuple[str, Any, str, str]] = []
    for p in signature.parameters.values():
        if p.name in ("self", "seed") or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        hint = hints.get(p.name, p.annotation)
        config = hint if inspect.isclass(hint) else type(p.default) if p.default is not p.empty else None
        nested = _config_fields(config) if config is not None and not isinstance(p.default, int | str) else []
        if nested:
            out.extend(nested)
            continue
        allowed = "" if hint is p.empty else _allowed(hint)
        out.append((p.name, p.default, allowed, ""))
    return out


def bots() -> str:
    import bigtwo.bots  # noqa: F401  (loading the package registers every built-in bot)
    from bigtwo.bots.registry import BOTS, bot_words

    parts = []
    for name, factory in BOTS.items():
        try:
            words = bot_words(name)
        except Exception:  # a bot without a sentence still gets its options listed
            words = ""
        parts.append(f"### `{name}`\n\n{words}\n")
        options = _options(factory)
        if not options:
            parts.append("No options.\n")
            continue
        described = any(doc for *_, doc in options)
        rows = ["| option | default | allowed values |" + (" what it does |" if described else "")]
        rows.append("| --- | --- | --- |" + (" --- |" if described else ""))
        for option, default, allowed, doc in options:
            shown = "required" if default is inspect.Parameter.empty else _code(default)
            rows.append(f"| `{option}` | {shown} | {_cell(allowed)} |" + (f" {_cell(doc)} |" if described else ""))
        parts.append("\n".join(rows) + "\n")
    return "\n".join(parts)


def native_coverage() -> str:
    from bigtwo import list_presets, load_rules
    from bigtwo.native import uncovered

    rows = ["| rules | players | compiled core |", "| --- | --- | --- |"]
    for name in list_presets():
        r = load_rules(name)
        why = uncovered(r)
        rows.append(f"| `{name}` | {r.min_players}-{r.max_players} | {_cell('; '.join(why)) if why else 'covered'} |")
    classic = load_rules("classic")
    house = {
        "two decks": load_rules("house-code").replace(decks=2, max_players=8),
        "wild jokers": classic.replace(jokers=2, joker_mode="wild"),
        "the automatic turn skip": classic.replace(auto_skip=True),
    }
    for label, r in house.items():
        rows.append(f"| house rule: {label} | | {_cell('; '.join(uncovered(r)))} |")
    return "\n".join(rows) + "\n"


TABLES: dict[str, Callable[[], str]] = {
    "ruleset-settings": ruleset_settings,
    "server-settings": server_settings,
    "schema-limits": schema_limits,
    "bots": bots,
    "native-coverage": native_coverage,
}


def generate(markdown: str) -> str:
    """The page with every marker replaced by its table."""

    def table(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in TABLES:
            raise KeyError(f"no generated table named {name!r}; tables: {', '.join(TABLES)}")
        return TABLES[name]()

    return MARKER.sub(table, markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs' hook: fill a page's generated tables before it is rendered."""
    return generate(markdown)
