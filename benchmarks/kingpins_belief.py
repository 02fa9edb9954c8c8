"""How much Kingpins' belief knows: the share of the rivals' true cards a determinisation deals them.

    python benchmarks/kingpins_belief.py [--games 20] [--players 2 3 4]

Seat 0 follows seeded games of heuristic bots (``Match`` tells it every action as
its seat saw it) and, at each of its decisions, deals four determinisations the
plain way (``sample_hidden``: uniform among the deals its view allows) and four
by the belief (``belief=model``: a rival that ended its turn held no card that
fitted then, but what it has drawn since). The figure is the share of the
rivals' true cards that land in the right rival's hand. Knowing the hands would
score 1.0; a uniform deal scores about a hand's share of the unseen cards. No
timing: the result is the same on any machine.
"""

from __future__ import annotations

import argparse
import random

import kingmaker
from kingmaker.agents import make_agent
from kingmaker.core.match import Match
from kingmaker.games.kingpins import belief


class Follower:
    """A heuristic seat that keeps the belief's notes of the play."""

    def __init__(self, game):
        self.inner = make_agent("heuristic", game)
        self.notes = None

    def act(self, obs):
        return self.inner.act(obs)

    def listens(self, game) -> bool:
        return True

    def inform(self, obs, player, action):
        self.notes = belief.belief_update(obs.game, self.notes, obs.sample(random.Random(0)), obs.player, player, action)


def measure(players: int, games: int) -> tuple[float, float, int]:
    """Returns (uniform share, belief share, rival cards looked at)."""
    g = kingmaker.make("kingpins", players=players)
    right = {"uniform": 0, "belief": 0}
    cards = 0
    for seed in range(games):
        seat = Follower(g)
        m = Match(g, [seat] + [make_agent("heuristic", g) for _ in range(players - 1)], seed=seed)
        while not m.is_over():
            if m.current_player == 0:
                obs = m.observation(0)
                rng = random.Random(seed)
                for _ in range(4):
                    plain = obs.sample(rng)
                    dealt = belief.belief_sample(g, obs.sample(rng), 0, seat.notes, rng)
                    for q in range(1, players):
                        true = m.state.hands[q]
                        right["uniform"] += (plain.hands[q] & true).bit_count()
                        right["belief"] += (dealt.hands[q] & true).bit_count()
                        cards += true.bit_count()
            m.step()
    return right["uniform"] / cards, right["belief"] / cards, cards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = ap.parse_args()
    print("| players | games | uniform deal | belief deal | rival cards |")
    print("|---|---|---|---|---|")
    for n in args.players:
        u, b, cards = measure(n, args.games)
        print(f"| {n} | {args.games} | {u:.1%} | {b:.1%} | {cards} |")


if __name__ == "__main__":
    main()
