"""The package's exceptions: every one is a ValueError that names the bad input and the rule it broke."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class BigTwoError(ValueError):
    """Base class: bad input to the engine, explained in words a player understands."""


class CardParseError(BigTwoError):
    """A token that is not a card, e.g. ``"3X"``; ``.token`` holds it."""

    def __init__(self, token: str, message: str | None = None):
        self.token = token
        super().__init__(
            message
            or f"{token!r} is not a card: write a rank (3-9, T or 10, J, Q, K, A, 2) and a suit "
            f"(D, C, H, S or ♦ ♣ ♥ ♠), e.g. 3D, 10h, 2♠, or a joker (BJ, RJ)"
        )


class RulesError(BigTwoError):
    """An invalid ruleset value; ``.field`` names the setting, the message lists the allowed values."""

    def __init__(self, message: str, field: str | None = None):
        self.field = field
        super().__init__(message)


class IllegalPlay(BigTwoError):
    """A play or pass the rules forbid here; ``.reason`` says why, and the game state is unchanged."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


def read_text_file(path: Path, error: type[BigTwoError], kind: str, a_thing: str, things: str) -> str:
    """A file's UTF-8 text; a file that cannot be read as one raises ``error`` naming it once, in words (not
    Python's ``[Errno 2]``): ``kind`` a record, ``a_thing`` "a record", ``things`` "records"."""
    if path.is_dir():
        raise error(f"{path} is a directory, not {a_thing}")
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"no {kind} file at {path}") from None
    except UnicodeDecodeError:
        raise error(f"{path}: not {a_thing}: {things} are UTF-8 text") from None
    except OSError as e:
        raise error(f"{path}: cannot be read: {e.strerror or e}") from None


def whole_number(value: Any, name: str) -> Any:
    """A whole-number argument (or None), refused in words when it is anything else (a bool, a text, 4.0)."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise BigTwoError(f"{name}={value!r}: {name} is a whole number")
