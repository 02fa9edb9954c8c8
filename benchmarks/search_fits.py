"""Re-fits the numbers behind two games' search evaluations (``Game.evaluate``).

    python benchmarks/search_fits.py            # both
    python benchmarks/search_fits.py kingpin    # or kingpins

* Kingpin: ``bot.WIN_SCALE``, the logistic scale that turns the heuristic
  bot's evaluation into a win chance, by maximum likelihood over the positions
  of heuristic games with 10% random moves (seeds 1 and 2, 80 games each).
* Kingpins: ``bot.ROUND_SPREAD``, the standard deviation of the difference of
  two players' scores in one round under the heuristic's play, per player count.
"""

from __future__ import annotations

import math
import random
import statistics
import sys

import kingmaker
from kingmaker.core.api import CHANCE
from kingmaker.core.match import sample_chance


def _heuristic_game(game, rng: random.Random, explore: float = 0.0) -> list:
    """Returns every state of one game of heuristic bots (a random move with probability
    ``explore``), the final state last."""
    s = game.new_initial_state()
    states = [s]
    while not game.is_terminal(s):
        cp = game.current_player(s)
        if cp == CHANCE:
            a = sample_chance(game.chance_outcomes(s), rng)
        elif explore and rng.random() < explore:
            a = rng.choice(game.legal_actions(s, cp))
        else:
            a = game.heuristic_action(s, cp, rng)
        s = game.apply(s, a, None if cp == CHANCE else cp)
        states.append(s)
    return states


def _positions(game, seed: int, games: int) -> list[tuple[float, float, float]]:
    """Returns (evaluation for player 0, for player 1, player 0's result) at every move."""
    from kingmaker.games.kingpin import bot
    from kingmaker.games.kingpin.state import PLAY

    rng = random.Random(seed)
    out = []
    for _ in range(games):
        states = _heuristic_game(game, rng, explore=0.1)
        r = game.returns(states[-1])[0]
        out += [(bot.evaluate(game, s, 0), bot.evaluate(game, s, 1), r) for s in states if s.phase == PLAY]
    return out


def fit_kingpin() -> None:
    game = kingmaker.make("kingpin", players=2)
    data = _positions(game, 1, 80) + _positions(game, 2, 80)

    def sig(x: float) -> float:
        return 1 / (1 + math.exp(-max(-50.0, min(50.0, x))))

    print(f"kingpin: {len(data)} positions")
    for scale in (5, 10, 15, 20, 30, 40, 60):
        ll = 0.0
        for e0, e1, r in data:
            v = (sig(e0 / scale) + 1 - sig(e1 / scale)) / 2
            ll += r * math.log(max(v, 1e-6)) + (1 - r) * math.log(max(1 - v, 1e-6))
        print(f"  scale {scale:>3}: mean log-likelihood {ll / len(data):.4f}")


def fit_kingpins() -> None:
    for n, games in ((2, 100), (3, 80), (4, 60)):
        game = kingmaker.make("kingpins", players=n)
        rng = random.Random(n)
        diffs = [h[0] - h[1] for _ in range(games) for h in _heuristic_game(game, rng)[-1].history]
        print(f"kingpins, {n} players: round score difference sd {statistics.pstdev(diffs):.1f}")


if __name__ == "__main__":
    wanted = sys.argv[1:] or ["kingpin", "kingpins"]
    if "kingpin" in wanted:
        fit_kingpin()
    if "kingpins" in wanted:
        fit_kingpins()
