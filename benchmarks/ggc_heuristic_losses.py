"""What the Gangs of Green City heuristic team holds when it loses, and what it spends its cards on.

    python benchmarks/ggc_heuristic_losses.py [--players 4] [--games 300] [--escalations 4] [--seed-base 0]

Plays the heuristic team on the seeds ``B + 1000 * players + i`` (``B = 0``: the tuning
seeds of ``ggc_heuristic_team.py``) and prints the team's wins, its card plays a game
(safe houses, escapes, portals, briefings, recruitments ended, hand-limit discards) and, for
every district still recruiting when a game is lost, whether the team held five of its
cards between them and whether one hand held four or more: where the team holds the cards
but not in one hand, what it lacked was a meeting.
"""

from __future__ import annotations

import argparse
from collections import Counter

from ggc_heuristic_team import heuristic_game

from kingmaker.games.gangs_of_green_city import actions as A
from kingmaker.games.gangs_of_green_city.data import DISTRICT, NUM_GANGS, NUM_POIS

KINDS = (
    (A.ESCAPE0, A.PORTAL0, "escape"),
    (A.PORTAL0, A.RIDE0, "portal"),
    (A.SAFE0, A.RECRUIT0, "safe house"),
    (A.RECRUIT0, A.BATTLE0, "recruitment ended"),
    (A.SHARE0, A.DISPATCH0, "briefing"),
    (A.DISCARD0, A.PAWN0, "discard"),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--escalations", type=int, default=4)
    ap.add_argument("--seed-base", type=int, default=0)
    a = ap.parse_args()
    plays: Counter = Counter()
    left: Counter = Counter()
    wins = 0
    for i in range(a.games):
        seed = a.seed_base + 1000 * a.players + i
        game, s = heuristic_game(a.players, a.escalations, seed,
                                 lambda _s, act: plays.update(name for lo, hi, name in KINDS if lo <= act < hi))
        if game.returns(s)[0] > 0:
            wins += 1
            continue
        for g in range(NUM_GANGS):
            if not s.ended >> g & 1:
                held = [sum(1 for c in h if c < NUM_POIS and DISTRICT[c] == g) for h in s.hands]
                left["districts"] += 1
                left["the team held 5+"] += sum(held) >= 5
                left["one hand held 4+"] += max(held) >= 4
    print(f"team won {wins} of {a.games} ({100 * wins / a.games:.1f}%)")
    print("card plays a game: " + ", ".join(f"{k} {v / a.games:.2f}" for k, v in sorted(plays.items())))
    print("districts still recruiting at a loss: " + ", ".join(f"{k} {v}" for k, v in left.items()))


if __name__ == "__main__":
    main()
