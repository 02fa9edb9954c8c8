"""How well does the expert's value network tell a position's moves apart? (issue 16 §3)

For decision points of seeded heuristic games, every legal move of the seat to act is
valued four ways, each from the seat's own view (determinisations drawn with the match's
sampler, never the true state):

* reference: the mean of ``--reference`` heuristic rollouts after the move (each from a
  fresh determinisation), the value a search with unlimited rollouts converges to;
* network: the expert network's value for the seat after the move, on one determinisation
  (as the search reads it at a leaf), and averaged over ``--net-samples`` of them;
* k rollouts: the mean of k fresh heuristic rollouts after the move, for k = 1, 2, 4, 8;
* random: a random value (what choosing blindly scores);
* network, own tensor: the seat's value from its own observation tensor after the move
  (which holds its hidden cards; the search reads the acting seat's);
* in games whose search cuts its rollouts (a ``depth`` hint: Kingpin, Kingpins), one
  rollout cut there and valued by the network instead of the game's ``evaluate``, and by
  half of each: the leaf of ``ismcts:expert/replies=k`` (hard's max-min search with the
  network at the cut) at ``mix=0`` and ``mix=0.5``, against ``1 rollouts`` (``mix=1``).

For each estimator it prints, over the positions: how often its best move is the
reference's best, the mean regret of its best move (the reference's value of the best move
less that of the move it picks), and the mean rank correlation (Spearman) with the
reference. So "the network is worth k rollouts" can be read off in the game's own terms.

    python benchmarks/expert_value_ranking.py --game kings-kilt --players 2 --positions 40
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from kingmaker.agents import make_agent
from kingmaker.agents.expert import _net_evaluate, _roll, _unit, load_net
from kingmaker.agents.search import _policy
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.core.match import Match, sample_chance
from kingmaker.core.registry import make


def positions(game, count: int, seed: int) -> list[tuple[Match, int]]:
    """Decision points with a choice, one in three, of seeded heuristic games."""
    out: list[tuple[Match, int]] = []
    g = 0
    while len(out) < count:
        m = Match(game, [make_agent("heuristic", game) for _ in range(game.num_players)], seed=seed + g)
        g += 1
        k = 0
        while not m.is_over() and len(out) < count:
            cp = m.current_player
            if cp >= 0 and len(m.legal_actions(cp)) > 1:
                k += 1
                if k % 3 == 1:
                    snap = Match(game, None, seed=seed + 1000 + len(out))
                    snap._state = m.state
                    out.append((snap, cp))
            m.step()
    return out


def ranks(xs: list[float]) -> list[float]:
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for t in range(i, j + 1):
            r[order[t]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a: list[float], b: list[float]) -> float | None:
    ra, rb = ranks(a), ranks(b)
    if len(set(ra)) < 2 or len(set(rb)) < 2:
        return None
    return statistics.correlation(ra, rb)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kings-kilt")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--reference", type=int, default=300)
    ap.add_argument("--net-samples", type=int, default=16)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--net", default=None, help="a network file instead of the shipped one")
    ap.add_argument("--reference-to-end", action="store_true",
                    help="play the reference's rollouts to the end of the game, not to the search's cut "
                         "(where the game's evaluate would otherwise judge both the reference and the "
                         "rollout estimators)")
    ap.add_argument("--net-cuts", default="",
                    help="comma-separated decision counts d: adds 'k rollouts cut after d, network "
                         "there' for k = 1, 4 (any game; a search whose rollouts stop early could "
                         "run more of them)")
    args = ap.parse_args()
    game = make(args.game, players=args.players)
    net = load_net(game, args.net)
    lo, hi = game.info.min_return, game.info.max_return
    scale = 1.0 / (hi - lo) if hi > lo else 1.0
    n = game.num_players
    depth = game.search_hints.get("depth")
    rng = random.Random(args.seed)
    policy = _policy(game, "heuristic", 0.0, rng)
    start = time.process_time()

    def after(obs, a):
        s = obs.sample(rng)
        s = game.apply(s, a, obs.player)
        while game.current_player(s) == CHANCE:
            s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
        return s

    def rollout(obs, a, cut=depth, evaluate=game.evaluate) -> float:
        s = after(obs, a)
        z = _roll(game, s, policy, evaluate, cut, rng, game.info.max_game_length)
        return 0.5 if z is None else (z[obs.player] - lo) * scale

    ref_cut = None if args.reference_to_end else depth

    def net_value(obs, a) -> float:
        s = after(obs, a)
        cp = game.current_player(s)
        if cp == TERMINAL:
            return (game.returns(s)[obs.player] - lo) * scale
        q = cp if cp >= 0 else game.acting_players(s)[0]
        _, v = net(game.observation_tensor(s, q))
        return _unit(v[(obs.player - q) % n])

    def seat_value(s, me) -> float:
        """The network's value for seat ``me`` from its own tensor of ``s``."""
        return _unit(net.value(game.observation_tensor(s, me))[0])

    def own_value(obs, a) -> float:
        """The network's value for the seat from the seat's own tensor after the move (which
        holds the seat's hidden cards), where ``net_value`` reads the acting seat's."""
        s = after(obs, a)
        if game.current_player(s) == TERMINAL:
            return (game.returns(s)[obs.player] - lo) * scale
        return seat_value(s, obs.player)

    def cut_value(obs, a, w: float) -> float:
        """One rollout to the search's cut, valued ``w * evaluate + (1 - w) * network`` there."""
        me = obs.player

        def mixed(s):  # the game's estimate with the seat's entry mixed with the network's value
            est = game.evaluate(s)
            if est is None:
                return None
            out = list(est)
            out[me] = w * est[me] + (1 - w) * (lo + seat_value(s, me) / scale)
            return out

        return rollout(obs, a, depth, mixed)

    at_cut = _net_evaluate(game, net, lo, scale)  # the search's cut=net, as it reads the network

    ests = ["random (for scale)", "network, 1 sample", f"network, mean of {args.net_samples}"] + [f"{k} rollouts" for k in (1, 2, 4, 8)]
    cuts = {"1 rollout, network at the cut": 0.0, "1 rollout, half and half": 0.5} if depth is not None else {}
    ests += list(cuts)
    owns = ["network, own tensor", f"network, own tensor, mean of {args.net_samples}"]
    ests += owns
    net_cuts = {}
    for d in (int(x) for x in args.net_cuts.split(",") if x.strip()):
        for k in (1, 4):
            net_cuts[f"{k} rollouts cut at {d}, net"] = (k, d)
    ests += list(net_cuts)
    cost = {e: 0.0 for e in ests}
    calls = {e: 0 for e in ests}
    hit = {e: 0 for e in ests}
    regret: dict[str, list[float]] = {e: [] for e in ests}
    corr: dict[str, list[float]] = {e: [] for e in ests}
    spread = []
    pts = positions(game, args.positions, args.seed)
    for m, p in pts:
        obs = m.observation(p)
        legal = list(obs.legal_actions)
        ref = {a: statistics.fmean(rollout(obs, a, ref_cut) for _ in range(args.reference)) for a in legal}
        best = max(ref.values())
        spread.append(best - min(ref.values()))
        fns = {
            ests[0]: lambda obs, a: rng.random(),
            ests[1]: net_value,
            ests[2]: lambda obs, a: statistics.fmean(net_value(obs, a) for _ in range(args.net_samples)),
        }
        for k, e in zip((1, 2, 4, 8), ests[3:7]):
            fns[e] = lambda obs, a, k=k: statistics.fmean(rollout(obs, a) for _ in range(k))
        for e, w in cuts.items():
            fns[e] = lambda obs, a, w=w: cut_value(obs, a, w)
        fns[owns[0]] = own_value
        fns[owns[1]] = lambda obs, a: statistics.fmean(own_value(obs, a) for _ in range(args.net_samples))
        for e, (k, d) in net_cuts.items():
            fns[e] = lambda obs, a, k=k, d=d: statistics.fmean(
                rollout(obs, a, d, at_cut) for _ in range(k)
            )
        vals = {}
        for e, fn in fns.items():
            t0 = time.process_time()
            vals[e] = {a: fn(obs, a) for a in legal}
            cost[e] += time.process_time() - t0
            calls[e] += len(legal)
        for e in ests:
            v = vals[e]
            pick = max(legal, key=lambda a: (v[a], rng.random()))
            hit[e] += ref[pick] == best
            regret[e].append(best - ref[pick])
            c = spearman([v[a] for a in legal], [ref[a] for a in legal])
            if c is not None:
                corr[e].append(c)
    cpu = time.process_time() - start
    print(f"{game.name}, {n} players: {len(pts)} positions, reference {args.reference} rollouts a move"
          f"{' to the end' if ref_cut is None else f' cut after {ref_cut} decisions'}, "
          f"{cpu:.0f} CPU s; the reference's best move is worth {statistics.fmean(spread):.3f} more "
          "than its worst on average")
    print(f"{'estimator':<28} {'best move':>10} {'mean regret':>12} {'rank corr.':>11} {'CPU ms a move':>14}")
    for e in ests:
        c = statistics.fmean(corr[e]) if corr[e] else float("nan")
        ms = 1000 * cost[e] / max(calls[e], 1)
        print(f"{e:<28} {hit[e] / len(pts):>10.1%} {statistics.fmean(regret[e]):>12.4f} {c:>11.3f} {ms:>14.3f}")


if __name__ == "__main__":
    main()
