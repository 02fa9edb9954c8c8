"""The IS-MCTS search as it was before its speed-up (issue 16 §1), kept as the reference.

``tests/agents/test_agents_search_reference.py`` checks that the lean search in
``kingmaker.agents.search`` makes exactly the same searches: the same root
visit counts, values and move for the same view, stream and budget. This is
the search of commit 8c151ca (information sets keyed by
``information_state_string``), unchanged but for being a function of the agent.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from kingmaker.core.api import CHANCE, TERMINAL, Game
from kingmaker.core.match import Observation, sample_chance


def reference_search(agent: Any, obs: Observation) -> tuple[int, dict, dict, int]:
    """Returns (move, root visits, root values, nodes) as the former ``ISMCTSAgent.search``."""
    self = agent
    game = obs.game
    cfg = self.config
    rng = obs.rng
    me = obs.player
    legal = list(obs.legal_actions)
    legal_set = set(legal)
    lo, hi = game.info.min_return, game.info.max_return
    scale = 1.0 / (hi - lo) if hi > lo else 1.0
    n = game.num_players
    coop = game.info.cooperative
    max_len = max(1, game.info.max_game_length)
    c = cfg.exploration
    heuristic = game.heuristic_action
    evaluate = game.evaluate
    cut = cfg.depth
    start = time.perf_counter()
    deadline = None if cfg.seconds is None else start + cfg.seconds
    rollout, prior = self._modes(obs)
    policy = _policy(game, rollout, cfg.epsilon, rng)
    use_prior = prior != "none"
    puct = prior == "puct"
    own = cfg.opponents == "own"
    # One table for every player's information sets: key -> {action: [visits, total, available]}.
    table: dict[Any, dict[int, list]] = {}
    info_key = game.information_state_string
    root_key = (me, info_key(obs.sample(random.Random(0)), me))
    root = table[root_key] = {a: [0, 0.0, 0] for a in legal}

    limit = cfg.iterations
    it = 0
    while True:
        if limit is not None and it >= limit:
            break
        if deadline is not None and it > 0 and time.perf_counter() >= deadline:
            break
        it += 1
        s = obs.sample(rng)
        path: list[tuple[list, int]] = []  # (edge stats, player) in the order taken
        expanded = False
        steps = 0
        rolled = 0  # rollout decisions so far
        est = None  # the game's estimate where the rollout was cut short
        first = True
        # ---- selection and expansion, then the rollout --------------------------
        while True:
            cp = game.current_player(s)
            if cp == TERMINAL:
                break
            if cut is not None and expanded and rolled >= cut:
                est = evaluate(s)
                if est is not None:
                    break
            if cp == CHANCE:
                s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
                steps += 1
                continue
            if cp >= 0:
                players: tuple[int, ...] = (cp,)
            else:
                players = tuple(game.acting_players(s))
                if first and me in players:  # the root decision comes first
                    players = (me,) + tuple(p for p in players if p != me)
            for p in players:
                if expanded:
                    a = policy(s, p)
                    rolled += 1
                else:
                    if first and p == me:
                        node = root
                        acts = [a for a in game.legal_actions(s, p) if a in legal_set] or legal
                        first = False
                    else:
                        key = (p, info_key(s, p if p == me or own else None))
                        node = table.get(key)
                        acts = game.legal_actions(s, p)
                        if node is None:
                            node = table[key] = {}
                    if puct:
                        a = _select_prior(node, acts, rng, s, p, heuristic)
                    else:
                        a = _select(node, acts, c, rng, s, p, heuristic if use_prior else None)
                    edge = node[a]
                    if edge[0] == 0:
                        expanded = True
                    path.append((edge, p))
                s = game.apply(s, a, p)
                steps += 1
            if steps > max_len + 1:  # a game that overruns its bound: score it as it stands
                break
            if deadline is not None and it > 1 and time.perf_counter() > deadline:
                break  # out of time in a long rollout: drop this iteration
        if est is None and deadline is not None and it > 1 and not game.is_terminal(s) and steps <= max_len + 1:
            it -= 1
            break
        # ---- back-up ------------------------------------------------------------
        if est is not None:
            r = [(x - lo) * scale for x in est]
        elif game.is_terminal(s):
            ret = game.returns(s)
            r = [(x - lo) * scale for x in ret]
            if coop and cfg.survival > 0.0:
                team = sum(r) / n
                if team < 1.0:
                    bonus = cfg.survival * min(1.0, steps / max_len)
                    r = [team + bonus * (1.0 - team)] * n
        else:
            r = [0.5] * n
        for edge, p in path:
            edge[0] += 1
            edge[1] += r[p]
    root.pop(PRIOR_KEY, None)
    visits = {a: root[a][0] for a in legal if a in root}
    values = {a: (root[a][1] / root[a][0]) if root[a][0] else 0.0 for a in legal if a in root}
    best = max(legal, key=lambda a: (visits.get(a, 0), values.get(a, 0.0), -a))
    return best, visits, values, len(table)


PRIOR_KEY = -1  # where a node keeps its heuristic move (actions are never negative)
PRIOR_WEIGHT = 0.75  # the prior's share on the heuristic move; the rest is spread evenly
PUCT = 1.5  # the exploration constant of the prior-guided rule


def _select(
    node: dict[int, Any],
    acts: list[int],
    c: float,
    rng: random.Random,
    s: Any,
    p: int,
    heuristic: Callable[[Any, int, random.Random], int] | None,
) -> int:
    """Returns the action chosen at an information-set node by ISUCT.

    Every untried action first (the heuristic's move before the others when a
    heuristic is given), then UCB1 whose exploration term counts how often each
    action was available.
    """
    untried = []
    for a in acts:
        edge = node.get(a)
        if edge is None:
            edge = node[a] = [0, 0.0, 0]
        edge[2] += 1
        if edge[0] == 0:
            untried.append(a)
    if untried:
        if heuristic is not None and len(untried) > 1:
            h = heuristic(s, p, rng)
            if h in untried:
                return h
        return untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
    best = acts[0]
    best_v = -1.0
    for a in acts:
        n, w, avail = node[a]
        v = w / n + c * math.sqrt(math.log(avail) / n)
        if v > best_v:
            best, best_v = a, v
    return best


def _select_prior(
    node: dict[int, Any],
    acts: list[int],
    rng: random.Random,
    s: Any,
    p: int,
    heuristic: Callable[[Any, int, random.Random], int],
) -> int:
    """Returns the action chosen by PUCT with the heuristic's move as most of the prior.

    A small budget mostly deepens the heuristic's line; other moves are tried
    when their prior share or a poor value of the heuristic's move calls for
    it; untried moves count at the node's mean value.
    """
    h = node.get(PRIOR_KEY)
    if h is None:
        h = node[PRIOR_KEY] = heuristic(s, p, rng)
    k = len(acts)
    if h not in acts:
        h = -2
    rest = (1.0 - PRIOR_WEIGHT) / k if h >= 0 else 1.0 / k
    total_n = 0
    total_w = 0.0
    for a in acts:
        edge = node.get(a)
        if edge is None:
            edge = node[a] = [0, 0.0, 0]
        edge[2] += 1
        total_n += edge[0]
        total_w += edge[1]
    fpu = total_w / total_n if total_n else 0.5
    root_n = math.sqrt(total_n + 1)
    best = acts[0]
    best_v = -1e9
    for a in acts:
        n, w, _ = node[a]
        prior = rest + PRIOR_WEIGHT if a == h else rest
        v = (w / n if n else fpu) + PUCT * prior * root_n / (1 + n)
        if v > best_v:
            best, best_v = a, v
    return best


def _policy(game: Game, mode: str, epsilon: float, rng: random.Random) -> Callable[[Any, int], int]:
    """Returns the rollout policy ``(state, player) -> action``."""
    legal_actions = game.legal_actions
    if mode == "random":

        def random_policy(s: Any, p: int) -> int:
            acts = legal_actions(s, p)
            return acts[rng.randrange(len(acts))] if len(acts) > 1 else acts[0]

        return random_policy
    heuristic = game.heuristic_action
    eps = epsilon if mode == "mixed" else 0.0

    def heuristic_policy(s: Any, p: int) -> int:
        if eps and rng.random() < eps:
            acts = legal_actions(s, p)
            return acts[rng.randrange(len(acts))]
        return heuristic(s, p, rng)

    return heuristic_policy

