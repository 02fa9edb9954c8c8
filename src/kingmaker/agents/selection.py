"""The selection rules of the IS-MCTS (``search.py``) and its implicit minimax back-up.

A node is a dict ``action -> edge``, an edge a list ``[visits, total, available]``
(``total``: the sum of the chooser's backed-up returns; ``available``: how often the
action was legal when the node was visited), plus, with ``minimax`` on, a fourth
item: the edge's implicit minimax value, the vector of every player's return.

**Implicit minimax back-ups** (Lanctot, Winands, Pepels and Sturtevant, "Monte Carlo
Tree Search with Heuristic Evaluations using Implicit Minimax Backups", CIG 2014):
besides the mean of the returns, each edge keeps the value its subtree is worth if
every player, from there down, takes its best move among those tried (max^n: each
player maximises its own return; with two players, minimax). A new edge's value is
the evaluation its iteration ended with (a cut rollout's estimate, or the end's
returns). Selection then ranks an action by ``(1 - alpha) * mean + alpha * minimax``.
The mean alone scores a move by the average of the replies tried below it, which
with many replies and few visits are mostly poor ones; the minimax part scores it by
the best reply found, as a good rival would play. In IS-MCTS a node is an
information set, so the "best reply" is over the replies tried in any
determinisation: an approximation, as in the paper's imperfect-information games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

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
    alpha: float = 0.0,
) -> int:
    """Returns the action chosen at an information-set node by ISUCT.

    Every untried action first (the heuristic's move before the others when a
    heuristic is given), then UCB1 whose exploration term counts how often each
    action was available. With ``alpha`` (the minimax back-ups), a tried action's
    value is ``(1 - alpha) * mean + alpha * minimax``.
    """
    untried = []
    get = node.get
    for a in acts:
        edge = get(a)
        if edge is None:
            node[a] = [0, 0.0, 1, None] if alpha else [0, 0.0, 1]
            untried.append(a)
        else:
            edge[2] += 1
            if edge[0] == 0:
                untried.append(a)
    if untried:
        if len(untried) == 1:
            return untried[0]
        if heuristic is not None:
            h = heuristic(s, p, rng)
            if h in untried:
                return h
        return untried[rng.randrange(len(untried))]
    best = acts[0]
    best_v = -1.0
    log, sqrt = math.log, math.sqrt
    keep = 1.0 - alpha
    for a in acts:
        edge = node[a]
        n = edge[0]
        q = edge[1] / n
        if alpha:
            q = keep * q + alpha * edge[3][p]
        v = q + c * sqrt(log(edge[2]) / n)
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
    alpha: float = 0.0,
) -> int:
    """Returns the action chosen by PUCT with the heuristic's move as most of the prior.

    A small budget mostly deepens the heuristic's line; other moves are tried
    when their prior share or a poor value of the heuristic's move calls for
    it; untried moves count at the node's mean value. With ``alpha``, a tried
    action's value is ``(1 - alpha) * mean + alpha * minimax``.
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
            edge = node[a] = [0, 0.0, 0, None] if alpha else [0, 0.0, 0]
        edge[2] += 1
        total_n += edge[0]
        total_w += edge[1]
    fpu = total_w / total_n if total_n else 0.5
    root_n = math.sqrt(total_n + 1)
    keep = 1.0 - alpha
    best = acts[0]
    best_v = -1e9
    for a in acts:
        edge = node[a]
        n = edge[0]
        if not n:
            q = fpu
        elif alpha:
            q = keep * edge[1] / n + alpha * edge[3][p]
        else:
            q = edge[1] / n
        prior = rest + PRIOR_WEIGHT if a == h else rest
        v = q + PUCT * prior * root_n / (1 + n)
        if v > best_v:
            best, best_v = a, v
    return best


def back_up_minimax(
    path: list[tuple[list, int]], nodes: list[dict[int, Any]], r: list[float]
) -> None:
    """Backs an iteration's returns ``r`` up its path, with the implicit minimax values.

    ``path[i]`` is the edge taken and its chooser, ``nodes[i]`` the node it belongs to.
    The last edge's minimax value is ``r``; each edge above takes the value of the next
    node: that of its edge best for the node's chooser among those with a value.
    """
    value = r
    for i in range(len(path) - 1, -1, -1):
        edge, p = path[i]
        edge[0] += 1
        edge[1] += r[p]
        edge[3] = value
        if i:
            best_v = -1.0
            for a, e in nodes[i].items():
                if a >= 0 and e[3] is not None and e[3][p] > best_v:
                    value, best_v = e[3], e[3][p]
