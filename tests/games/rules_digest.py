"""Digests of seeded random games, which pin a game's rules' behaviour (issue 16 §1).

Every state's repr, the player to act, every legal-action list, every chance-outcome
list (with probabilities), what a game's ``step`` hook returns for each move (e.g. the
trace its rules report) and the final returns are hashed. A test records the digest
from the code before an optimisation; any change of behaviour changes it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from typing import Any

from kingmaker.core.api import CHANCE, SIMULTANEOUS, TERMINAL, Game


def digest(game: Game, seeds: Iterable[int], step: Callable[[Any, int, int | None, Any], Any] | None = None) -> str:
    """Returns the sha256 of seeded random games.

    ``step(s, action, player, s_next)``, when given, is called after each move; what it
    returns is hashed too (it may also assert, e.g. that the rules module gives ``s_next``).
    """
    h = hashlib.sha256()

    def upd(x: Any) -> None:
        h.update(repr(x).encode())

    for seed in seeds:
        rng = random.Random(seed)
        s = game.new_initial_state()
        while True:
            upd(s)
            cp = game.current_player(s)
            upd(cp)
            if cp == TERMINAL:
                break
            if cp == CHANCE:
                oc = game.chance_outcomes(s)
                upd(oc)
                upd(game.legal_actions(s))
                a = rng.choices([o for o, _ in oc], [pr for _, pr in oc])[0]
                p = None
            else:
                ps = game.simultaneous_players(s) if cp == SIMULTANEOUS else (cp,)
                upd(ps)
                lists = [game.legal_actions(s, q) for q in ps]
                upd(lists)
                k = rng.randrange(len(ps))
                p, a = ps[k], rng.choice(lists[k])
            nxt = game.apply(s, a, p)
            if step is not None:
                upd(step(s, a, p, nxt))
            s = nxt
        upd(game.returns(s))
    return h.hexdigest()
