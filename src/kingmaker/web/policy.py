"""The web server's rules of engagement: error statuses, close codes, the bot levels it accepts."""

from __future__ import annotations

from typing import Any

from ..core.api import node_name
from ..core.errors import BadRequestError, GameError
from .models import safe_message

__all__ = [
    "CLOSE_FORBIDDEN",
    "CLOSE_NOT_FOUND",
    "CLOSE_SEAT_CHANGED",
    "HTTP_STATUS",
    "NAMED_LEVELS",
    "bot_levels",
    "check_bot_spec",
    "error_dict",
    "expert_players",
    "http_status",
    "node_label",
]

HTTP_STATUS = {
    "match/not_found": 404,
    "seat/forbidden": 403,
    "match/conflict": 409,
    "game/unknown": 404,
    "server/busy": 503,
}

# WebSocket close codes (4000-4999 are the application's).
CLOSE_FORBIDDEN = 4403  # a token that holds no seat of this match
CLOSE_NOT_FOUND = 4404
CLOSE_SEAT_CHANGED = 4401  # the seat changed hands: the token this socket was opened with no longer holds it

# The levels of ``ismcts`` and ``team``. ``expert`` (network-guided IS-MCTS, 2 x 500 iterations
# a move; one search of 1400 visits that keeps its tree in King's Kilt; in Kingpin
# hard's max-min search with the network at the cut, pruned and a ply deeper) plays only where a network ships for the game and player count
# (``expert_players``); like every bot move, it is bounded by the server's CPU time per move.
NAMED_LEVELS = ("easy", "normal", "hard", "expert")


def http_status(err: GameError) -> int:
    return HTTP_STATUS.get(err.code, 400)


def error_dict(err: GameError) -> dict:
    """The error's JSON form with a short, encodable message."""
    out = err.to_dict()
    out["message"] = safe_message(str(out.get("message", "")))
    details = out.get("details") or {}
    out["details"] = {k: (safe_message(v, 80) if isinstance(v, str) else v) for k, v in details.items()
                      if len(repr(v)) <= 400}
    return out


def node_label(cp: int) -> int | str:
    return cp if cp >= 0 else node_name(cp)


NAMED_KINDS = ("random", "heuristic", "ismcts", "team", "plan")
LEVELLED_KINDS = ("ismcts", "team", "plan")  # the named kinds that take a level (NAMED_LEVELS)


def bot_levels(custom: bool = False) -> dict[str, list[str]]:
    """Returns the bot kinds this server accepts, with their named levels.

    Without ``custom`` specs only the named kinds are offered, so the lobby never
    lists a kind (e.g. ``policy``) that the server would refuse. The turn planner's levels
    (``plan``) are the same four names; the lobby offers it only for a game with two or more
    heuristic styles (the games' ``styles``), the server refuses it elsewhere.
    """
    from ..agents import agent_kinds

    kinds = [k for k in agent_kinds() if custom or k in NAMED_KINDS]
    return {kind: list(NAMED_LEVELS) if kind in LEVELLED_KINDS else [] for kind in kinds}


def expert_players(game_cls: Any) -> list[int]:
    """The player counts of ``game_cls`` for which the ``expert`` level has a network."""
    from ..agents.expert import expert_players as players

    return players(game_cls)


def check_bot_spec(spec: Any, game: Any, custom: bool = False) -> str:
    """Returns the bot spec, checked: a named level unless ``custom`` specs are allowed."""
    from ..agents import agent_kinds, make_agent

    if not isinstance(spec, str) or not spec.strip():
        raise BadRequestError("a bot seat needs a bot kind such as 'heuristic' or 'ismcts:normal'")
    spec = spec.strip().lower()
    if not custom:
        kind, _, level = spec.partition(":")
        ok = (kind in ("random", "heuristic") and not level) or (
            kind in LEVELLED_KINDS and level in ("",) + NAMED_LEVELS)
        if not ok or kind not in agent_kinds():
            raise BadRequestError(
                "this server plays only the named bot levels: random, heuristic, "
                "ismcts:easy|normal|hard|expert, team:easy|normal|hard|expert, and where the game's "
                "heuristic has styles plan:easy|normal|hard|expert",
                allowed=["random", "heuristic"] + [f"{k}:{lv}" for k in LEVELLED_KINDS for lv in NAMED_LEVELS],
            )
    make_agent(spec, game)  # raises GameError for an unknown kind or level
    return spec
