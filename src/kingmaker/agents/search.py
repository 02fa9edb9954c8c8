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
from collections.abc import Callable
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

# The settings live in levels.py; imported here for the search and re-exported for callers.
from .levels import (  # noqa: F401
    AUTO_HEURISTIC_LIMIT,
    AUTO_PROBE_SHARE,
    AUTO_PROBE_WALL_SHARE,
    BELIEFS,
    GOALS,
    HINTED_LEVELS,
    LEVELS,
    OPPONENTS,
    PRIORS,
    REUSE_MAX,
    ROLLOUTS,
    TEAM_LEVELS,
    SearchConfig,
    check_budget,
    parse_level,
    setting_type_error,
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


# The probe's result, CPU seconds per heuristic decision, by game (class, players, options).
_PROBED: dict[tuple[Any, ...], float] = {}


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

    def kept(self) -> tuple[dict | None, set]:
        """What the agent keeps for its next search: the table (or None) and the nodes its
        last search went through; a forked worker sends them back (``parallel.py``)."""
        return (None if self._kept is None else self._kept[1]), self._touched

    def keep(self, game: Game, table: dict | None, touched: set) -> None:
        """Keeps ``table`` of ``game`` (a forked worker's, sent back) for the next search."""
        self._kept = None if table is None else (game, table)
        self._touched = touched

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
