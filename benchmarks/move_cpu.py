"""The CPU time of each decision of a bot: how long a player waits for its moves.

    python benchmarks/move_cpu.py GAME --players N --agent SPEC [--agent SPEC ...]
                                  [--games 4] [--seed 1] [-o key=value ...]

Plays ``--games`` games of GAME on seeded deals with SPEC on every seat (a co-operative
game's team, or a table of one kind of bot), through ``Match`` as every caller plays them,
and times each of the agent's decisions with ``time.process_time`` (this process's CPU, so
a busy machine changes little; an agent that forks searches, such as ``hard``, has its
children's time left out: use it for one-process agents). Prints a Markdown row a spec:
decisions, CPU a game, and the median, 90th, 99th percentile and slowest decision. A
decision with one legal move is not asked of the agent and is not counted.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from kingmaker import make
from kingmaker.agents import make_agent
from kingmaker.core.match import Match


class _Timed:
    """Wraps an agent and records the CPU time of each of its decisions."""

    def __init__(self, agent: Any, times: list[float]) -> None:
        self.agent, self.times = agent, times

    def __getattr__(self, name: str) -> Any:  # listens, inform...: the agent's own
        return getattr(self.agent, name)

    def act(self, obs: Any) -> int:
        t = time.process_time()
        action = self.agent.act(obs)
        self.times.append(time.process_time() - t)
        return action


def _pct(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", "-n", type=int, required=True)
    ap.add_argument("--agent", dest="agents", action="append", required=True)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--option", dest="opts", action="append", default=[])
    a = ap.parse_args()
    options: dict[str, Any] = {}
    for text in a.opts:
        key, _, value = text.partition("=")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    game = make(a.game, players=a.players, **options)
    print("| agent | games | decisions | CPU s a game | median | 90% | 99% | slowest |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in a.agents:
        times: list[float] = []
        for i in range(a.games):
            agents = [_Timed(make_agent(spec, game), times) for _ in range(a.players)]
            Match(game, agents, seed=a.seed + i).run()
        times.sort()
        print(f"| `{spec}` | {a.games} | {len(times)} | {sum(times) / a.games:.1f} | {_pct(times, 0.5):.3f} | "
              f"{_pct(times, 0.9):.3f} | {_pct(times, 0.99):.2f} | {times[-1]:.2f} |")


if __name__ == "__main__":
    main()
