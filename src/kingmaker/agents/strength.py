"""The strength measurements written to ``docs/agents.md``, as one reproducible script.

    python -m kingmaker.agents.strength --games 40 --jobs 2 [--game kings-kilt ...]
        [--agent ismcts:normal] [--opponents random,heuristic] [--out results.jsonl]

For each competitive game (at its smallest player count) the agent plays
against a table of ``random`` bots and against a table of the game's
``heuristic`` bots; for the co-operative game the team agent fills every seat
at each value of every escalation option (and the heuristic team does too, as
a baseline). Each run is an arena run (seats rotated, seeded), so the numbers
can be reproduced; each result is printed as a markdown table row and, with
``--out``, appended as a JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..core.registry import available_games, make
from .arena import run_arena, summarize

__all__ = ["main", "markdown_row", "measure"]


def _escalation_settings(game_id: str) -> list[dict]:
    game = make(game_id)
    opts = [o for o in game.options if "escal" in o.name.lower()] or list(game.options[:1])
    if not opts:
        return [{}]
    return [{opts[0].name: v} for v in opts[0].allowed]


def measure(game_id: str, agent: str, opponents: list[str], games: int, jobs: int, seed: int) -> list[dict]:
    """Returns the summaries of the measurement runs of one game."""
    game = make(game_id)
    n = game.num_players
    out = []
    if game.info.cooperative:
        team = agent if agent.startswith("team") else "team:" + (agent.partition(":")[2] or "normal")
        for options in _escalation_settings(game_id):
            for spec in (team, "heuristic"):
                result = run_arena(game_id, n, [spec] * n, games, jobs=jobs, seed=seed, options=options)
                out.append(summarize(result))
    else:
        for opp in opponents:
            result = run_arena(game_id, n, [agent] + [opp] * (n - 1), games, jobs=jobs, seed=seed)
            out.append(summarize(result))
    return out


def markdown_row(summary: dict) -> str:
    """Returns one markdown table row for a measurement summary."""
    opts = ", ".join(f"{k}={v}" for k, v in summary["options"].items())
    if summary["cooperative"]:
        t = summary["team"]
        a = summary["agents"][0]
        return (
            f"| {summary['game']} | {summary['players']} | {opts} | {a['agent']} (all seats) | "
            f"{summary['games']} | {t['win_rate']:.0%} | {t['ci95'][0]:.0%}-{t['ci95'][1]:.0%} | "
            f"{a['time_per_move']:.2f} |"
        )
    me, *others = summary["agents"]
    opp = others[0] if others else me
    return (
        f"| {summary['game']} | {summary['players']} | {me['agent']} | {opp['agent']} | {summary['games']} | "
        f"{me['win_rate']:.0%} | {me['ci95'][0]:.0%}-{me['ci95'][1]:.0%} | {me['fair_share']:.0%} | "
        f"{me['mean_return']:.2f} | {me['elo'] - opp['elo']:+.0f} | {me['time_per_move']:.2f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every game)")
    parser.add_argument("--agent", default="ismcts:normal")
    parser.add_argument("--opponents", default="random,heuristic")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="append each summary as a JSON line")
    args = parser.parse_args(argv)
    for gid in args.game or available_games():
        for summary in measure(gid, args.agent, args.opponents.split(","), args.games, args.jobs, args.seed):
            print(markdown_row(summary), flush=True)
            if args.out:
                with open(args.out, "a") as f:
                    f.write(json.dumps(summary) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
