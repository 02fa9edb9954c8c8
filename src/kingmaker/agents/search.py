"""Information-set Monte Carlo tree search (IS-MCTS) for every game of the contract.

The agent is given an ``Observation`` and nothing else. Each iteration:

1. **Determinise**: draw a full state consistent with the seat's view
   (``obs.sample(rng)``, i.e. ``game.sample_hidden``), so the search never
   reads the true state's hidden parts.
2. **Select**: walk down the game from that state. At a decision node the
   acting player ``p`` looks up the node of *its own* information set, keyed
   by ``game.information_state_string(s, p)`` (a cheap canonical string of
   its view; no view is built inside the search), and picks an action by ISUCT (UCB1 where the
   exploration term counts how often each action was *available*, because
   different determinisations allow different actions). Every player thus
   decides on what it may know in the simulated game (multiple-observer
   IS-MCTS with one table of information sets per player). Chance nodes are
   sampled with their probabilities; at a SIMULTANEOUS node each acting
   player chooses in turn from its own view, which never shows the others'
   commitments, so the order does not leak anything.
3. **Expand**: the first information set (or action) not yet in the table
   is added, then
4. **Roll out** with a pluggable policy (``random``, ``heuristic``: the
   game's ``heuristic_action``, or ``mixed``: heuristic with some random
   moves) to the end, and
5. **Back up** each player's normalised return into the edges it chose.

After the budget (iterations and/or seconds, whichever ends first) the most
visited legal action at the root is played. The search uses only the agent's
random stream, so with an iteration budget a decision depends only on the
view and the stream: two true states with the same view for the seat give the
same move.

With ``workers=k`` (the ``hard`` level) k such searches, each with its own
stream seeded from the agent's, run side by side in forked processes and are
merged at the root (``parallel.py``).

The inner loop is written for speed (the game's functions looked up once, the
bot's called directly, no list built twice); ``tests/agents/
test_agents_search_reference.py`` checks that it makes the same searches as
the plainer former loop.

In a co-operative game every player's return is the team's, so every seat of
the simulation plays for the team: that is the team agent (``team`` kind),
which adds heuristic rollouts and rewards a longer defence in lost games.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..core.api import CHANCE, TERMINAL, Game
from ..core.errors import GameError
from ..core.match import Observation, sample_chance
from . import register_agent
from .bound import (
    bound_chance,
    bound_evaluate,
    bound_heuristic,
    bound_info_key,
    bound_rollout,
    win_shares,
)
from .maxmin import maxmin_search
from .selection import PRIOR_KEY, _select, _select_prior, back_up_minimax

__all__ = [
    "LEVELS",
    "TEAM_LEVELS",
    "ISMCTSAgent",
    "SearchConfig",
    "SearchStats",
    "TeamAgent",
    "parse_level",
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
# The probe's result, CPU seconds per heuristic decision, by game (class, players, options).
_PROBED: dict[tuple[Any, ...], float] = {}


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
        if self.rollout not in ROLLOUTS:
            raise GameError(
                f"rollout {self.rollout!r} is not known; use {', '.join(ROLLOUTS)}",
                allowed=list(ROLLOUTS),
            )
        if self.depth is not None and self.depth < 0:
            raise GameError(f"depth must be at least 0 (or none), not {self.depth}")
        if self.tree is not None and self.tree < 1:
            raise GameError(f"tree must be at least 1 (or none), not {self.tree}")
        if self.opponents not in OPPONENTS:
            raise GameError(f"opponents {self.opponents!r} is not known; use {', '.join(OPPONENTS)}",
                            allowed=list(OPPONENTS))
        if self.goal not in GOALS:
            raise GameError(f"goal {self.goal!r} is not known; use {' or '.join(GOALS)}", allowed=list(GOALS))
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
        if self.belief not in BELIEFS:
            raise GameError(f"belief {self.belief!r} is not known; use {' or '.join(BELIEFS)}", allowed=list(BELIEFS))
        if self.prior not in PRIORS:
            raise GameError(f"prior {self.prior!r} is not known; use {', '.join(PRIORS)}", allowed=list(PRIORS))
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


@dataclass(slots=True)
class SearchStats:
    """What the last search did: iterations, seconds and the root's visit counts."""

    iterations: int = 0
    seconds: float = 0.0
    nodes: int = 0
    visits: dict[int, int] | None = None
    values: dict[int, float] | None = None


class ISMCTSAgent:
    """IS-MCTS over determinisations drawn from the seat's view.

    Args:
        config: budget and policies (see ``SearchConfig``).
        name: the label used in the arena.
    """

    notes: Any = None  # what the game's belief module noted of the play so far (per agent, once set)

    def __init__(self, config: SearchConfig | None = None, name: str = "ismcts") -> None:
        self.config = config or LEVELS["normal"]
        self.name = name
        self.last = SearchStats()
        self.slow: bool | None = None  # is the heuristic too slow for rollouts? (once known)
        self.rollout: str | None = None  # the rollout policy and prior of the last search
        self.prior: str | None = None
        self._forget()

    # ---- the tree kept between decisions (``reuse``) --------------------------------
    def _forget(self) -> None:
        """Starts with nothing kept: no table, no workers' agents."""
        self._kept: tuple[Game, dict] | None = None  # the last search's table and its game
        self._subs: list | None = None  # with ``workers``: each worker's agent, kept
        self._touched: set = set()  # the nodes the last search went through

    def _resume(self, game: Game, root_key: Any, on: bool) -> dict | None:
        """The kept table to go on from (it holds ``root_key``), or None; either way the
        agent keeps nothing more until this search ends (``_keep``)."""
        kept, self._kept = self._kept, None
        if on and kept is not None and kept[0] is game and root_key in kept[1]:
            return kept[1]
        return None

    def _workers(self, one: Any, build: Callable[[Any], Any], on: bool) -> list | None:
        """With ``reuse`` (``on``): the workers' agents of config ``one``, kept from one
        decision to the next (new ones when the config changed); else None."""
        if not on:
            return None
        if self._subs is None or self._subs[0].config != one:
            self._subs = [build(one) for _ in range(self.config.workers)]
        return self._subs

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config!r})"

    # ---- the agent protocol ----------------------------------------------------
    def act(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            self.last = SearchStats(iterations=0, seconds=0.0, visits={legal[0]: 0})
            return legal[0]
        return self.search(self._believing(obs))

    def listens(self, game: Game) -> bool:
        """True when the agent follows the play (``belief=model`` and the game has a belief)."""
        return getattr(self.config, "belief", "none") == "model" and getattr(game, "belief", None) is not None

    def inform(self, obs: Observation, player: int, action: int | None) -> None:
        """Notes an action as the seat saw it (``obs``: its observation before the action)."""
        game = obs.game
        # Any determinisation of the view will do: the belief reads only public parts.
        s = obs.sample(random.Random(0))
        self.notes = game.belief.belief_update(game, self.notes, s, obs.player, player, action)

    def _believing(self, obs: Observation) -> Observation:
        """Returns ``obs`` with its determinisations dealt by the game's belief, if it has notes."""
        notes = self.notes
        game = obs.game
        if notes is None or not self.listens(game):
            return obs
        deal = game.belief.belief_sample
        base, me = obs.sample, obs.player
        return Observation(game, me, obs.view, obs.legal_actions,
                           lambda rng: deal(game, base(rng), me, notes, rng), obs.rng)

    def _slow_heuristic(self, obs: Observation) -> bool:
        """Returns True when the game's heuristic is too slow to roll out with freely.

        Measured in CPU time (so that a busy machine does not change the answer) at
        the first search of the first agent of a game (its class, player count and
        options) in this process, and kept for the next ones; never slow without a
        time budget.
        """
        if self.slow is None:
            game = obs.game
            key = (type(game), game.num_players, repr(sorted(game.option_values.items())))
            if self.config.seconds is None:
                self.slow = False
            elif key in _PROBED:
                self.slow = _PROBED[key] > AUTO_HEURISTIC_LIMIT
            else:
                # Time one heuristic rollout (CPU time, so a busy machine does not change
                # the choice), with a private stream so that the search's own stream is
                # untouched; stop early once it is too slow.
                limit = self.config.seconds * AUTO_PROBE_SHARE
                probe = random.Random(0)
                s = obs.sample(probe)
                start = time.process_time()
                wall_end = time.perf_counter() + self.config.seconds * AUTO_PROBE_WALL_SHARE
                decisions = 0
                for _ in range(game.info.max_game_length + 1):
                    cp = game.current_player(s)
                    if cp == TERMINAL:
                        break
                    if cp == CHANCE:
                        s = game.apply(s, sample_chance(game.chance_outcomes(s), probe))
                        continue
                    p = cp if cp >= 0 else game.acting_players(s)[0]
                    s = game.apply(s, game.heuristic_action(s, p, probe), p)
                    decisions += 1
                    if time.process_time() - start > limit or time.perf_counter() > wall_end:
                        break
                cost = _PROBED[key] = (time.process_time() - start) / max(decisions, 1)
                self.slow = cost > AUTO_HEURISTIC_LIMIT
        return self.slow

    def _modes(self, obs: Observation) -> tuple[str, str]:
        """Returns the rollout policy and the prior, resolving ``auto``."""
        rollout, prior = self.config.rollout, self.config.prior
        if rollout == "auto":
            rollout = "random" if self._slow_heuristic(obs) else "heuristic"
        if prior == "auto":
            prior = "puct" if self._slow_heuristic(obs) else "heuristic"
        self.rollout, self.prior = rollout, prior
        return rollout, prior

    # ---- search ----------------------------------------------------------------
    def search(self, obs: Observation) -> int:
        """Runs the search and returns the most visited legal action at the root (with
        ``replies``, the max-min search's move)."""
        if self.config.replies is not None:
            return self._search_maxmin(obs)
        if self.config.workers > 1:
            return self._search_parallel(obs)
        return self._search_one(obs)

    def _search_parallel(self, obs: Observation) -> int:
        """Root-parallel search: ``workers`` searches from streams seeded by the agent's, merged."""
        from .parallel import root_parallel  # multiprocessing only when asked for

        rollout, prior = self._modes(obs)  # resolved once here: the searches need no probe
        one = replace(self.config, workers=1, rollout=rollout, prior=prior)
        subs = self._workers(one, type(self), bool(self.config.reuse))
        self.last = root_parallel(one, self.config.workers, obs, type(self), subs)
        visits, values = self.last.visits or {}, self.last.values or {}
        return max(obs.legal_actions, key=lambda a: (visits.get(a, 0), values.get(a, 0.0), -a))

    def _search_maxmin(self, obs: Observation) -> int:
        """The selective max-min search of ``maxmin.py`` (the setting ``replies``)."""
        cfg = self.config
        clock = time.perf_counter
        start = clock()
        deadline = None if cfg.seconds is None else start + cfg.seconds
        win = cfg.goal == "win" and not obs.game.info.cooperative
        move, lines, visits, values = maxmin_search(
            obs, cfg.replies, cfg.shortlist, cfg.depth, win, deadline, clock
        )
        self.rollout, self.prior = "heuristic", "none"
        self.last = SearchStats(iterations=lines, seconds=clock() - start, nodes=0, visits=visits, values=values)
        return move

    def _search_one(self, obs: Observation) -> int:
        """One search in this process (see the module's docstring)."""
        game = obs.game
        cfg = self.config
        rng = obs.rng
        me = obs.player
        legal = list(obs.legal_actions)
        legal_set = set(legal)
        info = game.info
        lo, hi = info.min_return, info.max_return
        scale = 1.0 / (hi - lo) if hi > lo else 1.0
        n = game.num_players
        survival = cfg.survival if info.cooperative else 0.0
        progress = getattr(game.bot, "progress", None) if info.cooperative and cfg.progress > 0.0 else None
        max_len = max(1, info.max_game_length)
        overrun = max_len + 1  # a game that runs past its bound is scored as it stands
        c = cfg.exploration
        cut = cfg.depth
        tree = cfg.tree if cfg.tree is not None else overrun + 1
        clock = time.perf_counter
        start = clock()
        deadline = None if cfg.seconds is None else start + cfg.seconds
        rollout, prior = self._modes(obs)
        # The hot functions, looked up once (the bot's and views' own functions where the
        # game delegates to them, so that no call goes through the Game's forwarding method).
        heuristic = bound_heuristic(game)
        win = cfg.goal == "win" and not info.cooperative
        evaluate = bound_evaluate(game, win)
        if evaluate is None:  # the game judges no state: every rollout runs to the end
            cut = None
        direct = heuristic if rollout == "heuristic" else None  # the rollout policy, called directly
        policy = _policy(game, rollout, cfg.epsilon, rng, heuristic)
        roll = bound_rollout(game) if direct is not None else None
        hint = heuristic if prior != "none" else None
        puct = prior == "puct"
        breadth = prior == "breadth"
        own = cfg.opponents == "own"
        model = cfg.opponents == "model"
        current_player = game.current_player
        apply = game.apply
        chance_outcomes = game.chance_outcomes
        draw = bound_chance(game)  # the game's own sampler of a chance outcome, if it has one
        legal_actions = game.legal_actions
        acting_players = game.acting_players
        is_terminal = game.is_terminal
        info_key = bound_info_key(game)
        sample = obs.sample
        # One table for every player's information sets: key -> {action: [visits, total, available]}.
        root_key = (me, info_key(sample(random.Random(0)), me))
        alpha = cfg.minimax
        kept = self._resume(game, root_key, bool(cfg.reuse))
        if kept is not None:  # go on from the last search
            table: dict[Any, dict[int, list]] = kept
            root = table[root_key]
            for a in legal:
                if a not in root:
                    root[a] = [0, 0.0, 0, None] if alpha else [0, 0.0, 0]
        else:
            table = {}
            root = table[root_key] = {a: [0, 0.0, 0, None] if alpha else [0, 0.0, 0] for a in legal}
        touched = {root_key} if cfg.reuse else None  # the nodes this search went through
        crn = cfg.crn == 1
        if crn:  # common random numbers: the k-th visit of each root move meets the same dice
            roll = None  # (a game's own rollout loop draws from the one stream)
            crn_base = rng.getrandbits(32) << 20
        chance_rng = rng

        limit = cfg.iterations
        if cfg.reuse == 2 and limit is not None:  # top up: the kept visits count
            limit = max(0, limit - sum(root[a][0] for a in legal))
        it = 0
        while limit is None or it < limit:
            if deadline is not None and it > 0 and clock() >= deadline:
                break
            it += 1
            s = sample(rng)
            path: list[tuple[list, int]] = []  # (edge stats, player) in the order taken
            nodes: list[dict] = []  # with minimax: the node of each edge of the path
            expanded = False
            stopped = False  # the game overran its bound, or the time ran out mid-iteration
            steps = 0
            rolled = 0  # rollout decisions so far
            est = None  # the game's estimate where the rollout was cut short
            first = True
            cp = 0
            # ---- selection and expansion: down the tables to the first new edge ------
            while not expanded:
                cp = current_player(s)
                if cp == TERMINAL:
                    break
                if cp == CHANCE:
                    s = apply(s, draw(s, chance_rng) if draw is not None else sample_chance(chance_outcomes(s), chance_rng))
                    steps += 1
                    continue
                if cp >= 0:
                    players: tuple[int, ...] = (cp,)
                else:
                    players = tuple(acting_players(s))
                    if first and me in players:  # the root decision comes first
                        players = (me,) + tuple(p for p in players if p != me)
                for p in players:
                    if expanded or len(path) >= tree:  # the rest: the rollout policy
                        expanded = True
                        a = policy(s, p)
                        rolled += 1
                    elif model and p != me:  # an opponent plays the model: no node, no statistics
                        a = direct(s, p, rng) if direct is not None else policy(s, p)
                    else:
                        if first and p == me:
                            node = root
                            acts = [a for a in legal_actions(s, p) if a in legal_set] or legal
                            first = False
                        else:
                            key = (p, info_key(s, p if p == me or own else None))
                            node = table.get(key)
                            acts = legal_actions(s, p)
                            if node is None:
                                node = table[key] = {}
                            if touched is not None:
                                touched.add(key)
                        if alpha:
                            nodes.append(node)
                        if puct or (breadth and node is not root):
                            a = _select_prior(node, acts, rng, s, p, heuristic, alpha)
                        else:
                            a = _select(node, acts, c, rng, s, p, hint, alpha)
                        edge = node[a]
                        if crn and node is root:
                            chance_rng = random.Random(crn_base + edge[0])
                        if edge[0] == 0:
                            expanded = True
                        path.append((edge, p))
                    s = apply(s, a, p)
                    steps += 1
                if steps > overrun or (deadline is not None and it > 1 and clock() > deadline):
                    stopped = True
                    break
            # ---- the rollout, from the new edge to the end (or the cut) ---------------
            if expanded and not stopped and roll is not None:  # the game's own rollout loop
                s, cp, steps, est = roll(s, rng, rolled, steps, overrun, cut, evaluate,
                                         deadline if it > 1 else None, clock)
            elif expanded and not stopped:
                while True:
                    cp = current_player(s)
                    if cp == TERMINAL:
                        break
                    if cut is not None and rolled >= cut:
                        est = evaluate(s)
                        if est is not None:
                            break
                    if cp == CHANCE:
                        s = apply(s, draw(s, chance_rng) if draw is not None else sample_chance(chance_outcomes(s), chance_rng))
                        steps += 1
                        continue
                    if cp >= 0:
                        s = apply(s, direct(s, cp, rng) if direct is not None else policy(s, cp), cp)
                        rolled += 1
                        steps += 1
                    else:
                        for p in tuple(acting_players(s)):
                            s = apply(s, policy(s, p), p)
                            rolled += 1
                            steps += 1
                    if steps > overrun:
                        break
                    if deadline is not None and it > 1 and clock() > deadline:
                        break  # out of time in a long rollout: drop this iteration
            terminal = cp == TERMINAL or is_terminal(s)
            if est is None and deadline is not None and it > 1 and not terminal and steps <= overrun:
                it -= 1
                break
            # ---- back-up ------------------------------------------------------------
            if est is not None:
                r = [(x - lo) * scale for x in est]
            elif terminal:
                if win:
                    r = win_shares(game.returns(s))
                else:
                    r = [(x - lo) * scale for x in game.returns(s)]
                if survival > 0.0 or progress is not None:
                    team = sum(r) / n
                    if team < 1.0:
                        bonus = survival * min(1.0, steps / max_len)
                        if progress is not None:
                            bonus += cfg.progress * progress(game, s)
                        r = [team + min(1.0, bonus) * (1.0 - team)] * n
            else:
                r = [0.5] * n
            if alpha:
                back_up_minimax(path, nodes, r)
                continue
            for edge, p in path:
                edge[0] += 1
                edge[1] += r[p]
        elapsed = clock() - start
        root.pop(PRIOR_KEY, None)
        if touched is not None:
            self._kept, self._touched = _keep(game, table, touched, self._touched)
        visits = {a: root[a][0] for a in legal if a in root}
        values = {a: (root[a][1] / root[a][0]) if root[a][0] else 0.0 for a in legal if a in root}
        self.last = SearchStats(iterations=it, seconds=elapsed, nodes=len(table), visits=visits, values=values)
        return max(legal, key=lambda a: (visits.get(a, 0), values.get(a, 0.0), -a))


def _keep(game: Game, table: dict, touched: set, before: set) -> tuple[tuple[Game, dict] | None, set]:
    """What a search with ``reuse`` keeps for the next: the nodes of ``table`` this search
    (``touched``) or the one before it (``before``) went through, so that the table does
    not grow with the whole game (the branches left behind are dropped, and a forked
    worker sends back only these); nothing past ``REUSE_MAX`` nodes. Returns (the kept
    table with its game, or None; ``touched`` for the next search)."""
    keep = {k: table[k] for k in touched | before if k in table}
    return ((game, keep) if len(keep) <= REUSE_MAX else None), touched


def _policy(
    game: Game,
    mode: str,
    epsilon: float,
    rng: random.Random,
    heuristic: Callable[[Any, int, random.Random], int] | None = None,
) -> Callable[[Any, int], int]:
    """Returns the rollout policy ``(state, player) -> action`` (``heuristic``: the game's, if given)."""
    legal_actions = game.legal_actions
    if mode == "random":

        def random_policy(s: Any, p: int) -> int:
            acts = legal_actions(s, p)
            return acts[rng.randrange(len(acts))] if len(acts) > 1 else acts[0]

        return random_policy
    if heuristic is None:
        heuristic = bound_heuristic(game)
    eps = epsilon if mode == "mixed" else 0.0

    def heuristic_policy(s: Any, p: int) -> int:
        if eps and rng.random() < eps:
            acts = legal_actions(s, p)
            return acts[rng.randrange(len(acts))]
        return heuristic(s, p, rng)

    return heuristic_policy


class TeamAgent(ISMCTSAgent):
    """The co-operative team's agent: IS-MCTS in which every seat plays for the team.

    Each seat still decides from its own observation only (a teammate's hidden
    cards are sampled, never read), but the search plans the whole team's
    moves: every simulated seat maximises the common return, rollouts follow
    the game's heuristic for all teammates, and a lost game is scored by how
    long the team held out, so the search has a signal even when most
    rollouts end in defeat.
    """

    def __init__(self, config: SearchConfig | None = None, name: str = "team") -> None:
        super().__init__(config or TEAM_LEVELS["normal"], name)


def _expert_level(level: str | None) -> bool:
    """Is ``level`` the learned level (``expert``, built by ``kingmaker.agents.expert``)?"""
    return (level or "").split("/")[0].strip().lower() == "expert"


def _ismcts_factory(game: Game, level: str | None = None, **kw: Any) -> ISMCTSAgent:
    if _expert_level(level):
        from .expert import expert_agent  # numpy only when the expert is asked for

        return expert_agent(game, level, **kw)
    levels = TEAM_LEVELS if game.info.cooperative else LEVELS
    cfg = parse_level(level, levels, game.search_hints)
    if kw:
        cfg = replace(cfg, **kw)
    if game.info.cooperative:
        return TeamAgent(cfg, name=f"ismcts:{level or 'normal'}")
    return ISMCTSAgent(cfg, name=f"ismcts:{level or 'normal'}")


def _team_factory(game: Game, level: str | None = None, **kw: Any) -> TeamAgent:
    if not game.info.cooperative:
        raise GameError(
            f"the team agent plays co-operative games; {game.name} is competitive (use ismcts)",
            game=game.id,
        )
    if _expert_level(level):
        from .expert import expert_agent

        return expert_agent(game, level, team=True, **kw)
    cfg = parse_level(level, TEAM_LEVELS, game.search_hints)
    if kw:
        cfg = replace(cfg, **kw)
    return TeamAgent(cfg, name=f"team:{level or 'normal'}")


register_agent("ismcts", _ismcts_factory)
register_agent("team", _team_factory)
