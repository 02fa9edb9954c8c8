"""King's Kilt rules, as functions of the game (its options) and a state.

Rulebook: ``src/kingmaker/rulebooks/kings-kilt.txt`` (sections quoted in the tests).
Rulings: ``docs/rulings/kings-kilt.md`` (KK-1 ... ). The ``Game`` class that
composes these functions is in ``game.py``; this module depends only on
``state``, ``actions`` and ``data``.

Turn structure as a chain of nodes::

    set-up chance: family cards (3 each, distinct clans), influence cards
    (5 each, 4 with 4 players), six base cards, the draw pile's top card
    PLAY  (active player): ascend / betray / pass (pass only after the crowning)
    FILL  (active player): which card beneath fills the vacuum (only when
          both are there; a lone card moves up by itself; the base row takes
          the draw pile's top card)
    CHANCE: the new top card of the draw pile is turned up
    REVEAL (each rewarded opponent in turn): which family card to turn up
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.api import CHANCE, TERMINAL, node_name
from ...core.errors import IllegalActionError, InvalidActionError, InvalidStateError
from . import actions as A
from .data import (
    ASCEND,
    BELOW,
    BOTTOM,
    CELLS,
    FAMILY_CARDS,
    GUARDIAN_CELLS,
    GUARDIAN_POINTS,
    KING_POINTS,
    LEADERS_PER_CLAN,
    MEMBERS_PER_CLAN,
    NEIGHBOUR_MASK,
    NOBLE_CELLS,
    NOBLEMAN_POINTS,
    NUM_CLANS,
    NUM_KINDS,
    ROW,
    cell_name,
)
from .state import (
    AFTER,
    END,
    FILL,
    PLAY,
    REVEAL,
    SETUP_FAMILY,
    SETUP_INFLUENCE,
    SETUP_ROW,
    State,
)

if TYPE_CHECKING:
    from .game import KingsKilt
# ---- set-up ----------------------------------------------------------------
def new_initial_state(game: KingsKilt) -> State:
    n = game.num_players
    unseen = tuple([MEMBERS_PER_CLAN] * NUM_CLANS + [LEADERS_PER_CLAN] * NUM_CLANS)
    return State(
        phase=SETUP_FAMILY,
        deal=0,
        pyramid=(-1,) * CELLS,
        top=-1,
        unseen=unseen,
        pile_n=sum(unseen),
        discards=(0,) * NUM_CLANS,
        removed=(0,) * NUM_KINDS,
        family=((),) * n,
        revealed=(0,) * n,
        hands=((0,) * NUM_CLANS,) * n,
        current=0,
        vacuum=-1,
        crowned=0,
        noblemen=-1,
        guardians=-1,
        pending=(),
        passed=0,
    )


# ---- whose turn ------------------------------------------------------------
def current_player(game: KingsKilt, s: State) -> int:
    phase = s.phase
    if phase <= SETUP_ROW:
        return CHANCE
    if phase == END:
        return TERMINAL
    if s.top < 0 and s.pile_n > 0:
        return CHANCE
    if phase == REVEAL:
        return s.pending[0]
    return s.current


# ---- chance ----------------------------------------------------------------
def chance_outcomes(game: KingsKilt, s: State) -> list[tuple[int, float]]:
    """Returns ``[(kind, probability), ...]``: the card dealt or turned up next."""
    cp = current_player(game, s)
    if cp != CHANCE:
        raise IllegalActionError(f"{game.name}: chance_outcomes called at a {node_name(cp)} node")
    u = s.unseen
    if s.phase == SETUP_FAMILY:
        p = s.deal % game.num_players
        if game.one_per_clan and s.deal < 2 * game.num_players:
            # Variant: the first two family cards each come from a pile of one member per clan.
            dealt = {k for f in s.family for k in f}
            kinds = [k for k in range(NUM_CLANS) if k not in dealt]
            return [(A.CARD0 + k, 1.0 / len(kinds)) for k in kinds]
        kinds = [k for k in range(NUM_CLANS) if u[k] and k not in s.family[p]]
    elif s.phase == SETUP_INFLUENCE:
        kinds = [k for k in range(NUM_CLANS) if u[k]]
    else:
        # Draw pile: the leaders lie on top of the members (set-up), so they come first.
        kinds = [k for k in range(NUM_CLANS, NUM_KINDS) if u[k]] or [k for k in range(NUM_CLANS) if u[k]]
    total = sum(u[k] for k in kinds)
    return [(A.CARD0 + k, u[k] / total) for k in kinds]


_NUM_ACTIONS = A.NUM_ACTIONS
_NO_LEADERS = (0,) * NUM_CLANS


def _offered(game: KingsKilt, s: State, kind: int) -> bool:
    """Returns True when ``kind`` is one of ``chance_outcomes(s)`` (the same test, cheaper)."""
    if not 0 <= kind < NUM_KINDS or not s.unseen[kind]:
        return False
    if s.phase == SETUP_FAMILY:
        if kind >= NUM_CLANS:
            return False
        if game.one_per_clan and s.deal < 2 * game.num_players:
            return all(kind not in f for f in s.family)
        return kind not in s.family[s.deal % game.num_players]
    if s.phase == SETUP_INFLUENCE:
        return kind < NUM_CLANS
    return kind >= NUM_CLANS or not any(s.unseen[NUM_CLANS:])


# ---- legal actions ---------------------------------------------------------
def legal_actions(game: KingsKilt, s: State, player: int | None = None) -> list[int]:
    phase = s.phase
    if phase <= SETUP_ROW or phase == END or (s.top < 0 and s.pile_n > 0):  # current_player, inline
        return [a for a, _ in chance_outcomes(game, s)] if phase != END and player is None else []
    cp = s.pending[0] if phase == REVEAL else s.current
    if player is not None and player != cp:
        return []
    if phase == PLAY:
        return _play_actions(game, s, cp)
    if phase == FILL:
        return [A.FILL0 + c for c in BELOW[s.vacuum]]
    # REVEAL: any family card still face down.
    rev = s.revealed[cp]
    return [A.REVEAL0 + k for k in sorted(s.family[cp]) if not rev >> k & 1]


def ascents(pyr: tuple[int, ...]) -> list[int]:
    """Returns the ascend actions open in the pyramid, in action order: a card ascends towards
    a neighbouring card into an empty space (Ascension; none once the King is crowned)."""
    out = []
    for i in range(1, CELLS):
        if pyr[i] >= 0:
            b = i * 2
            dest, sup = ASCEND[b]
            if dest >= 0 and pyr[dest] < 0 and pyr[sup] >= 0:
                out.append(b)
            dest, sup = ASCEND[b + 1]
            if dest >= 0 and pyr[dest] < 0 and pyr[sup] >= 0:
                out.append(b + 1)
    return out


def betray_targets(pyr: tuple[int, ...], hand: tuple[int, ...]) -> list[tuple[int, int]]:
    """Returns (clan, bit mask of the cells it may betray) for every clan with a card in ``hand``
    and at least one target: a card next to one of the clan's, or any card when the clan
    holds the throne (Influence and Betrayal). One pass over the pyramid."""
    near = [0] * NUM_CLANS
    occupied = 0
    for i in range(CELLS):
        k = pyr[i]
        if k >= 0:
            occupied |= 1 << i
            near[k & 7] |= NEIGHBOUR_MASK[i]
    king = pyr[0] & 7 if pyr[0] >= 0 else -1
    out = []
    for k in range(NUM_CLANS):
        if hand[k]:
            mask = occupied if k == king else near[k] & occupied
            if mask:
                out.append((k, mask))
    return out


def _play_actions(game: KingsKilt, s: State, p: int) -> list[int]:
    pyr = s.pyramid
    out = [] if s.crowned else ascents(pyr)
    hand = s.hands[p]
    if any(hand):
        for k, mask in betray_targets(pyr, hand):
            base = A.BETRAY0 + k * CELLS
            t = 0
            while mask:
                if mask & 1:
                    out.append(base + t)
                mask >>= 1
                t += 1
    if s.crowned or not out:
        out.append(A.PASS)
    return out


def explain_illegal(game: KingsKilt, s: State, action: int, player: int) -> str:
    if s.phase == PLAY:
        if action < A.BETRAY0:
            if s.crowned:
                return "once a King is crowned, cards no longer ascend (only betrayal or passing)"
            dest, sup = ASCEND[action]
            if s.pyramid[action // 2] < 0:
                return "there is no card in that cell"
            if dest < 0:
                return "a card cannot ascend off the side of the pyramid"
            if s.pyramid[dest] >= 0:
                return "the space it would ascend into is not empty"
            return "a card ascends only towards a neighbouring card (that side is empty)"
        if action < A.FILL0:
            k = (action - A.BETRAY0) // CELLS
            if not s.hands[player][k]:
                return "you hold no influence card of that clan"
            return "no card of that clan neighbours the target (and it is not the King's clan), or the target is empty"
        if action == A.PASS:
            return "passing is allowed only once a King is crowned"
        return "it is time to ascend, betray or pass"
    if s.phase == FILL:
        return f"the vacuum at {cell_name(s.vacuum)} is filled from one of the two cards beneath it"
    if s.phase == REVEAL:
        return "you must turn one of your face-down family cards face up"
    return "it is not one of the legal moves now"


# ---- apply -----------------------------------------------------------------
def apply(game: KingsKilt, s: State, action: int, player: int | None = None) -> State:
    """Returns the state after ``action`` (unchecked for legality; InvalidActionError out of range)."""
    phase = s.phase
    if phase <= SETUP_ROW or (s.top < 0 and s.pile_n > 0 and phase != END):
        # A chance outcome: a kind still unseen that chance_outcomes offers (the common cases
        # inline: an influence card is a member; from the pile, leaders come first).
        u = s.unseen
        if type(action) is not int or not 0 <= action < NUM_KINDS or not u[action] or (
            action >= NUM_CLANS if phase == SETUP_INFLUENCE
            else not _offered(game, s, action) if phase == SETUP_FAMILY
            else action < NUM_CLANS and u[NUM_CLANS:] != _NO_LEADERS
        ):
            raise InvalidActionError(f"{action!r} is not a chance outcome offered here", text=repr(action)[:40])
        return _apply_chance(game, s, action)
    if type(action) is not int or not 0 <= action < _NUM_ACTIONS:
        raise InvalidActionError(f"action {action!r} is outside 0..{_NUM_ACTIONS - 1}", text=repr(action)[:40])
    pyr = list(s.pyramid)
    cur = s.current
    hands = s.hands
    discards = s.discards
    removed = s.removed
    unseen = s.unseen
    pile_n = s.pile_n
    revealed = s.revealed
    pending = s.pending
    passed = s.passed
    crowned = s.crowned
    noblemen = s.noblemen
    guardians = s.guardians
    vacuum = -1
    if phase == PLAY:
        if action < A.BETRAY0:
            src = action >> 1
            dest = ASCEND[action][0]
            pyr[dest] = pyr[src]
            pyr[src] = -1
            vacuum = src
            row = ROW[dest]
            if row == 0:
                crowned = 1
            elif row == 2 and noblemen < 0:
                noblemen = cur
                pending = _reward(game, s, cur, guardian=False)
            elif row == 1 and guardians < 0:
                guardians = cur
                pending = _reward(game, s, cur, guardian=True)
        elif action < A.FILL0:
            k, t = divmod(action - A.BETRAY0, CELLS)
            h = list(hands[cur])
            h[k] -= 1
            hands = hands[:cur] + (tuple(h),) + hands[cur + 1 :]
            d = list(discards)
            d[k] += 1
            discards = tuple(d)
            r = list(removed)
            r[pyr[t]] += 1
            removed = tuple(r)
            pyr[t] = -1
            vacuum = t
        else:  # pass
            passed |= 1 << cur
        phase = FILL if vacuum >= 0 else AFTER
    elif phase == FILL:
        src = action - A.FILL0
        pyr[s.vacuum] = pyr[src]
        pyr[src] = -1
        vacuum = src
    else:  # REVEAL
        who = pending[0]
        revealed = revealed[:who] + (revealed[who] | 1 << (action - A.REVEAL0),) + revealed[who + 1 :]
        pending = pending[1:]
        phase = AFTER
    top = s.top
    # The vacuum chain: a lone card beneath moves up by itself; two wait for a choice.
    while phase == FILL:
        below = BELOW[vacuum]
        if below:
            a, b = below
            if pyr[a] >= 0 and pyr[b] >= 0:
                break
            src = a if pyr[a] >= 0 else b if pyr[b] >= 0 else -1
            if src < 0:  # nothing beneath (only when the cards ran out): leave a hole
                vacuum = -1
                phase = AFTER
                break
            pyr[vacuum] = pyr[src]
            pyr[src] = -1
            vacuum = src
            continue
        if top < 0 and pile_n == 0 and sum(discards):
            unseen, pile_n, discards = _reshuffle(unseen, discards)
        if top >= 0:
            pyr[vacuum] = top
            top = -1
            vacuum = -1
            phase = AFTER
        elif pile_n > 0:
            break  # the top card must be turned up first (a chance node)
        else:
            vacuum = -1
            phase = AFTER
    if phase == AFTER:
        if top < 0 and pile_n == 0 and sum(discards):
            unseen, pile_n, discards = _reshuffle(unseen, discards)
        if pending:
            phase = REVEAL
        else:
            cur, phase = _next_player(game, cur, passed)
    return State(
        phase,
        s.deal,
        tuple(pyr),
        top,
        unseen,
        pile_n,
        discards,
        removed,
        s.family,
        revealed,
        hands,
        cur,
        vacuum,
        crowned,
        noblemen,
        guardians,
        pending,
        passed,
    )


def _next_player(game: KingsKilt, cur: int, passed: int) -> tuple[int, int]:
    n = game.num_players
    for step in range(1, n + 1):
        q = (cur + step) % n
        if not passed >> q & 1:
            return q, PLAY
    return cur, END


def _reward(game: KingsKilt, s: State, winner: int, guardian: bool) -> tuple[int, ...]:
    """Returns the reveals the reward forces: each opponent turns one family card up;
    the 2-player Guardians side makes the opponent turn up all but one."""
    n = game.num_players
    out: list[int] = []
    for step in range(1, n):
        q = (winner + step) % n
        hidden = len(s.family[q]) - bin(s.revealed[q]).count("1")
        times = hidden - 1 if (guardian and n == 2) else min(hidden, 1)
        out.extend([q] * max(times, 0))
    return s.pending + tuple(out)


def _apply_chance(game: KingsKilt, s: State, kind: int) -> State:
    n = game.num_players
    u = list(s.unseen)
    u[kind] -= 1
    phase, deal = s.phase, s.deal + 1
    if phase == SETUP_FAMILY:
        p = s.deal % n
        # Families are sorted, except in the one-per-clan deal, where the deal order shows
        # which two cards came from the one-per-clan pile (a public fact, KK-18).
        mine = s.family[p] + (kind,)
        fam = s.family[:p] + (mine if game.one_per_clan else tuple(sorted(mine)),) + s.family[p + 1 :]
        if deal == FAMILY_CARDS * n:
            phase, deal = SETUP_INFLUENCE, 0
        return State(phase, deal, s.pyramid, -1, tuple(u), sum(u), s.discards, s.removed, fam,
                     s.revealed, s.hands, s.current, -1, 0, -1, -1, (), 0)
    if phase == SETUP_INFLUENCE:
        p = s.deal % n
        h = list(s.hands[p])
        h[kind] += 1
        hands = s.hands[:p] + (tuple(h),) + s.hands[p + 1 :]
        if deal == game.hand_size * n:
            phase, deal = SETUP_ROW, 0
        return State(phase, deal, s.pyramid, -1, tuple(u), s.pile_n - 1, s.discards, s.removed,
                     s.family, s.revealed, hands, s.current, -1, 0, -1, -1, (), 0)
    if phase == SETUP_ROW:
        pyr = list(s.pyramid)
        pyr[BOTTOM[s.deal]] = kind
        if deal == len(BOTTOM):
            phase, deal = PLAY, 0
        return State(phase, deal, tuple(pyr), -1, tuple(u), s.pile_n - 1, s.discards, s.removed,
                     s.family, s.revealed, s.hands, s.current, -1, 0, -1, -1, (), 0)
    # The draw pile's new top card is turned up; a waiting base-row vacuum takes it.
    s2 = State(phase, s.deal, s.pyramid, kind, tuple(u), s.pile_n - 1, s.discards, s.removed,
               s.family, s.revealed, s.hands, s.current, s.vacuum, s.crowned, s.noblemen,
               s.guardians, s.pending, s.passed)
    if phase == FILL and BELOW[s.vacuum] == ():
        pyr = list(s.pyramid)
        pyr[s.vacuum] = kind
        after = State(AFTER, s.deal, tuple(pyr), -1, tuple(u), s.pile_n - 1, s.discards,
                      s.removed, s.family, s.revealed, s.hands, s.current, -1, s.crowned,
                      s.noblemen, s.guardians, s.pending, s.passed)
        return _finish(game, after)
    return s2


def _finish(game: KingsKilt, s: State) -> State:
    """Hands an AFTER state on: reshuffle if needed, reveals, or the next player."""
    unseen, pile_n, discards = s.unseen, s.pile_n, s.discards
    if s.top < 0 and pile_n == 0 and sum(discards):
        unseen, pile_n, discards = _reshuffle(unseen, discards)
    if s.pending:
        cur, phase = s.current, REVEAL
    else:
        cur, phase = _next_player(game, s.current, s.passed)
    return State(phase, s.deal, s.pyramid, s.top, unseen, pile_n, discards, s.removed, s.family,
                 s.revealed, s.hands, cur, -1, s.crowned, s.noblemen, s.guardians, s.pending,
                 s.passed)


# ---- the end ---------------------------------------------------------------
def scores(s: State) -> tuple[int, ...]:
    """Returns each player's points: King 3, each Guardian 2, each Nobleman 1 per family match."""
    return tuple(score_family(s.pyramid, fam) for fam in s.family)


def returns(game: KingsKilt, s: State) -> tuple[float, ...]:
    """Returns 1 to a sole winner, 1/k to each of k sharing the throne, 0 to the others (KK-15)."""
    if s.phase != END:
        return (0.0,) * game.num_players
    won = winners(s)
    share = 1.0 / len(won)
    return tuple(share if p in won else 0.0 for p in range(game.num_players))


def winners(s: State) -> tuple[int, ...]:
    """Returns the players who share the throne: most points, then most influence cards left."""
    keys = [(sc, sum(h)) for sc, h in zip(scores(s), s.hands)]
    best = max(keys)
    return tuple(p for p, k in enumerate(keys) if k == best)


FIGURES = ("score", "influence_left", "king_points", "guardian_points", "noble_points")


def figures(s: State) -> dict[str, tuple[int, ...]]:
    """Returns each seat's score, its parts by row, and its influence cards left."""
    parts = [_score_parts(s.pyramid, fam) for fam in s.family]
    return {
        "score": tuple(sum(p) for p in parts),
        "influence_left": tuple(sum(h) for h in s.hands),
        "king_points": tuple(p[0] for p in parts),
        "guardian_points": tuple(p[1] for p in parts),
        "noble_points": tuple(p[2] for p in parts),
    }


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _names(seats) -> str:
    names = [f"player {p}" for p in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def outcome(s: State) -> dict:
    """Returns the winners, a reason code and a sentence saying how the throne was won.

    Reasons: ``most_points`` (a sole leader on points), ``tie_influence`` (a tie
    on points broken by the most influence cards left), ``shared_throne``
    (still tied: the throne is shared, KK-15).
    """
    pts = scores(s)
    left = [sum(h) for h in s.hands]
    won = list(winners(s))
    best = pts[won[0]]
    tied = [p for p, v in enumerate(pts) if v == best]
    points = _plural(best, "point")
    if len(tied) == 1:
        return {"winners": won, "reason": "most_points", "text": f"player {won[0]} wins with {points}"}
    cards = _plural(left[won[0]], "influence card")
    if len(won) == 1:
        return {
            "winners": won,
            "reason": "tie_influence",
            "text": f"{_names(tied)} tie on {points}, broken by influence cards: "
            f"player {won[0]} wins with {cards} left",
        }
    if won == tied:
        text = f"{_names(won)} tie on {points} and on {cards} left: they share the throne"
    else:
        text = f"{_names(tied)} tie on {points}; {_names(won)} also tie on {cards} left and share the throne"
    return {"winners": won, "reason": "shared_throne", "text": text}


# ---- checks ----------------------------------------------------------------
def validate_state(game: KingsKilt, s: State) -> None:
    n = game.num_players
    if len(s.pyramid) != CELLS or len(s.unseen) != NUM_KINDS or len(s.discards) != NUM_CLANS:
        raise InvalidStateError("wrong table sizes: pyramid 21 cells, 16 unseen counts, 8 discard counts")
    if len(s.family) != n or len(s.hands) != n or len(s.revealed) != n:
        raise InvalidStateError(f"family, hands and revealed need one entry per player ({n})")
    if not 0 <= s.current < n or s.phase not in (SETUP_FAMILY, SETUP_INFLUENCE, SETUP_ROW, PLAY, FILL, REVEAL, END):
        raise InvalidStateError("current player or phase out of range")
    counts = [0] * NUM_KINDS
    for k in s.pyramid:
        if k >= 0:
            counts[k] += 1
    if s.top >= 0:
        counts[s.top] += 1
    for k in range(NUM_KINDS):
        counts[k] += s.unseen[k] + s.removed[k]
    for k in range(NUM_CLANS):
        counts[k] += s.discards[k] + sum(h[k] for h in s.hands) + sum(1 for f in s.family if k in f)
    want = [MEMBERS_PER_CLAN] * NUM_CLANS + [LEADERS_PER_CLAN] * NUM_CLANS
    if counts != want:
        raise InvalidStateError(f"the cards do not add up: counts by kind {counts}, expected {want}")
    if s.pile_n != sum(s.unseen):
        raise InvalidStateError("pile_n must equal the number of unseen cards")
    for f in s.family:
        if len(set(f)) != len(f) or (list(f) != sorted(f) and not game.one_per_clan) or len(f) > FAMILY_CARDS:
            raise InvalidStateError("a family holds at most 3 cards of distinct clans, sorted "
                                    "(in deal order with family_deal=one-per-clan)")

def _reshuffle(unseen: tuple[int, ...], discards: tuple[int, ...]) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """The discards become the new draw pile (rulebook: 'shuffle the discards')."""
    u = list(unseen)
    for k in range(NUM_CLANS):
        u[k] += discards[k]
    return tuple(u), sum(u), (0,) * NUM_CLANS


def score_family(pyramid: tuple[int, ...], family: tuple[int, ...]) -> int:
    """Returns the points of one family on a pyramid (rulebook, Determining the Winner)."""
    return sum(_score_parts(pyramid, family))


def _score_parts(pyramid: tuple[int, ...], family: tuple[int, ...]) -> tuple[int, int, int]:
    """Returns one family's points from the King, the Guardians and the Noblemen."""
    king = guardians = nobles = 0
    for clan in family:
        if pyramid[0] >= 0 and pyramid[0] & 7 == clan:
            king += KING_POINTS
        for c in GUARDIAN_CELLS:
            if pyramid[c] >= 0 and pyramid[c] & 7 == clan:
                guardians += GUARDIAN_POINTS
        for c in NOBLE_CELLS:
            if pyramid[c] >= 0 and pyramid[c] & 7 == clan:
                nobles += NOBLEMAN_POINTS
    return king, guardians, nobles
