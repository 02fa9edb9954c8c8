"""Gangs of Green City actions as ints, and their notation.

    0..47      travel to an adjacent POI                     "travel Iago"
    48..95     wormhole: play the destination's card         "escape to Iago"
    96..143    wormhole: play the card of your POI, go anywhere  "escape from here to Iago"
    144..191   bum a ride to a POI with a safe house         "ride to Iago"
    192..240   establish a safe house here: 192 + 48 takes one from the supply,
               192 + poi moves the one at poi                "safe house", "safe house from Iago"
    241..244   end recruitment of a gang                     "end recruitment Tonys"
    245..248   battle a gang here                            "battle Tonys"
    249..488   brief: 249 + q * 48 + card, the card changes hands between the
               active player and q                           "give Iago to p1", "take Iago from p1"
    489..728   Mayor: 489 + q * 48 + poi moves q's pawn      "dispatch p1 to Iago"
    729..733   play a respite card                           "play Quiet Night"
    734        pass (respite window)                         "pass"
    735..787   discard a hero card                           "discard Iago"
    788..792   Rooftop Chase: the pawn to move               "pawn p1"
    793..840   a respite's target POI                        "to Iago"
    841..888   Witness Protection: a gang discard to remove   "protect Iago"
    889..1080  Neighbourhood Watch: 889 + poi * 4 + gang     "watch Tonys at Iago"
    chance:
    1081..1085 a cast card                                   "cast Green Ghost"
    1086..1133 a gang card                                   "gang card Iago"
    1134..1192 a hero card (1134 + 53 + e: ESCALATION! e)    "hero card Iago", "escalation 2"
"""

from __future__ import annotations

from .data import (
    ALL_NAMES,
    CARD_BY_NAME,
    CAST_BY_NAME,
    CAST_NAMES,
    ESC_CARD0,
    GANG_BY_WORD,
    GANG_NAMES,
    MAX_ESCALATIONS,
    NUM_HERO,
    NUM_POIS,
    POI_BY_NAME,
    POI_NAMES,
    RESPITE_NAMES,
    hero_card_name,
)

TRAVEL0 = 0
ESCAPE0 = 48
PORTAL0 = 96
RIDE0 = 144
SAFE0 = 192
SAFE_SUPPLY = SAFE0 + NUM_POIS
RECRUIT0 = 241
BATTLE0 = 245
SHARE0 = 249
DISPATCH0 = 489
RESPITE0 = 729
PASS = 734
DISCARD0 = 735
PAWN0 = 788
DEST0 = 793
GCARD0 = 841
WATCH0 = 889
CAST0 = 1081
GDRAW0 = 1086
HDRAW0 = 1134
NUM_ACTIONS = HDRAW0 + NUM_HERO + MAX_ESCALATIONS

_SHORT_GANG = tuple(g.removeprefix("The ") for g in GANG_NAMES)
_RESPITE_BY_NAME = {n.lower(): i for i, n in enumerate(RESPITE_NAMES)}


def to_str(action: int, giver_is_active: bool = True) -> str:
    """Returns the notation of ``action``; a brief reads 'give' or 'take' by who holds the card."""
    a = action
    if a < ESCAPE0:
        return f"travel {POI_NAMES[a]}"
    if a < PORTAL0:
        return f"escape to {POI_NAMES[a - ESCAPE0]}"
    if a < RIDE0:
        return f"escape from here to {POI_NAMES[a - PORTAL0]}"
    if a < SAFE0:
        return f"ride to {POI_NAMES[a - RIDE0]}"
    if a < RECRUIT0:
        return "safe house" if a == SAFE_SUPPLY else f"safe house from {POI_NAMES[a - SAFE0]}"
    if a < BATTLE0:
        return f"end recruitment {_SHORT_GANG[a - RECRUIT0]}"
    if a < SHARE0:
        return f"battle {_SHORT_GANG[a - BATTLE0]}"
    if a < DISPATCH0:
        q, c = divmod(a - SHARE0, NUM_POIS)
        return f"give {POI_NAMES[c]} to p{q}" if giver_is_active else f"take {POI_NAMES[c]} from p{q}"
    if a < RESPITE0:
        q, c = divmod(a - DISPATCH0, NUM_POIS)
        return f"dispatch p{q} to {POI_NAMES[c]}"
    if a < PASS:
        return f"play {RESPITE_NAMES[a - RESPITE0]}"
    if a == PASS:
        return "pass"
    if a < PAWN0:
        return f"discard {hero_card_name(a - DISCARD0)}"
    if a < DEST0:
        return f"pawn p{a - PAWN0}"
    if a < GCARD0:
        return f"to {POI_NAMES[a - DEST0]}"
    if a < WATCH0:
        return f"protect {POI_NAMES[a - GCARD0]}"
    if a < CAST0:
        poi, g = divmod(a - WATCH0, 4)
        return f"watch {_SHORT_GANG[g]} at {POI_NAMES[poi]}"
    if a < GDRAW0:
        return f"cast {CAST_NAMES[a - CAST0]}"
    if a < HDRAW0:
        return f"gang card {POI_NAMES[a - GDRAW0]}"
    if a < NUM_ACTIONS:
        c = a - HDRAW0
        if c >= ESC_CARD0:
            return f"escalation {c - ESC_CARD0 + 1}"
        return f"hero card {hero_card_name(c)}"
    raise ValueError(f"no Gangs of Green City action {action}")


def _poi(text: str) -> int | None:
    i = POI_BY_NAME.get(text)
    return i if i is not None and i < NUM_POIS else None


def _player(text: str) -> int | None:
    if len(text) == 2 and text[0] == "p" and text[1] in "01234":
        return int(text[1])
    return None


def _poi_action(base: int):
    def make(rest: str) -> int | None:
        p = _poi(rest)
        return None if p is None else base + p

    return make


def _gang_action(base: int):
    def make(rest: str) -> int | None:
        g = GANG_BY_WORD.get(rest)
        return None if g is None else base + g

    return make


def _travel(rest: str) -> int | None:
    return _poi_action(TRAVEL0)(rest[3:] if rest.startswith("to ") else rest)


def _escape(rest: str) -> int | None:
    if rest.startswith("from here to "):
        return _poi_action(PORTAL0)(rest[13:])
    if rest.startswith("to "):
        return _poi_action(ESCAPE0)(rest[3:])
    return None


def _ride(rest: str) -> int | None:
    return _poi_action(RIDE0)(rest[3:]) if rest.startswith("to ") else None


def _safe(rest: str) -> int | None:
    if rest == "house":
        return SAFE_SUPPLY
    if rest.startswith("house from "):
        return _poi_action(SAFE0)(rest[11:])
    return None


def _end(rest: str) -> int | None:
    return _gang_action(RECRUIT0)(rest[12:]) if rest.startswith("recruitment ") else None


def _share(sep: str):
    def make(rest: str) -> int | None:
        if sep not in rest:
            return None
        card, _, who = rest.rpartition(sep)
        p, q = _poi(card), _player(who)
        return None if p is None or q is None else SHARE0 + q * NUM_POIS + p

    return make


def _dispatch(rest: str) -> int | None:
    who, _, where = rest.partition(" to ")
    p, q = _poi(where), _player(who)
    return None if p is None or q is None else DISPATCH0 + q * NUM_POIS + p


def _play(rest: str) -> int | None:
    k = _RESPITE_BY_NAME.get(rest)
    return None if k is None else RESPITE0 + k


def _discard(rest: str) -> int | None:
    c = CARD_BY_NAME.get(rest)
    return None if c is None else DISCARD0 + c


def _pawn(rest: str) -> int | None:
    q = _player(rest)
    return None if q is None else PAWN0 + q


def _watch(rest: str) -> int | None:
    gang, _, where = rest.partition(" at ")
    g, p = GANG_BY_WORD.get(gang), _poi(where)
    return None if g is None or p is None else WATCH0 + p * 4 + g


def _cast(rest: str) -> int | None:
    k = CAST_BY_NAME.get(rest)
    return None if k is None else CAST0 + k


def _gang_card(rest: str) -> int | None:
    return _poi_action(GDRAW0)(rest[5:]) if rest.startswith("card ") else None


def _hero_card(rest: str) -> int | None:
    if not rest.startswith("card "):
        return None
    c = CARD_BY_NAME.get(rest[5:])
    return None if c is None else HDRAW0 + c


def _escalation(rest: str) -> int | None:
    if rest.isdigit() and 1 <= int(rest) <= MAX_ESCALATIONS:
        return HDRAW0 + ESC_CARD0 + int(rest) - 1
    return None


_VERBS = {
    "travel": _travel,
    "escape": _escape,
    "ride": _ride,
    "safe": _safe,
    "end": _end,
    "battle": _gang_action(BATTLE0),
    "give": _share(" to "),
    "take": _share(" from "),
    "dispatch": _dispatch,
    "play": _play,
    "discard": _discard,
    "pawn": _pawn,
    "to": _poi_action(DEST0),
    "protect": _poi_action(GCARD0),
    "watch": _watch,
    "cast": _cast,
    "gang": _gang_card,
    "hero": _hero_card,
    "escalation": _escalation,
}


def parse(text: str) -> int | None:
    """Returns the action named by ``text`` (legal or not), or None if it is not notation."""
    t = " ".join(text.strip().lower().split())
    if t == "pass":
        return PASS
    verb, _, rest = t.partition(" ")
    make = _VERBS.get(verb)
    return make(rest) if make is not None and rest else None


assert len(ALL_NAMES) == NUM_POIS + 1
