"""The shipped networks read as written against read with their tiny weights set to 0.

``kingmaker.rl.policy.MaskedPolicy.load`` sets every weight smaller than ``FLUSH`` (1e-20)
to 0: training leaves many, and their products are subnormal floats, which x86 processors
compute many times slower. For each network this prints, side by side in one run (the two
timed in turns on the same observation tensors, CPU time of this process):

- how many weights are set to 0;
- the CPU time of one pass (policy and value) as written and as read now;
- the largest change of a logit and of a value over those tensors (0 or a float32 rounding),
  and whether the best-rated action ever differs;
- with ``--moves N``, the expert's CPU a move on N decision points with each network
  (``ismcts:expert/workers=1``), and whether it chose the same move.

    python benchmarks/net_flush.py                       # every shipped network
    python benchmarks/net_flush.py kingpins-4p --moves 8
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

import numpy as np

from kingmaker.agents import make_agent
from kingmaker.agents.expert import SHIPPED_NETS, ExpertNet
from kingmaker.core.match import Match
from kingmaker.core.registry import make
from kingmaker.rl import policy
from kingmaker.rl.policy import FLUSH


def _as_written(path) -> ExpertNet:
    """The network read by the same reader with nothing set to 0."""
    with mock.patch.object(policy, "flush_tiny", lambda a: np.asarray(a, dtype=np.float32)):
        return ExpertNet.load(path)


def _points(game, seed: int, limit: int) -> list:
    """Decision points (state, seat) of a seeded heuristic game, at most ``limit``."""
    m = Match(game, [make_agent("heuristic", game) for _ in range(game.num_players)], seed=seed)
    out = []
    while not m.is_over() and len(out) < limit:
        cp = m.current_player
        if cp >= 0:
            out.append((m.state, cp))
        m.step()
    return out


def _pass_cpu(net: ExpertNet, xs: list, reps: int) -> float:
    start = time.process_time()
    for _ in range(reps):
        for x in xs:
            net(x)
    return (time.process_time() - start) / (reps * len(xs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="*", help="network stems, e.g. kingpins-4p (default: every shipped one)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--tensors", type=int, default=200)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--moves", type=int, default=0)
    a = ap.parse_args()
    stems = a.nets or sorted(p.stem for p in SHIPPED_NETS.glob("*.npz"))
    print(f"weights under {FLUSH:g} read as 0; CPU time a pass, the two timed in turns\n")
    print("| network | weights set to 0 | a pass as written (µs) | as read now (µs) | ratio | largest change: logit / value | best action differs |")
    print("|---|---|---|---|---|---|---|")
    moves = []
    for stem in stems:
        game_id, _, players = stem.rpartition("-")
        game = make(game_id, players=int(players.rstrip("p")))
        path = SHIPPED_NETS / f"{stem}.npz"
        old, new = _as_written(path), ExpertNet.load(path)
        zeroed = sum(int(((v != 0) & (new.policy.params[k] == 0)).sum()) for k, v in old.policy.params.items())
        total = sum(v.size for v in old.policy.params.values())
        points = _points(game, a.seed, a.tensors)
        xs = [np.asarray(game.observation_tensor(s, p), dtype=np.float32) for s, p in points]
        t_old = t_new = 0.0
        for _ in range(3):  # in turns, so that a change of load falls on both
            t_old += _pass_cpu(old, xs, a.reps)
            t_new += _pass_cpu(new, xs, a.reps)
        dl = dv = 0.0
        differs = 0
        for x in xs:
            (lo, vo), (ln, vn) = old(x), new(x)
            dl, dv = max(dl, float(np.abs(lo - ln).max())), max(dv, float(np.abs(vo - vn).max()))
            differs += int(np.argmax(lo) != np.argmax(ln))
        print(f"| {stem} | {zeroed:,} of {total:,} | {1e6 * t_old / 3:.1f} | {1e6 * t_new / 3:.1f} | "
              f"{t_old / t_new:.1f} | {dl:.2g} / {dv:.2g} | {differs} of {len(xs)} |")
        if a.moves:
            moves.append((stem, game, old, new, points))
    for stem, game, old, new, points in moves:
        chosen = [p for p in points if len(game.legal_actions(p[0], p[1])) > 1][:: 4][: a.moves]
        cpu = {"as written": 0.0, "as read now": 0.0}
        same = 0
        for s, p in chosen:
            picks = []
            for label, net in (("as written", old), ("as read now", new)):
                agent = make_agent("ismcts:expert/workers=1", game)
                agent.net = net
                snap = Match(game, None, seed=1)
                snap._state = s  # the authority's copy; the agent is given the observation only
                start = time.process_time()
                picks.append(agent.act(snap.observation(p)))
                cpu[label] += time.process_time() - start
            same += int(picks[0] == picks[1])
        n = max(len(chosen), 1)
        print(f"\n{stem}, the expert (workers=1) on {len(chosen)} decision points: "
              f"{cpu['as written'] / n:.3f} CPU s a move as written, {cpu['as read now'] / n:.3f} as read now "
              f"({cpu['as written'] / max(cpu['as read now'], 1e-9):.1f}x); the same move {same} of {len(chosen)} times")


if __name__ == "__main__":
    main()
