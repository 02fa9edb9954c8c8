"""Kingpin rules.

Rulebook: ``src/kingmaker/rulebooks/kingpin.txt`` (sections quoted in the tests).
Rulings and designed components: ``docs/rulings/kingpin.md`` (KP-R1 ..., KP-D1 ...).

Turn structure as a chain of nodes::

    START  (chance, 1/2 each): who starts ("In any random way choose the
           player, who will start the game"); skipped when the
           ``first_player`` option fixes the seat (tests, tournaments)
    CHOOSE (the starting player, then the opponent): pick a mafia
           (skipped when the ``mafias`` option fixes them)
    PLAY   (the player to move): one action, a movement (costs one action
           on the track) or an attack (costs none); then the win checks
    DRAW   (chance, after playing a tile while the mover's deck lasts): which
           face-down tile the mover turns face up; the deck's order is never
           stored, so every tile left in it is equally likely
    -> the other player's PLAY ... until a win (END)

The engine is data-driven: ``Kingpin.custom(tiles=..., board=...)`` plays with
any tiles, and ``game.position({...})`` builds a state from a picture.

These are functions of the game (its options and tables) and a state; the
``Game`` class that binds them as methods is in ``game.py``. This module
depends only on ``state``, ``actions`` and ``data``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.api import CHANCE, TERMINAL, node_name
from ...core.errors import IllegalActionError, InvalidActionError, InvalidStateError
from .data import DIR_BY_NAME, DIRS, OPP
from .state import (
    CHOOSE,
    DAWN,
    DRAW,
    END,
    EXIT,
    LIQUIDATION,
    NO_MANS_LAND,
    OUT_OF_ACTIONS,
    PLAY,
    START,
    STUCK,
    State,
)

if TYPE_CHECKING:
    from .game import Kingpin


def new_initial_state(game: Kingpin) -> State:
    n_sq = game.t.n_sq
    track = (game.track_start, game.track_start)
    empty = ((), ())
    choice = game.option_values["mafias"]
    first = game.option_values.get("first_player", "random")
    starter = 0 if first == "random" else int(first)
    if choice == "choose":
        phase = CHOOSE
        mafias, hand, deck = (-1, -1), empty, empty
    else:
        a, b = choice.split("-")
        mafias = (game.t.mafias.index(a), game.t.mafias.index(b))
        hand, deck = game._deal(mafias)
        phase = PLAY
    if first == "random":  # ruling KP-R1: a chance node chooses the starting player
        phase = START
    return State(phase, starter, mafias, (-1,) * n_sq, hand, deck, track, -1, "", ())


def _deal(game: Kingpin, mafias: tuple[int, ...]) -> tuple[tuple, tuple]:
    """Starting tiles face up, the rest face down (goodfellas: all face up)."""
    hand, deck = [], []
    for m in mafias:
        tiles = game.t.BY_MAFIA[m]
        if game.goodfellas:
            hand.append(tiles)
            deck.append(())
            continue
        start = game.t.STARTERS[m] or tiles[:3]
        hand.append(tuple(sorted(start)))
        deck.append(tuple(x for x in tiles if x not in start))
    return tuple(hand), tuple(deck)


def position(
    game,
    placements: dict[str, str],
    mafias: tuple[str, str] | None = None,
    current: int = 0,
    hands: tuple | None = None,
    decks: tuple | None = None,
    track: tuple[int, int] | None = None,
) -> State:
    """Returns a PLAY state built from a picture: ``{"b2": "Marco N", "b3": "Vasili S"}``.

    Each tile belongs to the player whose mafia it is (``mafias``: player 0's
    first; by default the mafias in order of appearance). Unless given, each
    player's first three tiles not on the board are face up and the rest face down.
    """
    t = game.t
    board = [-1] * t.n_sq
    seen: list[str] = []
    for sq_name, what in placements.items():
        name, _, facing = what.rpartition(" ")
        tl = t.BY_SHORT.get(name.lower(), t.BY_NAME.get(name.lower(), -1))
        if tl < 0:
            raise ValueError(f"no tile called {name!r}")
        board[t.SQ_BY_NAME[sq_name.lower()]] = tl * 4 + DIR_BY_NAME[facing.upper()]
        m = t.tiles[tl].mafia
        if m not in seen:
            seen.append(m)
    names = list(mafias) if mafias else seen
    for m in t.mafias:
        if len(names) >= 2:
            break
        if m not in names:
            names.append(m)
    mi = (t.mafias.index(names[0]), t.mafias.index(names[1]))
    on_board = {c >> 2 for c in board if c >= 0}

    def ids(x: tuple) -> tuple[int, ...]:
        return tuple(sorted(t.BY_SHORT[n.lower()] if isinstance(n, str) else n for n in x))

    rest = tuple(tuple(x for x in t.BY_MAFIA[m] if x not in on_board) for m in mi)
    hand = tuple(ids(h) for h in hands) if hands is not None else (rest[0][:3], rest[1][:3])
    if decks is not None:
        deck = tuple(ids(d) for d in decks)
    else:
        deck = tuple(tuple(x for x in rest[p] if x not in hand[p]) for p in range(2))
    tr = track if track is not None else (game.track_start, game.track_start)
    s = State(PLAY, current, mi, tuple(board), hand, deck, tuple(tr), -1, "", ())
    game.validate_state(s)
    return s


def current_player(game: Kingpin, s: State) -> int:
    phase = s.phase
    if phase == PLAY or phase == CHOOSE:
        return s.current
    if phase == DRAW or phase == START:
        return CHANCE
    return TERMINAL


def chance_outcomes(game: Kingpin, s: State) -> list[tuple[int, float]]:
    if s.phase == START:
        return [(0, 0.5), (1, 0.5)]  # the seat that starts
    if s.phase != DRAW:
        raise IllegalActionError(f"{game.name}: chance_outcomes called at a {node_name(current_player(game, s))} node")
    deck = s.deck[s.current]
    p = 1.0 / len(deck)
    return [(x, p) for x in deck]  # the outcome is the id of the tile drawn


def owners(game: Kingpin, mafia: tuple[int, ...]) -> tuple[int, ...]:
    """Returns, per tile id, the player owning it (-1 for a mafia nobody plays)."""
    own = game._owner_cache.get(mafia)
    if own is None:
        m0, m1 = mafia
        own = tuple(0 if m == m0 else 1 if m == m1 else -1 for m in game.t.MAFIA)
        game._owner_cache[mafia] = own
    return own


def legal_actions(game: Kingpin, s: State, player: int | None = None) -> list[int]:
    phase = s.phase
    if phase == PLAY:
        if player is not None and player != s.current:
            return []
        return game._play_actions(s, s.current)
    if phase == CHOOSE:
        if player is not None and player != s.current:
            return []
        taken = s.mafia[1 - s.current]
        c0 = game.codec.CHOOSE0
        return [c0 + m for m in range(len(game.t.mafias)) if m != taken]
    if (phase == DRAW or phase == START) and player is None:
        return [a for a, _ in game.chance_outcomes(s)]
    return []


def _play_actions(game: Kingpin, s: State, p: int) -> list[int]:
    t = game.t
    C = game.codec
    board = s.board
    own = game.owners(s.mafia)
    NB, AIM, CAR, SNIPER, EXITP = t.NB, t.AIM, t.CAR, t.SNIPER, t.EXIT[p]
    MOVE0, CASTLE0, SHOOT0, RAID0 = C.MOVE0, C.CASTLE0, C.SHOOT0, C.RAID0
    out: list[int] = []
    append = out.append
    for sq in range(t.n_sq):
        c = board[sq]
        if c < 0 or own[c >> 2] != p:
            continue
        f = c & 3
        tb = sq * 4
        for g in range(4):
            if g != f:
                append(tb + g)
        nbs = NB[sq]
        for d in range(4):
            n = nbs[d]
            mb = MOVE0 + (tb + d) * 5
            if n < 0:
                if EXITP[sq] == d:
                    append(mb)
            elif board[n] < 0:
                append(mb)
                for g in range(4):
                    if g != f:
                        append(mb + 1 + g)
        for axis, d in ((0, 1), (1, 0)):
            n = nbs[d]
            if n >= 0:
                bn = board[n]
                if bn >= 0 and own[bn >> 2] == p:
                    cb = CASTLE0 + (sq * 2 + axis) * 9
                    append(cb)
                    fn = bn & 3
                    for g in range(4):
                        if g != fn:
                            append(cb + 1 + g)
                    for g in range(4):
                        if g != f:
                            append(cb + 5 + g)
        if SNIPER[c >> 2]:
            continue  # a sniper cannot initiate an attack
        aim, car = AIM[c], CAR[c]
        for d in range(4):
            n = nbs[d]
            if n < 0:
                continue
            bn = board[n]
            if bn >= 0:
                if aim[d] and own[bn >> 2] != p and n in game.resolve(board, own, sq, n, -1):
                    append(SHOOT0 + tb + d)
            elif car[d]:
                n2 = NB[n][d]
                if n2 >= 0:
                    b2 = board[n2]
                    if b2 >= 0 and own[b2 >> 2] != p:
                        moved = list(board)
                        moved[n] = c
                        moved[sq] = -1
                        if n2 in game.resolve(moved, own, n, n2, d):
                            append(RAID0 + tb + d)
    hand = s.hand[p]
    if hand:
        free = [sq for sq in t.AREA_T[p] if board[sq] < 0]
        if free:
            S, P0 = t.n_sq, C.PLAY0
            for tl in hand:
                for sq in free:
                    b = P0 + (tl * S + sq) * 4
                    out.extend((b, b + 1, b + 2, b + 3))
    out.sort()
    return out


def exchanges(game: Kingpin, board, own, a_sq: int, t_sq: int) -> list[tuple[int, int, int]]:
    """Returns the pairs ``(x, y, d)`` of enemies that exchange fire, d the direction x -> y.

    Direct participants (attacker ``a_sq``, target ``t_sq``) exchange fire with
    each other and with every adjacent enemy; indirect participants never
    with each other (rulebook, Fire Exchange).
    """
    NB = game.t.NB
    d0 = NB[a_sq].index(t_sq)
    pairs = [(a_sq, t_sq, d0)]
    for x in (a_sq, t_sq):
        ox = own[board[x] >> 2]
        nbx = NB[x]
        for d in range(4):
            n = nbx[d]
            if n < 0 or n == a_sq or n == t_sq:
                continue
            bn = board[n]
            if bn >= 0 and own[bn >> 2] != ox:
                pairs.append((x, n, d))
    return pairs


def support(game: Kingpin, board, own, sq: int) -> int:
    """Returns how many comrades direct a support icon (pen) at the tile on ``sq``."""
    t = game.t
    c = board[sq]
    if t.SNIPER[c >> 2]:
        return 0  # a sniper cannot be supported
    o = own[c >> 2]
    k = 0
    PEN = t.PEN
    nbs = t.NB[sq]
    for d in range(4):
        n = nbs[d]
        if n >= 0:
            bn = board[n]
            if bn >= 0 and own[bn >> 2] == o and PEN[bn][OPP[d]]:
                k += 1
    return k


def sniper_fire(game: Kingpin, board, own, sq: int) -> int:
    """Returns how many enemy snipers fire at ``sq`` (each lowers toughness by one)."""
    t = game.t
    o = own[board[sq] >> 2]
    k = 0
    SNIPER, FIRE = t.SNIPER, t.FIRE
    for x in range(t.n_sq):
        c = board[x]
        if c >= 0 and SNIPER[c >> 2] and own[c >> 2] != o and sq in FIRE[x][c]:
            k += 1
    return k


def fire_detail(game: Kingpin, board, own, a_sq: int, t_sq: int, raid_dir: int) -> dict[int, list[tuple[int, int]]]:
    """Returns, per tile fired at, the list of (shooter square, power after vests).

    ``board`` has the attacker on ``a_sq`` already (a raider has moved).
    """
    t = game.t
    AIM, CAR, VEST, SNIPER = t.AIM, t.CAR, t.VEST, t.SNIPER
    out: dict[int, list[tuple[int, int]]] = {}
    sup: dict[int, int] = {}
    for x, y, d in game.exchanges(board, own, a_sq, t_sq):
        for u, v, dd in ((x, y, d), (y, x, OPP[d])):
            cu = board[u]
            if u == a_sq and dd == raid_dir:
                aims = CAR[cu][dd]  # the raider counts cars on the raid side
            else:
                aims = AIM[cu][dd]
            if aims and not SNIPER[cu >> 2]:
                if u not in sup:
                    sup[u] = game.support(board, own, u)
                aims += sup[u]
            if aims:
                p = aims - VEST[board[v]][OPP[dd]]
                out.setdefault(v, []).append((u, p if p > 0 else 0))
    return out


def resolve(game: Kingpin, board, own, a_sq: int, t_sq: int, raid_dir: int) -> list[int]:
    """Returns the squares whose tiles are liquidated (all fire is simultaneous).

    The same as summing ``fire_detail``'s shots per tile fired at (``exchanges`` and
    ``support`` inlined, the tiles in the order they are first fired at), then the
    snipers' help against each tile that would survive.
    """
    t = game.t
    AIM, CAR, VEST, SNIPER, PEN = t.AIM, t.CAR, t.VEST, t.SNIPER, t.PEN
    nbl = t._nbl if hasattr(t, "_nbl") else _neighbour_lists(t)
    # The exchanges, in exchanges' order: (x, y, d), d the direction x -> y.
    pairs = [(a_sq, t_sq, t.NB[a_sq].index(t_sq))]
    for x in (a_sq, t_sq):
        ox = own[board[x] >> 2]
        for n, d, _od in nbl[x]:
            if n == a_sq or n == t_sq:
                continue
            bn = board[n]
            if bn >= 0 and own[bn >> 2] != ox:
                pairs.append((x, n, d))
    power: dict[int, int] = {}
    sup: dict[int, int] = {}
    for x, y, d in pairs:
        for u, v, dd in ((x, y, d), (y, x, OPP[d])):
            cu = board[u]
            aims = CAR[cu][dd] if u == a_sq and dd == raid_dir else AIM[cu][dd]
            if aims and not SNIPER[cu >> 2]:
                k = sup.get(u)
                if k is None:
                    # support: comrades next to u with a pen towards it
                    o = own[cu >> 2]
                    k = 0
                    for m, _e, oe in nbl[u]:
                        bm = board[m]
                        if bm >= 0 and PEN[bm][oe] and own[bm >> 2] == o:
                            k += 1
                    sup[u] = k
                aims += k
            if aims:
                q = aims - VEST[board[v]][OPP[dd]]
                power[v] = power.get(v, 0) + (q if q > 0 else 0)
    TOUGH = t.TOUGH
    dead = []
    fire_on = None
    for v, pw in power.items():
        cv = board[v]
        tough = TOUGH[cv >> 2]
        if pw < tough:
            # Each enemy sniper firing at v lowers its toughness by one.
            if fire_on is None:
                fire_on = _fire_on(t)
            o = own[cv >> 2]
            for x, codes in fire_on[v]:
                cx = board[x]
                if cx in codes and own[cx >> 2] != o:
                    tough -= 1
        if pw >= tough:
            dead.append(v)
    return dead


def _neighbour_lists(t: Any) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Returns, per square, its neighbours as (square, direction, opposite direction), by
    direction. Built once per tables."""
    t._nbl = tuple(
        tuple((n, d, OPP[d]) for d, n in enumerate(t.NB[sq]) if n >= 0) for sq in range(t.n_sq)
    )
    return t._nbl


def _fire_on(t: Any) -> tuple[tuple[tuple[int, frozenset[int]], ...], ...]:
    """Returns, per square v, the squares x from which a sniper can fire at v, each with the
    codes (sniper tile and facing) that do: ``v in t.FIRE[x][code]``. Built once per tables."""
    table = getattr(t, "_fire_on", None)
    if table is None:
        n = t.n_sq
        rows: list[list[tuple[int, frozenset[int]]]] = [[] for _ in range(n)]
        for x in range(n):
            by_v: dict[int, set[int]] = {}
            for code, squares in enumerate(t.FIRE[x]):
                if t.SNIPER[code >> 2]:
                    for v in squares:
                        by_v.setdefault(v, set()).add(code)
            for v, codes in by_v.items():
                rows[v].append((x, frozenset(codes)))
        table = tuple(tuple(r) for r in rows)
        t._fire_on = table
    return table


def apply(game: Kingpin, s: State, action: int, player: int | None = None) -> State:
    C = game.codec
    phase = s.phase
    if phase == DRAW:
        tl = action
        p = s.current
        if tl not in s.deck[p] or type(tl) is not int:
            raise InvalidActionError(f"{action!r} is not a tile left in player {p}'s face-down deck",
                                     text=str(action))
        hand = _put(s.hand, p, tuple(sorted(s.hand[p] + (tl,))))
        deck = _put(s.deck, p, tuple(x for x in s.deck[p] if x != tl))
        return game._next_turn(s.board, hand, deck, s.track, s.mafia, p, s.last_dead)
    if (type(action) is not int or not 0 <= action < C.N) and phase != START:
        # Legality is play's job; apply only refuses what is no action at all.
        raise InvalidActionError(f"action {action!r} is outside 0..{C.N - 1}", text=str(action))
    if phase == CHOOSE:
        m = action - C.CHOOSE0
        p = s.current
        mafia = _put(s.mafia, p, m)
        if mafia[1 - p] < 0:  # the starting player chose; the opponent chooses next
            return State(CHOOSE, 1 - p, mafia, s.board, s.hand, s.deck, s.track, -1, "", ())
        hand, deck = game._deal(mafia)
        return State(PLAY, 1 - p, mafia, s.board, hand, deck, s.track, -1, "", ())
    if phase == START:
        if action != 0 and action != 1 or type(action) is not int:
            raise InvalidActionError(f"{action!r} is not a seat: the chance outcome names player 0 or 1",
                                     text=str(action))
        return State(CHOOSE if s.mafia[0] < 0 else PLAY, action, s.mafia, s.board, s.hand, s.deck,
                     s.track, -1, "", ())
    t = game.t
    p = s.current
    board = list(s.board)
    hand, deck, track = s.hand, s.deck, s.track
    dead: tuple[int, ...] = ()
    movement = True
    drew = False
    if action < C.MOVE0:
        sq, f = divmod(action, 4)
        board[sq] = (board[sq] & ~3) | f
    elif action < C.CASTLE0:
        x, k = divmod(action - C.MOVE0, 5)
        sq, d = divmod(x, 4)
        n = t.NB[sq][d]
        c = board[sq]
        if n < 0:  # a tile leaves the board past the enemy's area: the enemy kingpin is liquidated
            board[sq] = -1
            tr = _put(track, p, track[p] - 1)
            return State(END, p, s.mafia, tuple(board), hand, deck, tr, p, EXIT, (), c >> 2)
        board[n] = c if k == 0 else (c & ~3) | (k - 1)
        board[sq] = -1
    elif action < C.SHOOT0:
        x, k = divmod(action - C.CASTLE0, 9)
        sq, axis = divmod(x, 2)
        n = C.castle_other(sq, axis)
        board[sq], board[n] = board[n], board[sq]
        if 1 <= k <= 4:
            board[sq] = (board[sq] & ~3) | (k - 1)
        elif k >= 5:
            board[n] = (board[n] & ~3) | (k - 5)
    elif action < C.PLAY0:
        movement = False
        raid = action >= C.RAID0
        sq, d = divmod(action - (C.RAID0 if raid else C.SHOOT0), 4)
        own = game.owners(s.mafia)
        a_sq = sq
        if raid:
            a_sq = t.NB[sq][d]
            board[a_sq] = board[sq]
            board[sq] = -1
        t_sq = t.NB[a_sq][d]
        victims = game.resolve(board, own, a_sq, t_sq, d if raid else -1)
        dead = tuple(sorted(board[v] >> 2 for v in victims))
        for v in victims:
            board[v] = -1
        if board[a_sq] >= 0:  # the attacker survived: it enters the target's square unturned
            board[t_sq] = board[a_sq]
            board[a_sq] = -1
    else:
        x, f = divmod(action - C.PLAY0, 4)
        tl, sq = divmod(x, t.n_sq)
        board[sq] = tl * 4 + f
        hand = _put(hand, p, tuple(h for h in hand[p] if h != tl))
        drew = bool(deck[p])
    board_t = tuple(board)
    if movement:
        track = _put(track, p, track[p] - 1)
    won = game._winner(board_t, hand, deck, s.mafia, p)
    if won is not None:
        return State(END, p, s.mafia, board_t, hand, deck, track, won[0], won[1], dead)
    if track[p] < 1:
        if game.long_night:
            w = game._dawn_winner(board_t, hand, deck, s.mafia, p)
            return State(END, p, s.mafia, board_t, hand, deck, track, w, DAWN, dead)
        return State(END, p, s.mafia, board_t, hand, deck, track, 1 - p, OUT_OF_ACTIONS, dead)
    if drew:
        return State(DRAW, p, s.mafia, board_t, hand, deck, track, -1, "", dead)
    return game._next_turn(board_t, hand, deck, track, s.mafia, p, dead)


def _next_turn(game: Kingpin, board, hand, deck, track, mafia, mover: int, dead) -> State:
    q = 1 - mover
    if not game._can_act(board, hand, mafia, q):
        return State(END, q, mafia, board, hand, deck, track, mover, STUCK, dead)
    return State(PLAY, q, mafia, board, hand, deck, track, -1, "", dead)


def _can_act(game: Kingpin, board, hand, mafia, q: int) -> bool:
    """A player with a tile on the board can always turn it; otherwise they need a
    face-up tile and a free square of their area."""
    own = game.owners(mafia)
    for c in board:
        if c >= 0 and own[c >> 2] == q:
            return True
    return bool(hand[q]) and any(board[sq] < 0 for sq in game.t.AREA_T[q])


def alive(game: Kingpin, board, hand, deck, mafia) -> list[int]:
    """Returns each player's gangsters not yet liquidated (board, face up, face down)."""
    own = game.owners(mafia)
    n = [len(hand[0]) + len(deck[0]), len(hand[1]) + len(deck[1])]
    for c in board:
        if c >= 0:
            n[own[c >> 2]] += 1
    return n


def nml_counts(game: Kingpin, board, mafia) -> list[int]:
    own = game.owners(mafia)
    n = [0, 0]
    for sq in game.t.NML:
        c = board[sq]
        if c >= 0:
            n[own[c >> 2]] += 1
    return n


def _winner(game: Kingpin, board, hand, deck, mafia, mover: int) -> tuple[int, str] | None:
    """Returns (winner, reason) if the position after ``mover``'s action wins for someone."""
    q = 1 - mover
    if not (hand[q] or deck[q]) or not (hand[mover] or deck[mover]):
        # Someone holds no gangster off the board: count the board too (game.alive).
        alive = game.alive(board, hand, deck, mafia)
        if alive[q] == 0:
            return mover, LIQUIDATION  # also when both lost their last gangster (ruling KP-R6)
        if alive[mover] == 0:
            return q, LIQUIDATION
    nml = game.nml_counts(board, mafia)
    if nml[mover] >= 3 and nml[q] == 0:
        return mover, NO_MANS_LAND
    if nml[q] >= 3 and nml[mover] == 0:
        return q, NO_MANS_LAND
    return None


def _dawn_winner(game: Kingpin, board, hand, deck, mafia, mover: int) -> int:
    """Ruling KP-R9: at dawn the player with more gangsters alive wins, then the one with
    more tiles on No Man's Land, then the player who did not run out of night."""
    alive = game.alive(board, hand, deck, mafia)
    if alive[0] != alive[1]:
        return 0 if alive[0] > alive[1] else 1
    nml = game.nml_counts(board, mafia)
    if nml[0] != nml[1]:
        return 0 if nml[0] > nml[1] else 1
    return 1 - mover


def returns(game: Kingpin, s: State) -> tuple[float, ...]:
    if s.phase != END:
        return (0.0, 0.0)
    return (1.0, 0.0) if s.winner == 0 else (0.0, 1.0)


def action_to_str(game: Kingpin, s: State, action: int) -> str:
    if s.phase == START:
        return f"player {action} starts"
    if s.phase == DRAW:
        return game.codec.draw_str(action)
    return game.codec.to_str(action)


def validate_state(game: Kingpin, s: State) -> None:
    t = game.t
    if s.phase not in (START, CHOOSE, DRAW, PLAY, END):
        raise InvalidStateError(f"unknown phase {s.phase}")
    if s.current not in (0, 1):
        raise InvalidStateError("current must be 0 or 1")
    if len(s.board) != t.n_sq or len(s.mafia) != 2 or len(s.hand) != 2 or len(s.deck) != 2:
        raise InvalidStateError(f"board needs {t.n_sq} squares; mafia, hand and deck one entry per player")
    if len(s.track) != 2 or any(not isinstance(x, int) or x < 0 or x > game.track_start for x in s.track):
        raise InvalidStateError(f"track needs two values in 0..{game.track_start}")
    if s.winner not in (-1, 0, 1) or (s.phase == END) != (s.winner >= 0):
        raise InvalidStateError("winner must be set exactly when the game is over")
    nm = len(t.mafias)
    if s.phase == START and (any(c >= 0 for c in s.board) or s.current != 0):
        raise InvalidStateError("the starting player is chosen before any tile is played (current 0)")
    if s.phase == CHOOSE or (s.phase == START and s.mafia[0] < 0):
        if s.mafia[s.current] != -1 or not all(-1 <= m < nm for m in s.mafia) or s.mafia[0] == s.mafia[1] >= 0:
            raise InvalidStateError("mafia choice out of order")
        if s.phase == START and s.mafia != (-1, -1):
            raise InvalidStateError("the mafias are chosen after the starting player")
        if any(c >= 0 for c in s.board) or any(s.hand) or any(s.deck):
            raise InvalidStateError("no tile is dealt before both mafias are chosen")
        return
    if not all(0 <= m < nm for m in s.mafia) or s.mafia[0] == s.mafia[1]:
        raise InvalidStateError(f"mafia must be two different indices in 0..{nm - 1}")
    own = game.owners(s.mafia)
    seen: set[int] = set()
    for c in s.board:
        if c < -1 or c >= 4 * t.n_tiles:
            raise InvalidStateError(f"bad board entry {c}")
        if c >= 0:
            seen.add(c >> 2)
    if len(seen) != sum(1 for c in s.board if c >= 0):
        raise InvalidStateError("a tile is on the board twice")
    for p in range(2):
        for group in (s.hand[p], s.deck[p]):
            if list(group) != sorted(set(group)):
                raise InvalidStateError("hands and decks are sorted tuples of distinct tile ids")
            for x in group:
                if not 0 <= x < t.n_tiles or own[x] != p or x in seen:
                    raise InvalidStateError(f"tile {x} cannot be in player {p}'s hand or deck")
                seen.add(x)
    for c in s.board:
        if c >= 0 and own[c >> 2] < 0:
            raise InvalidStateError("a tile of a mafia nobody plays is on the board")
    if s.phase == DRAW and not s.deck[s.current]:
        raise InvalidStateError("a draw needs a face-down tile")
    if any(not 0 <= x < t.n_tiles for x in s.last_dead):
        raise InvalidStateError("bad last_dead")
    if s.exited != -1:
        if s.reason != EXIT or not 0 <= s.exited < t.n_tiles or s.exited in seen or own[s.exited] != s.winner:
            raise InvalidStateError("exited names the winner's tile that left the board, only after an exit")


def square(game: Kingpin, name: str) -> int:
    return game.t.SQ_BY_NAME[name.lower()]


def at(game: Kingpin, s: State, name: str) -> str | None:
    """Returns 'Short F' for the tile on a square (e.g. 'Vasili S'), or None."""
    c = s.board[game.square(name)]
    return None if c < 0 else f"{game.t.tiles[c >> 2].short} {DIRS[c & 3]}"


def _put(pair: tuple, i: int, value: Any) -> tuple:
    return (value, pair[1]) if i == 0 else (pair[0], value)
