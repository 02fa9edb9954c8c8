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

__all__ = ["HeuristicAgent", "RandomAgent", "agent_kinds", "make_agent", "register_agent"]

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
