"""Every message the server accepts, as pydantic models: anything else is refused with words, not obeyed.

WebSocket messages from a browser are a tagged union on ``type``; REST bodies are the models below. Strings
are bounded, lists are bounded, unknown fields are errors, so a bad message can never reach the engine.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from bigtwo.server.settings import SCHEMA_LIMITS as LIMITS

MAX_ROUNDS = 100  # the longest match a table may play, in rounds, whether asked for or set by house rules
MAX_POINTS = 100_000  # the highest points target a match may play to, likewise

# Characters a text may hold besides the printable ones: the space, and the joiners that build emoji and scripts.
ALLOWED_FORMAT = frozenset(" \u200c\u200d")


def text_problem(value: str) -> str | None:
    """Why a text cannot be shown to other people (None: it can). Printable characters only: no control
    characters, no bidirectional overrides (which make a name read backwards), no halves of surrogate pairs."""
    for ch in value:
        if ch in ALLOWED_FORMAT or ch.isprintable():
            continue
        if 0xD800 <= ord(ch) <= 0xDFFF:
            return f"\\u{ord(ch):04x} is half of a surrogate pair, not a character"
        name = unicodedata.name(ch, "a control character")
        return f"U+{ord(ch):04X} ({name}) is not allowed: printable characters only"
    return None


def _printable(value: str) -> str:
    problem = text_problem(value)
    if problem:
        raise ValueError(problem)
    return value


def _clean_name(v: str) -> str:
    v = " ".join(v.split())
    if not v:
        raise ValueError("a name needs printable characters")
    return _printable(v)


# a card as the observation writes it: ``3D``, ``10h``, ``2♠``; ``3D'`` is the second deck's copy
CardName = Annotated[str, Field(min_length=1, max_length=5, pattern=r"^[0-9A-Za-z♠♥♦♣]+'?$")]
Name = Annotated[str, Field(min_length=1, max_length=LIMITS["player_name_chars"])]
Token = Annotated[str, Field(min_length=1, max_length=LIMITS["token_chars"], pattern=r"^[A-Za-z0-9_.~+/=-]+$")]
Word = Annotated[str, Field(min_length=1, max_length=LIMITS["bot_name_chars"], pattern=r"^[A-Za-z0-9_-]+$")]
Answer = Annotated[str, Field(min_length=1, max_length=LIMITS["answer_chars"]), AfterValidator(_printable)]
CARDS = LIMITS["cards_per_message"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


# --- WebSocket: browser -> server -------------------------------------------------------------------------


class Hello(Strict):
    """Who is at this end: a seat's secret token, or none to watch as a spectator."""

    type: Literal["hello"]
    token: Token | None = None


class PlayCards(Strict):
    type: Literal["play"]
    cards: list[CardName] = Field(min_length=1, max_length=CARDS)
    seq: int | None = Field(None, ge=0, description="the view's seq this play answers; a stale one is refused")


class Pass(Strict):
    type: Literal["pass"]
    seq: int | None = Field(None, ge=0)


class ExchangeAnswer(Strict):
    """An answer to an exchange decision: cards to give (empty: decline to surrender), or a question/option."""

    type: Literal["exchange"]
    cards: list[CardName] | None = Field(None, max_length=CARDS)
    answer: Answer | None = None
    seq: int | None = Field(None, ge=0)


class Continue(Strict):
    """Ready for the next round (ends the break between rounds once every person is ready)."""

    type: Literal["continue"]


class Ping(Strict):
    type: Literal["ping"]


# The emotes a seat may send: names on the wire (a client draws them), never free text. Quick phrases and faces
# that every system's fonts draw.
EMOTES = {
    "good-game": "GG",
    "well-played": "Well played!",
    "laugh": "😄",
    "wow": "😮",
    "oops": "😅",
    "sad": "😢",
    "cool": "😎",
}
Emote = Literal["good-game", "well-played", "laugh", "wow", "oops", "sad", "cool"]
ChatText = Annotated[str, Field(min_length=1, max_length=LIMITS["chat_chars"])]


class Chat(Strict):
    """A chat line or an emote from a seat (spectators watch in silence). Bounded, printable, rate-limited."""

    type: Literal["chat"]
    text: ChatText | None = None
    emote: Emote | None = None

    @field_validator("text")
    @classmethod
    def _text(cls, v: str | None) -> str | None:
        if v is None:
            return None
        v = " ".join(v.split())
        if not v:
            raise ValueError("a chat line needs printable characters")
        return _printable(v)

    @model_validator(mode="after")
    def _one(self) -> Chat:
        if (self.text is None) == (self.emote is None):
            raise ValueError("a chat message is a text or an emote (one of them)")
        return self


class Hint(Strict):
    """Ask for a suggestion for the seat's own turn (the heuristic bot's, from the seat's own view)."""

    type: Literal["hint"]
    seq: int | None = Field(None, ge=0)


class Explain(Strict):
    """Ask whether these cards may be played (or given) now, and why."""

    type: Literal["explain"]
    cards: list[CardName] = Field(default_factory=list, max_length=CARDS)
    seq: int | None = Field(None, ge=0)


class Legal(Strict):
    """Ask for the seat's legal plays now (or its decision's answers)."""

    type: Literal["legal"]
    seq: int | None = Field(None, ge=0)


class Undo(Strict):
    """Take back the seat's last turn of this round and the bots' answers since (only when every other seat is a
    bot's: nobody else's move is taken back)."""

    type: Literal["undo"]
    seq: int | None = Field(None, ge=0)


class AutoPass(Strict):
    """A seat's standing orders: ``auto`` passes for it whenever the public table shows that no hand of its size
    could beat the play (so passing at once tells nobody anything); ``trick`` passes for it until the next
    trick begins."""

    type: Literal["autopass"]
    auto: StrictBool | None = None
    trick: StrictBool | None = None

    @model_validator(mode="after")
    def _some(self) -> AutoPass:
        if self.auto is None and self.trick is None:
            raise ValueError("say which order: auto (true or false), trick (true or false), or both")
        return self


class Rematch(Strict):
    """The match is over: play another with the same seats (once every connected person has asked)."""

    type: Literal["rematch"]


AnyClientMessage = (
    Hello
    | PlayCards
    | Pass
    | ExchangeAnswer
    | Continue
    | Ping
    | Chat
    | Hint
    | Explain
    | Legal
    | Undo
    | AutoPass
    | Rematch
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
client_message: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


def parse_client_message(raw: str | bytes) -> AnyClientMessage:
    """The message, or a ValueError that says in words what was wrong with it."""
    if len(raw) > LIMITS["ws_message_bytes"]:
        raise ValueError(f"message too long ({LIMITS['ws_message_bytes'] // 1024} KiB at most)")
    try:
        return client_message.validate_json(raw)
    except ValidationError as e:
        raise ValueError(describe(e)) from None


def describe(e: ValidationError | list[dict[str, Any]], prefix: str = "bad message: ") -> str:
    """A validation error in a sentence: where, and what was wrong. The input itself is never echoed whole
    (it may be megabytes, or not even serialisable): each part is cut short."""
    errors = e.errors() if isinstance(e, ValidationError) else e
    parts = []
    for err in errors[:3]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        msg = shorten(str(err.get("msg", "invalid")).removeprefix("Value error, "), 160)
        parts.append(f"{shorten(loc, 60)}: {msg}" if loc else msg)
    if len(errors) > 3:
        parts.append(f"and {len(errors) - 3} more")
    return prefix + "; ".join(parts)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (with an ellipsis), and any character that could not be shown escaped."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    if text_problem(text):
        text = text.encode("ascii", "backslashreplace").decode("ascii")
    return text


# --- REST bodies -----------------------------------------------------------------------------------------


class SeatSpec(Strict):
    kind: Literal["open", "bot"] = "open"
    bot: Word | None = Field(None, description="bot name (strength); default: the room's bot")


class CreateRoom(Strict):
    """A new table: a preset plus house-rule changes, a match length, and how the seats start."""

    name: str = Field("", max_length=LIMITS["room_name_chars"])
    preset: Word = Field("classic", description="a preset name (GET /api/presets)")
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description="house-rule changes, flat ({'pass_locks_out': true}) or by section ({'play': {...}})",
    )
    rules_toml: str | None = Field(
        None, description="house rules as a TOML file's text (size and nesting: see the server's settings)"
    )
    players: int | None = Field(None, ge=2, le=8, description="default: the rules' own")
    rounds: int | None = Field(None, ge=1, le=MAX_ROUNDS, description="match length in rounds")
    points: int | None = Field(None, ge=1, le=MAX_POINTS, description="or: play until a total reaches this")
    bot: Word | None = Field(
        None, description="the strength of bots (GET /api/bots); default: the strongest that answers within bot_delay"
    )
    seats: list[SeatSpec] | None = Field(
        None, max_length=LIMITS["seats"], description="one per seat; default: all open"
    )
    host_name: str | None = Field(
        None, max_length=LIMITS["player_name_chars"], description="the host takes seat 0 under this name"
    )
    move_seconds: int = Field(
        60, ge=0, le=3600, description="time for a move (0: no limit; a rated table keeps 60 s then)"
    )
    bot_delay: float = Field(0.8, ge=0, le=10, description="seconds a bot waits before acting")
    break_seconds: int = Field(20, ge=0, le=600, description="longest break between rounds (score table)")
    public: bool = Field(True, description="listed in the lobby (a private room is reached by its link)")
    rated: bool = Field(
        False,
        description="results move ratings: a preset without house rules, signed-in people and bots only "
        "(needs a signed-in host)",
    )

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return _printable(" ".join(v.split()))

    @field_validator("host_name")
    @classmethod
    def _host(cls, v: str | None) -> str | None:
        return None if v is None else _clean_name(v)


class QuickMatch(Strict):
    """A table at once: you and bots of a rating band, on a preset; rated when you are signed in, unrated for a
    guest (who gives a name, and is matched as a newcomer)."""

    preset: Word = Field("classic", description="a preset name (GET /api/presets)")
    band: Literal["any", "weaker", "level", "stronger"] = Field(
        "level",
        description="bots rated at or below you (weaker), near you (level), at or above you (stronger), or any",
    )
    rounds: int | None = Field(
        None, ge=1, le=MAX_ROUNDS, description="match length in rounds (default: the rules' own)"
    )
    move_seconds: int = Field(
        60, ge=0, le=3600, description="time for a move (0: no limit; a rated table keeps 60 s then)"
    )
    bot_delay: float = Field(0.8, ge=0, le=10, description="seconds a bot waits before acting")
    break_seconds: int = Field(20, ge=0, le=600, description="longest break between rounds (score table)")
    name: Name | None = Field(None, description="a guest's name at the table (needed without a session; unrated)")

    @field_validator("name")
    @classmethod
    def _guest(cls, v: str | None) -> str | None:
        return None if v is None else _clean_name(v)


class Join(Strict):
    name: Name
    seat: int | None = Field(None, ge=0, le=7, description="a particular open seat; default: the first open")

    @field_validator("name", mode="before")
    @classmethod
    def _named(cls, v: Any) -> Any:
        if isinstance(v, str) and not v.strip():  # no silent stand-in ("player"), which a second guest would clash with
            raise ValueError("a name is needed: the one the others at the table will know you by")
        return v

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return _clean_name(v)


class SeatChange(Strict):
    """The host gives a seat to a bot (an empty seat, or a person who has disconnected), or opens it again."""

    kind: Literal["bot", "open"]
    bot: Word | None = None


class Start(Strict):
    fill_with_bots: bool = Field(False, description="give every empty seat to a bot of the room's strength")


class Action(Strict):
    """A move over HTTP, the same as over the WebSocket: play, pass, or answer an exchange decision."""

    type: Literal["play", "pass", "exchange"]
    cards: list[CardName] | None = Field(None, max_length=CARDS)
    answer: Answer | None = None
    seat: int | None = Field(None, ge=0, le=7, description="optional: the seat you act for (must be your own)")
    seq: int | None = Field(None, ge=0)


# --- REST answers ----------------------------------------------------------------------------------------


class SeatOut(BaseModel):
    seat: int
    kind: str
    name: str
    bot: str | None = None
    connected: bool = False
    account: bool = Field(False, description="a signed-in person (their name is their username)")


class RoomOut(BaseModel):
    id: str
    name: str
    status: str
    preset: str
    rules_name: str
    changes: dict[str, Any]
    players: int
    rounds: int | None
    points: int | None
    move_seconds: int
    bot_delay: float
    break_seconds: int
    bot: str
    public: bool
    rated: bool = False
    seats: list[SeatOut]
    actions: int
    round: int | None = None
    invite: str


class Created(BaseModel):
    room: RoomOut
    host_token: str = Field(description="the host's secret: start, pause, seat changes")
    seat: int | None = None
    token: str | None = Field(None, description="the host's seat secret, when host_name was given")
    invite: str


class Joined(BaseModel):
    room: RoomOut
    seat: int
    token: str = Field(description="this seat's secret: keep it to act and to reconnect")


class Problem(BaseModel):
    detail: str


class RecordSummary(BaseModel):
    id: str
    name: str
    preset: str
    players: int
    finished_at: str | None
    seats: list[str]
    standings: dict[str, Any] | None
    downloads: dict[str, str]


class Preset(BaseModel):
    name: str
    title: str = Field("", description="the preset's name as its players say it, in English (the page translates it)")
    description: str
    min_players: int
    max_players: int
    players: int
    exchange: str
    scoring: str


class BotInfo(BaseModel):
    name: str
    description: str
    default: bool = Field(False, description="the strength a table gets unless it asks for another")
