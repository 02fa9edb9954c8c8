"""Balance evidence for the designed Kingpins abilities: games between equal heuristic bots.

    python -m kingmaker.games.kingpins.balance --games 2000 --players 2
    python -m kingmaker.games.kingpins.balance --vs-random 1000   # the bot against random


Prints a Markdown table: the first seat's win rate with and without abilities,
and for each ability how often a player who used it in a round won that round,
against the average round win rate. A round is won by the lowest round score
(ruling KP-7; tied players all win it). "Used" means the ability changed
something: All Clear saved a draw (stockpile not empty), Collect made the next
player draw, Rub Out discarded a card, Alibi cancelled a card worth more than
0, Lie Low scored a hand of only Hideouts 0.

The bots play on the true state: the heuristic reads only its own seat's view
(tests check this), so this equals playing through ``Match`` with
``HeuristicAgent``, only faster.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

import kingmaker
from kingmaker.core.api import CHANCE, TERMINAL

from . import actions as A
from .data import (
    AB_ALIBI,
    AB_ALL_CLEAR,
    AB_COLLECT,
    AB_LIE_LOW,
    AB_RUB_OUT,
    ABILITIES,
    ABILITY,
    ABILITY_KEYS,
    NUM_KINDS,
    NUM_RANKED,
    RANK,
    VALUE,
    kinds,
)
from .state import COLLECT, DEAL, PLAY, RUB_OUT

_ORDER = (AB_ALL_CLEAR, AB_COLLECT, AB_RUB_OUT, AB_ALIBI, AB_LIE_LOW)
# Controls: cards without an ability. A player who plays one sheds a card too, so their
# round win rate shows how much of an ability's figure comes from shedding alone.
_CONTROLS = {6: "(control) played a Smuggler (6), no ability", 8: "(control) played a Fixer (8), no ability"}


def _sample(outcomes, rng: random.Random) -> int:
    r = rng.random()
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if r < acc:
            return a
    return outcomes[-1][0]


def _scoring_uses(hand: int) -> set[int]:
    ks = kinds(hand)
    used = set()
    lawyers = sum(1 for k in ks if ABILITY[k] == AB_ALIBI)
    if lawyers and any(VALUE[k] > 0 for k in ks if ABILITY[k] != AB_ALIBI):
        used.add(AB_ALIBI)
    if ks and all(ABILITY[k] == AB_LIE_LOW for k in ks):
        used.add(AB_LIE_LOW)
    return used


def play_games(players: int, games: int, abilities: bool, seed: int = 0) -> dict:
    """Plays ``games`` seeded heuristic games; returns the counts the table is made of."""
    game = kingmaker.make("kingpins", players=players, abilities=abilities)
    seat_points = [0.0] * players
    seat_sole_wins = [0] * players
    round_rows = 0
    round_wins = 0
    held_rows = 0  # player-rounds that ended with cards in hand
    held_wins = 0
    uses = Counter()
    use_wins = Counter()
    use_games = Counter()
    use_game_points = Counter()
    lengths = 0
    for g in range(games):
        rng = random.Random(f"kingpins-balance/{seed}/{players}/{abilities}/{g}")
        s = game.new_initial_state()
        used_round: list[set[int]] = [set() for _ in range(players)]
        used_game: list[set[int]] = [set() for _ in range(players)]
        rounds_seen = 0
        while True:
            cp = game.current_player(s)
            if cp == TERMINAL:
                break
            if cp == CHANCE:
                a = _sample(game.chance_outcomes(s), rng)
            else:
                a = game.heuristic_action(s, cp, rng)
                if s.phase == RUB_OUT and a != A.KEEP:
                    used_round[cp].add(AB_RUB_OUT)
                elif s.phase == PLAY and a < A.MOVE0:
                    k = a // 8 if a < A.UNDER0 else (a - A.UNDER0) % (8 * NUM_KINDS) // 8
                    if k < NUM_RANKED and RANK[k] in _CONTROLS:
                        used_round[cp].add(f"ctl{RANK[k]}")
                lengths += 1
            before = s
            s = game.apply(s, a, None if cp == CHANCE else cp)
            if abilities and before.phase == PLAY and s.phase != DEAL:
                if s.phase == COLLECT:
                    used_round[s.current].add(AB_COLLECT)
                elif s.no_draw and not before.no_draw and s.unseen:
                    used_round[s.current].add(AB_ALL_CLEAR)  # a draw is saved
            if len(s.history) > rounds_seen:
                rounds_seen = len(s.history)
                scores = s.history[-1]
                winners = game.round_winners(scores)
                for p in range(players):
                    if abilities:
                        used_round[p] |= _scoring_uses(s.last_hands[p])
                    round_rows += 1
                    won = p in winners
                    round_wins += won
                    if s.last_hands[p]:
                        held_rows += 1
                        held_wins += won
                    for ab in used_round[p]:
                        uses[ab] += 1
                        use_wins[ab] += won
                    used_game[p] |= used_round[p]
                used_round = [set() for _ in range(players)]
        ret = game.returns(s)
        for p in range(players):
            seat_points[p] += ret[p]
            if ret[p] == 1.0:
                seat_sole_wins[p] += 1
            for ab in used_game[p]:
                use_games[ab] += 1
                use_game_points[ab] += ret[p]
    return {
        "players": players,
        "games": games,
        "abilities": abilities,
        "seat_points": seat_points,
        "seat_sole_wins": seat_sole_wins,
        "round_rows": round_rows,
        "round_wins": round_wins,
        "held_rows": held_rows,
        "held_wins": held_wins,
        "uses": uses,
        "use_wins": use_wins,
        "use_games": use_games,
        "use_game_points": use_game_points,
        "decisions": lengths,
    }


def table(on: dict, off: dict) -> str:
    """Returns the Markdown tables of one player count, abilities on and off."""
    n, games = on["players"], on["games"]
    lines = [
        f"**{n} players, {games} games per setting (heuristic vs heuristic)**",
        "",
        "| setting | seat 0 (first player) wins | seat 0 mean return | other seats' mean return |"
        " round win rate (all player-rounds) |",
        "|---|---|---|---|---|",
    ]
    for res, name in ((on, "abilities on"), (off, "abilities off")):
        g = res["games"]
        others = sum(res["seat_points"][1:]) / (g * (n - 1))
        lines.append(
            f"| {name} | {res['seat_sole_wins'][0] / g:.3f} | {res['seat_points'][0] / g:.3f} | "
            f"{others:.3f} | {res['round_wins'] / res['round_rows']:.3f} |"
        )
    avg = on["round_wins"] / on["round_rows"]
    held = on["held_wins"] / on["held_rows"] if on["held_rows"] else float("nan")
    lines += [
        "",
        "| ability | when | player-rounds used (share) | round win rate when used | average |"
        " difference | like-for-like average | difference | games used | mean return in those games"
        f" (average {1 / 2:.3f}) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for ab in _ORDER:
        info = ABILITIES[ABILITY_KEYS[ab]]
        u = on["uses"][ab]
        rate = on["use_wins"][ab] / u if u else float("nan")
        # A scoring ability is used only by a player left holding cards: compare with those.
        base = held if info["when"] == "scoring" else avg
        lines.append(
            f"| {info['name']} | {info['when']} | {u} ({u / on['round_rows']:.3f}) | {rate:.3f} | "
            f"{avg:.3f} | {rate - avg:+.3f} | {base:.3f} | {rate - base:+.3f} | {on['use_games'][ab]} | "
            f"{on['use_game_points'][ab] / max(on['use_games'][ab], 1):.3f} |"
        )
    for rank, label in _CONTROLS.items():
        u = on["uses"][f"ctl{rank}"]
        rate = on["use_wins"][f"ctl{rank}"] / u if u else float("nan")
        lines.append(
            f"| {label} | play | {u} ({u / on['round_rows']:.3f}) | {rate:.3f} | {avg:.3f} | "
            f"{rate - avg:+.3f} | {avg:.3f} | {rate - avg:+.3f} | {on['use_games'][f'ctl{rank}']} | "
            f"{on['use_game_points'][f'ctl{rank}'] / max(on['use_games'][f'ctl{rank}'], 1):.3f} |"
        )
    lines += [
        "",
        "Like-for-like average: for abilities used when played, the average over all player-rounds; "
        "for scoring abilities, over the player-rounds that ended with cards in hand "
        f"({on['held_rows']} of {on['round_rows']}). Returns are rank points (1 first, 0 last), "
        "so their average is 0.5 for every player count.",
    ]
    return "\n".join(lines)


def heuristic_vs_random(games: int, players: int = 2, abilities: bool = True) -> dict:
    """Plays ``games`` matches of one HeuristicAgent against RandomAgents through ``Match``
    (the heuristic acts on states sampled from its view); the heuristic's seat rotates."""
    from kingmaker.agents import HeuristicAgent, RandomAgent
    from kingmaker.core.match import Match

    game = kingmaker.make("kingpins", players=players, abilities=abilities)
    points = 0.0
    sole = 0
    for seed in range(games):
        seat = seed % players
        agents = [RandomAgent() for _ in range(players)]
        agents[seat] = HeuristicAgent()
        m = Match(game, agents, seed=seed)
        m.run()
        r = m.returns()
        points += r[seat]
        sole += r[seat] == 1.0
    return {"games": games, "players": players, "sole_wins": sole / games, "mean_return": points / games}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vs-random", type=int, default=0, metavar="GAMES",
                        help="instead: the heuristic against random bots over GAMES matches")
    args = parser.parse_args(argv)
    if args.vs_random:
        for n in args.players:
            t = time.time()
            r = heuristic_vs_random(args.vs_random, n)
            print(f"heuristic vs random, {n} players, {r['games']} matches (seat rotates): "
                  f"heuristic wins {r['sole_wins']:.3f} of games, mean return {r['mean_return']:.3f} "
                  f"({time.time() - t:.0f} s)")
        return
    for n in args.players:
        t = time.time()
        on = play_games(n, args.games, True, args.seed)
        off = play_games(n, args.games, False, args.seed)
        print(table(on, off))
        print(f"\n({time.time() - t:.0f} s)\n", flush=True)


if __name__ == "__main__":
    main()
