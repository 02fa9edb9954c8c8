"""Side by side: whole seeded co-operative team games, this tree against another checkout.

    python benchmarks/team_game_speed.py --base /tmp/base/src [--game gangs-of-green-city]
        [--players 4] [--seeds 3,4] [--iterations 30] [--rounds 2] [--option escalations=4]

Plays ``team:normal/seconds=none/iterations=N`` on every seat of the same seeded game with
each tree, in alternating child processes, ``--rounds`` times, and prints each game's CPU
seconds (``time.process_time``; the best round of each tree) with a digest of its log. A
change meant to keep every decision must show the same digest in both columns; the ratio is
then a like-for-like speed-up of the search inside real games (the decision points of
``search_speed.py`` come from random play, where a team rarely gets far).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import hashlib, json, sys, time
import kingmaker
from kingmaker.agents.arena import run_match
gid, players, seed, iters, opts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], json.loads(sys.argv[5])
g = kingmaker.make(gid, players, **opts)
t0 = time.process_time()
m, st = run_match(g, [f"team:normal/seconds=none/iterations={iters}"] * players, seed)
cpu = time.process_time() - t0
digest = hashlib.sha1(repr([(e.player, e.action) for e in m.log]).encode()).hexdigest()[:12]
print(json.dumps({"cpu": cpu, "digest": digest, "moves": sum(st["moves"]), "returns": m.returns()}))
"""


def run(src: str, gid: str, players: int, seed: int, iters: int, opts: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=src)
    args = [sys.executable, "-c", CHILD, gid, str(players), str(seed), str(iters), json.dumps(opts)]
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _value(text: str):
    try:
        return int(text)
    except ValueError:
        return {"true": True, "false": False}.get(text, text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the src/ folder of the checkout to compare against")
    ap.add_argument("--new", default=os.path.join(os.path.dirname(__file__), "..", "src"))
    ap.add_argument("--game", default="gangs-of-green-city")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seeds", default="3,4")
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--option", action="append", default=[], help="a game option, name=value")
    a = ap.parse_args()
    opts = {k: _value(v) for k, v in (o.split("=", 1) for o in a.option)}
    print(f"{'seed':>5} {'moves':>6} {'base CPU s':>11} {'new CPU s':>10} {'ratio':>6}  digests")
    total = {"base": 0.0, "new": 0.0}
    for seed in (int(x) for x in a.seeds.split(",")):
        best: dict[str, dict] = {}
        for _ in range(a.rounds):
            for name, src in (("base", a.base), ("new", a.new)):
                r = run(src, a.game, a.players, seed, a.iterations, opts)
                if name not in best or r["cpu"] < best[name]["cpu"]:
                    best[name] = r
        b, n = best["base"], best["new"]
        total["base"] += b["cpu"]
        total["new"] += n["cpu"]
        same = "same" if b["digest"] == n["digest"] else "DIFFERENT"
        print(f"{seed:>5} {n['moves']:>6} {b['cpu']:>11.2f} {n['cpu']:>10.2f} {b['cpu'] / n['cpu']:>6.2f}  "
              f"{b['digest']} {n['digest']} ({same})")
    print(f"{'all':>5} {'':>6} {total['base']:>11.2f} {total['new']:>10.2f} {total['base'] / total['new']:>6.2f}")


if __name__ == "__main__":
    main()
