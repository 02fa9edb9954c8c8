"""Balance evidence for San Quentin Kings: the guard variants and the heuristic bot's strength.

    python -m kingmaker.games.san_quentin_kings.balance guards --games 500 --players 4
    python -m kingmaker.games.san_quentin_kings.balance bot --games 500 --players 4

``guards`` plays heuristic bots in every seat with 6, 8 and 10 Guard cards and
reports, per variant, the final respect and fight points (mean and standard
deviation over all players), their spread within a game (best minus worst
player, averaged over games), the winner's respect, how many pieces went to
solitary (guards drawn) or left the game, and the win rate by seat. ``bot`` plays one
heuristic bot against random bots, the heuristic seat rotating, and reports its
win rate (a share of a tied win counts 1/k).
"""

from __future__ import annotations

import argparse
import statistics
import time

from ...agents import HeuristicAgent, RandomAgent
from ...core.match import Match
from ...core.registry import make
from .state import FP, GSIZE

__all__ = ["bot_win_rate", "guard_variants", "main"]


def _removed(game, s) -> int:
    total = 0
    for gang in game.view(s, None)["gangs"]:
        total += sum(gang.get("removed", [0, 0, 0]))
    return total


def guard_variants(games: int, players: int, guards: tuple[int, ...] = (6, 8, 10), seed: int = 0) -> list[dict]:
    """Returns one summary dict per guard count, from ``games`` heuristic games each."""
    out = []
    for gc in guards:
        game = make("san-quentin-kings", players=players, guards=gc)
        respect, fps, r_spread, f_spread, best, removed = [], [], [], [], [], []
        seat_wins = [0.0] * players
        guards_drawn = 0
        for i in range(games):
            m = Match(game, [HeuristicAgent() for _ in range(players)], seed=seed + i)
            m.run()
            s = m.state
            sc = game.scores(s)
            fp = [s.goods[p * GSIZE + FP] for p in range(players)]
            respect += sc
            fps += fp
            r_spread.append(max(sc) - min(sc))
            f_spread.append(max(fp) - min(fp))
            best.append(max(sc))
            removed.append(_removed(game, s))
            for p, r in enumerate(m.returns()):
                seat_wins[p] += r
            guards_drawn += sum(1 for e in m.log if e.text == "fight card guard")
        out.append({
            "guards": gc,
            "games": games,
            "respect_mean": statistics.mean(respect),
            "respect_sd": statistics.pstdev(respect),
            "respect_spread": statistics.mean(r_spread),
            "winner_respect": statistics.mean(best),
            "fp_mean": statistics.mean(fps),
            "fp_sd": statistics.pstdev(fps),
            "fp_spread": statistics.mean(f_spread),
            "pieces_removed": statistics.mean(removed),
            "guards_drawn": guards_drawn / games,
            "seat_win_rate": [w / games for w in seat_wins],
        })
    return out


def bot_win_rate(games: int, players: int = 4, seed: int = 0) -> float:
    """Returns the heuristic bot's share of wins against random bots (its seat rotates)."""
    game = make("san-quentin-kings", players=players)
    wins = 0.0
    for i in range(games):
        seat = i % players
        agents = [HeuristicAgent() if q == seat else RandomAgent() for q in range(players)]
        m = Match(game, agents, seed=seed + i)
        m.run()
        wins += m.returns()[seat]
    return wins / games


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m kingmaker.games.san_quentin_kings.balance")
    ap.add_argument("what", choices=("guards", "bot"))
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t = time.perf_counter()
    if args.what == "bot":
        rate = bot_win_rate(args.games, args.players, args.seed)
        print(f"heuristic vs {args.players - 1} random bots: win rate {rate:.3f} over {args.games} games "
              f"(a random seat expects {1 / args.players:.3f}); {time.perf_counter() - t:.0f} s")
        return
    rows = guard_variants(args.games, args.players, seed=args.seed)
    print(f"{args.players} players, heuristic bots in every seat, {args.games} games per variant "
          f"({time.perf_counter() - t:.0f} s)")
    print("| guards | respect mean (sd) | respect spread | winner's respect | fight points mean (sd) "
          "| fight-point spread | guards drawn | pieces removed | seat win rates |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        seats = " / ".join(f"{w:.2f}" for w in r["seat_win_rate"])
        print(f"| {r['guards']} | {r['respect_mean']:.1f} ({r['respect_sd']:.1f}) | {r['respect_spread']:.1f} "
              f"| {r['winner_respect']:.1f} | {r['fp_mean']:.2f} ({r['fp_sd']:.2f}) | {r['fp_spread']:.2f} "
              f"| {r['guards_drawn']:.1f} | {r['pieces_removed']:.2f} | {seats} |")


if __name__ == "__main__":
    main()
