"""A baseline that learns: behaviour cloning, then masked PPO, in numpy (no torch, no jax).

    python -m kingmaker.rl.train --game kings-kilt --players 2 --opponent random \
        --teacher ismcts:easy --teacher-games 200 --episodes 0 --hidden 256 \
        --out kk.npz --curve curve.csv --plot curve.png

1. **Imitation** (optional, ``--teacher``): a teacher agent (any spec) plays
   the learning seat of ``teacher_games`` episodes against the opponents,
   deciding from its ``Observation`` only; the network is fitted to its moves
   (cross-entropy on the masked softmax, 15% of the moves held out).
2. **PPO** (``--episodes``): one seat (drawn at random each episode, so the
   policy learns every seat) plays ``KingmakerEnv`` against the opponents.
   Every update collects ``batch`` whole episodes from ``envs`` environments
   stepped in lockstep (one batched forward pass per step), then takes
   ``epochs`` passes of Adam steps over minibatches of PPO's loss

       loss = -mean(min(r A, clip(r, 1-e, 1+e) A)) + value_coef * mean((V(x) - G)^2) - entropy_coef * mean(H)

   with r the probability ratio of the new and the collecting policy, G the
   reward-to-go (the centred final reward: +0.5 a win, -0.5 a loss in two
   players; plus, for games with a ``score`` figure, potential-based shaping
   ``shaping * (score lead)/10`` that sums to the final lead and so leaves
   the best policy unchanged; no discount) and A = G - V(x), normalised.

The policy never chooses an illegal action: the mask zeroes it before the
softmax, so the gradient flows only through legal actions.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .gymnasium import KingmakerEnv
from .policy import MaskedPolicy

__all__ = ["Adam", "TrainConfig", "gradients", "log_probs", "plot_curve", "train", "write_curve"]


@dataclass
class TrainConfig:
    """Knobs of ``train`` (defaults: the shipped King's Kilt two-player policy)."""

    game: str = "kings-kilt"
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    opponents: str = "random"
    episodes: int = 20000
    batch: int = 64
    envs: int = 32
    hidden: tuple[int, ...] = (128,)
    lr: float = 3e-4
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5
    epochs: int = 4
    minibatch: int = 256
    clip: float = 0.2
    shaping: float = 0.5
    teacher: str | None = None
    teacher_games: int = 0
    imitation_epochs: int = 30
    init: str | None = None
    features: str | None = None
    seed: int = 0


class Adam:
    """Adam over a dict of numpy arrays (updated in place)."""

    def __init__(self, params: dict[str, np.ndarray], lr: float, b1: float = 0.9, b2: float = 0.999) -> None:
        self.lr, self.b1, self.b2 = lr, b1, b2
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        c1 = 1 - self.b1**self.t
        c2 = 1 - self.b2**self.t
        for k, g in grads.items():
            self.m[k] = self.b1 * self.m[k] + (1 - self.b1) * g
            self.v[k] = self.b2 * self.v[k] + (1 - self.b2) * g * g
            params[k] -= self.lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + 1e-8)


def gradients(
    policy: MaskedPolicy,
    x: np.ndarray,
    mask: np.ndarray,
    actions: np.ndarray,
    returns: np.ndarray,
    value_coef: float,
    entropy_coef: float,
    advantages: np.ndarray | None = None,
    old_logp: np.ndarray | None = None,
    clip: float = 0.2,
) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """Returns the loss gradients for a batch of decisions, and loss statistics.

    Without ``old_logp`` the policy term is plain policy gradient,
    ``-mean(A log pi(a))`` with ``A = advantages`` (default ``returns - V(x)``);
    with it, PPO's clipped surrogate ``-mean(min(r A, clip(r, 1-clip, 1+clip) A))``
    where ``r = pi(a) / exp(old_logp)``.
    """
    n = len(actions)
    logits, values, acts = policy.forward(x)
    pr = MaskedPolicy.masked_probs(logits, mask)
    legal = mask > 0
    logp = np.where(legal, np.log(np.where(legal, pr, 1.0)), 0.0)
    entropy = -(pr * logp).sum(axis=1)
    rows = np.arange(n)
    adv = returns - values if advantages is None else advantages
    if old_logp is None:
        coef = adv
        surrogate = adv * logp[rows, actions]
    else:
        ratio = np.exp(logp[rows, actions] - old_logp)
        clipped = np.clip(ratio, 1.0 - clip, 1.0 + clip)
        surrogate = np.minimum(ratio * adv, clipped * adv)
        # The gradient flows only where the unclipped term is the minimum.
        coef = np.where(ratio * adv <= clipped * adv, ratio * adv, 0.0)
    # d(-mean(coef log pi(a)))/dlogits = -(coef/n) (onehot(a) - pi)
    dlogits = pr * coef[:, None]
    dlogits[rows, actions] -= coef
    # d(-c mean(H))/dlogits_j = (c/n) pi_j (log pi_j + H), on legal actions only
    dlogits += entropy_coef * pr * (logp + entropy[:, None])
    dlogits = np.where(legal, dlogits, 0.0) / n
    dvalues = (2.0 * value_coef / n) * (values - returns)
    p = policy.params
    h = acts[-1]
    grads = {
        "Wp": h.T @ dlogits,
        "bp": dlogits.sum(axis=0),
        "Wv": h.T @ dvalues[:, None],
        "bv": np.array([dvalues.sum()]),
    }
    dh = dlogits @ p["Wp"].T + dvalues[:, None] @ p["Wv"].T
    for i in range(policy.layers - 1, -1, -1):
        dz = dh * (1.0 - acts[i + 1] ** 2)
        grads[f"W{i}"] = acts[i].T @ dz
        grads[f"b{i}"] = dz.sum(axis=0)
        if i:
            dh = dz @ p[f"W{i}"].T
    stats = {
        "policy_loss": float(-surrogate.mean()),
        "value_loss": float(((values - returns) ** 2).mean()),
        "entropy": float(entropy.mean()),
    }
    return {k: v.astype(np.float32) for k, v in grads.items()}, stats


def log_probs(policy: MaskedPolicy, x: np.ndarray, mask: np.ndarray, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Returns (log pi(a|x), V(x)) for a batch."""
    logits, values, _ = policy.forward(x)
    pr = MaskedPolicy.masked_probs(logits, mask)
    return np.log(np.maximum(pr[np.arange(len(actions)), actions], 1e-12)), values


def _clip(grads: dict[str, np.ndarray], limit: float) -> float:
    norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads.values())))
    if norm > limit:
        for g in grads.values():
            g *= limit / norm
    return norm


def imitate(
    cfg: TrainConfig,
    policy: MaskedPolicy,
    on_update: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Behaviour cloning: fits ``policy`` to the ``teacher`` agent's moves; returns statistics rows.

    The teacher (an agent spec, e.g. ``ismcts:easy``) plays the learning seat of
    ``teacher_games`` episodes against ``opponents``, deciding from its
    ``Observation`` only; every decision with more than one legal action is a
    sample. Then ``imitation_epochs`` passes of cross-entropy on the masked
    softmax (15% of the samples held out to report agreement).
    """
    from ..agents import make_agent

    env = KingmakerEnv(cfg.game, cfg.players, seat="random", opponents=cfg.opponents, **cfg.options)
    teacher = make_agent(cfg.teacher, env.game)
    start = time.process_time()
    xs: list[np.ndarray] = []
    ms: list[np.ndarray] = []
    ys: list[int] = []
    for ep in range(cfg.teacher_games):
        obs, _ = env.reset(seed=cfg.seed * 7919 + ep)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            a = int(legal[0]) if len(legal) == 1 else env.agent_action(teacher)
            if len(legal) > 1:
                xs.append(obs["observation"].reshape(-1))
                ms.append(obs["action_mask"])
                ys.append(a)
            obs, _, term, trunc, _ = env.step(a)
            done = term or trunc
    label_seconds = time.process_time() - start
    x, m, y = np.stack(xs), np.stack(ms), np.array(ys)
    rng = np.random.default_rng(cfg.seed)
    order = rng.permutation(len(y))
    cut = int(len(y) * 0.85)
    train_i, held = order[:cut], order[cut:]
    opt = Adam(policy.params, cfg.lr)
    rows = []
    ones = np.ones(cfg.minibatch, dtype=np.float32)
    for epoch in range(cfg.imitation_epochs):
        rng.shuffle(train_i)
        for lo in range(0, len(train_i), cfg.minibatch):
            idx = train_i[lo : lo + cfg.minibatch]
            # Cross-entropy is the policy-gradient loss with advantage 1 on the teacher's move.
            grads, _ = gradients(
                policy, x[idx], m[idx], y[idx], np.zeros(len(idx), np.float32), 0.0, 0.0, advantages=ones[: len(idx)]
            )
            opt.step(policy.params, grads)
        agree = float((policy.probs(x[held], m[held]).argmax(axis=1) == y[held]).mean()) if len(held) else 0.0
        row = {
            "phase": "imitation",
            "epoch": epoch + 1,
            "samples": int(len(y)),
            "held_out_agreement": agree,
            "label_cpu_seconds": label_seconds,
            "cpu_seconds": time.process_time() - start,
        }
        rows.append(row)
        if on_update is not None:
            on_update(row)
    return rows


def train(
    cfg: TrainConfig,
    on_update: Callable[[dict[str, Any]], None] | None = None,
    max_steps: int | None = None,
) -> tuple[MaskedPolicy, list[dict[str, Any]]]:
    """Trains a policy; returns it and one row of statistics per update.

    Args:
        cfg: the settings.
        on_update: called with each update's row (episodes so far, win rate of
            the batch, mean reward, losses, CPU seconds).
        max_steps: stop after this many learner decisions (a smoke test), or None.
    """
    envs = [
        KingmakerEnv(cfg.game, cfg.players, seat="random", opponents=cfg.opponents, reward="centred", **cfg.options)
        for _ in range(cfg.envs)
    ]
    game = envs[0].game
    if cfg.init:
        policy = MaskedPolicy.load(cfg.init)
        policy.check_game(game)
    else:
        policy = MaskedPolicy.for_game(game, cfg.hidden, cfg.seed, features=cfg.features)
    start = time.process_time()
    imitation: list[dict[str, Any]] = []
    if cfg.teacher and cfg.teacher_games > 0:
        imitation = imitate(cfg, policy, on_update)
    opt = Adam(policy.params, cfg.lr)
    rng = np.random.default_rng(cfg.seed)
    obs = [e.reset(seed=cfg.seed * 100_003 + i)[0] for i, e in enumerate(envs)]
    shaping = cfg.shaping if "score" in game.info.figures else 0.0
    potential = [_potential(e, shaping) for e in envs]
    # Per env: the decisions of the running episode, (x, mask, action, shaped reward).
    traj: list[list[tuple[np.ndarray, np.ndarray, int, float]]] = [[] for _ in envs]
    done_x: list[np.ndarray] = []
    done_m: list[np.ndarray] = []
    done_a: list[int] = []
    done_g: list[float] = []
    finished: list[float] = []
    rows: list[dict[str, Any]] = []
    episodes = 0
    steps = 0
    while episodes < cfg.episodes and (max_steps is None or steps < max_steps):
        x = np.stack([o["observation"].reshape(-1) for o in obs])
        m = np.stack([o["action_mask"] for o in obs])
        pr = policy.probs(x, m)
        c = pr.cumsum(axis=1)
        u = rng.random(len(envs))[:, None] * c[:, -1:]
        acts = np.minimum((c <= u).sum(axis=1), pr.shape[1] - 1)
        for i, e in enumerate(envs):
            a = int(acts[i])
            if m[i, a] == 0:  # rounding at the top end: take the most probable legal action
                a = int(np.argmax(pr[i]))
            o, r, term, trunc, _ = e.step(a)
            steps += 1
            # Potential-based shaping on the score margin (it sums to the final margin,
            # so it leaves the best policy unchanged; it credits the moves that change it).
            phi = _potential(e, shaping)
            traj[i].append((x[i], m[i], a, float(r) + phi - potential[i]))
            potential[i] = phi
            if term or trunc:
                g = 0.0
                for xi, mi, ai, ri in reversed(traj[i]):
                    g += ri
                    done_x.append(xi)
                    done_m.append(mi)
                    done_a.append(ai)
                    done_g.append(g)
                traj[i] = []
                finished.append(float(r))
                episodes += 1
                o, _ = e.reset()
                potential[i] = _potential(e, shaping)
            obs[i] = o
        if len(finished) >= cfg.batch or (max_steps is not None and steps >= max_steps and done_a):
            bx, bm = np.stack(done_x), np.stack(done_m)
            ba, bg = np.array(done_a), np.array(done_g, dtype=np.float32)
            old_logp, old_v = log_probs(policy, bx, bm, ba)
            adv = bg - old_v
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            for _ in range(cfg.epochs):
                order = rng.permutation(len(ba))
                for lo in range(0, len(ba), cfg.minibatch):
                    idx = order[lo : lo + cfg.minibatch]
                    grads, stats = gradients(
                        policy, bx[idx], bm[idx], ba[idx], bg[idx], cfg.value_coef, cfg.entropy_coef,
                        advantages=adv[idx], old_logp=old_logp[idx], clip=cfg.clip,
                    )
                    norm = _clip(grads, cfg.max_grad_norm)
                    opt.step(policy.params, grads)
            row = {
                "phase": "ppo",
                "episodes": episodes,
                "steps": steps,
                "win_rate": float(np.mean([r > 0 for r in finished])) if finished else 0.0,
                "mean_reward": float(np.mean(finished)) if finished else 0.0,
                "grad_norm": norm,
                "cpu_seconds": time.process_time() - start,
                **stats,
            }
            rows.append(row)
            if on_update is not None:
                on_update(row)
            done_x, done_m, done_a, done_g, finished = [], [], [], [], []
    before = policy.meta.get("trained")
    policy.meta.update(
        {
            "trained": {
                "init": cfg.init,
                "before": before,
                "algorithm": "masked PPO (clipped surrogate, value baseline, numpy)"
                + (f" after behaviour cloning of {cfg.teacher}" if imitation else ""),
                "teacher": cfg.teacher if imitation else None,
                "teacher_games": cfg.teacher_games if imitation else 0,
                "imitation_samples": imitation[-1]["samples"] if imitation else 0,
                "held_out_agreement": imitation[-1]["held_out_agreement"] if imitation else None,
                "opponents": cfg.opponents,
                "episodes": episodes,
                "steps": steps,
                "cpu_seconds": round(time.process_time() - start, 1),
                "hidden": list(cfg.hidden),
                "lr": cfg.lr,
                "batch": cfg.batch,
                "seed": cfg.seed,
            }
        }
    )
    return policy, imitation + rows


def _potential(env: KingmakerEnv, coef: float) -> float:
    """Returns ``coef`` times the learning seat's score lead over the others' mean, over 10."""
    if not coef or env.state is None:
        return 0.0
    score = env.game.figures(env.state)["score"]
    n = len(score)
    me = env.seat
    return coef * (score[me] - (sum(score) - score[me]) / (n - 1)) / 10.0


def write_curve(rows: Sequence[dict[str, Any]], path: str | Path) -> None:
    """Writes the statistics rows as CSV."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        names = list(dict.fromkeys(k for row in rows for k in row))
        w = csv.DictWriter(f, fieldnames=names)
        w.writeheader()
        w.writerows(rows)


def plot_curve(rows: Sequence[dict[str, Any]], path: str | Path, title: str = "") -> None:
    """Draws the learning curve (matplotlib): imitation agreement by epoch, PPO win rate by episode."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    imitation = [r for r in rows if r["phase"] == "imitation"]
    ppo = [r for r in rows if r["phase"] == "ppo"]
    panels = [p for p in (imitation, ppo) if p]
    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 3.6), squeeze=False)
    k = 0
    if imitation:
        ax = axes[0][k]
        ax.plot([r["epoch"] for r in imitation], [r["held_out_agreement"] for r in imitation], marker=".")
        ax.set_xlabel("imitation epoch")
        ax.set_ylabel("held-out agreement with the teacher")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        k += 1
    if ppo:
        ax = axes[0][k]
        eps = np.array([r["episodes"] for r in ppo])
        win = np.array([r["win_rate"] for r in ppo])
        w = max(1, len(win) // 25)
        smooth = np.convolve(win, np.ones(w) / w, mode="valid")
        ax.plot(eps, win, alpha=0.25, label="win rate per batch")
        ax.plot(eps[w - 1 :], smooth, label=f"mean of {w} batches")
        ax.set_xlabel("PPO episodes")
        ax.set_ylabel("win rate (training batches)")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="kings-kilt")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--opponent", default="random", help="agent spec of the other seats")
    ap.add_argument("--episodes", type=int, default=20000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--envs", type=int, default=32)
    ap.add_argument("--hidden", default="128", help="hidden sizes, comma-separated")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--shaping", type=float, default=0.5, help="weight of the score-lead shaping (0: none)")
    ap.add_argument("--teacher", default=None, help="agent spec to imitate first (e.g. ismcts:easy)")
    ap.add_argument("--teacher-games", type=int, default=0)
    ap.add_argument("--imitation-epochs", type=int, default=30)
    ap.add_argument("--features", default=None, help="a feature transform of kingmaker.rl.features")
    ap.add_argument("--init", default=None, help="start from this policy file instead of fresh weights")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True, help="the .npz file to write")
    ap.add_argument("--curve", default=None, help="a CSV of per-update statistics")
    ap.add_argument("--plot", default=None, help="a PNG of the learning curve (needs matplotlib)")
    args = ap.parse_args(argv)
    options = dict(pair.split("=", 1) for pair in args.option)
    cfg = TrainConfig(
        game=args.game,
        players=args.players,
        options=options,
        opponents=args.opponent,
        episodes=args.episodes,
        batch=args.batch,
        envs=args.envs,
        hidden=tuple(int(h) for h in args.hidden.split(",") if h),
        lr=args.lr,
        epochs=args.epochs,
        entropy_coef=args.entropy,
        shaping=args.shaping,
        teacher=args.teacher,
        teacher_games=args.teacher_games,
        imitation_epochs=args.imitation_epochs,
        init=args.init,
        features=args.features,
        seed=args.seed,
    )

    def report(row: dict[str, Any]) -> None:
        if row["phase"] == "imitation":
            print(
                f"imitation epoch {row['epoch']:>3}  samples {row['samples']}  "
                f"held-out agreement {row['held_out_agreement']:.2f}  cpu {row['cpu_seconds']:.0f}s",
                flush=True,
            )
        elif len(rows_seen) % 20 == 0:
            print(
                f"episodes {row['episodes']:>7}  win {row['win_rate']:.2f}  reward {row['mean_reward']:+.3f}  "
                f"entropy {row['entropy']:.2f}  cpu {row['cpu_seconds']:.0f}s",
                flush=True,
            )
        if row["phase"] == "ppo":
            rows_seen.append(row)

    rows_seen: list[dict[str, Any]] = []
    policy, rows = train(cfg, on_update=report)
    print(f"wrote {policy.save(args.out)}")
    if args.curve and rows:
        write_curve(rows, args.curve)
        print(f"wrote {args.curve}")
    if args.plot and rows:
        plot_curve(rows, args.plot, f"{cfg.game}, {cfg.players} players, against {cfg.opponents}")
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
