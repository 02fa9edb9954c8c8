"""What players remember about the others' hidden shank cards and drug chips (issue 13, perfect recall).

``State.known`` holds, per observer ``o`` (0..n-1, and n for a spectator), per
player ``q`` and good ``i`` (0-2 shank cards Cobra, Scorpion, Tarantula; 3-5
drug chips green, white, brown), a lower bound: ``o`` knows that ``q`` holds at
least that many. ``known[(o * n + q) * 6 + i]``. The facts, and when they stop
constraining (docs/rulings/san-quentin-kings.md, "Public facts the view keeps"):

- bought face up at the Cafeteria: everyone learns one card of that kind (+1);
- a card of that kind leaves the hand face up (a shank played in a fight, a good
  paid for the Drug block or a bribe chip): everyone's bound drops by one;
- stolen at random: the thief and the victim see the card, so the thief's bound
  on the victim drops for that kind and the victim learns it of the thief; the
  others only know one card left, so each of their bounds on the victim's goods of
  that family (shank cards or drug chips) drops by one.

The six values after the observers' rows are public bounds on the face-down shank
deck (by type) and drug pile (by colour), ``known[deck_at(n) + i]``:

- unsold Cafeteria goods shuffled back, and discards shuffled in (at the end of a
  year, or when the deck runs out: then the deck is exactly the discards): +those;
- cards laid out face up at the Cafeteria: -those; cards dealt or taken face down
  from it (a payout, a steal from the supply): each bound drops by the number taken.

Every update keeps each bound true of the real hands and piles, and the sum of a
player's bounds within their hand size. ``view.sample_hidden`` deals the bounded cards
first and the rest at random.
"""

from __future__ import annotations

from .state import Work

GOODS = 6  # shank cards C, S, T, drug chips G, W, B


def deck_at(n: int) -> int:
    """Returns where the deck's and pile's bounds start in ``known``."""
    return (n + 1) * n * GOODS


def blank(n: int) -> tuple[int, ...]:
    """Returns the ``known`` field of a state where nobody knows anything yet."""
    return (0,) * ((n + 1) * n * GOODS + GOODS)


def into_deck(w: Work, b: int, counts: list[int] | tuple[int, ...], n: int) -> None:
    """Known cards (``counts`` by type, ``b`` = 0 shank deck, 3 drug pile) are shuffled into the deck."""
    if counts[0] or counts[1] or counts[2]:
        k = _rows(w)
        j = deck_at(n) + b
        for i in range(3):
            k[j + i] += counts[i]


def from_deck(w: Work, b: int, vec: tuple[int, ...], face_up: bool, n: int) -> None:
    """Cards ``vec`` by type leave the deck (``b`` = 0) or pile (3): seen face up, or not."""
    j = deck_at(n) + b
    known = w.known
    if not (known[j] or known[j + 1] or known[j + 2]):
        return
    k = _rows(w)
    taken = vec[0] + vec[1] + vec[2]
    for i in range(3):
        k[j + i] = max(0, k[j + i] - (vec[i] if face_up else taken))


def _rows(w: Work) -> list[int]:
    return w.mut_known()


def seen_by_all(w: Work, q: int, i: int, n: int) -> None:
    """Everyone else sees player ``q`` take good ``i`` face up (a Cafeteria purchase)."""
    k = _rows(w)
    for o in range(n + 1):
        if o != q:
            k[(o * n + q) * GOODS + i] += 1


def shown(w: Work, q: int, i: int, n: int) -> None:
    """Player ``q``'s good ``i`` leaves their hand face up (played or paid)."""
    base = q * GOODS + i
    if not any(w.known[base : deck_at(n) : n * GOODS]):  # every observer's bound, o = 0..n
        return
    k = _rows(w)
    for o in range(n + 1):
        j = o * n * GOODS + base
        if k[j]:
            k[j] -= 1


def stolen(w: Work, thief: int, victim: int, i: int, n: int) -> None:
    """``thief`` steals good ``i`` at random from ``victim``; only the two of them see it."""
    k = _rows(w)
    fam = 0 if i < 3 else 3
    for o in range(n + 1):
        j = (o * n + victim) * GOODS
        if o == thief:
            if k[j + i]:
                k[j + i] -= 1
        elif o != victim:
            for x in range(fam, fam + 3):
                if k[j + x]:
                    k[j + x] -= 1
    k[(victim * n + thief) * GOODS + i] += 1


def bounds(known: tuple[int, ...], o: int, q: int, n: int) -> tuple[int, ...]:
    """Returns observer ``o``'s six bounds on player ``q`` (``o`` = n or None: the spectator)."""
    j = ((n if o is None else o) * n + q) * GOODS
    return known[j : j + GOODS]
