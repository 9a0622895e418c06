"""Reading what a client sends before anything believes it: JSON bodies and house rules, refused in words.

Python's ``json`` module accepts more than JSON (``NaN``, ``Infinity``, lone surrogate escapes such as
``"\\ud800"``, any nesting until the interpreter's recursion limit), and whatever it accepts could be stored
and later fail to be sent back to anyone, which is how one request once broke the lobby for everyone. Here a
body is JSON in the strict sense (RFC 8259: UTF-8, finite numbers, characters only), nested no deeper than a
limit, or it is refused with the reason; house rules (a JSON object or a TOML text) are bounded in size, depth,
number of items and text length, and their texts must be printable.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from bigtwo.server.messages import shorten, text_problem

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")
_KEY = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


class BadInput(ValueError):
    """Input refused before it reaches anything else; the message says what and why. ``status``: 422 for a
    value past a limit, 400 for a text that does not parse (as the rules' own errors are)."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


def json_depth_problem(text: str, limit: int) -> str | None:
    """Whether JSON ``text`` nests arrays and objects deeper than ``limit`` (scanned without parsing, so a
    10,000-deep body costs a scan, not the parser's recursion)."""
    depth = 0
    for m in _BRACKETS.finditer(_STRINGS.sub('""', text)):
        if m[0] in "[{":
            depth += 1
            if depth > limit:
                return f"it nests arrays and objects more than {limit} deep"
        else:
            depth -= 1
    return None


def _no_constants(name: str) -> Any:
    raise BadInput(f"{name} is not a number JSON allows: numbers must be finite")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BadInput(f"{shorten(text, 30)} is too large a number: numbers must be finite")
    return value


def strict_json(body: bytes, max_depth: int) -> Any:
    """A request body as JSON, strictly; :class:`BadInput` says what is wrong with it."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadInput(f"the body is not valid UTF-8 (byte 0x{body[e.start]:02x} at offset {e.start})") from None
    problem = json_depth_problem(text, max_depth)
    if problem:
        raise BadInput(f"the body is refused: {problem}")
    try:
        value = json.loads(text, parse_constant=_no_constants, parse_float=_finite)
    except BadInput:
        raise
    except (ValueError, RecursionError) as e:
        raise BadInput(f"the body is not JSON: {shorten(str(e), 120)}") from None
    for where, s in _strings(value):
        try:
            s.encode("utf-8")
        except UnicodeEncodeError as e:
            raise BadInput(
                f"{where or 'the body'}: \\u{ord(s[e.start]):04x} is half of a surrogate pair, not a character"
            ) from None
    return value


def _strings(value: Any) -> list[tuple[str, str]]:
    """Every string in a parsed JSON value (keys too), with where it is; iterative (the depth is bounded, but a
    wide value is walked without recursion all the same)."""
    out: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        where, v = stack.pop()
        if isinstance(v, str):
            out.append((where, v))
        elif isinstance(v, dict):
            for k, item in v.items():
                out.append((where, k))
                stack.append((f"{where}.{k}" if where else str(k), item))
        elif isinstance(v, list):
            stack.extend((f"{where}[{i}]", item) for i, item in enumerate(v))
    return out


def check_house_rules(data: dict[str, Any], what: str, max_items: int, max_text: int, max_depth: int = 2) -> None:
    """House-rule changes as a client sends them: setting names, and values that are booleans, finite numbers,
    short printable texts, or short lists of those; sections (``{"play": {...}}``) one level deep."""
    if len(data) > max_items:
        raise BadInput(f"{what}: {len(data)} settings; at most {max_items}")

    def walk(where: str, v: Any, depth: int) -> None:
        if isinstance(v, bool) or v is None:
            return
        if isinstance(v, int):
            if abs(v) > 10**9:
                raise BadInput(f"{what}: {where} is {shorten(str(v), 20)}, too large a number")
            return
        if isinstance(v, float):
            if v != v or v in (float("inf"), float("-inf")):
                raise BadInput(f"{what}: {where} must be a finite number")
            return
        if isinstance(v, str):
            if len(v) > max_text:
                raise BadInput(f"{what}: {where} is {len(v):,} characters long; at most {max_text}")
            problem = text_problem(v)
            if problem:
                raise BadInput(f"{what}: {where}: {problem}")
            return
        if depth >= max_depth:
            raise BadInput(f"{what}: {where} nests too deep (sections hold settings, settings hold values)")
        if isinstance(v, list):
            if len(v) > max_items:
                raise BadInput(f"{what}: {where} has {len(v)} items; at most {max_items}")
            for i, item in enumerate(v):
                walk(f"{where}[{i}]", item, depth + 1)
            return
        if isinstance(v, dict):
            if len(v) > max_items:
                raise BadInput(f"{what}: {where} has {len(v)} settings; at most {max_items}")
            for k, item in v.items():
                key(k)
                walk(f"{where}.{k}", item, depth + 1)
            return
        raise BadInput(f"{what}: {where} is not a value a setting takes")

    def key(k: Any) -> None:
        if not isinstance(k, str) or not _KEY.match(k):
            raise BadInput(f"{what}: {shorten(repr(k), 50)} is not a setting's name (lower-case letters, digits, _)")

    for k, v in data.items():
        key(k)
        walk(k, v, 0)


def house_rules_toml(text: str, max_bytes: int, max_depth: int, max_items: int, max_text: int) -> dict[str, Any]:
    """A house-rules TOML text read into a table, bounded in size and nesting; :class:`BadInput` says why not."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise BadInput(f"house rules TOML is {size:,} bytes; at most {max_bytes:,}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BadInput(f"house rules TOML: {e}", 400) from None
    except RecursionError:
        raise BadInput(f"house rules TOML nests tables and arrays more than {max_depth} deep") from None
    if _depth(data) > max_depth:
        raise BadInput(f"house rules TOML nests tables and arrays more than {max_depth} deep")
    check_house_rules(data, "house rules TOML", max_items, max_text, max_depth)
    return data


def _depth(value: Any) -> int:
    deepest = 0
    stack = [(value, 0)]
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return deepest
