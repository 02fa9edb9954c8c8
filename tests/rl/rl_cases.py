"""The games and player counts the adapter tests run on (every registered one)."""

from __future__ import annotations

import kingmaker

CASES = [
    (gid, n)
    for gid in kingmaker.available_games()
    for n in range(kingmaker.game_class(gid).min_players, kingmaker.game_class(gid).max_players + 1)
]
IDS = [f"{g}-{n}p" for g, n in CASES]
# One player count per game (the minimum) for the slower checks.
GAMES = [(gid, kingmaker.game_class(gid).min_players) for gid in kingmaker.available_games()]
GAME_IDS = [f"{g}-{n}p" for g, n in GAMES]


def game(gid: str, players: int) -> kingmaker.Game:
    """Returns the game; every registered game must declare the research surface."""
    g = kingmaker.make(gid, players=players)
    assert g.info.num_distinct_actions > 0 and g.info.observation_shape, (
        f"{gid} does not declare num_distinct_actions and observation_shape (docs/contract.md)"
    )
    return g
