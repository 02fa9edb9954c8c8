"""San Quentin Kings: the rules' behaviour is pinned by digests of seeded random games.

Covers the whole flow of the rulebook (Set-up, the Action Blocks, Fights, Scoring
Fight, End of Year, the Riot, End Game Scoring): every state's repr, every legal
action list, every chance outcome list (with probabilities), the automatic steps
``rules.apply`` reports in its trace, and the final returns of seeded random games
are hashed. The reference digests were recorded from the code before the rules'
hot paths were optimised (issue 16 §1); a change of behaviour changes them.
"""

from __future__ import annotations

import pytest
from rules_digest import digest

import kingmaker
from kingmaker.games.san_quentin_kings import rules


def traced(game):
    """The step hook: the rules module's own ``apply`` gives the same state, and its trace is hashed."""

    def step(s, a, p, nxt):
        trace: list = []
        s2 = rules.apply(s, a, p, game.n, trace)
        assert nxt == s2 and hash(nxt) == hash(s2)
        return trace

    return step


# (players, options, seeds) -> the digest recorded from the unoptimised rules.
CASES = [
    (3, {}, range(40), "93ae1fdc53b269b21463122c15a720b9dba4aa4d6c1462d034352e2d6ae51d1b"),
    (4, {}, range(40), "95718eb0d2dcd277f72edc896b1724cc407aeb42688d0931404f443b981c77d1"),
    (5, {}, range(40), "0ac051883d9ecfad8dcad9844c9d7b7973ef367077997a5390e060cac7130b81"),
    (
        4,
        {"guards": 6},
        range(100, 115),
        "3bf6cc4917163457fa292b3ac1708b1c08638b4ab74817cfef2d53f366971414",
    ),
    (
        3,
        {"guards": 10},
        range(200, 215),
        "af0835ba32381a4841e21dd63e1e30a57170d251b9981ed2200e32ba6989f4b6",
    ),
]


@pytest.mark.parametrize("players, options, seeds, expected", CASES)
def test_random_games_match_the_reference_digest(players, options, seeds, expected):
    game = kingmaker.make("san-quentin-kings", players, **options)
    assert digest(game, seeds, traced(game)) == expected
