"""What each player may know of a Kingpins state, and states consistent with it.

Public: every stack (all its cards are face up), the stockpile's size, the
discards, each hand's size, the scores, and the hands revealed when a round
is scored. Private: a player's own hand. Never stored: the stockpile's order.

Observation tensor (``observation_tensor``), seat-relative: seat r of the
encoding is the player r places after the observer (r = 0: the observer), for
up to four seats; absent seats stay 0. Card kinds k are 0..51 (data.py). Flat,
in this order::

    offset  size   meaning
    0       52     my hand: copies of kind k (0, 1 or 2)
    52      416    stacks N, E, S, W, NE, SE, SW, NW: 52 each, 1.0 where kind k lies in
                   the stack (a stack's order follows from its ranks: it descends)
    468     52     the discards: copies of kind k
    520     4      cards in hand, by relative seat
    524     1      cards in the stockpile
    525     6      phase: DEAL, DRAW, COLLECT, PLAY, RUB_OUT, END
    531     5      round 1..5
    536     4      the current player, by relative seat
    540     1      set-up cards dealt so far (during the deal only, else 0)
    541     3      the current player has played this turn; All Clear (no draw);
                   passes in a row
    544     4      running totals, by relative seat
    548     20     round scores: 5 rounds x 4 relative seats (0 for rounds to come)
    568     208    the hands shown when the last round was scored (at the end: the
                   final hands): 4 relative seats x 52 copies
    776     1      the abilities option is on
    777     3      players: 2, 3 or 4 (one-hot)
    total 780

``information_state_string`` writes the same fields from the state (the
observer's seat, the phase, round, current player, the deal counter during the
deal, the observer's hand, the hand sizes, the stockpile's size, the stacks,
the discards, the turn flags, the round scores and the shown hands), so equal
views give equal strings and different views different ones.
"""

from __future__ import annotations

import random
from array import array
from typing import TYPE_CHECKING

from ...core.api import CHANCE
from ...core.fastrand import shuffle
from . import actions as A
from .data import (
    ABILITIES,
    ABILITY,
    ABILITY_KEYS,
    BIT,
    CLEAR,
    CORNERS,
    NUM_KINDS,
    NUM_RANKED,
    ROUNDS,
    STACK_NAMES,
    card_info,
    card_label,
    from_kinds,
    kinds,
)
from .state import COLLECT, DEAL, DRAW, END, PHASE_NAMES, PLAY, State, make

if TYPE_CHECKING:
    from .game import Kingpins


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
    hands = list(s.hands)
    last = _LAST_POOL[0]
    if last[0] is not s or last[1] != player:
        pool = kinds(s.unseen)
        for q, h in enumerate(hands):
            if q != player:
                pool += kinds(h)
        pool.sort()
        # Kept with the state: a search resamples the same state again and again.
        last = _LAST_POOL[0] = (s, player, tuple(pool), from_kinds(pool))  # one assignment: read whole
    pool = list(last[2])
    shuffle(pool, rng)
    rest = last[3]  # the pool as a set: the stockpile once the hands are dealt from it
    i = 0
    for q, h in enumerate(hands):
        if q != player:
            size = h.bit_count()
            h = 0
            for k in pool[i:i + size]:  # from_kinds, and the card taken out of the rest (remove_card)
                if k >= NUM_RANKED:
                    h |= BIT[k + 4] if h >> k & 1 else BIT[k]
                    rest &= CLEAR[k + 4] if rest >> (k + 4) & 1 else CLEAR[k]
                else:
                    h |= BIT[k]
                    rest &= CLEAR[k]
            hands[q] = h
            i += size
    return make(s.phase, s.round, s.current, s.deal, tuple(hands), rest, s.stacks,
                s.discards, s.played, s.passes, s.no_draw, s.totals, s.history, s.last_hands)


_LAST_POOL: list[tuple[object, int | None, tuple[int, ...], int]] = [(None, None, (), 0)]


def observe_action(game: Kingpins, s: State, action: int, player: int | None, observer: int | None) -> str | None:
    """Returns the log line ``observer`` sees: a card dealt or drawn is shown only to its receiver.

    A card with an ability acting when played names it ("M5 on N (Collect)"); an action that
    ends a round adds the round's scores (the hands are shown to all then), and the last one
    the game's outcome.
    """
    n = game.num_players
    if s.phase in (DEAL, DRAW, COLLECT):
        k = action
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


# ---- the research surface ---------------------------------------------------------------
TENSOR_SIZE = 780
_STACKS0, _DISC0, _SIZES0, _STOCK0, _PHASE0, _ROUND0, _CUR0 = 52, 468, 520, 524, 525, 531, 536
_DEAL0, _FLAGS0, _TOTALS0, _HIST0, _SHOWN0, _ABIL0, _PLAYERS0 = 540, 541, 544, 548, 568, 776, 777


_ZERO = array("f", bytes(4 * TENSOR_SIZE))


def _add_counts(out: array, base: int, mask: int) -> None:
    """Adds the copies of each kind in the card set ``mask`` at ``out[base + kind]``."""
    for k in kinds(mask):
        out[base + k] += 1.0


def observation_tensor(game: Kingpins, s: State, player: int) -> array:
    """Returns ``player``'s observation as a flat float32 array("f") (numpy views its buffer without a
    copy), encoded as the module docstring says."""
    n = game.num_players
    out = _ZERO[:]
    _add_counts(out, 0, s.hands[player])
    base = _STACKS0
    for st in s.stacks:
        for k in st:
            out[base + k] = 1.0
        base += 52
    _add_counts(out, _DISC0, s.discards)
    for q in range(n):
        r = (q - player) % n
        out[_SIZES0 + r] = float(s.hands[q].bit_count())
        out[_TOTALS0 + r] = float(s.totals[q])
        for i, scores in enumerate(s.history):
            out[_HIST0 + 4 * i + r] = float(scores[q])
        _add_counts(out, _SHOWN0 + 52 * r, s.last_hands[q])
    out[_STOCK0] = float(s.unseen.bit_count())
    out[_PHASE0 + s.phase] = 1.0
    out[_ROUND0 + s.round] = 1.0
    out[_CUR0 + (s.current - player) % n] = 1.0
    if s.phase == DEAL:
        out[_DEAL0] = float(s.deal)
    out[_FLAGS0] = 1.0 if s.played else 0.0
    out[_FLAGS0 + 1] = 1.0 if s.no_draw else 0.0
    out[_FLAGS0 + 2] = float(s.passes)
    out[_ABIL0] = 1.0 if game.abilities else 0.0
    out[_PLAYERS0 + n - 2] = 1.0
    return out


def information_state_string(game: Kingpins, s: State, player: int | None) -> str:
    """Returns a canonical key of all ``player`` may know (None: a spectator, who sees no
    hand), built from state fields (cheap)."""
    stacks = s.stacks
    shown = _STACKS_TEXT.get(stacks)
    if shown is None:
        if len(_STACKS_TEXT) >= 65536:
            _STACKS_TEXT.clear()
        shown = _STACKS_TEXT[stacks] = f"{stacks}"
    history, last_hands = s.history, s.last_hands
    past = _LAST_PAST[0]
    if past[0] is not history or past[1] is not last_hands:
        past = _LAST_PAST[0] = (history, last_hands, f"{history}|{last_hands}")  # one assignment: read whole
    return (f"{player}|{s.phase}|{s.round}|{s.current}|{s.deal if s.phase == DEAL else ''}|"
            f"{'' if player is None else s.hands[player]}|{[h.bit_count() for h in s.hands]}|{s.unseen.bit_count()}|"
            f"{shown}|{s.discards}|{s.played:d}{s.no_draw:d}{s.passes}|{past[2]}")


# The text of the stacks, by stacks (emptied when it grows large), and that of the last
# round scores and shown hands asked for (they change only between rounds).
_STACKS_TEXT: dict[tuple[tuple[int, ...], ...], str] = {}
_LAST_PAST: list[tuple[object, object, str]] = [(None, None, "")]
