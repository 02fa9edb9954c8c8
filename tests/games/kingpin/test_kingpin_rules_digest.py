"""Kingpin: the rules' behaviour is pinned by digests of seeded random games.

Covers the whole flow of the rulebook (Setup, Gameplay: the action track, Movement,
Attack, Shootouts, Raids, Snipers, Winning; the optional rules Goodfellas and A Very
Long Night): every state's repr, every legal action list, every chance outcome list
(with probabilities) and the final returns of seeded random games are hashed. The reference digests were recorded from the code before the rules'
hot paths were optimised (issue 16 §1); a change of behaviour changes them.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import kingmaker
from kingmaker.core.api import CHANCE, SIMULTANEOUS, TERMINAL


def digest(game, seeds) -> str:
    """Returns the sha256 of seeded random games: states, legal lists, chance lists, returns."""
    h = hashlib.sha256()

    def upd(x) -> None:
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
            s = game.apply(s, a, p)
        upd(game.returns(s))
    return h.hexdigest()


# (players, options, seeds) -> the digest recorded from the unoptimised rules.
CASES = [
    (2, {}, range(100), "21a4f001e320219f3cb6a7411d8df827711b6b12bb2749b50a018aa753a039f0"),
    (
        2,
        {"board": "B"},
        range(100, 160),
        "845a1bd58c309c58f069ad6f2efac765ccf92b05b576456d85698e077de3487b",
    ),
    (
        2,
        {"goodfellas": True, "mafias": "russian-italian"},
        range(200, 260),
        "8ffa45b1a7e95cae948da362530bb9766346382cafc9aced8aca0ca7d4a9d1da",
    ),
    (
        2,
        {"long_night": True, "first_player": "1"},
        range(300, 360),
        "7b0b4c30c10a494acc3b156d141f934c0e95798f341c1e5f736664f99feaf09d",
    ),
]


@pytest.mark.parametrize("players, options, seeds, expected", CASES)
def test_random_games_match_the_reference_digest(players, options, seeds, expected):
    game = kingmaker.make("kingpin", players, **options)
    assert digest(game, seeds) == expected
