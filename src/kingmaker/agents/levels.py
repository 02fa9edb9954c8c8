"""The search's settings: ``SearchConfig``, the difficulty levels and the level text.

``parse_level("hard/iterations=500", LEVELS, game.search_hints)`` is how every
caller (the arena, the terminal, the web app, the lab) turns a level text into a
``SearchConfig``; ``search.py`` runs it. Kept apart from the search so that the
search's loop and its knobs each stay readable (docs/agents.md lists the settings).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..core.errors import GameError

__all__ = [
    "LEVELS",
    "TEAM_LEVELS",
    "SearchConfig",
    "check_budget",
    "parse_level",
    "setting_type_error",
]


ROLLOUTS = ("random", "heuristic", "mixed", "auto")
GOALS = ("returns", "win")
BELIEFS = ("none", "model")
# "auto" rolls out with the heuristic unless a heuristic decision costs more than this much
# CPU time on average over a probe rollout (then too few rollouts would fit in a second);
# the probe stops after this share of the time budget.
AUTO_HEURISTIC_LIMIT = 0.0005
AUTO_PROBE_SHARE = 1 / 30
AUTO_PROBE_WALL_SHARE = 1 / 8  # and at most this share of the budget in wall time
REUSE_MAX = 200_000  # a kept table (``reuse``) of more nodes than this is dropped, not kept


def check_budget(iterations: int | None, seconds: float | None, what: str) -> None:
    """Raises GameError unless a search budget has iterations (>= 1) or seconds (> 0)."""
    if iterations is None and seconds is None:
        raise GameError(f"{what} needs iterations or seconds")
    if iterations is not None and iterations < 1:
        raise GameError(f"iterations must be at least 1, not {iterations}")
    if seconds is not None and seconds <= 0:
        raise GameError(f"seconds must be positive, not {seconds}")


OPPONENTS = ("public", "own", "model")
PRIORS = ("none", "heuristic", "puct", "breadth", "auto")


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """The knobs of one IS-MCTS agent.

    Attributes:
        iterations: stop after this many iterations (None: no iteration limit).
        seconds: stop after this much wall time (None: no time limit). At least
            one of the two must be set; with both, the first reached ends the search.
        rollout: ``random``, ``heuristic``, ``mixed`` (heuristic, but a random
            move with probability ``epsilon``) or ``auto``: heuristic when a
            heuristic decision costs at most half a millisecond of CPU time on
            average over one probe rollout (measured once per game and process, at
            the first search), random otherwise; with no time budget ``auto`` is
            ``heuristic``.
        epsilon: the random share of ``mixed`` rollouts.
        exploration: the UCB constant c (returns are scaled to [0, 1]).
        prior: ``heuristic`` tries the heuristic's move first at a new node, then
            the other untried actions, then ISUCT; ``puct`` gives the heuristic's move
            most of a PUCT prior (a small budget mostly deepens the heuristic's line);
            ``breadth`` is ``heuristic`` at the root (every move is tried) and ``puct``
            below it (the replies, and the seat's later moves, mostly follow the
            heuristic, and other moves are tried as the visits grow), so that a move's
            value is not the mean over replies taken one by one in random order;
            ``none`` tries untried actions in random order, then ISUCT; ``auto`` is
            ``puct`` when the heuristic is slow (see ``rollout``), else ``heuristic``.
        progress: in a lost co-operative game, also credit ``progress * g``, where g is
            the game's ``bot.progress(game, s)``, the share of the way to the win the team
            made (in Gangs of Green City the recruitments ended); games without one ignore it.
        survival: in a lost co-operative game, credit ``survival * t`` where t is
            the share of the game's maximal length played (a longer defence is better).
        opponents: ``public`` keys the other players' information sets by the public
            view (single-observer), ``own`` by their own views (multiple-observer);
            ``model`` gives the other players no information sets at all: in the tree as
            in the rollouts they play the rollout policy (the game's heuristic with
            ``rollout=heuristic``), so that the whole budget goes to the seat's own
            decisions (an opponent model: right against heuristic bots, and a guess
            against anyone else).
        depth: cut rollouts short with the game's ``evaluate``: after this many
            rollout decisions, the first state the game can judge ends the rollout
            and its estimate is backed up (None: always roll out to the end).
        goal: what a search backs up. ``returns``: the game's returns (Kingpins
            pays every place, so a second place counts for something); ``win``: a share of the win, 1/k to each of the k players
            with the greatest return, 0 to the others (where a rollout is cut short,
            the game's ``bot.win_chances`` estimate when it has one, else its
            ``evaluate``). With two players, or win-or-lose returns, the two agree.
        belief: how the hidden cards are dealt in each determinisation. ``none``: as the
            game's ``sample_hidden`` deals them, from the view alone; ``model``: the agent
            follows the play (``inform``) and the game's ``belief`` module deals them as the
            rivals' public play suggests (in Kingpins: a rival who ended its turn held no
            card that fitted). Games without a ``belief`` module deal as with ``none``.
        tree: how many decisions the tree holds on one iteration's path (None: no
            limit). Past them every player, the seat too, plays the rollout policy, so
            ``tree=1`` is a flat Monte Carlo search of the root's moves: each move's value
            is the mean of its rollouts, not an average over the replies the tree tried
            below it (which, with many moves and few visits, are mostly untried and thus
            poor replies that flatter the move).
        minimax: the weight alpha of the implicit minimax back-ups (``selection.py``): a
            tried action is ranked by ``(1 - alpha) * mean + alpha * minimax``, where the
            minimax value is what its subtree is worth when every player takes its best
            move among those tried (0: the mean alone, the plain search).
        replies: None (the default) for the tree search; a number k for the selective
            max-min search of ``maxmin.py`` instead: every move is tried once with the
            heuristic's reply, and the ``shortlist`` best are judged by the worst, for the
            seat, of the rival's k replies that the game's ``evaluate`` rates best for the
            rival (and the heuristic's), each reply followed by ``depth - 1`` heuristic
            decisions and then the evaluation. Its budget is that shape (``seconds``
            still caps its time); ``iterations``, ``prior``, ``rollout``, ``opponents``,
            ``tree``, ``minimax`` and ``workers`` do not apply.
        shortlist: how many moves the max-min search judges by their replies (None: every
            legal move).
        workers: root-parallel searches, each with the whole budget and its own random
            stream (seeded from the agent's), merged at the root by summing the visit
            counts; they run in forked processes where the platform allows it, one after
            the other otherwise (the same result with an iteration budget; a time budget
            is then shared out). 1: one search in this process.
        reuse: 1 keeps the search's table for the agent's next decision: where the next
            root's information set is in it (the seat's next move of the same turn, or
            any decision the last search reached), its statistics are the start and the
            budget's iterations are added to them; otherwise the table is dropped. 2 keeps
            it too, but tops up: iterations run only until the root's moves hold the
            budget's visits (``iterations``), counting those kept (so a turn's later moves
            cost little where the first search went down their line). 0 (the default):
            every search starts empty. With ``workers`` each worker keeps its own table
            (a forked worker sends it back). No table past ``REUSE_MAX`` nodes is kept.
        crn: 1 draws chance with common random numbers: an iteration through the root's
            move ``a`` draws every chance outcome from a stream seeded by the search's base
            (drawn once from the agent's stream) and the number of times ``a`` was visited
            before, so the k-th visit of each root move meets the same dice, and the
            moves are compared on the same futures (paired), not on independent ones.
            0 (the default): one stream for everything. Rollouts run in the search's own
            loop then, never in a game's ``bot.rollout``.
    """

    iterations: int | None = 1000
    seconds: float | None = None
    rollout: str = "random"
    epsilon: float = 0.2
    exploration: float = 0.7
    prior: str = "none"
    survival: float = 0.0
    progress: float = 0.0
    opponents: str = "public"
    depth: int | None = None
    tree: int | None = None
    minimax: float = 0.0
    workers: int = 1
    goal: str = "returns"
    belief: str = "none"
    replies: int | None = None
    shortlist: int | None = 12
    reuse: int = 0
    crn: int = 0

    def __post_init__(self) -> None:
        if self.replies is None:  # (the max-min search's budget is its shape)
            check_budget(self.iterations, self.seconds, "an IS-MCTS budget")
        for key, words in (("rollout", ROLLOUTS), ("opponents", OPPONENTS), ("goal", GOALS),
                           ("belief", BELIEFS), ("prior", PRIORS)):
            value = getattr(self, key)
            if value not in words:
                listed = (" or " if len(words) == 2 else ", ").join(words)
                raise GameError(f"{key} {value!r} is not known; use {listed}", allowed=list(words))
        if self.depth is not None and self.depth < 0:
            raise GameError(f"depth must be at least 0 (or none), not {self.depth}")
        if self.tree is not None and self.tree < 1:
            raise GameError(f"tree must be at least 1 (or none), not {self.tree}")
        if self.progress < 0.0:
            raise GameError(f"progress must be at least 0, not {self.progress}")
        if not 0.0 <= self.minimax <= 1.0:
            raise GameError(f"minimax must be between 0 and 1, not {self.minimax}")
        if self.replies is not None and self.replies < 1:
            raise GameError(f"replies must be at least 1 (or none), not {self.replies}")
        if self.shortlist is not None and self.shortlist < 1:
            raise GameError(f"shortlist must be at least 1 (or none), not {self.shortlist}")
        if self.workers < 1:
            raise GameError(f"workers must be at least 1, not {self.workers}")
        if self.reuse not in (0, 1, 2):
            raise GameError(f"reuse must be 0, 1 or 2, not {self.reuse}", setting="reuse", accepted=[0, 1, 2])
        if self.crn not in (0, 1):
            raise GameError(f"crn must be 0 or 1, not {self.crn}", setting="crn", accepted=[0, 1])


# Difficulty levels: a budget and a policy each. The iteration budget is what the level
# is; the time cap only bounds the wait on a slow game or a busy machine ("normal" must
# answer within two seconds per move). The heuristic prior (the game's heuristic move is
# tried first at every new node) and heuristic rollouts make the search improve on the
# heuristic bot instead of replacing it with near-random play.
LEVELS: dict[str, SearchConfig] = {
    "easy": SearchConfig(iterations=40, seconds=0.5, rollout="random"),
    "normal": SearchConfig(iterations=100, seconds=1.5, rollout="heuristic", prior="auto"),
    "hard": SearchConfig(iterations=600, seconds=6.0, rollout="heuristic", prior="auto", workers=2),
}
TEAM_LEVELS: dict[str, SearchConfig] = {
    "easy": SearchConfig(iterations=40, seconds=0.5, rollout="heuristic", survival=0.2),
    "normal": SearchConfig(iterations=100, seconds=1.5, rollout="heuristic", prior="puct", survival=0.2),
    "hard": SearchConfig(iterations=600, seconds=6.0, rollout="heuristic", prior="puct", survival=0.2, workers=2),
}

_FIELDS = {
    "iterations": int,
    "seconds": float,
    "rollout": str,
    "epsilon": float,
    "exploration": float,
    "prior": str,
    "survival": float,
    "progress": float,
    "opponents": str,
    "depth": int,
    "tree": int,
    "minimax": float,
    "workers": int,
    "goal": str,
    "belief": str,
    "replies": int,
    "shortlist": int,
    "reuse": int,
    "crn": int,
}
# Settings that "none" clears.
_OPTIONAL = ("iterations", "seconds", "depth", "tree", "replies", "shortlist")
# Levels that take a game's search hints; "easy" stays a search that knows nothing of the game.
HINTED_LEVELS = ("normal", "hard")
_KIND_WORDS = {int: "a whole number", float: "a number", str: "a word"}


def setting_type_error(what: str, key: str, value: str, kind: type, optional: bool) -> GameError:
    """The error for a setting ``key=value`` that does not parse as ``kind``: what would be accepted."""
    accepted = _KIND_WORDS.get(kind, kind.__name__) + (" or none" if optional else "")
    return GameError(f"{what} setting {key}={value!r} is not {accepted}", setting=key, accepted=accepted)


def parse_level(
    level: str | None,
    levels: dict[str, SearchConfig] = LEVELS,
    hints: Mapping[str, Any] | None = None,
) -> SearchConfig:
    """Returns the config for a level text such as ``normal`` or ``hard/iterations=500``.

    The text is a level name and/or ``key=value`` overrides separated by ``/``
    (keys: the fields of ``SearchConfig``; ``none`` clears iterations, seconds or
    depth). The level's settings come first, then the game's ``hints`` (for the
    levels in ``HINTED_LEVELS``: its flat settings, then those under the level's
    name, e.g. ``{"depth": 0, "hard": {"iterations": 2000}}``), then the overrides
    in the text.

    Raises:
        GameError: an unknown level or key, or a value of the wrong type.
    """
    name = "normal"
    overrides: list[tuple[str, Any]] = []
    for token in (level or "").split("/"):
        token = token.strip()
        if not token:
            continue
        if "=" not in token:
            if token.lower() not in levels:
                raise GameError(
                    f"no difficulty level {token!r}; levels: {', '.join(levels)}, expert",
                    allowed=[*levels, "expert"],
                )
            name = token.lower()
            continue
        key, _, value = token.partition("=")
        key = key.strip().lower()
        kind = _FIELDS.get(key)
        if kind is None:
            raise GameError(f"no search setting {key!r}; settings: {', '.join(_FIELDS)}", allowed=list(_FIELDS))
        value = value.strip()
        try:
            parsed: Any = None if value.lower() == "none" and key in _OPTIONAL else kind(value)
        except ValueError:
            raise setting_type_error("search", key, value, kind, key in _OPTIONAL) from None
        overrides.append((key, parsed))
    cfg = levels[name]
    if hints and name in HINTED_LEVELS:
        # Flat settings apply to every hinted level; a level's own dict (e.g. "hard": {...}) after.
        flat = {k: v for k, v in hints.items() if k not in HINTED_LEVELS}
        own = dict(hints.get(name) or {})
        unknown = [k for k in (*flat, *own) if k not in _FIELDS]
        if unknown:
            raise GameError(f"unknown search hints {unknown}; settings: {', '.join(_FIELDS)}", allowed=list(_FIELDS))
        cfg = replace(cfg, **{**flat, **own})
    if overrides:
        cfg = replace(cfg, **dict(overrides))
    return cfg
