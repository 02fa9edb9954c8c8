"""How well a team search picks a move in Gangs of Green City, against a paired reference.

    python benchmarks/ggc_team_regret.py [--players 4] [--positions 24] [--reference 800]
                                         [--repeats 3] [-j 2] SPEC [SPEC ...]

Positions: move decisions (4 to 40 legal moves, past the 15th step) taken at random (4%)
from heuristic team games (seeds 777, 778, ...; 4 escalations). The reference values every
legal move by the mean of ``--reference`` heuristic rollouts after it, the k-th rollout of
every move on the same dice (chance stream k, the heuristic's stream 99999 + k): paired, so
the moves' differences are sharper than their values. Returns are the team search's own
(the win 1, a loss credited ``0.2`` times the share of the game played, as ``survival``).
Each agent spec decides ``--repeats`` times at every position (streams 1000 * i + t); the
table gives its mean regret (the reference's best value less that of the move it chose),
how often it chose the reference's best move and how often the heuristic's. The reference
has its own noise (its best move is partly the luckiest), so the regrets have a floor
above 0; compare rows, not the regret with 0. The heuristic bot is the first row.
"""

from __future__ import annotations

import argparse
import random
import statistics as st
from concurrent.futures import ProcessPoolExecutor

import kingmaker
from kingmaker.agents import make_agent
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.core.match import Observation, sample_chance

_G: dict = {}


def _game(players: int):
    if players not in _G:
        _G[players] = kingmaker.make("gangs-of-green-city", players=players, escalations=4)
    return _G[players]


def rollout(game, s, crng: random.Random, hrng: random.Random, steps: int) -> float:
    """A heuristic rollout to the end; the team's return with the survival credit."""
    draw, h, maxlen = game.sample_chance_outcome, game.heuristic_action, game.info.max_game_length
    while True:
        cp = game.current_player(s)
        if cp == TERMINAL:
            break
        if cp == CHANCE:
            s = game.apply(s, draw(s, crng))
            steps += 1
            continue
        for p in [cp] if cp >= 0 else list(game.acting_players(s)):
            s = game.apply(s, h(s, p, hrng), p)
            steps += 1
    lo, hi = game.info.min_return, game.info.max_return
    r = (game.returns(s)[0] - lo) / (hi - lo)
    return r + 0.2 * min(1.0, steps / maxlen) * (1.0 - r) if r < 1 else r


def positions(game, n: int) -> list:
    out: list = []
    seed = 0
    while len(out) < n:
        rng = random.Random(777 + seed)
        seed += 1
        s, steps = game.new_initial_state(), 0
        while not game.is_terminal(s):
            cp = game.current_player(s)
            if cp == CHANCE:
                s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
                steps += 1
                continue
            for p in [cp] if cp >= 0 else list(game.acting_players(s)):
                legal = game.legal_actions(s, p)
                if cp >= 0 and 4 <= len(legal) <= 40 and rng.random() < 0.04 and steps > 15 and len(out) < n:
                    out.append((s, p, steps))
                s = game.apply(s, game.heuristic_action(s, p, rng), p)
                steps += 1
    return out


def reference(job) -> dict:
    players, s, p, steps, k = job
    game = _game(players)
    return {
        a: st.mean(rollout(game, game.apply(s, a, p), random.Random(i), random.Random(99999 + i), steps + 1)
                   for i in range(k))
        for a in game.legal_actions(s, p)
    }


def decide(job) -> int:
    players, spec, s, p, seed = job
    game = _game(players)
    obs = Observation(game, p, game.view(s, p), game.legal_actions(s, p),
                      lambda rng: game.sample_hidden(s, p, rng), random.Random(seed))
    return make_agent(spec, game).act(obs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--reference", type=int, default=800)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    game = _game(a.players)
    pos = positions(game, a.positions)
    with ProcessPoolExecutor(a.jobs) as pool:
        refs = list(pool.map(reference, [(a.players, s, p, steps, a.reference) for s, p, steps in pos]))
        spread = st.mean(max(v.values()) - min(v.values()) for v in refs)
        print(f"{len(pos)} positions, {a.players} players; the reference's best move is worth "
              f"{spread:.3f} more than its worst on average")
        print("| agent | mean regret | reference's best | the heuristic's move |")
        print("|---|---|---|---|")
        hs = [game.heuristic_action(s, p, random.Random(0)) for s, p, _ in pos for _ in range(a.repeats)]
        for spec in ["heuristic", *a.specs]:
            if spec == "heuristic":
                acts = hs
            else:
                jobs = [(a.players, spec, s, p, 1000 * i + t) for i, (s, p, _) in enumerate(pos)
                        for t in range(a.repeats)]
                acts = list(pool.map(decide, jobs))
            reg = [max(refs[j // a.repeats].values()) - refs[j // a.repeats][x] for j, x in enumerate(acts)]
            best = sum(r == 0 for r in reg) / len(reg)
            same = sum(x == h for x, h in zip(acts, hs)) / len(acts)
            print(f"| `{spec}` | {st.mean(reg):.4f} | {100 * best:.0f}% | {100 * same:.0f}% |", flush=True)


if __name__ == "__main__":
    main()
