"""Kingpin: the rules' behaviour is pinned by digests of seeded random games.

Covers the whole flow of the rulebook (Setup, Gameplay: the action track, Movement,
Attack, Shootouts, Raids, Snipers, Winning; the optional rules Goodfellas and A Very
Long Night): every state's repr, every legal action list, every chance outcome list
(with probabilities) and the final returns of seeded random games are hashed. The reference digests were recorded from the code before the rules'
hot paths were optimised (issue 16 §1); a change of behaviour changes them.
"""

from __future__ import annotations

import pytest
from rules_digest import digest

import kingmaker

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
