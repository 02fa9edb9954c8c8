"""How much of a Gangs of Green City game's outcome the team heuristic's evaluation predicts.

    python benchmarks/ggc_eval_fit.py [games per player count, default 1500]

The team search (``team:normal``) rolls every iteration out to the end of the game,
about 190 moves, which makes a game cost about a CPU-minute. Cutting the rollouts
short (``depth``) needs a win chance for the position where they stop. This script
plays heuristic team games (4 escalations, 5% random moves, seed 1), takes every
third decision's position, and fits logistic models of the team's win on: nothing
(the base rate), ``bot.evaluate`` alone, the evaluation and the hero cards left,
and those with the recruitments ended, the war track and one product. Games with
``index % 5 == 0`` are held out; the table gives their mean log loss (lower is better).
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np

import kingmaker
from kingmaker.core.api import CHANCE
from kingmaker.core.match import sample_chance
from kingmaker.games.gangs_of_green_city import bot

MODELS = ("base rate", "evaluation", "evaluation, cards left", "all five")


def positions(players: int, games: int, seed: int = 1, explore: float = 0.05) -> tuple[list, list, list]:
    """Returns (game index, features, team won) of every third decision of ``games`` games."""
    game = kingmaker.make("gangs-of-green-city", players=players, escalations=4)
    rng = random.Random(seed)
    idx, feats, won = [], [], []
    for g in range(games):
        s = game.new_initial_state()
        seen = []
        while not game.is_terminal(s):
            cp = game.current_player(s)
            if cp == CHANCE:
                s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
                continue
            for p in [cp] if cp >= 0 else list(game.acting_players(s)):
                seen.append(s)
                a = rng.choice(game.legal_actions(s, p)) if rng.random() < explore else game.heuristic_action(s, p, rng)
                s = game.apply(s, a, p)
        r = game.returns(s)[0]
        for x in seen[::3]:
            idx.append(g)
            feats.append((bot.evaluate(x), len(x.hero_pool), bin(x.ended).count("1"), x.war))
            won.append(r)
    return idx, feats, won


def design(feats: list, model: str) -> np.ndarray:
    f = np.array(feats, float)
    ev, left, ended, war = f[:, 0] / 100, f[:, 1] / 10, f[:, 2], f[:, 3]
    one = np.ones(len(f))
    cols = {
        "base rate": [one],
        "evaluation": [one, ev],
        "evaluation, cards left": [one, ev, left],
        "all five": [one, ev, left, ended, war, ev * left],
    }[model]
    return np.stack(cols, 1)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-4) -> np.ndarray:
    """Logistic regression by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        hess = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        w -= np.linalg.solve(hess, x.T @ (p - y) + l2 * w)
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
    print(f"| players | games | team wins | positions | {' | '.join(MODELS)} | CPU s |")
    print("|---" * (5 + len(MODELS)) + "|")
    for players in (2, 3, 4):
        start = time.process_time()
        idx, feats, won = positions(players, games)
        g, y = np.array(idx), np.array(won, float)
        train, test = g % 5 != 0, g % 5 == 0
        losses = []
        for model in MODELS:
            x = design(feats, model)
            losses.append(log_loss(x[test], y[test], fit(x[train], y[train])))
        wins = sum(won[i] for i in range(len(idx)) if i == 0 or idx[i] != idx[i - 1])
        print(f"| {players} | {games} | {wins / games:.1%} | {len(idx)} | "
              + " | ".join(f"{v:.3f}" for v in losses) + f" | {time.process_time() - start:.0f} |")


if __name__ == "__main__":
    main()
