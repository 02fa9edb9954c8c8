"""Speed of the learning path, side by side in one run (benchmarks/rl.md).

    python -m kingmaker.rl.bench envs --seconds 3          # env steps/s with tensors and masks
    python -m kingmaker.rl.bench envs --seconds 4 --rounds 4   # the same, envs taking turns
    python -m kingmaker.rl.bench ismcts --iterations 50 --games 20

``envs`` runs the same loop on every env for ``seconds`` of CPU time each:
read the observation (tensor and mask) of the agent to act, pick a uniformly
random legal action from the mask, step. It counts agent steps per CPU
second (``time.process_time``; chance steps inside an env are not counted,
they are part of its cost). With ``--rounds k`` every env plays ``k`` turns of
``seconds / k``, the envs taking turns, so a change of machine load during the
run weighs on every row alike. Rows: every Kingmaker game through its PettingZoo
AEC env and through the OpenSpiel adapter (``observer.set_from`` and the
legal-actions mask at each decision), PettingZoo's classic ``leduc_holdem_v4``,
``texas_holdem_v4`` and ``connect_four_v3`` (``pip install 'pettingzoo[classic]'``)
and OpenSpiel's Python games through their observers.

``ismcts`` compares our IS-MCTS (``kingmaker.agents.search``, random rollouts,
no prior) with OpenSpiel's Python ``ISMCTSBot`` (random-rollout evaluator) on
King's Kilt two players through the adapter: CPU seconds per iteration on the
same positions, then a head-to-head at equal iterations, seats alternating.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.match import sample_chance
from ..lab.stats import wilson

__all__ = ["env_speed", "format_envs", "ismcts_match", "ismcts_speed", "step_costs"]


class _Runner:
    """Random masked play on one env, resumable: ``run(seconds)`` adds whole games until
    ``seconds`` of CPU time are spent, so several envs can take turns (``rounds``)."""

    def __init__(self, play_one: Callable[[random.Random, int], int]) -> None:
        self.play_one = play_one
        self.rng = random.Random(0)
        self.steps = self.games = 0
        self.cpu = 0.0

    def run(self, seconds: float) -> None:
        """Plays whole games, at least one, until ``seconds`` of CPU time are spent."""
        start = time.process_time()
        while True:
            self.steps += self.play_one(self.rng, self.games)
            self.games += 1
            if time.process_time() - start >= seconds:
                break
        self.cpu += time.process_time() - start

    def result(self) -> dict[str, float]:
        return {"steps_per_s": self.steps / self.cpu, "games": self.games, "steps": self.steps, "cpu": self.cpu}


def _pz_runner(make: Callable[[], Any]) -> _Runner:
    """A PettingZoo AEC env: read the agent's observation (tensor and mask), pick a uniformly
    random legal action from the mask, step."""
    env = make()

    def play_one(rng: random.Random, seed: int) -> int:
        steps = 0
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    return _Runner(play_one)


def _os_runner(game: Any) -> _Runner:
    """A pyspiel game: the observer's tensor and the legal-actions mask at every decision."""
    from open_spiel.python.observation import make_observation

    observer = make_observation(game)

    def decide(state: Any, p: int, rng: random.Random) -> int:
        observer.set_from(state, p)
        _ = observer.tensor.copy()
        mask = np.asarray(state.legal_actions_mask(p), dtype=np.int8)
        legal = np.flatnonzero(mask)
        return int(legal[rng.randrange(len(legal))])

    def play_one(rng: random.Random, _seed: int) -> int:
        steps = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
            elif state.is_simultaneous_node():
                state.apply_actions([decide(state, p, rng) for p in range(game.num_players())])
                steps += game.num_players()
            else:
                state.apply_action(decide(state, state.current_player(), rng))
                steps += 1
        return steps

    return _Runner(play_one)


def _pz_loop(make: Callable[[], Any], seconds: float) -> dict[str, float]:
    """Runs random masked play on a PettingZoo AEC env; returns steps/s and games."""
    r = _pz_runner(make)
    r.run(seconds)
    return r.result()


def _os_loop(game: Any, seconds: float) -> dict[str, float]:
    """Random play on a pyspiel game reading the observer's tensor and the mask at every decision."""
    r = _os_runner(game)
    r.run(seconds)
    return r.result()


def step_costs(game_id: str, states: int = 300) -> dict[str, float]:
    """Returns microseconds of CPU per call on states of seeded random play (min players).

    ``engine``: legal_actions + apply (+ the chance that follows); ``tensor``:
    observation_tensor; ``array``: its conversion to a float32 array (a view of
    the encoder's float32 buffer); ``mask``: legal_actions and the mask's bytes,
    as the AEC env builds them for the seat it selected. Where an env step's time goes.
    """
    import kingmaker

    from ._common import Encoder

    game = kingmaker.make(game_id)
    enc = Encoder(game)
    rng = random.Random(0)
    seen: list[tuple[Any, int]] = []
    while len(seen) < states:
        s = game.new_initial_state()
        while not game.is_terminal(s) and len(seen) < states:
            cp = game.current_player(s)
            if cp == kingmaker.CHANCE:
                s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
                continue
            p = game.acting_players(s)[0]
            seen.append((s, p))
            s = game.apply(s, rng.choice(game.legal_actions(s, p)), p)
    out = {}
    reps = 3

    def timed(fn: Callable[[Any, int], Any]) -> float:
        t = time.process_time()
        for _ in range(reps):
            for s, p in seen:
                fn(s, p)
        return (time.process_time() - t) / (reps * len(seen)) * 1e6

    out["engine"] = timed(lambda s, p: game.apply(s, game.legal_actions(s, p)[0], p))
    out["tensor"] = timed(game.observation_tensor)
    lists = {id(s): game.observation_tensor(s, p) for s, p in seen}
    out["array"] = timed(lambda s, p: enc.to_array(lists[id(s)]))
    out["mask"] = timed(lambda s, p: enc.mask_bytes(s, p, True))
    return out


def env_speed(seconds: float = 3.0, games: list[str] | None = None, rounds: int = 1) -> list[dict[str, Any]]:
    """Returns one row per env: name, kind, steps per CPU second, games played.

    Every env gets ``seconds`` of CPU time in all, in ``rounds`` turns taken one env after the
    other, so a change of machine load during the run falls on every env alike.
    """
    import pyspiel

    import kingmaker

    from . import openspiel
    from .pettingzoo import env as km_env

    rows: list[dict[str, Any]] = []
    runners: list[_Runner] = []

    def add(row: dict[str, Any], runner: _Runner) -> None:
        rows.append(row)
        runners.append(runner)

    ids = games or kingmaker.available_games()
    for gid in ids:
        n = kingmaker.game_class(gid).min_players
        add({"env": f"{gid} ({n}p)", "api": "kingmaker PettingZoo AEC", "game": gid},
            _pz_runner(lambda gid=gid, n=n: km_env(gid, players=n)))
    openspiel.register(ids)
    for gid in ids:
        n = kingmaker.game_class(gid).min_players
        g = pyspiel.load_game(openspiel.short_name(gid), {"players": n})
        add({"env": f"{gid} ({n}p)", "api": "kingmaker OpenSpiel adapter"}, _os_runner(g))
    try:
        from pettingzoo.classic import connect_four_v3, leduc_holdem_v4, texas_holdem_v4

        for name, mod in (
            ("leduc_holdem_v4", leduc_holdem_v4),
            ("texas_holdem_v4", texas_holdem_v4),
            ("connect_four_v3", connect_four_v3),
        ):
            add({"env": name, "api": "PettingZoo classic"}, _pz_runner(mod.env))
    except ImportError as e:  # pettingzoo[classic] not installed
        rows.append({"env": "pettingzoo.classic", "api": f"missing: {e}", "steps_per_s": 0.0, "games": 0})
        runners.append(None)  # type: ignore[arg-type]
    import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)

    for name in ("python_kuhn_poker", "python_liars_poker", "python_tic_tac_toe", "python_block_dominoes"):
        try:
            g = pyspiel.load_game(name)
        except pyspiel.SpielError:
            continue
        add({"env": name, "api": "OpenSpiel Python game + observer"}, _os_runner(g))
    for _ in range(max(1, rounds)):
        for r in runners:
            if r is not None:
                r.run(seconds / max(1, rounds))
    for row, r in zip(rows, runners):
        if r is not None:
            row.update(r.result())
        gid = row.pop("game", None)
        if gid is not None:
            row["costs_us"] = step_costs(gid)
    return rows


def _positions(game: Any, count: int, seed: int) -> list[Any]:
    """Returns decision states (two players, King's Kilt) from seeded random play, mid-game."""
    from ..core.api import CHANCE
    from ..core.match import sample_chance

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = game.new_initial_state()
        stop = rng.randrange(4, 30)
        k = 0
        while not game.is_terminal(s):
            cp = game.current_player(s)
            if cp == CHANCE:
                s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
                continue
            legal = game.legal_actions(s, cp)
            if k >= stop and len(legal) > 1:
                out.append(s)
                break
            s = game.apply(s, rng.choice(legal), cp)
            k += 1
    return out


def _our_agent(iterations: int) -> Any:
    from ..agents.search import ISMCTSAgent, SearchConfig

    return ISMCTSAgent(SearchConfig(iterations=iterations, seconds=None, rollout="random", prior="none"))


def _observation(game: Any, s: Any, p: int, rng: random.Random) -> Any:
    from ..core.match import Observation

    return Observation(game, p, game.view(s, p), game.legal_actions(s, p), lambda r: game.sample_hidden(s, p, r), rng)


def ismcts_speed(iterations: int = 200, positions: int = 8, game_id: str = "kings-kilt") -> dict[str, Any]:
    """Returns CPU seconds per iteration of both searches on the same positions."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from . import openspiel

    openspiel.register([game_id])
    osg = pyspiel.load_game(openspiel.short_name(game_id), {"players": 2})
    km = osg.km
    states = _positions(km, positions, 1)
    ours = _our_agent(iterations)
    t = time.process_time()
    for i, s in enumerate(states):
        ours.act(_observation(km, s, km.current_player(s), random.Random(i)))
    our_cpu = time.process_time() - t
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(osg, mcts.RandomRolloutEvaluator(1, rs), 0.7, iterations, random_state=rs)
    t = time.process_time()
    for s in states:
        st = openspiel.KingmakerState(osg, s)
        bot.step(st)
    os_cpu = time.process_time() - t
    n = iterations * len(states)
    return {
        "game": game_id,
        "iterations": iterations,
        "positions": len(states),
        "ours_it_per_s": n / our_cpu,
        "openspiel_it_per_s": n / os_cpu,
    }


def ismcts_match(iterations: int = 50, games: int = 20, game_id: str = "kings-kilt", seed: int = 0) -> dict[str, Any]:
    """Plays our IS-MCTS against OpenSpiel's ISMCTSBot at equal iterations, seats alternating."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from . import openspiel

    openspiel.register([game_id])
    osg = pyspiel.load_game(openspiel.short_name(game_id), {"players": 2})
    km = osg.km
    score = 0.0
    cpu = {"ours": 0.0, "openspiel": 0.0}
    decisions = {"ours": 0, "openspiel": 0}
    for g in range(games):
        ours_seat = g % 2
        rng = random.Random(f"{seed}/{g}")
        rs = np.random.RandomState(seed * 1000 + g)
        bot = ismcts.ISMCTSBot(osg, mcts.RandomRolloutEvaluator(1, rs), 0.7, iterations, random_state=rs)
        ours = _our_agent(iterations)
        state = osg.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
                continue
            p = state.current_player()
            t = time.process_time()
            if p == ours_seat:
                a = ours.act(_observation(km, openspiel.to_kingmaker(state), p, rng))
                who = "ours"
            else:
                a = bot.step(state)
                who = "openspiel"
            cpu[who] += time.process_time() - t
            decisions[who] += 1
            state.apply_action(int(a))
        score += state.returns()[ours_seat]
    lo, hi = wilson(score, games)
    return {
        "game": game_id,
        "iterations": iterations,
        "games": games,
        "ours_score": score / games,
        "ci95": [lo, hi],
        "ours_cpu_per_decision": cpu["ours"] / max(1, decisions["ours"]),
        "openspiel_cpu_per_decision": cpu["openspiel"] / max(1, decisions["openspiel"]),
    }


def format_envs(rows: list[dict[str, Any]]) -> str:
    """Returns the rows as a markdown table, with each row's ratio to leduc_holdem_v4 and
    connect_four_v3 of the same run."""
    speed = {r["env"]: r["steps_per_s"] for r in rows if r.get("steps_per_s")}
    leduc, c4 = speed.get("leduc_holdem_v4"), speed.get("connect_four_v3")
    lines = [
        "| env | through | steps/s (CPU) | × leduc | × connect four | games "
        "| µs per call: engine / tensor / array / mask |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        c = r.get("costs_us")
        costs = " / ".join(f"{c[k]:.0f}" for k in ("engine", "tensor", "array", "mask")) if c else ""
        v = r["steps_per_s"]
        x_leduc = f"{v / leduc:.1f}" if leduc else ""
        x_c4 = f"{v / c4:.2f}" if c4 else ""
        lines.append(f"| {r['env']} | {r['api']} | {v:,.0f} | {x_leduc} | {x_c4} | {r['games']} | {costs} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="kingmaker.rl speed benchmarks")
    sub = ap.add_subparsers(dest="what", required=True)
    e = sub.add_parser("envs")
    e.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per env in all")
    e.add_argument("--rounds", type=int, default=1, help="turns the envs take, one after the other")
    e.add_argument("--game", action="append", default=None)
    m = sub.add_parser("ismcts")
    m.add_argument("--iterations", type=int, default=50)
    m.add_argument("--games", type=int, default=20)
    m.add_argument("--speed-iterations", type=int, default=200)
    m.add_argument("--positions", type=int, default=8)
    args = ap.parse_args(argv)
    if args.what == "envs":
        rows = env_speed(args.seconds, args.game, args.rounds)
        print(format_envs(rows))
        print(json.dumps(rows))
    else:
        speed = ismcts_speed(args.speed_iterations, args.positions)
        print(json.dumps(speed), flush=True)
        print(json.dumps(ismcts_match(args.iterations, args.games)))


if __name__ == "__main__":
    main()
