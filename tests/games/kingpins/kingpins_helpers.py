"""Builds Kingpins positions for the tests: hands and stacks written as card codes."""

from __future__ import annotations

import random

import kingmaker
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.games.kingpins.data import CODE_BY_NAME, COPIES, NUM_KINDS, STACK_BY_NAME, from_kinds
from kingmaker.games.kingpins.state import PLAY, State


def k(code: str) -> int:
    """Returns the card kind of a code such as 'M7', 'Fr', 'Hb'."""
    return CODE_BY_NAME[code.lower()]


def cards(codes: str) -> list[int]:
    return [k(c) for c in codes.split()]


def position(
    game,
    hands: list[str],
    stacks: dict[str, str] | None = None,
    *,
    discards: str = "",
    stockpile: str | None = None,
    current: int = 0,
    phase: int = PLAY,
    played: bool = False,
    passes: int = 0,
    no_draw: bool = False,
    round: int = 0,
    history: tuple = (),
    last_hands: tuple | None = None,
) -> State:
    """Returns a state; the cards not placed go to the stockpile, or to the discards when
    ``stockpile`` is given (the stockpile then holds exactly those cards)."""
    n = game.num_players
    used = [0] * NUM_KINDS
    hand_masks = []
    for h in hands:
        ks = cards(h)
        for x in ks:
            used[x] += 1
        hand_masks.append(from_kinds(ks))
    st = [()] * 8
    for name, codes in (stacks or {}).items():
        ks = cards(codes)
        for x in ks:
            used[x] += 1
        st[STACK_BY_NAME[name.lower()]] = tuple(ks)
    disc = cards(discards)
    for x in disc:
        used[x] += 1
    rest = [x for x in range(NUM_KINDS) for _ in range(COPIES[x] - used[x])]
    if any(COPIES[x] < used[x] for x in range(NUM_KINDS)):
        raise ValueError("a card is used more often than the deck holds")
    if stockpile is None:
        unseen = from_kinds(rest)
    else:
        pile = cards(stockpile)
        for x in pile:
            rest.remove(x)
        unseen = from_kinds(pile)
        disc = disc + rest
    totals = tuple(sum(r[p] for r in history) for p in range(n))
    s = State(phase, round, current, game.setup_cards, tuple(hand_masks), unseen, tuple(st),
              from_kinds(disc), played, passes, no_draw, totals, tuple(history),
              last_hands if last_hands is not None else (0,) * n)
    game.validate_state(s)
    return s


def play(game, s: State, *moves: str) -> State:
    """Plays checked moves given as notation."""
    for m in moves:
        s = game.play(s, m)
    return s


def deal(game, s: State, code: str) -> State:
    """Resolves a chance node with the card ``code``."""
    assert game.current_player(s) == CHANCE
    return game.play(s, f"card {code}")


def random_game(game, seed: int, heuristic: bool = False):
    """Plays a seeded game; yields every state."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    yield s
    while game.current_player(s) != TERMINAL:
        cp = game.current_player(s)
        if cp == CHANCE:
            outs = game.chance_outcomes(s)
            a = rng.choices([a for a, _ in outs], [p for _, p in outs])[0]
            s = game.apply(s, a)
        elif heuristic:
            s = game.apply(s, game.heuristic_action(s, cp, rng), cp)
        else:
            s = game.apply(s, rng.choice(game.legal_actions(s)), cp)
        yield s


def make(players: int = 2, **options):
    return kingmaker.make("kingpins", players=players, **options)
