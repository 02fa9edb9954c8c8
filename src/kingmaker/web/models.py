"""The bodies of the web API and the WebSocket messages, as pydantic v2 models.

FastAPI validates every request body with these models and writes the OpenAPI document
(``/openapi.json``) from them; the WebSocket handler validates client messages with
``CLIENT_MESSAGE``. Text fields refuse what a person never types and what breaks
encoders: control and format characters (NUL, right-to-left overrides) and lone
surrogates (``"\\ud800"``). Validation messages never repeat the input.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
)

from ..core.errors import ServerBusyError

__all__ = [
    "CLIENT_MESSAGE",
    "ServerBusyError",
    "safe_message",
]

MAX_MESSAGE = 500  # characters of an error message sent to a client


def safe_message(text: str, limit: int = MAX_MESSAGE) -> str:
    """Returns ``text`` cut to ``limit`` characters, without surrogates or control characters."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return "".join(
        c if unicodedata.category(c) not in ("Cc", "Cs", "Cf") or c == " " else "\N{REPLACEMENT CHARACTER}"
        for c in text
    )


_BAD_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}


def _no_surrogates(v: str) -> str:
    for c in v:
        if unicodedata.category(c) == "Cs":
            raise ValueError("text must be valid Unicode (no lone surrogates)")
    return v


def _printable(v: str) -> str:
    for c in v:
        if unicodedata.category(c) in _BAD_CATEGORIES:
            raise ValueError(
                "a name must be printable text: no control, format or direction characters "
                f"(found U+{ord(c):04X})"
            )
    if not v.strip():
        raise ValueError("a name must not be blank")
    return v


def _integral(v: object) -> object:
    """JSON has one number type: 12.0 is the integer 12 (a bool stays a bool, and is refused)."""
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return int(v)
    return v


Int = Annotated[StrictInt, BeforeValidator(_integral)]
Text = Annotated[str, AfterValidator(_no_surrogates)]
Name = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_printable)]
Token = Annotated[str, Field(max_length=100), AfterValidator(_no_surrogates)]
BotSpec = Annotated[str, Field(min_length=1, max_length=100), AfterValidator(_no_surrogates)]
OptionValue = StrictBool | Int | Annotated[str, Field(max_length=100), AfterValidator(_no_surrogates)]
Ref = Int | Annotated[str, Field(max_length=64), AfterValidator(_no_surrogates)] | None


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


# ---- requests ------------------------------------------------------------------------------
class SeatIn(_Body):
    kind: Literal["human", "bot"] = "human"
    bot: BotSpec | None = Field(None, description="A bot level: random, heuristic, ismcts:easy|normal|hard|expert, team:<level>")
    name: Name | None = None


class CreateMatch(_Body):
    game: Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_no_surrogates)]
    players: Annotated[Int, Field(ge=1, le=16)] | None = None
    options: Annotated[dict[Annotated[str, Field(max_length=64), AfterValidator(_no_surrogates)], OptionValue],
                       Field(max_length=32)] | None = None
    seats: Annotated[list[SeatIn], Field(max_length=16)] | None = Field(
        None, description="One per player; default: seat 0 human, heuristic bots elsewhere")
    you: Annotated[Int, Field(ge=0, le=15)] | None = Field(0, description="The creator's seat; null to watch")
    public: StrictBool = True
    seed: Annotated[Int, Field(ge=0, lt=2**53)] | None = Field(None, description="Default: random")


class MoveIn(_Body):
    action: Annotated[Int, Field(ge=-(2**31), lt=2**31)] | None = None
    text: Annotated[Text, Field(max_length=200)] | None = None
    version: Annotated[Int, Field(ge=0, lt=2**31)] | None = Field(
        None, description="The version the move was chosen at (recommended)")
    seat: Annotated[Int, Field(ge=0, le=15)] | None = None
    token: Token | None = None


class JoinIn(_Body):
    token: Token | None = Field(None, description="An invite token; without one, any open seat of a public match")
    seat: Annotated[Int, Field(ge=0, le=15)] | None = None
    name: Name | None = None


class LeaveIn(_Body):
    bot: BotSpec | None = Field(None, description="A bot level that takes the seat over; without one the seat opens")
    token: Token | None = None


# ---- responses -------------------------------------------------------------------------------
class ErrorDetail(BaseModel):
    code: str
    message: str
    details: dict[str, Any] = {}


class ErrorOut(BaseModel):
    error: ErrorDetail


class GameInfo(BaseModel):
    id: str
    name: str
    min_players: int
    max_players: int
    summary: str
    cooperative: bool
    has_simultaneous: bool
    perfect_information: bool
    options: list[dict[str, Any]]
    expert: list[int] = Field(default_factory=list,
                              description="Player counts for which the `expert` bot level has a network")
    styles: list[str] = Field(default_factory=list,
                              description="The heuristic's styles, the default first (the turn planner `plan` "
                                          "chooses among them: offered only where there are two or more)")
    bot: str = Field("ismcts:normal", description="The bot the lobby offers first for the other seats: the "
                                                  "strongest level whose slowest moves take a few CPU seconds at most")


class GamesOut(BaseModel):
    games: list[GameInfo]
    bots: dict[str, list[str]]
    custom_bots: bool = Field(False, description="Whether this server accepts bot specs beyond the named levels")


class SeatOut(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str | None
    claimed: bool
    connected: bool


ToMove = int | Literal["chance", "simultaneous", "terminal"]


class SummaryOut(BaseModel):
    match: str
    game: str
    name: str
    players: int
    options: dict[str, Any]
    version: int
    status: Literal["playing", "over"]
    to_move: ToMove | None
    public: bool
    result: list[float] | None
    seats: list[SeatOut]
    created: float
    updated: float


class CreatedOut(BaseModel):
    match: str
    tokens: dict[str, str] = Field(description="Every human seat's token, by seat number (send invite links)")
    you: int | None
    summary: SummaryOut


class LobbyOut(BaseModel):
    matches: list[SummaryOut]


class LegalMove(BaseModel):
    action: int
    text: str


class LogOut(BaseModel):
    start: int
    lines: list[str]
    total: int


class StateOut(BaseModel):
    """The state message: what one seat (or a spectator, seat null) may know now."""

    type: Literal["state"]
    match: str
    game: str
    players: int
    options: dict[str, Any]
    version: int
    seat: int | None
    status: Literal["playing", "over"]
    to_move: ToMove
    acting: list[int]
    simultaneous: bool
    view: dict[str, Any]
    legal: list[LegalMove]
    log: LogOut
    result: list[float] | None
    seats: list[SeatOut]
    ref: Ref = None


class MoveOut(BaseModel):
    match: str
    seat: int
    version: int
    state: StateOut


class JoinedOut(BaseModel):
    match: str
    seat: int
    token: str = Field(description="A fresh token for the seat; an invite token stops working once used")


class LeftOut(BaseModel):
    match: str
    seat: int
    left: bool


class Frame(BaseModel):
    version: int
    to_move: ToMove
    view: dict[str, Any]
    log_total: int
    by: int | None


class ReplayOut(BaseModel):
    match: str
    game: str
    players: int
    seat: int | None
    status: Literal["playing", "over"]
    result: list[float] | None
    frames: list[Frame]
    log: list[str]
    seats: list[SeatOut]


class RulesOut(BaseModel):
    """A game's rulebook (plain text), the project's rulings (Markdown) and its designed cards' texts."""

    game: str
    name: str
    rulebook: str | None
    rulings: str | None
    cards: dict[str, str]


class ErrorsOut(BaseModel):
    codes: list[str]


class HealthOut(BaseModel):
    ok: bool
    storage: str
    live: int
    server: str = Field(description="This process's id (several processes may share a database)")
    bot_queue: int = Field(description="Bot moves waiting for a worker")


# ---- WebSocket -------------------------------------------------------------------------------
class WsMove(_Body):
    type: Literal["move"]
    action: Annotated[Int, Field(ge=-(2**31), lt=2**31)] | None = None
    text: Annotated[Text, Field(max_length=200)] | None = None
    version: Annotated[Int, Field(ge=0, lt=2**31)] | None = None
    seat: Annotated[Int, Field(ge=0, le=15)] | None = None
    ref: Ref = None


class WsSync(_Body):
    type: Literal["sync"]
    ref: Ref = None


class WsPing(_Body):
    type: Literal["ping"]
    ref: Ref = None


CLIENT_MESSAGE: TypeAdapter[WsMove | WsSync | WsPing] = TypeAdapter(
    Annotated[WsMove | WsSync | WsPing, Field(discriminator="type")]
)


class AckOut(BaseModel):
    type: Literal["ack"]
    ref: Ref = None
    version: int


class PongOut(BaseModel):
    type: Literal["pong"]
    ref: Ref = None


class SeatsMsgOut(BaseModel):
    type: Literal["seats"]
    match: str
    seats: list[SeatOut]


class WsErrorOut(BaseModel):
    type: Literal["error"]
    ref: Ref = None
    error: ErrorDetail


def validation_message(errors: list[dict]) -> str:
    """Returns a short message for pydantic errors: where and what, never the input itself."""
    parts = []
    for e in errors[:3]:
        loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
        msg = e.get("msg", "invalid")
        if e.get("type") == "union_tag_invalid":
            msg = "unknown message type; expected move, sync or ping"
        elif e.get("type") == "union_tag_not_found":
            msg = "a message needs 'type': move, sync or ping"
        parts.append(f"{loc}: {msg}" if loc else msg)
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    return safe_message("; ".join(parts) + more)
