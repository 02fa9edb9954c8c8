"""What each player may know of a Kingpins state, and states consistent with it.

Public: every stack (all its cards are face up), the stockpile's size, the
discards, each hand's size, the scores, and the hands revealed when a round
is scored. Private: a player's own hand. Never stored: the stockpile's order.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...core.api import CHANCE
from . import actions as A
from .data import (
    ABILITIES,
    ABILITY,
    ABILITY_KEYS,
    CORNERS,
    NUM_KINDS,
    ROUNDS,
    STACK_NAMES,
    card_info,
    card_label,
    from_kinds,
    kinds,
)
from .state import COLLECT, DEAL, DRAW, END, PHASE_NAMES, PLAY, State

if TYPE_CHECKING:
    from .rules import Kingpins


def plural(n: int, word: str) -> str:
    """Returns '1 point', '5 points'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def outcome(game: Kingpins, s: State) -> dict:
    """Returns who won and why (rulebook, Game End; rulings KP-7, KP-8).

    Reason codes: ``lowest_total`` (one player has the lowest total), ``tie_rounds_won``
    (a tie on the lowest total broken by the most rounds won), ``shared`` (a tie on both).
    """
    if s.phase != END:
        return {"winners": [], "reason": "unfinished", "text": "the game is not over"}
    n = game.num_players
    won = game.rounds_won(s)
    totals = s.totals
    best = list(game.ranking(s)[0])
    w = best[0]
    tied = [p for p in range(n) if totals[p] == totals[w]]
    if len(best) > 1:
        names = " and ".join(f"player {p}" for p in best)
        text = (f"tie on {plural(totals[w], 'point')} and {plural(won[w], 'round')} won: "
                f"{names} share the win")
        return {"winners": best, "reason": "shared", "text": text}
    if len(tied) > 1:
        others = ", ".join(f"player {p}: {won[p]}" for p in tied if p != w)
        text = (f"tie on {plural(totals[w], 'point')}, broken by rounds won: player {w} wins with "
                f"{plural(won[w], 'round')} won ({others})")
        return {"winners": [w], "reason": "tie_rounds_won", "text": text}
    others = ", ".join(f"player {p}: {plural(totals[p], 'point')}" for g in game.ranking(s)[1:] for p in g)
    text = f"player {w} wins with the lowest total, {plural(totals[w], 'point')} ({others})"
    return {"winners": [w], "reason": "lowest_total", "text": text}


FIGURES = ("total", "rounds_won")


def figures(game: Kingpins, s: State) -> dict[str, tuple[float, ...]]:
    """Returns per seat the running total (lower is better) and the rounds won."""
    return {"total": tuple(s.totals), "rounds_won": game.rounds_won(s)}


def _cards(mask: int) -> list[dict]:
    return [card_info(k) for k in kinds(mask)]


def view(game: Kingpins, s: State, player: int | None) -> dict:
    n = game.num_players
    cp = game.current_player(s)
    over = s.phase == END
    stacks = []
    for t, st in enumerate(s.stacks):
        stacks.append({
            "name": STACK_NAMES[t],
            "kind": "corner" if t in CORNERS else "recruitment",
            "cards": [card_info(k) for k in st],
            "size": len(st),
        })
    out = {
        "game": game.id,
        "players": n,
        "you": player,
        "abilities": game.abilities,
        "round": s.round + 1,
        "rounds": ROUNDS,
        "phase": PHASE_NAMES[s.phase],
        "to_move": "chance" if cp == CHANCE else (None if cp < 0 else cp),
        "current": s.current,
        "dealt": s.deal if s.phase == DEAL else None,
        "stacks": stacks,
        "stockpile": s.unseen.bit_count(),
        "discards": _cards(s.discards),
        "hand_sizes": [h.bit_count() for h in s.hands],
        "played_this_turn": s.played,
        "passes": s.passes,
        "no_draw": s.no_draw,
        "totals": list(s.totals),
        "round_scores": [list(r) for r in s.history],
        "rounds_won": list(game.rounds_won(s)),
        "ability_rules": (
            {v["name"]: v["text"] for v in ABILITIES.values()} if game.abilities else {}
        ),
    }
    if s.history:
        out["last_round"] = {
            "round": len(s.history),
            "hands": [_cards(h) for h in s.last_hands],
            "scores": list(s.history[-1]),
            "winners": list(game.round_winners(s.history[-1])),
        }
    if player is not None:
        out["hand"] = _cards(s.hands[player])
    if over:
        out["hands"] = [_cards(h) for h in s.hands]
        out["ranking"] = game.ranking(s)
        out["winners"] = list(game.winners(s))
        out["returns"] = list(game.returns(s))
        out["outcome"] = outcome(game, s)["text"]
    return out


def sample_hidden(game: Kingpins, s: State, player: int | None, rng: random.Random) -> State:
    """Deals the cards ``player`` cannot see again at random: the other hands and the stockpile.

    The pool (stockpile plus the other hands) is built in sorted order from what
    the view shows, so the sample depends only on the view and ``rng``.
    """
    if s.phase == END:
        return s
    n = game.num_players
    others = [q for q in range(n) if q != player]
    pool = kinds(s.unseen)
    for q in others:
        pool.extend(kinds(s.hands[q]))
    pool.sort()
    rng.shuffle(pool)
    hands = list(s.hands)
    i = 0
    for q in others:
        size = s.hands[q].bit_count()
        hands[q] = from_kinds(pool[i:i + size])
        i += size
    unseen = from_kinds(pool[i:])
    return State(s.phase, s.round, s.current, s.deal, tuple(hands), unseen, s.stacks, s.discards,
                 s.played, s.passes, s.no_draw, s.totals, s.history, s.last_hands)


def observe_action(game: Kingpins, s: State, action: int, player: int | None, observer: int | None) -> str | None:
    """Returns the log line ``observer`` sees: a card dealt or drawn is shown only to its receiver.

    A card with an ability acting when played names it ("M5 on N (Collect)"); an action that
    ends a round adds the round's scores (the hands are shown to all then), and the last one
    the game's outcome.
    """
    n = game.num_players
    if s.phase in (DEAL, DRAW, COLLECT):
        k = action - A.DEAL0
        if s.phase == DEAL:
            if s.deal >= game.hand_deal:
                return f"{card_label(k)} is turned up on {STACK_NAMES[s.deal - game.hand_deal]}"
            who = s.deal % n
            if observer == who:
                return f"you are dealt {card_label(k)}"
            return f"player {who} is dealt a card"
        who, why = (s.current, "") if s.phase == DRAW else ((s.current + 1) % n, " (Collect)")
        line = f"you draw {card_label(k)}{why}" if observer == who else f"player {who} draws a card{why}"
        if s.phase == COLLECT and not s.hands[s.current]:
            line += round_end_note(game, s, game.apply(s, action))
        return line
    if s.phase == PLAY and action == A.END_TURN:
        if s.unseen and not s.no_draw:
            return f"player {player}: end turn (draws a card)"
        line = f"player {player}: end turn" + ("" if s.played else " (pass)")
    else:
        line = f"player {player}: {A.to_str(action, s.stacks)}"
        if s.phase == PLAY and action < A.MOVE0 and game.abilities:
            k = action // 8 if action < A.UNDER0 else (action - A.UNDER0) % (NUM_KINDS * 8) // 8
            ab = ABILITY[k]
            if ab and ABILITIES[ABILITY_KEYS[ab]]["when"] == "play":
                line += f" ({ABILITIES[ABILITY_KEYS[ab]]['name']})"
    return line + round_end_note(game, s, game.apply(s, action, player))


def round_end_note(game: Kingpins, s: State, after: State) -> str:
    """Returns '; round 2 ends: ...' when ``after`` scored a round (and the outcome at the end)."""
    if len(after.history) == len(s.history):
        return ""
    scores = after.history[-1]
    out = f"; round {len(after.history)} ends: " + ", ".join(
        f"player {p} {plural(v, 'point')}" for p, v in enumerate(scores))
    if after.phase == END:
        out += f"; game over: {outcome(game, after)['text']}"
    return out
