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
) -> tuple[int, int, dict[int, int], dict[int, float]]:
    """Returns (the move, the lines played, lines per move, each judged move's value in [0, 1]).

    ``leaf``, if given, revalues a line cut before the end: ``leaf(state, estimate)`` returns
    the seat's value in [0, 1] from the state where ``evaluate`` judged it and that
    estimate (the expert's network, ``agents/expert.py``); the end of a game is never revalued.
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
    for a in order if shortlist is None else order[:shortlist]:
        if deadline is not None and clock() >= deadline:
            break
        s1 = settle(apply(s0, a, me))
        q = rival(s1)
        judged.append(a)
        if q is None:
            continue  # no rival's reply to weigh: the first value stands
        options = legal_actions(s1, q)
        children = {r: apply(s1, r, q) for r in options}
        rated = []
        for r in options:
            c = children[r]
            est = game.returns(c) if current_player(c) == TERMINAL else evaluate(c) if evaluate is not None else None
            if est is not None:
                rated.append((-est[q], r))
        rated.sort()
        chosen = [r for _, r in rated[:replies]]
        h = heuristic(s1, q, rng)
        if h not in chosen:
            chosen.append(h)
        vals = []
        for r in chosen:
            vals.append(tail(children[r], after))
            lines += 1
            count[a] += 1
        value[a] = max(vals) if team else min(vals)
    # (the first pass always plays one line, so ``order`` is never empty)
    best = max(judged or order, key=lambda a: (value[a], first[a], -a))
    return best, lines, count, value
