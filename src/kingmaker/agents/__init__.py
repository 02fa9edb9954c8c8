"""Agents: they act on an ``Observation`` (a seat's view), never on the true state.

``make_agent("random" | "heuristic", game)`` builds the basic bots; search
agents register further kinds with ``register_agent``: ``kingmaker.agents.search``
adds ``ismcts[:easy|normal|hard]`` and the co-operative ``team`` agent. The arena
is ``kingmaker.agents.arena`` (``kingmaker arena``), the agent benchmark
``kingmaker.agents.bench`` (``kingmaker bench --agents``). See docs/agents.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.errors import GameError
from .basic import HeuristicAgent, RandomAgent

__all__ = ["RECOMMENDED", "HeuristicAgent", "RandomAgent", "agent_kinds", "make_agent", "recommended_bot",
           "register_agent"]

_KINDS: dict[str, Callable[..., Any]] = {
    "random": lambda game, level=None, **kw: RandomAgent(),
    "heuristic": lambda game, level=None, **kw: HeuristicAgent(),
}


def register_agent(kind: str, factory: Callable[..., Any]) -> None:
    """Registers ``factory(game, level=None, **kw)`` under ``kind``."""
    _KINDS[kind] = factory


def agent_kinds() -> list[str]:
    _load_extra()
    return sorted(_KINDS)


def _load_extra() -> None:
    try:
        import kingmaker.agents.search  # noqa: F401  (registers "ismcts" when present)
    except ModuleNotFoundError as e:
        if e.name != "kingmaker.agents.search":
            raise
    import kingmaker.agents.plan  # noqa: F401  (registers "plan", the turn planner)
    import kingmaker.agents.policy  # noqa: F401  (registers "policy"; numpy only when one is built)


def make_agent(spec: str, game: Any, **kw: Any) -> Any:
    """Returns an agent from a spec such as ``random``, ``heuristic`` or ``ismcts:normal``."""
    _load_extra()
    kind, _, level = spec.partition(":")
    factory = _KINDS.get(kind.strip().lower())
    if factory is None:
        raise GameError(f"no agent kind {kind!r}; available: {', '.join(sorted(_KINDS))}", allowed=sorted(_KINDS))
    return factory(game, level=level or None, **kw)


# The bot a player is offered first (the terminal's menu, the web lobby): by the strength
# tables, the strongest of the levels whose slowest moves take a few CPU seconds at most. By
# default the search's ``normal`` (``team:normal`` in a co-operative game). In Gangs of Green
# City the turn planner ``plan:hard`` wins more team games than ``team:normal`` at every player
# count (72.5 / 64.5 / 53.0% at two, three and four players with 4 escalations, against 68.0 /
# 57.0 / 37.0%) at about a third of its CPU a game, most of its moves at once and its slowest
# in about three CPU seconds (docs/agents.md, "The bot offered first").
RECOMMENDED: dict[str, str] = {"gangs-of-green-city": "plan:hard"}


def recommended_bot(game_cls: Any) -> str:
    """The bot spec a player is offered first for ``game_cls`` (a game class or a game)."""
    spec = RECOMMENDED.get(game_cls.id)
    if spec is not None:
        return spec
    return "team:normal" if game_cls.cooperative else "ismcts:normal"
