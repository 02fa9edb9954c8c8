"""``ismcts:expert``: IS-MCTS guided by a learned policy and value network.

The AlphaZero recipe applied to determinised IS-MCTS. Each game (and player
count) ships a small network in ``kingmaker/agents/nets/<game>-<n>p.npz``,
trained by self-play on the search's own root visit counts (policy targets) and
the games' returns (value targets) with ``kingmaker train-expert``
(``kingmaker.agents.train_expert``; see docs/expert.md).

The search is the one of ``kingmaker.agents.search`` (a determinisation drawn
from the seat's view per iteration, one table of information sets keyed by
``game.information_state_string``), with these changes:

- **Prior**: a new information-set node asks the network for the acting
  player's move probabilities (a masked softmax over the node's legal actions,
  read from ``game.observation_tensor`` of the simulated state for that
  player). With ``select=ucb`` (the level) a node chooses by the plain search's
  ISUCT, the untried action the network rates most probable first; with
  ``select=puct`` by PUCT, ``Q + c P sqrt(N) / (1 + n)``, where N counts the
  visits of the actions available in this determinisation (unvisited edges
  count at the node's own value estimate).
- **Leaf evaluation**: the same forward pass gives the network's estimate of
  every seat's return (its value head is seat-relative: index k is the seat k
  places after the acting one). With ``value_visits=k`` (the level, k = 4) a
  heuristic rollout (cut by the game's ``evaluate`` after ``depth`` decisions)
  is run from every leaf and an edge's value counts the network's mean as k
  rollouts more, a prior that fades; with ``value_visits=none`` the network's
  value is backed up, and with ``mix > 0`` a rollout's result weighted in by
  ``mix`` (AlphaGo's lambda).
- **Root-parallel searches** (``workers``, as ``hard``'s).

Only numpy is needed at play time (``pip install 'kingmaker[rl]'``). The
network reads observation tensors, which are functions of a player's view,
and the search only ever simulates determinisations drawn from the seat's own
view, so the agent never reads the true state's hidden parts.

The networks are read from ``NETS_DIR``: the shipped ones, or the directory the
environment variable ``KINGMAKER_NETS`` names (networks of your own training, under
the same file names).

Specs: ``ismcts:expert`` (two root-parallel searches of 500 iterations, ISUCT, ``value_visits=4``; two of 1300 in Kingpins; in King's Kilt one search of 1400 visits that keeps its tree, ``workers=1/iterations=1400/reuse=2``; in Kingpin hard's max-min search with the network at the cut, pruned and a ply deeper for its best moves, ``replies=8/mix=0.75/prune=1/deep=12/responses=8``), ``ismcts:expert/iterations=400/mix=0``,
``team:expert`` in the co-operative game, ``ismcts:expert/iterations=100/net=<file.npz>``
(``net=`` comes last, as a path may hold slashes).
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.api import CHANCE, TERMINAL, Game
from ..core.errors import GameError
from ..core.match import Observation, sample_chance
from .search import ISMCTSAgent, SearchStats, _keep, _policy, check_budget, setting_type_error

__all__ = [
    "EXPERT",
    "NETS_DIR",
    "SHIPPED_NETS",
    "ExpertAgent",
    "ExpertConfig",
    "ExpertNet",
    "expert_agent",
    "expert_players",
    "load_net",
    "net_path",
]

SHIPPED_NETS = Path(__file__).parent / "nets"
# Where the expert's networks are read: KINGMAKER_NETS names a directory of one's own.
NETS_DIR = Path(os.environ["KINGMAKER_NETS"]).expanduser() if os.environ.get("KINGMAKER_NETS") else SHIPPED_NETS


def _np() -> Any:
    try:
        import numpy
    except ModuleNotFoundError:
        raise GameError("the expert level needs numpy: pip install 'kingmaker[rl]'") from None
    return numpy


# ---- the network ------------------------------------------------------------------
class ExpertNet:
    """A ``MaskedPolicy`` (``kingmaker.rl.policy``) whose value head has one output per seat.

    The trunk, the policy head, the file format (.npz, no pickle) and the checks
    are the masked policy's; only ``Wv``/``bv`` are wider: ``(hidden, players)``,
    seat-relative (column k: the seat k places after the observer), returns
    scaled to [0, 1]. ``policy:<file>`` can play the same file (it reads column 0).
    """

    def __init__(self, policy: Any) -> None:
        np = _np()
        self.policy = policy
        self.meta = policy.meta
        p = policy.params
        self.layers = [(p[f"W{i}"], p[f"b{i}"]) for i in range(policy.layers)]
        self.Wp, self.bp, self.Wv, self.bv = p["Wp"], p["bp"], p["Wv"], p["bv"]
        self.players = int(self.Wv.shape[1])
        self.num_actions = policy.num_actions
        self.obs_size = policy.obs_size
        self._np = np

    @classmethod
    def for_game(
        cls, game: Game, hidden: tuple[int, ...] = (128, 128), seed: int = 0, **meta: Any
    ) -> ExpertNet:
        """Returns a fresh network sized for ``game`` (one value per seat)."""
        np = _np()
        from ..rl.policy import MaskedPolicy

        pol = MaskedPolicy.for_game(game, hidden, seed, kind="expert", **meta)
        rng = np.random.default_rng(seed + 1)
        h = hidden[-1] if hidden else pol.obs_size
        pol.params["Wv"] = rng.normal(0.0, 0.1 / np.sqrt(h), (h, game.num_players)).astype(
            np.float32
        )
        pol.params["bv"] = np.full(game.num_players, 0.5, dtype=np.float32)
        return cls(pol)

    @classmethod
    def load(cls, path: str | Path) -> ExpertNet:
        """Reads a network file with numpy alone; raises GameError for a missing or bad file."""
        _np()
        from ..rl.policy import MaskedPolicy

        return cls(MaskedPolicy.load(path))

    def save(self, path: str | Path) -> Path:
        return self.policy.save(path)

    def check_game(self, game: Game) -> None:
        """Raises GameError unless the network was made for this game, player count and options."""
        self.policy.check_game(game)
        if self.players != game.num_players:
            raise GameError(
                f"this network values {self.players} seats, not {game.num_players}", game=game.id
            )

    def _trunk(self, x: Any) -> Any:
        np = self._np
        h = np.asarray(x, dtype=np.float32)
        for w, b in self.layers:
            h = np.tanh(h @ w + b)
        return h

    def __call__(self, x: Any) -> tuple[Any, Any]:
        """Returns (logits over every action, seat-relative values) for one observation."""
        h = self._trunk(x)
        return h @ self.Wp + self.bp, h @ self.Wv + self.bv

    def value(self, x: Any) -> Any:
        """Returns the seat-relative values alone: ``self(x)[1]`` without the policy head.

        The policy head is most of a pass where the action space is wide (Kingpin's 2,923
        actions against a 128-wide trunk), and a leaf needs only the value.
        """
        return self._trunk(x) @ self.Wv + self.bv


def _net_file(game_id: str, players: int) -> Path:
    return NETS_DIR / f"{game_id}-{players}p.npz"


def net_path(game: Game) -> Path:
    """Returns where the shipped network for ``game``'s id and player count lives."""
    return _net_file(game.id, game.num_players)


def expert_players(game_cls: Any) -> list[int]:
    """The player counts of ``game_cls`` (a game class) for which the ``expert`` level has a network."""
    return [n for n in range(game_cls.min_players, game_cls.max_players + 1) if _net_file(game_cls.id, n).is_file()]


@lru_cache(maxsize=32)
def _load_cached(path: str, mtime: float) -> ExpertNet:
    return ExpertNet.load(path)


def load_net(game: Game, path: str | Path | None = None) -> ExpertNet:
    """Returns the network for ``game`` (the shipped one unless ``path`` is given), checked.

    Raises:
        GameError: no network for this game and player count (the message lists
            the shipped ones), a bad file, or one made for another game.
    """
    p = Path(path).expanduser() if path else net_path(game)
    if path and not p.is_file():
        raise GameError(
            f"no network file at {str(p)!r} (net= takes the path of an .npz written by "
            f"'kingmaker train-expert'; leave net= out for the shipped network of "
            f"{game.name} with {game.num_players} players)",
            game=game.id,
        )
    if not p.is_file():
        present = sorted(q.stem for q in NETS_DIR.glob("*.npz"))
        where = "shipped" if NETS_DIR == SHIPPED_NETS else f"in {NETS_DIR} (KINGMAKER_NETS)"
        raise GameError(
            f"no expert network for {game.name} with {game.num_players} players ({p.name}); "
            f"{where}: {', '.join(present) or 'none'}",
            game=game.id,
            allowed=present,
        )
    net = _load_cached(str(p.resolve()), p.stat().st_mtime)
    net.check_game(game)
    return net


# ---- the search ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ExpertConfig:
    """The knobs of the expert search.

    Attributes:
        iterations: stop after this many iterations (None: no limit).
        seconds: stop after this much wall time (None: no limit); one of the two is needed.
        select: how a node chooses its edge: ``puct`` (AlphaZero's rule, the network's
            prior weighing exploration) or ``ucb`` (the plain search's ISUCT: every
            untried action first, the network's most probable first, then UCB1 whose
            exploration counts how often an action was available).
        puct: the exploration constant c of PUCT (returns in [0, 1]).
        exploration: the UCB1 constant of ``select=ucb`` (the search's, 0.7).
        mix: the rollout's share of a leaf's value (0: the network's value alone).
        value_visits: instead of ``mix``, the network's value as a prior worth this many
            rollouts: every leaf is rolled out, and an edge's value is
            ``(k * mean network value + sum of rollouts) / (k + visits)``, so the network
            guides the first visits and its error fades as rollouts come in (None: ``mix``).
        depth: rollout decisions before the game's ``evaluate`` may end a rollout
            (None: to the end); only used when ``mix > 0``.
        cut: what values a rollout stopped after ``depth`` decisions: ``evaluate`` (the
            game's estimate; where it has none the rollout goes on) or ``net`` (the
            network's value at the first decision past the cut: a shorter, cheaper rollout).
        values: how a new node values every seat: ``acting`` (one pass on the acting seat's
            observation tensor, every seat's column of it) or ``own`` (each seat's value
            from its own tensor, which holds its own hidden cards: one pass a seat).
        opponents: ``public`` keys other players' information sets by the spectator's
            view, ``own`` by their own (as in ``SearchConfig``).
        noise: the Dirichlet noise share of the root prior (self-play training only).
        alpha: the Dirichlet concentration of that noise.
        survival: in a lost co-operative game, credit ``survival * t`` (t the share of
            the game's maximal length played), as the team agent does.
        workers: root-parallel searches (``agents/parallel.py``, as ``hard``'s), each with
            the whole budget and its own stream, their root visits added up; the searches
            past the first run in forked children, which inherit the network.
        net: a network file instead of the shipped one.
        replies: None (the tree search) or k: the max-min search of ``agents/maxmin.py``
            (``hard``'s in Kingpin) over the rivals' k best-rated replies, every line cut
            by the game's ``evaluate`` after ``depth`` decisions and valued ``mix *
            evaluate + (1 - mix) * the network's value`` of the state there (the network
            as the leaf evaluation; ``iterations`` and the prior do not apply).
        shortlist: the moves the max-min search judges by their replies (None: every one).
        prune: 1 lets the max-min search skip the moves and replies that cannot change its
            choice (``maxmin.py``: a move's value is at most its first value); 0 judges all.
        deep: the max-min search judges its ``deep`` best moves a ply further: the seat's
            best of ``responses`` answers to each reply (0: not).
        responses: the answers weighed a reply in the ``deep`` ply (the ones ``evaluate``
            rates best for the seat, and the heuristic's).
        reuse: as the plain search's (``SearchConfig.reuse``): 1 keeps the tree for the
            agent's next decision and adds the budget's iterations to what its root holds,
            2 tops the root up to the budget's visits, 0 starts every search empty.
            With ``workers`` each worker keeps its own tree (a forked worker sends it
            back); nothing is kept with root ``noise``.
    """

    iterations: int | None = 300
    seconds: float | None = None
    select: str = "puct"
    puct: float = 1.5
    exploration: float = 0.7
    mix: float = 0.0
    value_visits: float | None = None
    depth: int | None = None
    cut: str = "evaluate"
    values: str = "acting"
    opponents: str = "public"
    noise: float = 0.0
    alpha: float = 0.3
    survival: float = 0.0
    workers: int = 1
    net: str | None = None
    replies: int | None = None
    shortlist: int | None = None
    reuse: int = 0
    prune: int = 0
    deep: int = 0
    responses: int = 4

    def __post_init__(self) -> None:
        check_budget(self.iterations, self.seconds, "an expert budget")
        if self.reuse not in (0, 1, 2):
            raise GameError(f"reuse must be 0, 1 or 2, not {self.reuse}", setting="reuse", accepted=[0, 1, 2])
        if not 0.0 <= self.mix <= 1.0:
            raise GameError(f"mix must be within 0 and 1, not {self.mix}")
        if self.value_visits is not None and self.value_visits < 0:
            raise GameError(f"value_visits must be at least 0 (or none), not {self.value_visits}")
        if not 0.0 <= self.noise <= 1.0:
            raise GameError(f"noise must be within 0 and 1, not {self.noise}")
        if self.puct <= 0 or self.alpha <= 0:
            raise GameError("puct and alpha must be positive")
        if self.depth is not None and self.depth < 0:
            raise GameError(f"depth must be at least 0 (or none), not {self.depth}")
        if self.cut not in ("evaluate", "net"):
            raise GameError(f"cut {self.cut!r} is not known; use evaluate or net", allowed=["evaluate", "net"])
        if self.values not in ("acting", "own"):
            raise GameError(f"values {self.values!r} is not known; use acting or own", allowed=["acting", "own"])
        if self.select not in ("puct", "ucb"):
            raise GameError(f"select {self.select!r} is not known; use puct or ucb", allowed=["puct", "ucb"])
        if self.exploration < 0:
            raise GameError(f"exploration must be at least 0, not {self.exploration}")
        if self.workers < 1:
            raise GameError(f"workers must be at least 1, not {self.workers}")
        if self.opponents not in ("public", "own"):
            raise GameError(f"opponents {self.opponents!r} is not known; use public or own")
        if self.replies is not None and self.replies < 1:
            raise GameError(f"replies must be at least 1 (or none), not {self.replies}")
        if self.shortlist is not None and self.shortlist < 1:
            raise GameError(f"shortlist must be at least 1 (or none), not {self.shortlist}")
        if self.prune not in (0, 1):
            raise GameError(f"prune must be 0 or 1, not {self.prune}", setting="prune", accepted=[0, 1])
        if self.deep < 0 or self.responses < 1:
            raise GameError(
                f"deep must be at least 0 and responses at least 1, not {self.deep} and {self.responses}"
            )


# The level: a budget of iterations with no time cap by default (so that a busy machine
# changes nothing); the time per move is measured against hard's in benchmarks/expert.md.
# Two root-parallel searches, as hard's, each of 500 iterations: an expert iteration costs
# about 1.1 of hard's (a network pass besides the rollout; King's Kilt, measured), so two of
# 500 take no more time than hard's two of 600. Every leaf is rolled out (cut where the
# game's hints cut the search's rollouts) and the network's value counts as a prior worth
# four rollouts that fades as rollouts come in (``value_visits=4``: on King's Kilt positions
# the network ranked moves as well as two to four rollouts, and its error does not average
# out); ``value_visits=none`` returns to AlphaGo's mixing, half network and half rollout at
# every leaf (``mix``), which won 74.5 of 200 King's Kilt deals against hard where this won
# 94.5 (47.2%: hard's equal, not its better; benchmarks/expert.md). A node
# chooses by ISUCT, as the plain search (``select=ucb``): PUCT on the imitation network's
# prior tried too few moves and lost more often to hard (benchmarks/expert.md, 2026-12-03).
EXPERT = ExpertConfig(iterations=500, mix=0.5, value_visits=4.0, select="ucb", workers=2)
_FIELDS = {
    "iterations": int,
    "seconds": float,
    "select": str,
    "puct": float,
    "exploration": float,
    "mix": float,
    "value_visits": float,
    "depth": int,
    "cut": str,
    "values": str,
    "opponents": str,
    "noise": float,
    "alpha": float,
    "survival": float,
    "workers": int,
    "replies": int,
    "shortlist": int,
    "net": str,
    "reuse": int,
    "prune": int,
    "deep": int,
    "responses": int,
}
_OPTIONAL = ("iterations", "seconds", "depth", "net", "value_visits", "replies", "shortlist")
# Per game (id, or id-<n>p): settings from benchmarks/expert.md. Kingpin's hard is the
# max-min search in one process (about 0.5 CPU s a move), and there the expert is that
# search with a quarter of every cut line's value from the network (``replies=8``,
# ``mix=0.75``: 21 of 40 games against hard, where the tree search of 150 iterations, the
# level until 2026-12-03, won 14.0% of 200, half of each 16 of 40 and the network alone
# 4 of 40: the Kingpin network ranks moves worse than the game's evaluate; benchmarks/expert.md,
# "Kingpin"). Since 2026-12-07 that search skips what cannot change its choice (``prune=1``)
# and judges its 12 best moves a ply further (``deep=12/responses=8``: the seat's best of its
# 8 best-rated answers to each reply), at 0.87 of hard's CPU a move: 230 of 400 fresh deals
# against hard (57.5%, 52.6%-62.3%; the plan's one row). The first such level (``deep=8/
# responses=6``, 0.66 of hard's CPU) won 121 of 200, then 102 of 200 fresh deals (51.0%;
# benchmarks/expert.md, "Kingpin: a ply deeper"). Kingpins' hard searches 2 x 2000 and an expert iteration there costs
# about 1.5 of hard's (its rollouts end with the round, so the network's pass weighs more).
# King's Kilt: one search of 1400 visits that keeps its tree (``reuse=2``: a move runs only
# what its root lacks, about 950 iterations on average, 0.95 of hard's CPU a move at two
# players, 0.76 at three, 0.88 at four, on one core). At two players it won 110.5 of 200
# against hard where two searches of 500 won 94.5, and 119 of 200 fresh deals (59.5%,
# 52.6%-66.1%); against heuristic bots 78.2% at three players (hard 72.5% of the same deals)
# and 66.8% at four (hard 66.4%): benchmarks/expert.md, "One search that keeps its tree".
# At three players since 2026-12-07 it has hard's CPU a move instead (1750 visits): on 600
# fresh deals (seed 941, the plan fixed before the games) 81.7% against two heuristic bots
# where hard won 76.4% (100 deals better for it only, 66 for hard only, p = 0.010):
# benchmarks/expert.md, "Three players: 600 fresh deals".
# At four players likewise since 2026-12-07 (1550 visits): on 600 fresh deals (seed 953, the
# plan fixed before the games) 67.1% against three heuristic bots where hard won 61.2% (124
# deals better for it only, 83 for hard only, p = 0.005): benchmarks/expert.md, "Four players:
# 600 fresh deals".
GAME_SETTINGS: dict[str, dict[str, Any]] = {
    "kingpin": {"replies": 8, "shortlist": None, "mix": 0.75, "workers": 1, "prune": 1, "deep": 12, "responses": 8},
    "kingpins": {"iterations": 1300},
    "kings-kilt": {"workers": 1, "iterations": 1400, "reuse": 2},
    "kings-kilt-3p": {"iterations": 1750},
    "kings-kilt-4p": {"iterations": 1550},
}


def parse_expert(level: str | None, game: Game | None = None, team: bool = False) -> ExpertConfig:
    """Returns the config for ``expert`` or ``expert/key=value/...``.

    Raises:
        GameError: an unknown key or a value of the wrong type.
    """
    cfg = EXPERT
    if team:
        cfg = replace(cfg, survival=0.2)
    if game is not None:
        for key in (game.id, f"{game.id}-{game.num_players}p"):
            cfg = replace(cfg, **GAME_SETTINGS.get(key, {}))
        if game.search_hints.get("opponents"):
            cfg = replace(cfg, opponents=game.search_hints["opponents"])
        if "depth" in game.search_hints:  # the rollouts' cut, as the search's
            cfg = replace(cfg, depth=game.search_hints["depth"])
    text, sep, net = (level or "").partition("net=")  # a path may hold slashes: net= comes last
    tokens = [t.strip() for t in text.split("/") if t.strip()]
    if tokens and tokens[0].lower() == "expert":
        tokens = tokens[1:]
    over: dict[str, Any] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        key = key.strip().lower()
        kind = _FIELDS.get(key)
        if not sep or kind is None:
            raise GameError(
                f"no expert setting {token!r}; settings: {', '.join(_FIELDS)}",
                allowed=list(_FIELDS),
            )
        value = value.strip()
        try:
            over[key] = None if value.lower() == "none" and key in _OPTIONAL else kind(value)
        except ValueError:
            raise setting_type_error("expert", key, value, kind, key in _OPTIONAL) from None
    if sep:
        over["net"] = net.strip() or None
    return replace(cfg, **over) if over else cfg


class _Node:
    """An information set: its edges ``{action: [visits, total, available]}``, the prior, a value."""

    __slots__ = ("edges", "logits", "exp", "top", "value")

    def __init__(self, logits: Any, acts: list[int], value: float) -> None:
        self.edges: dict[int, list] = {}
        self.logits = logits
        self.top = top = float(logits[acts].max()) if acts else 0.0
        self.exp = {a: math.exp(float(logits[a]) - top) for a in acts}
        self.value = value

    def prior(self, a: int) -> float:
        """Returns the unnormalised prior weight of ``a`` (a softmax over the available actions)."""
        e = self.exp.get(a)
        if e is None:  # an action this determinisation allows and the first did not
            e = self.exp[a] = math.exp(min(float(self.logits[a]) - self.top, 30.0))
        return e


class ExpertAgent(ISMCTSAgent):
    """IS-MCTS with the network as PUCT prior and leaf evaluation (see the module)."""

    def __init__(
        self, net: ExpertNet, config: ExpertConfig | None = None, name: str = "ismcts:expert"
    ) -> None:
        self.expert = config or EXPERT
        self.net = net
        self.name = name
        self.last = SearchStats()
        self.slow = False
        self.rollout = "none" if self.expert.mix == 0 and self.expert.value_visits is None else "heuristic"
        self.prior = "network"
        self.config = self.expert  # what __repr__ and callers show
        self._forget()

    # ``act`` is ISMCTSAgent's: one legal move is played at once, else ``search``.

    def search(self, obs: Observation) -> int:
        """Runs the guided search (``workers`` of them, merged); returns the most visited
        legal action at the root (with ``replies``, the max-min search's move)."""
        if self.expert.replies is not None:
            return self._search_maxmin(obs)
        if self.expert.workers > 1:
            from .parallel import root_parallel  # multiprocessing only when asked for

            net, name = self.net, self.name
            one = replace(self.expert, workers=1)
            build = lambda c: ExpertAgent(net, c, name)  # noqa: E731
            subs = self._workers(one, build, one.reuse > 0 and one.noise == 0)
            self.last = root_parallel(one, self.expert.workers, obs, build, subs)
            visits, values = self.last.visits or {}, self.last.values or {}
            return max(obs.legal_actions, key=lambda a: (visits.get(a, 0), values.get(a, 0.0), -a))
        return self._search_one(obs)

    def _search_maxmin(self, obs: Observation) -> int:
        """The max-min search with the network's value mixed into every cut line's value."""
        from .maxmin import maxmin_search

        cfg = self.expert
        clock = time.perf_counter
        start = clock()
        deadline = None if cfg.seconds is None else start + cfg.seconds
        move, lines, visits, values = maxmin_search(
            obs, cfg.replies, cfg.shortlist, cfg.depth, False, deadline, clock,
            leaf=None if cfg.mix == 1.0 else self._cut_leaf(obs),
            prune=bool(cfg.prune), deep=cfg.deep, responses=cfg.responses,
        )
        self.last = SearchStats(iterations=lines, seconds=clock() - start, nodes=0, visits=visits, values=values)
        return move

    def _cut_leaf(self, obs: Observation) -> Any:
        """The max-min search's value of a cut line: ``mix * evaluate + (1 - mix) * the network``."""
        game, me, net, mix = obs.game, obs.player, self.net, self.expert.mix
        tensor = game.observation_tensor

        def leaf(s: Any, est: float) -> float:
            v = net.value(tensor(s, me))  # (seat-relative: index 0 is the seat's own value)
            return mix * est + (1.0 - mix) * _unit(v[0])

        return leaf

    def _search_one(self, obs: Observation) -> int:
        """One guided search; returns the most visited legal action at the root."""
        game = obs.game
        cfg = self.expert
        net = self.net
        rng = obs.rng
        me = obs.player
        legal = list(obs.legal_actions)
        legal_set = set(legal)
        n = game.num_players
        lo, hi = game.info.min_return, game.info.max_return
        scale = 1.0 / (hi - lo) if hi > lo else 1.0
        coop = game.info.cooperative
        max_len = max(1, game.info.max_game_length)
        c = cfg.puct
        choose = _puct
        if cfg.select == "ucb":
            c, choose = cfg.exploration, _ucb
        own = cfg.opponents == "own"
        mix = cfg.mix
        fade = cfg.value_visits is not None  # the network's value kept apart, as a prior
        rollout = _policy(game, "heuristic", 0.0, rng) if mix > 0 or fade else None
        kv = cfg.value_visits or 0.0  # the network's weight in an edge's value (0: the mean alone)
        tensor = game.observation_tensor
        evaluate = game.evaluate if cfg.cut == "evaluate" else _net_evaluate(game, net, lo, scale)
        info_key = game.information_state_string
        start = time.perf_counter()
        deadline = None if cfg.seconds is None else start + cfg.seconds
        own_values = cfg.values == "own"

        def expand(s: Any, p: int, acts: list[int]) -> tuple[_Node, list[float]]:
            logits, v = net(tensor(s, p))
            vals = [_unit(v[(q - p) % n]) for q in range(n)]
            if own_values:  # each other seat's value from its own tensor (its own hidden cards)
                for q in range(n):
                    if q != p:
                        vals[q] = _unit(net.value(tensor(s, q))[0])
            return _Node(logits, acts, vals[p]), vals

        s0 = obs.sample(random.Random(0))
        root_key = (me, info_key(s0, me))
        reuse = cfg.reuse > 0 and cfg.noise == 0  # (root noise is for one search only)
        kept = self._resume(game, root_key, reuse)
        if kept is not None:  # go on from the last search
            table: dict[Any, _Node] = kept
            root = table[root_key]
        else:
            root, _ = expand(s0, me, legal)
            table = {root_key: root}
        if cfg.noise > 0:
            np = net._np
            gen = np.random.default_rng(rng.getrandbits(32))
            eta = gen.dirichlet([cfg.alpha] * len(legal))
            total = sum(root.exp[a] for a in legal)
            root.exp = {
                a: (1 - cfg.noise) * root.exp[a] / total + cfg.noise * float(e)
                for a, e in zip(legal, eta)
            }

        touched = {root_key} if reuse else None  # the nodes this search went through
        limit = cfg.iterations
        if cfg.reuse == 2 and limit is not None:  # top up: the kept visits count
            limit = max(0, limit - sum(root.edges[a][0] for a in legal if a in root.edges))
        it = 0
        while (limit is None or it < limit) and (
            deadline is None or it == 0 or time.perf_counter() < deadline
        ):
            it += 1
            s = obs.sample(rng)
            path: list[tuple[list, int]] = []
            first = True
            leaf: list[float] | None = None
            steps = 0
            while leaf is None:
                cp = game.current_player(s)
                if cp == TERMINAL:
                    break
                if cp == CHANCE:
                    s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
                    steps += 1
                    continue
                if cp >= 0:
                    players: tuple[int, ...] = (cp,)
                else:
                    players = tuple(game.acting_players(s))
                    if first and me in players:
                        players = (me,) + tuple(p for p in players if p != me)
                for p in players:
                    if first and p == me:
                        node = root
                        acts = [a for a in game.legal_actions(s, p) if a in legal_set] or legal
                        first = False
                    else:
                        acts = game.legal_actions(s, p)
                        key = (p, info_key(s, p if p == me or own else None))
                        node = table.get(key)
                        if touched is not None:
                            touched.add(key)
                        if node is None:
                            node, leaf = expand(s, p, acts)
                            table[key] = node
                            break
                    a = choose(node, acts, c, kv)
                    path.append((node.edges[a], p))
                    s = game.apply(s, a, p)
                    steps += 1
                if steps > max_len + 1:
                    break
            # ---- the value of the leaf --------------------------------------------------
            rn = None  # the network's values, kept apart with value_visits
            if leaf is None:
                if game.is_terminal(s):
                    r = [(x - lo) * scale for x in game.returns(s)]
                    if coop and cfg.survival > 0.0:
                        team = sum(r) / n
                        if team < 1.0:
                            r = [team + cfg.survival * min(1.0, steps / max_len) * (1.0 - team)] * n
                else:
                    r = [0.5] * n
            else:
                r = leaf
                if rollout is not None:
                    z = _roll(game, s, rollout, evaluate, cfg.depth, rng, max_len - steps)
                    rr = [(x - lo) * scale for x in z] if z is not None else r
                    if fade:
                        r, rn = rr, leaf
                    else:
                        r = [(1 - mix) * a + mix * b for a, b in zip(r, rr)]
            if rn is None:
                rn = r
            for edge, p in path:
                edge[0] += 1
                edge[1] += r[p]
                edge[3] += rn[p]
        elapsed = time.perf_counter() - start
        if touched is not None:
            self._kept, self._touched = _keep(game, table, touched, self._touched)
        visits = {a: root.edges[a][0] if a in root.edges else 0 for a in legal}
        values = {a: _q(root.edges[a], kv) if visits[a] else 0.0 for a in legal}
        self.last = SearchStats(
            iterations=it, seconds=elapsed, nodes=len(table), visits=visits, values=values
        )
        return max(legal, key=lambda a: (visits[a], root.prior(a), -a))


def _unit(x: Any) -> float:
    """A network's value as a float within [0, 1] (the heads are not squashed)."""
    return min(1.0, max(0.0, float(x)))


def _net_evaluate(game: Game, net: ExpertNet, lo: float, scale: float) -> Any:
    """An ``evaluate`` for rollouts cut by the network (``cut=net``): every seat's value, in
    the game's returns, from the acting seat's observation tensor; None at a chance node
    (the rollout draws on to the next decision)."""
    n = game.num_players
    tensor = game.observation_tensor

    def evaluate(s: Any) -> list[float] | None:
        cp = game.current_player(s)
        if cp == CHANCE:
            return None
        q = cp if cp >= 0 else game.acting_players(s)[0]
        v = net.value(tensor(s, q))
        return [lo + _unit(v[(p - q) % n]) / scale for p in range(n)]

    return evaluate


def _q(edge: list, kv: float) -> float:
    """An edge's value: its backed-up mean, with the network's mean counted as ``kv`` more
    visits (``value_visits``; 0: the mean alone). An edge is ``[visits, total, available,
    network total]``."""
    n, w = edge[0], edge[1]
    return (w + kv * edge[3] / n) / (n + kv) if kv else w / n


def _puct(node: _Node, acts: list[int], c: float, kv: float = 0.0) -> int:
    """Returns the PUCT choice among ``acts`` (the actions this determinisation allows)."""
    edges = node.edges
    total_n = 0
    total_p = 0.0
    for a in acts:
        edge = edges.get(a)
        if edge is None:
            edge = edges[a] = [0, 0.0, 0, 0.0]
        edge[2] += 1
        total_n += edge[0]
        total_p += node.prior(a)
    sq = c * math.sqrt(total_n + 1) / (total_p or 1.0)
    fpu = node.value
    best = acts[0]
    best_v = -1e18
    for a in acts:
        edge = edges[a]
        k = edge[0]
        v = (_q(edge, kv) if k else fpu) + sq * node.exp[a] / (1 + k)
        if v > best_v:
            best, best_v = a, v
    return best


def _ucb(node: _Node, acts: list[int], c: float, kv: float = 0.0) -> int:
    """Returns the ISUCT choice among ``acts``: the untried action the network rates most
    probable, else UCB1 with availability counts (as ``selection._select``)."""
    edges = node.edges
    untried = None
    for a in acts:
        edge = edges.get(a)
        if edge is None:
            edge = edges[a] = [0, 0.0, 0, 0.0]
        edge[2] += 1
        if edge[0] == 0 and (untried is None or node.prior(a) > node.prior(untried)):
            untried = a
    if untried is not None:
        return untried
    best = acts[0]
    best_v = -1e18
    log, sqrt = math.log, math.sqrt
    for a in acts:
        edge = edges[a]
        k = edge[0]
        v = (edge[1] + kv * edge[3] / k) / (k + kv) + c * sqrt(log(edge[2]) / k)
        if v > best_v:
            best, best_v = a, v
    return best


def _roll(
    game: Game, s: Any, policy: Any, evaluate: Any, cut: int | None, rng: random.Random, budget: int
) -> Any:
    """Plays ``policy`` from ``s``; returns the returns, the game's estimate after ``cut`` decisions, or None."""
    rolled = 0
    for _ in range(max(budget, 0) + 2):
        cp = game.current_player(s)
        if cp == TERMINAL:
            return game.returns(s)
        if cut is not None and rolled >= cut:
            est = evaluate(s)
            if est is not None:
                return est
        if cp == CHANCE:
            s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
            continue
        players = (cp,) if cp >= 0 else tuple(game.acting_players(s))
        for p in players:
            s = game.apply(s, policy(s, p), p)
            rolled += 1
    return None


def expert_agent(
    game: Game, level: str | None = None, team: bool = False, **kw: Any
) -> ExpertAgent:
    """Builds ``ismcts:expert[/key=value...]`` (``team:expert`` with ``team``) for ``game``."""
    cfg = parse_expert(level, game, team or game.info.cooperative)
    if kw:
        cfg = replace(cfg, **{k: v for k, v in kw.items() if k in _FIELDS})
    net = load_net(game, cfg.net)
    prefix = "team" if team else "ismcts"
    return ExpertAgent(net, cfg, name=f"{prefix}:{level or 'expert'}")


def describe(net: ExpertNet) -> str:
    """One line about a network: its game, sizes and training."""
    m = net.meta
    return json.dumps(
        {k: m.get(k) for k in ("game", "players", "hidden", "generations", "games", "cpu_seconds")}
    )
