"""How stable the turn planner's choice of a style is, and what more samples would buy.

    python benchmarks/plan_choice_stability.py [games a seed base, default 6] [seed bases, default 777000 777100]

Plays Gangs of Green City four-player games (4 escalations) with ``plan:hard`` (five styles,
60 samples) on every seat. At each decision where the styles act differently it rolls every
style out on 240 determinisations (common random numbers, as the planner does), plays the
style the first 60 choose (so the games are ``plan:hard``'s), and keeps the 240 x 5 scores.
Then it reports, over all those decisions:

- how often two independent choices of 60 samples agree, and a choice of 60 with one of 240;
- the held-out gap: the mean score (return plus 0.2 times the recruitments ended) on samples
  121-240 of the best style there, less that of the style chosen from samples 1-N (N = 20,
  40, 60, 90, 120), or of the default; a smaller gap is a better choice (the held-out best
  is itself flattered by noise, so the gaps are upper bounds; their differences compare);
- "racing": styles dropped as they fall behind, samples spent on the rest, at the same or
  a larger number of rollouts.

The scores are the planner's own (``PlanAgent._rollout``); the script changes no choice rule.
"""

from __future__ import annotations

import random
import sys
import time

import kingmaker
from kingmaker.agents.plan import PLAN_LEVELS, PlanAgent
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.core.match import Match

SAMPLES = 240
CHOOSE = 60


class _Recording(PlanAgent):
    """``plan:hard`` (five styles) that rolls every style out on 240 determinisations where the
    styles differ, keeps the scores, and chooses from the first 60 as ``plan:hard`` does."""

    def __init__(self, game, found: list) -> None:
        super().__init__(game, PLAN_LEVELS["hard"])
        self.found = found

    def _choose(self, obs, rng: random.Random) -> int:
        game, me = obs.game, obs.player
        rows = []
        for _ in range(SAMPLES):
            det = obs.sample(random.Random(rng.random()))
            seed = rng.random()
            rows.append([self._rollout(game, det, me, act, random.Random(seed)) for act in self._acts])
        self.found.append(rows)
        return _choose(rows[:CHOOSE])


def _decisions(game, seed: int) -> list[list[list[float]]]:
    """Plays one game; returns the score matrices (samples x styles) of its contested decisions."""
    found: list[list[list[float]]] = []
    agents = [_Recording(game, found) for _ in range(game.num_players)]
    match = Match(game, agents, seed=seed)
    while (cp := match.current_player) != TERMINAL:
        if cp == CHANCE:
            match.step_chance()
            continue
        p = cp if cp >= 0 else match.acting_players[0]
        match.play(agents[p].act(match.observation(p)), p)  # (the match tells the agents of it: ``inform``)
    return found


def _choose(rows: list[list[float]]) -> int:
    totals = [sum(r[i] for r in rows) for i in range(len(rows[0]))]
    return max(range(len(totals)), key=lambda i: (totals[i], -i))


def _race(rows: list[list[float]], first: int, margin: float, cap: int) -> tuple[int, int]:
    """Styles dropped when their total falls ``margin * sqrt(n)`` behind the leader's; (choice, rollouts)."""
    alive = list(range(len(rows[0])))
    totals = [0.0] * len(alive)
    n = cost = 0
    while n < cap and len(alive) > 1:
        step = first if n == 0 else 10
        for r in rows[n:n + step]:
            for i in alive:
                totals[i] += r[i]
        cost += step * len(alive)
        n += step
        lead = max(totals[i] for i in alive)
        alive = [i for i in alive if totals[i] >= lead - margin * n ** 0.5]
    return max(alive, key=lambda i: (totals[i], -i)), cost


def main(games: int = 6, bases: tuple[int, ...] = (777_000, 777_100)) -> None:
    game = kingmaker.make("gangs-of-green-city", players=4, escalations=4)
    t0 = time.process_time()
    found: list = []
    for base in bases:
        for k in range(games):
            found += _decisions(game, base + k)
    print(f"{games * len(bases)} games (seeds {', '.join(f'{b}-{b + games - 1}' for b in bases)}), "
          f"{len(found)} contested decisions, {time.process_time() - t0:.0f} CPU s")
    report(found)


def report(found: list[list[list[float]]]) -> None:
    """Prints the agreement and the held-out gaps of the score matrices ``found``."""
    n = len(found)
    same = sum(_choose(m[:60]) == _choose(m[60:120]) for m in found)
    whole = sum(_choose(m[:60]) == _choose(m) for m in found)
    print(f"choices that agree: two of 60 samples {same / n:.1%}; 60 and 240 {whole / n:.1%}")

    def gap(choice) -> tuple[float, float]:
        total = rollouts = 0.0
        for m in found:
            held = [sum(r[i] for r in m[120:]) / len(m[120:]) for i in range(len(m[0]))]
            c, cost = choice(m)
            total += max(held) - held[c]
            rollouts += cost
        return total / n, rollouts / n

    print("| choice | held-out gap | rollouts a decision |")
    print("|---|---|---|")
    print(f"| the default | {gap(lambda m: (0, 0))[0]:.4f} | 0 |")
    for k in (20, 40, 60, 90, 120):
        g, c = gap(lambda m, k=k: (_choose(m[:k]), k * len(m[0])))
        print(f"| {k} samples | {g:.4f} | {c:.0f} |")
    for first in (10, 20):
        for margin in (0.1, 0.3, 0.5):
            g, c = gap(lambda m, f=first, d=margin: _race(m[:120], f, d, 120))
            print(f"| racing from {first}, margin {margin} | {g:.4f} | {c:.0f} |")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*args[:1], *([tuple(args[1:])] if len(args) > 1 else []))
