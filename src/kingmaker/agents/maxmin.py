"""A selective max-min search over the rivals' best replies (the search setting ``replies``).

IS-MCTS judges a move by the mean of what followed it in the tree. Where the
heuristic is strong and the game has little chance (Kingpin: a drawn tile is
its only chance), that mean is the weak part: replies are taken one by one,
and a move is flattered by the poor ones (docs/agents.md, "Issue 16 §2"). This
search judges a move by the *worst* of the replies a rival would consider
instead. For the seat's observation, with one determinisation ``s`` drawn
from it (``obs.sample``):

1. **First pass.** Every legal move ``a`` is played in ``s``; then the player
   to move plays the game's heuristic, and the line goes on as a cut rollout
   does: ``depth - 1`` more heuristic decisions (every player), then the first
   state the game's ``evaluate`` judges (or the end). Its estimate for the
   seat is the move's first value: the line Kingpin's ``normal`` tries once
   per move.
2. **Second pass.** The ``shortlist`` moves of the best first values (every
   move with ``shortlist=None``) are judged again: where a rival moves after
   ``a``, each of its ``replies`` legal replies that ``evaluate`` rates best
   *for that rival*, and the heuristic's reply, are played out as above, and
   the move's value is the smallest of their estimates for the seat (a
   paranoid max-min with more than two players; in a co-operative game, where
   a teammate's reply is the team's, the greatest).
3. The shortlisted move of the greatest value is played (ties: the better
   first value, then the lower action).

Chance nodes are sampled with their probabilities from the agent's stream,
so with no time cap a decision depends only on the view and the stream. Its
budget is its shape: a line for every legal move, then at most ``shortlist``
times ``replies`` + 1 lines; ``seconds`` caps the wall time (a pass cut short
keeps the moves judged so far), and the iteration budget does not apply. It
reads only the observation: the determinisation, the legal lists, the
heuristic and ``evaluate`` (no game's state is known to it beyond the view).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.api import CHANCE, TERMINAL
from ..core.match import Observation, sample_chance
from .bound import bound_chance, bound_evaluate, bound_heuristic, win_shares

__all__ = ["maxmin_search"]


def maxmin_search(
    obs: Observation,
    replies: int,
    shortlist: int | None,
    depth: int | None,
    win: bool,
    deadline: float | None,
    clock: Callable[[], float],
    leaf: Callable[[Any, float], float] | None = None,
    prune: bool = False,
    deep: int = 0,
    responses: int = 4,
) -> tuple[int, int, dict[int, int], dict[int, float]]:
    """Returns (the move, the lines played, lines per move, each judged move's value in [0, 1]).

    ``leaf``, if given, revalues a line cut before the end: ``leaf(state, estimate)`` returns
    the seat's value in [0, 1] from the state where ``evaluate`` judged it and that
    estimate (the expert's network, ``agents/expert.py``); the end of a game is never revalued.

    ``prune`` (the expert's; ``hard`` judges every move) skips what cannot change the
    outcome: a move's replies include the heuristic's, whose line is its first value, so
    its value is at most its first value (up to the chance drawn in the lines), and the
    second pass, in the order of the first values, stops at the first move whose first
    value is below the ``max(1, deep)``-th best value judged so far; a move's replies stop
    as soon as one of them takes it below that value (the move is out: its value is then
    the smallest found, a bound above its own).

    ``deep`` > 0 judges the ``deep`` moves of the best values once more, a ply further
    (``deeper``): against each of the same replies the seat answers with the best of its
    ``responses`` moves that ``evaluate`` rates best for it and the heuristic's, each
    followed by the cut line (the rival's heuristic reply, then ``evaluate``), and the move
    is worth the smallest over the replies of that best answer, with alpha-beta cut-offs;
    the move played is the deep-judged one of the greatest deep value. Neither applies to a
    co-operative game (a teammate's reply is the team's: a move's value is the best of its
    replies, so its first value bounds nothing, and there is no rival to search against).
    """
    game = obs.game
    me = obs.player
    rng = obs.rng
    legal = list(obs.legal_actions)
    info = game.info
    team = info.cooperative
    lo, hi = info.min_return, info.max_return
    scale = 1.0 / (hi - lo) if hi > lo else 1.0
    heuristic = bound_heuristic(game)
    evaluate = bound_evaluate(game, win)
    draw = bound_chance(game)
    current_player, apply, legal_actions = game.current_player, game.apply, game.legal_actions
    acting_players, chance_outcomes = game.acting_players, game.chance_outcomes
    overrun = max(1, info.max_game_length) + 1
    after = None if depth is None else max(0, depth - 1)  # heuristic decisions after the reply

    def chance(s: Any) -> Any:
        return apply(s, draw(s, rng) if draw is not None else sample_chance(chance_outcomes(s), rng))

    def settle(s: Any) -> Any:
        while current_player(s) == CHANCE:
            s = chance(s)
        return s

    def final(s: Any) -> float:
        r = game.returns(s)
        return win_shares(r)[me] if win else (r[me] - lo) * scale

    def tail(s: Any, moves: int | None) -> float:
        """The seat's estimate after ``moves`` more heuristic decisions (None: to the end)."""
        played = 0
        for _ in range(overrun):
            cp = current_player(s)
            if cp == TERMINAL:
                return final(s)
            if evaluate is not None and moves is not None and played >= moves:
                est = evaluate(s)
                if est is not None:
                    v = (est[me] - lo) * scale
                    return v if leaf is None else leaf(s, v)
            if cp == CHANCE:
                s = chance(s)
                continue
            for p in (cp,) if cp >= 0 else tuple(acting_players(s)):
                s = apply(s, heuristic(s, p, rng), p)
            played += 1
        return final(s) if current_player(s) == TERMINAL else 0.5

    def rival(s: Any) -> int | None:
        """The rival who moves at ``s`` (chance settled), or None (the seat, everyone, the end)."""
        cp = current_player(s)
        return cp if cp >= 0 and cp != me else None

    def candidates(s: Any, p: int, k: int) -> tuple[dict[int, Any], list[int]]:
        """The children of ``s`` by ``p``'s legal moves, and the ``k`` that ``evaluate`` rates
        best for ``p`` (best first) with the heuristic's move after them if it is not one."""
        children = {x: apply(s, x, p) for x in legal_actions(s, p)}
        rated = []
        for x, c in children.items():
            est = game.returns(c) if current_player(c) == TERMINAL else evaluate(c) if evaluate is not None else None
            if est is not None:
                rated.append((-est[p], x))
        rated.sort()
        chosen = [x for _, x in rated[:k]]
        h = heuristic(s, p, rng)
        if h not in chosen:
            chosen.append(h)
        return children, chosen

    def deeper(children: dict[int, Any], chosen: list[int], alpha: float) -> tuple[float, int]:
        """A move's value a ply further (``deep``) and the lines played: the smallest, over
        the rival's replies, of the seat's best answer; stops once it is below ``alpha``."""
        worst, n = 2.0, 0
        for r in chosen:
            s2 = settle(children[r])
            if current_player(s2) != me:
                v = tail(s2, after)  # the seat does not answer here: the cut line as it was
                n += 1
            else:
                kids, answers = candidates(s2, me, responses)
                v = -1.0
                for m in answers:
                    v = max(v, tail(kids[m], after))
                    n += 1
                    if v >= worst:
                        break  # the rival has a reply at least as good for it already
            worst = min(worst, v)
            if worst < alpha:
                break  # a move judged before is better
        return worst, n

    if team:
        prune, deep = False, 0
    s0 = obs.sample(rng)
    lines = 0
    count: dict[int, int] = {}
    first: dict[int, float] = {}
    for a in legal:
        if deadline is not None and lines and clock() >= deadline:
            break
        s1 = settle(apply(s0, a, me))
        q = rival(s1)
        if q is None:
            first[a] = tail(s1, depth)
        else:
            first[a] = tail(apply(s1, heuristic(s1, q, rng), q), after)
        count[a] = 1
        lines += 1
    order = sorted(first, key=lambda a: -first[a])  # (stable: ties stay in legal order)
    value = dict(first)
    judged: list[int] = []
    keep = max(1, deep)
    top: list[float] = []  # (prune) the best ``keep`` values judged so far, highest first
    lines_of: dict[int, tuple[dict[int, Any], list[int]]] = {}  # (deep) each move's replies
    for a in order if shortlist is None else order[:shortlist]:
        if deadline is not None and clock() >= deadline:
            break
        bar = top[-1] if prune and len(top) >= keep else None
        if bar is not None and first[a] < bar:
            break  # (the order is by first value: no move after it can reach the bar)
        s1 = settle(apply(s0, a, me))
        q = rival(s1)
        judged.append(a)
        if q is None:
            v = first[a]  # no rival's reply to weigh: the first value stands
        else:
            children, chosen = candidates(s1, q, replies)
            if deep:
                lines_of[a] = (children, chosen)
            vals = []
            for r in chosen:
                vals.append(tail(children[r], after))
                lines += 1
                count[a] += 1
                if bar is not None and vals[-1] < bar:
                    break
            v = value[a] = max(vals) if team else min(vals)
        if prune:
            top.append(v)
            top.sort(reverse=True)
            del top[keep:]
    # (the first pass always plays one line, so ``order`` is never empty)
    rank = lambda a: (value[a], first[a], -a)  # noqa: E731
    best = max(judged or order, key=rank)
    if deep and judged:
        deep_value: dict[int, float] = {}
        alpha = -1.0
        for a in sorted(judged, key=rank, reverse=True)[:deep]:
            if deadline is not None and clock() >= deadline:
                break
            if a not in lines_of:
                deep_value[a] = value[a]  # no rival's reply: nothing deeper to weigh
            else:
                deep_value[a], n = deeper(*lines_of[a], alpha)
                lines += n
                count[a] += n
            alpha = max(alpha, deep_value[a])
        if deep_value:
            best = max(deep_value, key=lambda a: (deep_value[a], *rank(a)))
            value.update(deep_value)
    return best, lines, count, value
