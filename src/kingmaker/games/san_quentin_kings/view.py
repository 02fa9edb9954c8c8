"""What each player may know of a San Quentin Kings state, and states consistent with it.

Public: the board (blocks played, tracks, every gang's cell, yard, solitary,
court and removed pieces), the number of shank cards and drug chips each
player holds, commissary and bribe chips, the discards and used drugs, the
fight areas, the cafeteria's face-up goods and the bus. The fight deck's
make-up is public too (every fight card is seen when drawn), never its order.

Private: a player's own shank cards by type and drug chips by colour, and
their committed fist until all fists are revealed. The shank deck and the
drug pile are face down (counts only).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...core.api import CHANCE, SIMULTANEOUS
from . import actions as A
from . import rules
from .data import (
    BLOCK_NAMES,
    CARD_NAMES,
    COMM_B,
    DRUG_B,
    DRUGS,
    FP_FIRST,
    FP_RIOT,
    IS_FIGHT,
    NUM_BLOCKS,
    PAYOUT,
    PIECES_PER_TYPE,
    RIOT,
    SHANK_B,
    TIE_BREAKER,
    TYPES,
)
from .fight import ALL_FISTS, strength
from .observe import information_state_string, observation_shape, observation_tensor
from .recall import GOODS, bounds, deck_at
from .state import (
    CHIPS,
    COMM,
    COURT,
    DPILE,
    DR,
    DUSED,
    F_BRIBED,
    F_COMMITTED,
    F_GRAVE,
    FIGHT,
    FIGHT_PHASES,
    FP,
    GSIZE,
    M_BUS,
    M_DRUG,
    M_R1,
    M_R2,
    M_SHANK,
    OWE_COMM,
    OWE_DR,
    OWE_SH,
    P_DRAWN,
    P_DRUGPAY,
    P_END,
    P_FISTS,
    P_PICK,
    P_STOLEN,
    P_TURN,
    PHASE_NAMES,
    PSIZE,
    RESPECT,
    SCHIPS,
    SCOMM,
    SDECK,
    SDISC,
    SH,
    SOL,
    YARD,
    State,
)
from .tasks import (
    K_CDRUG,
    K_CSHANK,
    K_DRUG,
    K_FIGHT,
    K_INIT,
    K_SHANK,
    K_STEAL_SHANK,
    outcome_counts,
    split_task,
)

if TYPE_CHECKING:
    from .game import SanQuentinKings


def _types(seq) -> dict[str, int]:
    return {TYPES[t]: seq[t] for t in range(3)}


def _drugs(seq) -> dict[str, int]:
    return {DRUGS[d]: seq[d] for d in range(3)}


def _task_text(t: int) -> str:
    kind, mode, a, b = split_task(t)
    if kind == K_INIT:
        return "a random player receives the initiator disc"
    if kind == K_SHANK:
        return f"player {a} steals a shank card from the deck" if mode else f"player {a} receives {plural(b, 'shank card')}"
    if kind == K_DRUG:
        return f"player {a} steals a drug chip from the pile" if mode else f"player {a} receives {plural(b, 'drug chip')}"
    if kind == K_CSHANK:
        return f"{plural(b, 'shank card')} to lay out in the cafeteria"
    if kind == K_CDRUG:
        return f"{plural(b, 'drug chip')} to lay out in the cafeteria"
    if kind == K_FIGHT:
        return f"player {a} draws a fight card"
    if kind == K_STEAL_SHANK:
        return f"player {a} steals a random shank card from player {b}"
    return f"player {a} steals a random drug chip from player {b}"


_LEGEND = {
    "types": list(TYPES),
    "drug_colours": list(DRUGS),
    "card_names": list(CARD_NAMES),
    # The fight blocks (and the riot) with their tie-breakers, strongest type first.
    "tie_breakers": {BLOCK_NAMES[b]: ">".join(TYPES[t][0] for t in TIE_BREAKER[b])
                     for b in range(len(BLOCK_NAMES)) if IS_FIGHT[b]},
}


def view(game: SanQuentinKings, s: State, player: int | None) -> dict:
    """Returns what ``player`` may know. Counts by gang member type, drug colour and fight
    card kind are lists in the order of ``legend`` (tuples here; JSON makes them lists).

    The public part is computed once per state (views of one state for every seat share it)."""
    cached = game._view_cache
    if cached is not None and cached[0] is s:
        out = dict(cached[1])
    else:
        pub = _public(game, s)
        game._view_cache = (s, pub)
        out = dict(pub)
    out["you"] = player
    if player is not None:
        g = s.goods
        k = player * GSIZE
        mine: dict = {"shank_cards": list(g[k + SH : k + SH + 3]), "drug_chips": list(g[k + DR : k + DR + 3])}
        if s.phase == P_FISTS and s.fists and s.fists[player] >= 0:
            fist = list(A.fist_counts(s.fists[player]))
            mine["fist"] = fist
            fight = dict(out["fight"])
            fists = list(fight["fists"])
            fists[player] = {"player": player, "status": "committed", "fist": fist}
            fight["fists"] = fists
            out["fight"] = fight
        if s.phase == P_STOLEN and not s.queue:
            if game.current_player(s) == player:
                mine["stolen_shank"] = TYPES[s.pending % 3]
            elif s.pending // 3 - 1 == player:
                mine["shank_taken_from_you"] = TYPES[s.pending % 3]  # the thief may play it now
        out["yours"] = mine
    known = _known(s.known, player, game.n)
    if known:
        out["known"] = known
    return out


def _known(known: tuple[int, ...], player: int | None, n: int) -> list[dict]:
    """Returns the other players' cards ``player`` knows of (at least these; recall.py)."""
    out = []
    j = (n if player is None else player) * n * GOODS
    for q in range(n):
        b = known[j + q * GOODS : j + q * GOODS + GOODS]
        if any(b):
            out.append({"player": q, "shank_cards": list(b[:3]), "drug_chips": list(b[3:])})
    return out


def _public(game: SanQuentinKings, s: State) -> dict:
    """Returns the part of every view that all players see alike (``gangs[q]`` is player q's)."""
    n = game.n
    cp = game.current_player(s)
    pc, g, sup = s.pieces, s.goods, s.supply
    gangs = []
    for q in range(n):
        o, k = q * PSIZE, q * GSIZE
        gang = {
            "cell": pc[o : o + 3],
            "yard": pc[o + YARD : o + YARD + 3],
            "solitary": pc[o + SOL : o + SOL + 3],
            "court": pc[o + COURT : o + COURT + 3],
            "shank_cards": g[k] + g[k + 1] + g[k + 2],
            "drug_chips": g[k + DR] + g[k + DR + 1] + g[k + DR + 2],
            "commissary": g[k + COMM],
            "bribe_chips": g[k + CHIPS],
            "respect": g[k + RESPECT],
            "fight_points": g[k + FP],
        }
        left = [PIECES_PER_TYPE - pc[o + t] - pc[o + YARD + t] - pc[o + SOL + t] - pc[o + COURT + t]
                - pc[o + FIGHT + t] for t in range(3)]
        if s.bribed:
            for _h, ow, t in s.bribed:
                if ow == q:
                    left[t] -= 1
        if left[0] or left[1] or left[2]:
            gang["removed"] = left
        if g[k + OWE_SH] or g[k + OWE_COMM] or g[k + OWE_DR]:
            gang["owed"] = {"shank_cards": g[k + OWE_SH], "commissary": g[k + OWE_COMM], "drug_chips": g[k + OWE_DR]}
        gangs.append(gang)
    used = s.used
    out: dict = {
        "game": game.id,
        "players": n,
        "you": None,
        "legend": _LEGEND,
        "year": min(s.year, 3),
        "riot": s.year > 3,
        "phase": "dealing" if s.queue else PHASE_NAMES[s.phase],
        "to_move": "chance" if cp == CHANCE else ("simultaneous" if cp == SIMULTANEOUS else (cp if cp >= 0 else None)),
        "acting": list(game.acting_players(s)) if cp == SIMULTANEOUS else ([cp] if cp >= 0 else []),
        "initiator": s.initiator,
        # In the riot and at the end every block of the third year has been played.
        "blocks_played": [BLOCK_NAMES[b] for b in range(NUM_BLOCKS) if used >> b & 1 or s.year > 3],
        "blocks_open": [BLOCK_NAMES[b] for b in range(NUM_BLOCKS) if not used >> b & 1 and s.year <= 3],
        "block": BLOCK_NAMES[s.block] if s.block >= 0 else None,
        "gangs": gangs,
        "supply": {
            "shank_deck": sup[SDECK] + sup[SDECK + 1] + sup[SDECK + 2],
            "known_in_deck": list(s.known[deck_at(n) : deck_at(n) + 6]),
            "shank_discards": sup[SDISC : SDISC + 3],
            "drug_pile": sup[DPILE] + sup[DPILE + 1] + sup[DPILE + 2],
            "used_drugs": sup[DUSED : DUSED + 3],
            "commissary": sup[SCOMM],
            "bribe_chips": sup[SCHIPS],
        },
        "fight_deck": {
            "size": sum(s.fdeck),
            "remaining": s.fdeck,
            "discards": sum(s.fdisc),
            "guards": game.guards,
            "grave_drawn": bool(s.flags & F_GRAVE),
        },
    }
    if s.queue:
        out["pending"] = [_task_text(t) for t in s.queue]
    if s.block >= 0 and IS_FIGHT[s.block]:
        out["fight"] = _fight_view(game, s)
    if s.block == 5:
        m = s.market
        out["cafeteria"] = {
            "shank_cards": list(m[M_SHANK : M_SHANK + 3]),
            "drug_chips": list(m[M_DRUG : M_DRUG + 3]),
            "bus_row": list(m[M_BUS : M_BUS + 3]),
            "respect": ([2] if m[M_R2] else []) + [1] * m[M_R1],
        }
    if s.phase == P_PICK and not s.queue:
        out["bus"] = {
            "pieces": list(s.market[M_BUS : M_BUS + 3]),
            "ranking": list(s.ranking),
            "picking": s.ranking[s.pos],
            "picks_left": s.need,
        }
    if s.phase == P_END and not s.queue:
        out["final"] = {
            "respect": game.score_breakdown(s),
            "winners": list(game.winners(s)),
            "returns": list(game.returns(s)),
        }
    return out


def _fight_view(game: SanQuentinKings, s: State) -> dict:
    n = game.n
    areas = []
    for q in range(n):
        if not s.inflight >> q & 1:
            continue
        o = q * PSIZE + FIGHT
        area = {
            "player": q,
            "passed": bool(s.passed >> q & 1),
            "pieces": s.pieces[o : o + 3],
            "cards": [CARD_NAMES[c] for c in s.cards[q]],
            "strength": strength(s, q),
        }
        if s.bribed:
            area["bribed_in"] = [{"type": TYPES[t], "owner": ow} for h, ow, t in s.bribed if h == q]
        areas.append(area)
    fists = None
    if s.phase in (P_FISTS, P_DRUGPAY) and s.fists:
        fists = []
        for q, f in enumerate(s.fists):
            if f == -2:
                to_pay = s.phase == P_DRUGPAY and (q - s.initiator) % game.n >= s.pos
                status = "to pay" if to_pay else "out"
            elif f == -1:
                status = "paid" if s.phase == P_DRUGPAY else "choosing"
            else:
                status = "committed"
            fists.append({"player": q, "status": status})
    fighting = s.phase in FIGHT_PHASES
    return {
        "block": BLOCK_NAMES[s.block],
        "tie_breaker": [TYPES[t] for t in TIE_BREAKER[s.block]],
        "round": s.rnd,
        "turn": (s.initiator + 1 + s.pos) % n if fighting and not s.queue else None,
        "fighting_this_turn": bool(s.flags & F_COMMITTED),
        "cards_to_play": s.need if s.flags & F_COMMITTED else 0,
        "bribe_used": bool(s.flags & F_BRIBED),
        "drawn_card": CARD_NAMES[s.pending] if s.phase == P_DRAWN and not s.queue else None,
        "fists": fists,
        "areas": areas,
        "placings": list(s.ranking),
    }


def _deal(pool: list[int], k: int, rng: random.Random) -> list[int]:
    out = [0, 0, 0]
    for _ in range(k):
        r = rng.randrange(sum(pool))
        for i in range(3):
            if r < pool[i]:
                break
            r -= pool[i]
        pool[i] -= 1
        out[i] += 1
    return out


def sample_hidden(game: SanQuentinKings, s: State, player: int | None, rng: random.Random) -> State:
    """Deals again what ``player`` cannot see, keeping every count they know.

    Hidden: the other players' shank cards by type and drug chips by colour
    (with the shank deck and drug pile), and their committed fists. The cards
    ``player`` knows another player holds (bought face up, seen when stolen:
    ``State.known``) stay in that hand. A stolen shank waiting to be played is one
    of the thief's cards.
    """
    if s.phase == P_END and not s.queue:
        return s
    n = game.n
    others = [q for q in range(n) if q != player]
    goods = list(s.goods)
    supply = list(s.supply)
    pending = s.pending
    thief = game.current_player(s) if s.phase == P_STOLEN and not s.queue else -1
    known = s.known
    for off, deck, b in ((SH, SDECK, 0), (DR, DPILE, 3)):
        # The cards the player knows of (recall.py) stay where they are; the rest are dealt again.
        fixed = {q: bounds(known, player, q, n)[b : b + 3] for q in others}
        d = deck_at(n) + b
        in_deck = known[d : d + 3]
        pool = [supply[deck + i] - in_deck[i] + sum(goods[q * GSIZE + off + i] - fixed[q][i] for q in others)
                for i in range(3)]
        for q in others:
            k = q * GSIZE + off
            hand = list(fixed[q])
            got = _deal(pool, goods[k] + goods[k + 1] + goods[k + 2] - sum(hand), rng)
            for i in range(3):
                hand[i] += got[i]
                goods[k + i] = hand[i]
            if q == thief and off == SH and s.pending // 3 - 1 != player:
                # Which card waits to be played: its type is dealt again (its victim is public).
                pending = _deal(hand, 1, rng).index(1) + s.pending - s.pending % 3
        for i in range(3):
            supply[deck + i] = pool[i] + in_deck[i]
    fists = s.fists
    if s.phase == P_FISTS and fists:
        fl = list(fists)
        for q in others:
            if fl[q] >= 0:
                o = q * PSIZE
                pc = s.pieces
                fl[q] = rng.choice(ALL_FISTS[pc[o] * 64 + pc[o + 1] * 8 + pc[o + 2]]) - A.FIST0
        fists = tuple(fl)
    return State(
        s.phase, s.year, s.initiator, s.used, s.block, s.pos, s.rnd, s.need, s.flags, pending,
        s.pieces, tuple(goods), tuple(supply), s.fdeck, s.fdisc, s.cards, s.bribed, fists,
        s.inflight, s.passed, s.market, s.ranking, s.queue, s.known,
    )


def plural(k: int, word: str) -> str:
    """Returns "1 shank card", "2 shank cards", "1 commissary" (uncountable words stay)."""
    if k == 1 or word in ("commissary", "respect"):
        return f"{k} {word}"
    return f"{k} {word}s"


def observe_action(game: SanQuentinKings, s: State, action: int, player: int | None,
                   observer: int | None) -> str | None:
    """Returns the log text ``observer`` sees: secret deals and fists only for their owner, then
    what followed by itself (the fists opening, the placings and the goods each place takes, the
    end of a year, the riot), on further lines."""
    line = _action_line(s, action, player, observer)
    if s.block < 0 and s.phase != P_FISTS:
        return line
    trace: list = []
    rules.apply(s, action, player, game.n, trace)
    return "\n".join([line, *(_event_line(e) for e in trace)])


def _action_line(s: State, action: int, player: int | None, observer: int | None) -> str:
    if s.queue:
        kind, mode, a, b = split_task(s.queue[0])
        what = A.to_str(action)
        if kind == K_INIT:
            return f"player {action - A.CH_PLAYER0} starts with the initiator disc"
        if kind in (K_SHANK, K_DRUG):
            vec, _ = outcome_counts(action)
            k = sum(vec)
            word = "shank card" if kind == K_SHANK else "drug chip"
            if mode:
                if observer == a:
                    return f"you steal a {what.split()[-1]} {word} from the supply"
                return f"player {a} steals a {word} from the supply"
            if observer == a:
                return f"you receive a {what.split()[-1]} {word}" if k == 1 else f"you receive {what}"
            return f"player {a} receives {'a ' + word if k == 1 else plural(k, word)}"
        if kind in (K_CSHANK, K_CDRUG):
            vec, shank = outcome_counts(action)
            names = TYPES if shank else DRUGS
            laid = ", ".join(f"{c} {names[i]}" for i, c in enumerate(vec) if c)
            return f"cafeteria: {'shank cards' if shank else 'drug chips'} laid out face up: {laid}"
        if kind == K_FIGHT:
            return f"player {a} draws: {what[len('fight card '):]}"
        word = "shank card" if kind == K_STEAL_SHANK else "drug chip"
        if observer in (a, b):
            return f"player {a} steals a {what.split()[-1]} {word} from player {b}"
        return f"player {a} steals a {word} from player {b}"
    if s.phase == P_FISTS and observer != player:
        return f"player {player} commits a fist"
    if s.phase == P_TURN and A.SHANK0 <= action < A.END_TURN:
        return f"player {player} plays a {TYPES[action - A.SHANK0]} shank card"
    return f"player {player}: {A.to_str(action)}"


_PLACES = ("1st", "2nd", "3rd", "4th", "5th")


def _event_line(e: tuple) -> str:
    """Returns the log line of an automatic step (see ``rules.apply``'s trace); all of it is public."""
    if e[0] == "fists":
        shown = []
        for q, f in enumerate(e[1]):
            if f == 0:
                shown.append(f"player {q} opens an empty fist (out of the fight, immune)")
            elif f > 0:
                c, sc, t = A.fist_counts(f)
                shown.append(f"player {q} C{c} S{sc} T{t}")
        return "fists open: " + ("; ".join(shown) if shown else "nobody holds a fist")
    if e[0] == "placed":
        b, placed = e[1], e[2]
        name = "riot" if b == RIOT else f"{BLOCK_NAMES[b]} fight"
        if not placed:
            return f"{name}: nobody places"
        if b == RIOT:
            return f"{name}: player {placed[0]} wins, +{plural(FP_RIOT, 'fight point')}"
        parts = []
        for i, p in enumerate(placed):
            got = [f"+{plural(FP_FIRST, 'fight point')}"] if i == 0 else []
            if i < len(PAYOUT):
                k = PAYOUT[i]
                got.append({COMM_B: plural(k, "commissary"), SHANK_B: plural(k, "shank card"),
                             DRUG_B: plural(k, "drug chip")}.get(b, f"picks {plural(k, 'piece')} from the bus"))
            parts.append(f"{_PLACES[i]} player {p} ({', '.join(got) or 'nothing'})")
        return f"{name}: " + ", ".join(parts)
    if e[0] == "year":
        return (f"end of year {e[1]}: the craziest gang's solitary bonus, every piece back to its cell, "
                "discards shuffled back")
    if e[0] == "riot":
        return f"the riot begins: every piece fights; player {e[1]} (fewest fight points) initiates"
    return "the game is over"


__all__ = [
    "information_state_string", "observation_shape", "observation_tensor", "observe_action", "plural", "sample_hidden",
    "view",
]
