"""Kingpin: can a value learned on the terms of ``evaluate`` judge the search's cut lines better?

The Kingpin network on the flat observation tensor ranks moves worse than the game's
``evaluate`` (benchmarks/expert.md, "Kingpin: where the network does not help"). This
script tries the other way round: learn on ``evaluate``'s own terms (material, the race,
No Man's Land, the attacks: ``features`` below, 20 numbers a seat), where the board's
geometry is already computed, and see whether the learned value beats ``evaluate``.

    python benchmarks/kingpin_learned_eval.py outcomes --games 3000    # fit to game outcomes
    python benchmarks/kingpin_learned_eval.py screen --games 40 --seed 16 --mix 0
    python benchmarks/kingpin_learned_eval.py search-values --games 40  # fit to hard's values

* ``outcomes``: heuristic games with 10% random moves (seeds 1 and 2 to fit, 3 held out,
  ``--games`` each), every position of play; a logistic regression and a one-layer network
  (32 tanh units, Adam) predict the winner from the features of both seats (averaged as
  ``win_chance`` averages ``evaluate``); reports the held-out mean log-likelihood and Brier
  score of each against ``win_chance`` itself, and writes the network to ``--out``.
* ``screen``: ``hard``'s max-min search with each cut line valued ``mix * win_chance + (1 -
  mix) * the network`` (what ``ismcts:expert/replies=8/mix=…`` does with the tensor network)
  against ``ismcts:hard/seconds=none`` in the arena, seats rotated.
* ``search-values``: ``hard`` against ``hard`` (10% of moves then replaced by a random one),
  and at each searched decision every judged move's value in ``hard``'s max-min search as
  the target for the position after it; a network of the same shape (with the scaled
  ``evaluate`` as one more input) is fitted, and the rank correlation of its values with
  the search's within each decision is compared with ``win_chance``'s (a fifth of the games
  held out).

Every position's features are checked against ``evaluate`` (the terms, weighted as it
weighs them, must give ``win_chance`` exactly), so the inputs are ``evaluate``'s and no
other's. Exploration, not shipped: nothing here is used by the agents.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

import kingmaker
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.games.kingpin import bot
from kingmaker.games.kingpin.bot import _best_attack, _race_bits, _tables, race
from kingmaker.games.kingpin.state import DRAW, END, PLAY

sys.path.insert(0, str(Path(__file__).parent))
from search_fits import _heuristic_game  # noqa: E402  (the same games: heuristic, 10% random moves)

NAMES = (
    "hand and deck", "board material", "board tiles", "board squares", "opponent to move",
    "race lost", "opponent's race threat", "own race threat", "1/own race", "1/opponent's race",
    "No Man's Land lost", "own NML count", "own NML closeness", "opponent NML count",
    "opponent's attack", "own attack", "own tiles on NML", "opponent's on NML",
    "own race/10", "opponent's race/10",
)
# ``evaluate``'s weights on the terms (``bot._base`` and ``bot._attacks_term``); "race lost"
# is its -WIN/2 cut-off, and the last four are extra inputs it does not use.
WEIGHTS = np.array([1, 1, 1, 1, 0, 0, -120, 60, 25, -40, -60, 12, 20, -12, -1, 0.3, 0, 0, 0, 0], float)


def features(game, s, p: int) -> list[float]:
    """``evaluate(game, s, p)``'s terms, one number each (``NAMES``), for a position of play."""
    tb = _tables(game)
    t = game.t
    q = 1 - p
    value, nml_d, on_sq = tb["value"], tb["nml"], tb["on_sq"]
    own = game.owners(s.mafia)
    f = [0.0] * len(NAMES)
    f[0] = sum(value[x] for x in s.hand[p] + s.deck[p]) - sum(value[x] for x in s.hand[q] + s.deck[q])
    nml, near, closest, tiles, bits = [0, 0], [0, 0], [9, 9], ([], []), [0, 0]
    for sq, c in enumerate(s.board):
        if c < 0:
            continue
        tl = c >> 2
        o = own[tl]
        tiles[o].append(sq)
        bits[o] |= 1 << sq
        if t.IN_NML[sq]:
            nml[o] += 1
        else:
            closest[o] = min(closest[o], nml_d[sq])
            near[o] += nml_d[sq] == 1
        sign = 1 if o == p else -1
        f[1] += sign * value[tl]
        f[2] += sign
        f[3] += sign * (on_sq[tl][sq] - value[tl] - 1.0)
    masks = tb["masks"]
    if masks is not None:  # (as evaluate: bit masks on a full grid, else the plain search)
        free = masks[1] & ~(bits[0] | bits[1])
        mine, theirs = _race_bits(masks, free, bits[p], p), _race_bits(masks, free, bits[q], q)
    else:
        mine, theirs = race(game, s.board, own, p), race(game, s.board, own, q)
    if (q if s.phase == DRAW else s.current) == q:
        f[4] = 1.0
        f[5] = float(theirs <= 1)
        f[6] = 1.0 / theirs if theirs <= mine and theirs <= 3 else 0.0
        f[7] = float(mine < theirs and mine <= 2)
    f[8], f[9] = 1.0 / mine, 1.0 / theirs
    f[10] = float(nml[p] == 0 and nml[q] == 2 and near[q] > 0)
    if nml[q] == 0 and nml[p] >= 2:
        f[11], f[12] = nml[p], 1.0 / closest[p]
    if nml[p] == 0 and nml[q] >= 2:
        f[13] = nml[q]
    opp = _best_attack(game, s.board, own, q, tiles[q], tb)
    me = _best_attack(game, s.board, own, p, tiles[p], tb)
    f[14] = max(0.0, opp) if opp is not None else 0.0
    f[15] = max(0.0, me) if me is not None else 0.0
    f[16], f[17] = nml[p], nml[q]
    f[18], f[19] = min(mine, 20) / 10, min(theirs, 20) / 10
    return f


def score(F: np.ndarray) -> np.ndarray:
    """``evaluate`` from the features (rows of ``features``)."""
    return np.where(F[:, 5] > 0, -bot.WIN / 2, F @ WEIGHTS)


def win_chance(F0: np.ndarray, F1: np.ndarray) -> np.ndarray:
    """``bot.win_chance`` for the seat of ``F0`` (its opponent's features ``F1``)."""
    sig = lambda x: 1 / (1 + np.exp(-np.clip(x / bot.WIN_SCALE, -40, 40)))  # noqa: E731
    return (sig(score(F0)) + 1 - sig(score(F1))) / 2


class Net:
    """One tanh layer and a sigmoid: a seat's value from its features (standardised)."""

    def __init__(self, inputs: int, hidden: int, seed: int, extra: bool) -> None:
        rng = np.random.default_rng(seed)
        self.extra = extra  # the scaled evaluate as one more input
        self.mu, self.sd = np.zeros(inputs), np.ones(inputs)
        self.p = [rng.normal(0, inputs ** -0.5, (inputs, hidden)), np.zeros(hidden),
                  rng.normal(0, hidden ** -0.5, hidden), np.zeros(1)]

    def inputs(self, F: np.ndarray) -> np.ndarray:
        return np.hstack([F, np.clip(score(F) / bot.WIN_SCALE, -40, 40)[:, None]]) if self.extra else F

    def _fwd(self, X: np.ndarray):
        h = np.tanh(X @ self.p[0] + self.p[1])
        return h, 1 / (1 + np.exp(-(h @ self.p[2] + self.p[3][0])))

    def value(self, F0: np.ndarray, F1: np.ndarray) -> np.ndarray:
        """The seat's value, averaged over both seats' views as ``win_chance`` does."""
        a = self._fwd((self.inputs(F0) - self.mu) / self.sd)[1]
        b = self._fwd((self.inputs(F1) - self.mu) / self.sd)[1]
        return (a + 1 - b) / 2

    def fit(self, F: np.ndarray, y: np.ndarray, epochs: int, seed: int, report=None) -> None:
        """Cross-entropy against targets in [0, 1] (outcomes or search values), Adam."""
        X = self.inputs(F)
        self.mu, self.sd = X.mean(0), X.std(0) + 1e-9
        X = (X - self.mu) / self.sd
        rng = np.random.default_rng(seed)
        m = [np.zeros_like(w) for w in self.p]
        v = [np.zeros_like(w) for w in self.p]
        t = 0
        for ep in range(epochs):
            order = rng.permutation(len(X))
            for k in range(0, len(order), 512):
                b = order[k:k + 512]
                h, out = self._fwd(X[b])
                d = (out - y[b]) / len(b)
                dh = np.outer(d, self.p[2]) * (1 - h ** 2)
                grads = [X[b].T @ dh + 1e-5 * self.p[0], dh.sum(0), h.T @ d, np.array([d.sum()])]
                t += 1
                for i, g in enumerate(grads):
                    m[i] = 0.9 * m[i] + 0.1 * g
                    v[i] = 0.999 * v[i] + 0.001 * g * g
                    self.p[i] -= 2e-3 * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)
            if report:
                report(ep)

    def save(self, path: str) -> None:
        np.savez(path, *self.p, mu=self.mu, sd=self.sd, extra=self.extra)

    @classmethod
    def load(cls, path: str) -> Net:
        z = np.load(path)
        net = cls(1, 1, 0, bool(z["extra"]))
        net.mu, net.sd, net.p = z["mu"], z["sd"], [z[f"arr_{i}"] for i in range(4)]
        return net


def _verify(F0: np.ndarray, F1: np.ndarray, wc: np.ndarray) -> None:
    err = float(np.abs(win_chance(F0, F1) - wc).max()) if len(wc) else 0.0
    if err > 1e-9:
        raise SystemExit(f"the features do not give evaluate back (largest error {err:.3g})")


def _loglik(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def outcomes(a) -> None:
    game = kingmaker.make("kingpin", players=2)
    data = {}
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        F0, F1, wc, y = [], [], [], []
        for _ in range(a.games):
            states = _heuristic_game(game, rng, explore=0.1)
            r = game.returns(states[-1])[0]
            for x in states:
                if x.phase == PLAY:
                    F0.append(features(game, x, 0))
                    F1.append(features(game, x, 1))
                    wc.append(bot.win_chance(game, x)[0])
                    y.append(r)
        data[seed] = tuple(np.array(v, float) for v in (F0, F1, wc, y))
        _verify(*data[seed][:3])
    F0 = np.vstack([data[1][0], data[2][0]])
    F1 = np.vstack([data[1][1], data[2][1]])
    y = np.concatenate([data[1][3], data[2][3]])
    T0, T1, twc, ty = data[3]
    print(f"positions: {len(y)} to fit, {len(ty)} held out ({a.games} games a seed)")
    print(f"  constant         log-lik {_loglik(np.full_like(ty, y.mean()), ty):.4f}")
    print(f"  win_chance       log-lik {_loglik(twc, ty):.4f}  Brier {np.mean((twc - ty) ** 2):.4f}")
    X = np.vstack([F0, F1])  # every position from both seats
    Y = np.concatenate([y, 1 - y])
    sd = X.std(0) + 1e-9
    Xb = np.hstack([X / sd, np.ones((len(X), 1))])
    w = np.zeros(Xb.shape[1])
    for _ in range(30):  # Newton's method, a little ridge
        p = 1 / (1 + np.exp(-Xb @ w))
        H = (Xb * (p * (1 - p))[:, None]).T @ Xb + 1e-3 * np.eye(len(w))
        w -= np.linalg.solve(H, Xb.T @ (p - Y) + 1e-3 * w)
    lin = lambda F: 1 / (1 + np.exp(-(np.hstack([F / sd, np.ones((len(F), 1))]) @ w)))  # noqa: E731
    pl = (lin(T0) + 1 - lin(T1)) / 2
    print(f"  logistic         log-lik {_loglik(pl, ty):.4f}  Brier {np.mean((pl - ty) ** 2):.4f}")
    net = Net(X.shape[1], 32, 0, extra=False)

    def report(ep: int) -> None:
        pn = net.value(T0, T1)
        print(f"  network epoch {ep} log-lik {_loglik(pn, ty):.4f}  Brier {np.mean((pn - ty) ** 2):.4f}", flush=True)

    net.fit(X, Y, a.epochs, 0, report)
    net.save(a.out)
    print(f"wrote {a.out}")


def screen(a) -> None:
    import json

    import kingmaker.agents.expert as expert
    from kingmaker.agents.arena import run_arena, summarize

    net = Net.load(a.net)

    def cut_leaf(self, obs):  # the expert's cut value with this network for the tensor one
        game, me, mix = obs.game, obs.player, self.expert.mix

        def leaf(s, est: float) -> float:
            v = net.value(np.array([features(game, s, me)]), np.array([features(game, s, 1 - me)]))
            return mix * est + (1.0 - mix) * float(v[0])

        return leaf

    expert.ExpertAgent._cut_leaf = cut_leaf  # this process and the arena's forked workers
    res = run_arena("kingpin", 2, [f"ismcts:expert/replies=8/mix={a.mix}", "ismcts:hard/seconds=none"],
                    a.games, jobs=a.jobs, seed=a.seed)
    summary = summarize(res)
    for row in summary["agents"]:
        lo, hi = row["ci95"]
        print(f"{row['agent']:<36} won {row['wins']:.0f} of {row['games']} ({row['win_rate']:.1%}, "
              f"{lo:.1%}-{hi:.1%}), {row['time_per_move']:.3f} s a move")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(summary, fh, indent=1, default=str)


def _rank_corr(pred: np.ndarray, y: np.ndarray, group: np.ndarray) -> float:
    """Mean Spearman correlation within each decision of three judged moves or more."""
    out = []
    for k in np.unique(group):
        sel = group == k
        if sel.sum() >= 3 and y[sel].std() > 1e-9 and pred[sel].std() > 1e-9:
            ra, rb = np.argsort(np.argsort(pred[sel])), np.argsort(np.argsort(y[sel]))
            out.append(np.corrcoef(ra, rb)[0, 1])
    return float(np.mean(out))


def search_values(a) -> None:
    from kingmaker.agents import make_agent
    from kingmaker.core.match import Match

    game = kingmaker.make("kingpin", players=2)
    rng = random.Random(a.seed)
    F0, F1, wc, V, decision, held, ended = [], [], [], [], [], [], []
    k = 0
    for g in range(a.games):
        agents = [make_agent("ismcts:hard/seconds=none", game) for _ in range(2)]
        match = Match(game, agents, seed=a.seed * 100_000 + g)
        while match.current_player != TERMINAL:
            cp = match.current_player
            if cp == CHANCE:
                match.step_chance()
                continue
            obs = match.observation(cp)
            act = agents[cp].act(obs)
            s = match.state  # (the script's own look at the state: for the targets only)
            values = getattr(agents[cp].last, "values", None) or {}
            if len(values) > 1 and s.phase == PLAY:  # (not the choice of mafias)
                k += 1
                for b, v in values.items():
                    after = game.apply(s, b, cp)
                    F0.append(features(game, after, cp))
                    F1.append(features(game, after, 1 - cp))
                    wc.append(bot.win_chance(game, after)[cp])
                    ended.append(after.phase == END)
                    V.append(v)
                    decision.append(k)
                    held.append(g % 5 == 0)
            if rng.random() < 0.1:
                act = rng.choice(obs.legal_actions)
            match.play(act, cp)
        print(f"  game {g + 1}: {len(V)} judged moves", file=sys.stderr, flush=True)
    F0, F1, wc, V = (np.array(x, float) for x in (F0, F1, wc, V))
    decision, held, ended = np.array(decision), np.array(held), np.array(ended)
    _verify(F0[~ended], F1[~ended], wc[~ended])
    print(f"judged moves: {len(V)} in {k} decisions of {a.games} games; held out: {held.sum()}")
    print(f"  win_chance after the move: rank corr. {_rank_corr(wc[held], V[held], decision[held]):.3f}")
    net = Net(F0.shape[1] + 1, 32, 0, extra=True)

    def report(ep: int) -> None:
        # (a move that ends the game: its result, for either estimator)
        pv = np.where(ended[held], wc[held], net.value(F0[held], F1[held]))
        print(f"  network epoch {ep}: rank corr. {_rank_corr(pv, V[held], decision[held]):.3f}, "
              f"mean squared error {np.mean((pv - V[held]) ** 2):.4f} "
              f"(win_chance {np.mean((wc[held] - V[held]) ** 2):.4f})", flush=True)

    fit = ~held & ~ended
    net.fit(np.vstack([F0[fit], F1[fit]]), np.concatenate([V[fit], 1 - V[fit]]), a.epochs, 0, report)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("outcomes")
    o.add_argument("--games", type=int, default=3000)
    o.add_argument("--epochs", type=int, default=6)
    o.add_argument("--out", default="kingpin-learned-eval.npz")
    s = sub.add_parser("screen")
    s.add_argument("--net", default="kingpin-learned-eval.npz")
    s.add_argument("--games", type=int, default=40)
    s.add_argument("--seed", type=int, default=16)
    s.add_argument("--mix", type=float, default=0.0)
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--json", default=None)
    v = sub.add_parser("search-values")
    v.add_argument("--games", type=int, default=40)
    v.add_argument("--seed", type=int, default=11)
    v.add_argument("--epochs", type=int, default=4)
    a = ap.parse_args()
    {"outcomes": outcomes, "screen": screen, "search-values": search_values}[a.cmd](a)


if __name__ == "__main__":
    main()
