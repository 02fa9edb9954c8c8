"""Training the expert's networks by self-play (the AlphaZero recipe on IS-MCTS).

    kingmaker train-expert kings-kilt -p 2 --generations 3 --games 60 --seed 0
    python -m kingmaker.agents.train_expert kings-kilt -p 2 --out nets/kings-kilt-2p.npz

Each generation plays ``games`` self-play games in which every seat is the
search; at a share ``search_share`` of the decisions (every decision in
generation 1+ when the share is 1) the search runs and its root visit counts,
normalised, become the policy target of the acting seat's observation tensor;
the other decisions are played by the game's heuristic (a cheap way to reach
many positions: KataGo's playout-cap randomisation). Every decision's
observation gets the game's final returns, scaled to [0, 1] and rotated to
the seat's point of view, as its value target (co-operative games: the team
agent's survival credit in lost games).

- Generation 0's search is ``ismcts:normal`` (heuristic rollouts and prior,
  the game's hints) with an iteration budget: the network starts by
  distilling the existing search, as a network trained from nothing would
  need far more games than this machine can play.
- Later generations' search is the expert itself (network prior and value,
  Dirichlet noise at the root), so the network learns from its own search.

After each generation the network takes ``epochs`` passes of Adam over the
replay buffer (the last ``window`` generations) on

    loss = CE(visits, softmax_legal(logits)) + value_coef * mean((V - z)^2) + l2 * |W|^2

A held-out tenth of each generation's games gives the curve's losses; with
``eval_games`` the new network's expert plays that many games against the
heuristic bots (a learning curve in wins). Every random choice comes from the
seed, so one command reproduces a network; the CPU time (this process and its
workers) is written in the file's meta and the curve.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# Small matrices: BLAS threads only spin on a shared machine (60 times the CPU time per step).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from ..core.api import CHANCE, TERMINAL  # noqa: E402
from ..core.errors import GameError  # noqa: E402
from ..core.match import Match, Observation, sample_chance  # noqa: E402
from ..core.registry import make  # noqa: E402
from ..rl.policy import MaskedPolicy  # noqa: E402
from ..rl.train import Adam, _clip  # noqa: E402
from .expert import NETS_DIR, ExpertAgent, ExpertConfig, ExpertNet, _roll  # noqa: E402
from .search import ISMCTSAgent, _policy, parse_level  # noqa: E402

__all__ = ["ExpertTrainConfig", "expert_gradients", "play_game", "train_expert"]


@dataclass
class ExpertTrainConfig:
    """Knobs of ``train_expert``.

    ``value_rollouts=k``: in the value-only games (``value_games``), every decision's value
    target is the mean of the game's outcome and k heuristic rollouts from the decision's
    state (the true one, so the hidden cards are dealt as the game dealt them): a target
    with a (k + 1)th of the outcome's variance, of the same quantity (the heuristic's
    expected return). Competitive games only.

    ``child_values=m``: at every searched decision, each root move the search visited at
    least m times also becomes a value row: the acting seat's observation tensor after the
    move (and, where another seat acts next, that seat's tensor), with the search's mean
    value of the move as the seat's value target (the other seats' columns are not
    trained). A position's moves then teach the network how they differ, which a single
    outcome per game does not; ``child_weight`` weighs each such row against a decision's
    (many more decisions than searched moves are played). ``teacher`` names the search
    level of generation 0 (``normal`` or ``hard``, one search, no time cap,
    ``teacher_iterations`` iterations).
    """

    game: str = "kings-kilt"
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    generations: int = 2
    games: int = 40
    teacher_iterations: int = 100
    expert_iterations: int = 100
    search_share: float = 0.25
    expert_share: float = 0.5
    value_games: int = 0
    value_rollouts: int = 0
    child_values: int = 0
    child_weight: float = 1.0
    teacher: str = "normal"
    imitate: bool = False
    hidden: tuple[int, ...] = (128, 128)
    lr: float = 1e-3
    epochs: int = 20
    minibatch: int = 128
    value_coef: float = 1.0
    l2: float = 1e-5
    window: int = 3
    eval_games: int = 0
    eval_iterations: int = 100
    jobs: int = 1
    seed: int = 0


# ---- self-play -------------------------------------------------------------------------
def play_game(
    cfg: ExpertTrainConfig, generation: int, index: int, net: ExpertNet | None
) -> tuple[list[tuple[np.ndarray, int, dict[int, int] | None, int]], list[float], float]:
    """Plays one self-play game; returns its decisions, the value targets' returns and its CPU time.

    Each decision is (observation tensor, seat, root visits or None, legal count).
    """
    cpu = time.process_time()
    game = make(cfg.game, cfg.players, **cfg.options)
    seed = cfg.seed * 1_000_003 + generation * 10_007 + index
    rng = random.Random(seed)
    if net is None:
        search: Any = ISMCTSAgent(
            _teacher_config(game, cfg.teacher_iterations, cfg.teacher), name="teacher"
        )
    else:
        ecfg = ExpertConfig(
            iterations=cfg.expert_iterations,
            noise=0.25,
            survival=0.2 if game.info.cooperative else 0.0,
            opponents=game.search_hints.get("opponents", "public"),
        )
        search = ExpertAgent(net, ecfg, name="self")
    share = cfg.search_share if net is None else cfg.expert_share
    if index >= cfg.games:  # a value-only game: the heuristic plays every seat
        share = 0.0
    s = game.new_initial_state()
    decisions: list[tuple[np.ndarray, int, dict[int, int] | None, int]] = []
    children: list[tuple] = []  # child_values' rows: (x, seat, None, 0, target, mask)
    steps = 0
    k = cfg.value_rollouts if index >= cfg.games else 0
    if k and game.info.cooperative:
        raise GameError(
            "value_rollouts is for competitive games: a co-operative game's value target "
            "credits the team's survival, which a rollout does not measure; use 0"
        )
    lo, hi = game.info.min_return, game.info.max_return
    scale = 1.0 / (hi - lo) if hi > lo else 1.0
    sums: list[list[float]] = []  # per decision, the sum of its k rollouts' scaled returns
    if k:
        roll_rng = random.Random(seed ^ 0x5EED)  # apart from the game's stream: the same games
        roll_policy = _policy(game, "heuristic", 0.0, roll_rng)
    while True:
        cp = game.current_player(s)
        if cp == TERMINAL:
            break
        if cp == CHANCE:
            s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
            steps += 1
            continue
        players = (cp,) if cp >= 0 else tuple(game.acting_players(s))
        here = None
        if k:
            here = [0.0] * game.num_players
            for _ in range(k):
                z = _roll(game, s, roll_policy, None, None, roll_rng, game.info.max_game_length)
                if z is None:
                    raise GameError(f"{game.name}: a rollout did not end within the game's length")
                here = [a + (b - lo) * scale for a, b in zip(here, z)]
        for p in players:
            if here is not None:
                sums.append(here)
            legal = game.legal_actions(s, p)
            x = np.asarray(game.observation_tensor(s, p), dtype=np.float32)
            visits = None
            if len(legal) > 1 and rng.random() < share:
                state = s
                obs = Observation(
                    game,
                    p,
                    {},
                    list(legal),
                    lambda r, st=state, q=p: _determinise(game, st, q, r),
                    rng,
                )
                a = search.act(obs)
                visits = dict(search.last.visits or {})
                if cfg.child_values:
                    children += _child_rows(
                        game, s, p, visits, search.last.values or {}, cfg.child_values, cfg.child_weight
                    )
            elif len(legal) > 1:
                a = game.heuristic_action(s, p, rng)
                if cfg.imitate:  # the heuristic's move as a one-hot target over the legal moves
                    visits = dict.fromkeys(legal, 0)
                    visits[a] = 1
            else:
                a = legal[0]
            decisions.append((x, p, visits, len(legal)))
            s = game.apply(s, a, p)
            steps += 1
    r = [(v - lo) * scale for v in game.returns(s)]
    if k:  # each decision's own target: the mean of the outcome and its k rollouts
        decisions = [
            (*d, [(a + b) / (k + 1) for a, b in zip(r, own)]) for d, own in zip(decisions, sums)
        ]
    decisions += children
    if game.info.cooperative:
        team = sum(r) / len(r)
        if team < 1.0:
            r = [
                team + 0.2 * min(1.0, steps / max(1, game.info.max_game_length)) * (1.0 - team)
            ] * len(r)
    return decisions, r, time.process_time() - cpu


def _child_rows(
    game: Any,
    s: Any,
    p: int,
    visits: dict[int, int],
    values: dict[int, float],
    least: int,
    weight: float = 1.0,
) -> list[tuple]:
    """Value rows for the root moves the search visited ``least`` times or more (child_values).

    Each row is (tensor, seat, None, 0, target, mask) with the target and mask in true seat
    order (``_to_arrays`` rotates them to the row's seat): only seat p's column, the
    search's mean value of the move for p, is trained, with ``weight`` for its mask.
    """
    n = game.num_players
    mask = [0.0] * n
    mask[p] = weight
    rows: list[tuple] = []
    for a, v in sorted(visits.items()):
        if v < least or a not in values:
            continue
        t = [0.0] * n
        t[p] = float(values[a])
        after = game.apply(s, a, p)
        q = game.current_player(after)
        if q == TERMINAL:
            continue  # the game's returns are its value: nothing for the network to learn here
        rows.append((np.asarray(game.observation_tensor(after, p), dtype=np.float32), p, None, 0, t, mask))
        if q >= 0 and q != p:  # the search reads a new node's values from its acting seat's tensor
            rows.append((np.asarray(game.observation_tensor(after, q), dtype=np.float32), q, None, 0, t, mask))
    return rows


def _determinise(game: Any, s: Any, p: int, rng: random.Random) -> Any:
    return game.sample_hidden(s, p, rng)


def _teacher_config(game: Any, iterations: int, level: str = "normal") -> Any:
    from dataclasses import replace

    if level not in ("normal", "hard"):
        raise GameError(f"teacher {level!r} is not known; use normal or hard", allowed=["normal", "hard"])
    levels = None
    if game.info.cooperative:
        from .search import TEAM_LEVELS

        levels = TEAM_LEVELS
    cfg = (
        parse_level(level, levels, game.search_hints)
        if levels
        else parse_level(level, hints=game.search_hints)
    )
    return replace(
        cfg,
        iterations=iterations,
        seconds=None,
        workers=1,
        rollout="heuristic" if cfg.rollout == "auto" else cfg.rollout,
        prior="heuristic" if cfg.prior == "auto" else cfg.prior,
    )


def _to_arrays(game: Any, games: list[tuple[list, list[float], float]]) -> dict[str, np.ndarray]:
    """Turns played games into training arrays: x, mask, pi, has_pi, z and its mask zm
    (seat-relative: column k is the seat k places after the row's)."""
    n = game.num_players
    na = game.info.num_distinct_actions
    xs, pis, has, zs, zms, masks = [], [], [], [], [], []
    ones = [1.0] * n
    for decisions, r, _ in games:
        for x, p, visits, _k, *own in decisions:
            rr = own[0] if own else r  # a decision's own target (value_rollouts), else the game's
            zm = own[1] if len(own) > 1 else ones  # which seats' values are trained, and how much
            xs.append(x)
            zs.append([rr[(p + k) % n] for k in range(n)])
            zms.append([zm[(p + k) % n] for k in range(n)])
            pi = np.zeros(na, dtype=np.float32)
            m = np.zeros(na, dtype=np.int8)
            if visits:
                tot = sum(visits.values())
                for a, v in visits.items():
                    m[a] = 1
                    pi[a] = v / tot if tot else 1.0 / len(visits)
            pis.append(pi)
            masks.append(m)
            has.append(1.0 if visits else 0.0)
    return {
        "x": np.stack(xs).astype(np.float32),
        "mask": np.stack(masks),
        "pi": np.stack(pis),
        "has": np.asarray(has, dtype=np.float32),
        "z": np.asarray(zs, dtype=np.float32),
        "zm": np.asarray(zms, dtype=np.float32),
    }


# ---- learning --------------------------------------------------------------------------
def expert_gradients(
    net: ExpertNet,
    x: np.ndarray,
    mask: np.ndarray,
    pi: np.ndarray,
    has: np.ndarray,
    z: np.ndarray,
    value_coef: float = 1.0,
    l2: float = 0.0,
    zm: np.ndarray | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """Returns the gradients of the AlphaZero loss for a batch, and its parts.

    Policy: cross-entropy of the visit distribution ``pi`` against the masked
    softmax, on the rows with a search (``has``); value: mean squared error of
    every seat's value against ``z``, each term weighted by ``zm`` when it is given (0: that
    seat's value is not trained; without ``zm`` every term weighs 1).
    """
    pol = net.policy
    logits, _, acts = pol.forward(x)
    pr = MaskedPolicy.masked_probs(logits, np.where(mask.sum(axis=1, keepdims=True) > 0, mask, 1))
    npol = max(float(has.sum()), 1.0)
    legal = mask > 0
    logp = np.log(np.where(legal, pr, 1.0) + 1e-12)
    ce = -(pi * np.where(legal, logp, 0.0)).sum(axis=1)
    dlogits = np.where(legal, pr - pi, 0.0) * (has / npol)[:, None]
    h = acts[-1]
    p = pol.params
    values = h @ p["Wv"] + p["bv"]
    if zm is None:
        zm = np.ones_like(z)
    nval = max(float(zm.sum()), 1.0)
    dv = (2.0 * value_coef / nval) * zm * (values - z)
    grads = {"Wp": h.T @ dlogits, "bp": dlogits.sum(axis=0), "Wv": h.T @ dv, "bv": dv.sum(axis=0)}
    dh = dlogits @ p["Wp"].T + dv @ p["Wv"].T
    for i in range(pol.layers - 1, -1, -1):
        dzz = dh * (1.0 - acts[i + 1] ** 2)
        grads[f"W{i}"] = acts[i].T @ dzz
        grads[f"b{i}"] = dzz.sum(axis=0)
        if i:
            dh = dzz @ p[f"W{i}"].T
    if l2:
        for k in grads:
            if k.startswith("W"):
                grads[k] = grads[k] + 2.0 * l2 * p[k]
    stats = {
        "policy_loss": float((ce * has).sum() / npol),
        "value_loss": float((zm * (values - z) ** 2).sum() / nval),
    }
    return {k: v.astype(np.float32) for k, v in grads.items()}, stats


def _losses(net: ExpertNet, data: dict[str, np.ndarray], chunk: int = 4096) -> dict[str, float]:
    """The policy and value losses over ``data``, in chunks (a whole buffer's logits at once
    would take several times the buffer's memory)."""
    pol = val = npol = nval = 0.0
    size = len(data["x"])
    for i in range(0, size, chunk):
        part = slice(i, i + chunk)
        has = data["has"][part]
        zm = data["zm"][part]
        _, st = expert_gradients(
            net, data["x"][part], data["mask"][part], data["pi"][part], has, data["z"][part], zm=zm
        )
        k = float(has.sum())
        pol += st["policy_loss"] * k
        npol += k
        val += st["value_loss"] * float(zm.sum())
        nval += float(zm.sum())
    return {"policy_loss": pol / max(npol, 1.0), "value_loss": val / max(nval, 1.0)}


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([d[k] for d in parts]) for k in parts[0]}


def fit(
    net: ExpertNet,
    opt: Adam,
    data: dict[str, np.ndarray],
    cfg: ExpertTrainConfig,
    rng: np.random.Generator,
    steps: int | None = None,
) -> int:
    """Takes Adam steps over ``data`` (``epochs`` passes, or ``steps`` steps); returns the count."""
    size = len(data["x"])
    taken = 0
    epochs = cfg.epochs if steps is None else 10**9
    for _ in range(epochs):
        order = rng.permutation(size)
        for i in range(0, size, cfg.minibatch):
            idx = order[i : i + cfg.minibatch]
            grads, _ = expert_gradients(
                net,
                data["x"][idx],
                data["mask"][idx],
                data["pi"][idx],
                data["has"][idx],
                data["z"][idx],
                cfg.value_coef,
                cfg.l2,
                data["zm"][idx],
            )
            _clip(grads, 5.0)
            opt.step(net.policy.params, grads)
            taken += 1
            if steps is not None and taken >= steps:
                net.__init__(net.policy)  # refresh the cached views of the weights
                return taken
    net.__init__(net.policy)
    return taken


def _eval(net: ExpertNet, cfg: ExpertTrainConfig, generation: int) -> tuple[float, int]:
    """Plays the expert against heuristic bots; returns its mean scaled return and the games."""
    game = make(cfg.game, cfg.players, **cfg.options)
    lo, hi = game.info.min_return, game.info.max_return
    total = 0.0
    for g in range(cfg.eval_games):
        seat = g % cfg.players
        ecfg = ExpertConfig(
            iterations=cfg.eval_iterations,
            survival=0.2 if game.info.cooperative else 0.0,
            opponents=game.search_hints.get("opponents", "public"),
        )
        agents: list[Any] = [
            ExpertAgent(net, ecfg) if game.info.cooperative or i == seat else None
            for i in range(cfg.players)
        ]
        from .basic import HeuristicAgent

        agents = [a if a is not None else HeuristicAgent() for a in agents]
        m = Match(game, agents, seed=cfg.seed * 7919 + generation * 101 + g)
        m.run()
        total += (m.returns()[seat] - lo) / (hi - lo)
    return total / max(cfg.eval_games, 1), cfg.eval_games


def _play_many(cfg: ExpertTrainConfig, generation: int, net: ExpertNet | None) -> list:
    extra = cfg.value_games if generation == 0 else 0
    jobs = [(cfg, generation, i, net) for i in range(cfg.games + extra)]
    if cfg.jobs <= 1:
        return [play_game(*j) for j in jobs]
    import multiprocessing as mp

    with mp.get_context("fork").Pool(cfg.jobs) as pool:
        return pool.starmap(play_game, jobs, chunksize=1)


def train_expert(
    cfg: ExpertTrainConfig,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    max_steps: int | None = None,
) -> tuple[ExpertNet, list[dict[str, Any]]]:
    """Trains a network; returns it and one curve row per generation (and its first, untrained row).

    ``max_steps`` caps the Adam steps of each generation (a smoke test).
    """
    cpu0 = time.process_time()
    game = make(cfg.game, cfg.players, **cfg.options)
    net = ExpertNet.for_game(game, cfg.hidden, cfg.seed)
    opt = Adam(net.policy.params, cfg.lr)
    nrng = np.random.default_rng(cfg.seed)
    buffer: list[dict[str, np.ndarray]] = []
    held: list[dict[str, np.ndarray]] = []
    rows: list[dict[str, Any]] = []
    worker_cpu = 0.0
    for gen in range(cfg.generations):
        played = _play_many(cfg, gen, net if gen > 0 else None)
        worker_cpu += sum(g[2] for g in played) if cfg.jobs > 1 else 0.0
        # Every tenth game is held out (the curve's losses), the rest is learnt from.
        keep = [g for i, g in enumerate(played) if i % 10 != 5] if len(played) >= 6 else played
        buffer = (buffer + [_to_arrays(game, keep)])[-cfg.window :]
        if len(played) >= 6:
            held.append(_to_arrays(game, played[5::10]))
        steps = fit(net, opt, _concat(buffer), cfg, nrng, max_steps)
        row: dict[str, Any] = {
            "generation": gen,
            "games": (gen + 1) * cfg.games,
            "samples": int(sum(len(d["x"]) for d in buffer)),
            "searched": int(sum(float(d["has"].sum()) for d in buffer)),
            "steps": steps,
        }
        row.update({f"train_{k}": round(v, 4) for k, v in _losses(net, _concat(buffer)).items()})
        if held:
            row.update({f"held_{k}": round(v, 4) for k, v in _losses(net, _concat(held)).items()})
        if cfg.eval_games:
            score, k = _eval(net, cfg, gen)
            row["eval_score"] = round(score, 4)
            row["eval_games"] = k
        row["cpu_seconds"] = round(time.process_time() - cpu0 + worker_cpu, 1)
        rows.append(row)
        if on_row:
            on_row(row)
    net.policy.meta.update(
        {
            "kind": "expert",
            "trained": {
                k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(cfg).items()
            },
            "generations": cfg.generations,
            "games": cfg.games * cfg.generations,
            "cpu_seconds": rows[-1]["cpu_seconds"] if rows else 0.0,
            "curve": rows,
        }
    )
    return net, rows


def write_curve(rows: list[dict[str, Any]], path: str | Path) -> None:
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)


# The training settings the command line takes, by type (fields of ExpertTrainConfig).
_INT_SETTINGS = (
        "generations",
        "games",
        "teacher_iterations",
        "expert_iterations",
        "epochs",
        "minibatch",
        "window",
        "value_games",
        "value_rollouts",
        "child_values",
        "eval_games",
        "eval_iterations",
        "jobs",
        "seed",
)
_FLOAT_SETTINGS = ("search_share", "expert_share", "child_weight", "lr", "value_coef", "l2")


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="kingmaker train-expert", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("game")
    ap.add_argument("-p", "--players", type=int, default=None)
    d = ExpertTrainConfig()
    for name in _INT_SETTINGS:
        ap.add_argument("--" + name.replace("_", "-"), type=int, default=getattr(d, name))
    for name in _FLOAT_SETTINGS:
        ap.add_argument("--" + name.replace("_", "-"), type=float, default=getattr(d, name))
    ap.add_argument("--teacher", default="normal", choices=("normal", "hard"),
                    help="generation 0's search level (one search, no time cap)")
    ap.add_argument("--imitate", action="store_true",
                    help="heuristic-played decisions also teach the policy the heuristic's move")
    ap.add_argument("--hidden", default="128,128", help="hidden layer sizes, comma-separated")
    ap.add_argument("--out", default=None, help="the .npz to write (default: the shipped path)")
    ap.add_argument("--curve", default=None, help="a CSV of the learning curve")
    return ap


def main(argv: list[str] | None = None) -> int:
    a = _parser().parse_args(argv)
    players = a.players or make(a.game).num_players
    cfg = ExpertTrainConfig(
        game=a.game,
        players=players,
        hidden=tuple(int(h) for h in a.hidden.split(",") if h),
        imitate=a.imitate,
        teacher=a.teacher,
        **{
            k: getattr(a, k)
            for k in (*_INT_SETTINGS, *_FLOAT_SETTINGS)
        },
    )
    net, rows = train_expert(cfg, on_row=lambda r: print(json.dumps(r), flush=True))
    out = Path(a.out) if a.out else NETS_DIR / f"{a.game}-{players}p.npz"
    path = net.save(out)
    if a.curve:
        write_curve(rows, a.curve)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB), CPU {rows[-1]['cpu_seconds']} s")
    return 0


def _click_command() -> Any:
    import click

    @click.command(
        "train-expert",
        context_settings={"ignore_unknown_options": True, "help_option_names": []},
        add_help_option=False,
    )
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def train_expert_command(args: tuple[str, ...]) -> None:
        """Trains an expert network by self-play (kingmaker train-expert GAME -p N ...; --help)."""
        raise SystemExit(main(list(args)))

    return train_expert_command


command = _click_command()


if __name__ == "__main__":
    raise SystemExit(main())
