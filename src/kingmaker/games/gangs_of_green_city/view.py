"""What a player sees of a Gangs of Green City state: everything.

Hands are open ("Players may freely tell each other what cards they have"),
both discard piles may be examined, and neither deck's order is stored, so
the view is the whole state in readable form, the same for every seat (and
for a spectator). It carries the static map too, so that a web page can
draw the city from a view alone::

    map.names[i], map.district[i], map.x[i], map.y[i]   place i (48 POIs, then
        Center Park at map.park = 48; its district is null); the board is
        map.width x map.height (1000 x 600), west and east edges wrap round
    map.edges        flat pairs [a0, b0, a1, b1, ...] of connected places
    map.wrap_edges   the pairs among them drawn off one edge and back on the other
    spheres          {POI name: [Tonys, Louies, Left Hand, Officials]}, non-empty only
    pawns[q]         place id of player q's pawn
    safe_houses.ids  place ids with a safe house

The observation tensor and the information state string (``observe.py``, its
docstring gives the tensor's layout) are re-exported here, where the ``Game``
base class looks for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.api import CHANCE
from . import actions as A
from . import rules
from .data import (
    CAST,
    CAST_NAMES,
    DATA,
    DETECTIVE,
    DISTRICT,
    DISTRICTS,
    ESC_CARD0,
    GANG_NAMES,
    GHOST,
    HAND_LIMIT,
    HEADQUARTERS,
    MAX_SPHERES,
    MAYOR,
    METER,
    MOVES,
    NEIGHBOURS,
    NUM_GANGS,
    NUM_HERO,
    NUM_POIS,
    PARK,
    PARK_NAME,
    PLACES,
    POI_NAMES,
    PROFESSOR,
    RESPITES,
    SAFE_HOUSES,
    SETUP_SPHERES,
    WAR_LOSS,
    hero_card_name,
)
from .observe import OBSERVATION_SIZE, information_state_string, observation_tensor
from .state import (
    DRAW,
    ESC_BOTTOM,
    PICK_LIMIT,
    PICK_ONE,
    S_CAST,
    S_GANGS,
    S_HANDS,
    SHIFT,
    STAGE_NAMES,
    VICTORY,
    State,
    unpack_spheres,
)

__all__ = [
    "OBSERVATION_SIZE",
    "card",
    "information_state_string",
    "observation_tensor",
    "observe_action",
    "sample_hidden",
    "view",
]

if TYPE_CHECKING:
    import random

    from .game import GangsOfGreenCity

_EDGES = tuple(
    (a, b, abs(PLACES[a]["x"] - PLACES[b]["x"]) > DATA["board"]["width"] // 2)
    for a in range(NUM_POIS)
    for b in NEIGHBOURS[a]
    if a < b
)
_BOARD = DATA["board"]
_NAMES = POI_NAMES + (PARK_NAME,)
_DISTRICT = DISTRICT + (None,)
_XY = tuple((p["x"], p["y"]) for p in PLACES) + ((DATA["center_park"]["x"], DATA["center_park"]["y"]),)
# edges [a, b, wraps]: wraps is true for the lines that leave one board edge and come back
# at the other; Center Park's exits are listed too (index PARK).
_EDGES = _EDGES + tuple((PARK, b, False) for b in NEIGHBOURS[PARK])
_X = tuple(x for x, _ in _XY)
_Y = tuple(y for _, y in _XY)
_FLAT_EDGES = tuple(i for a, b, _ in _EDGES for i in (a, b))
_WRAP = tuple(i for a, b, w in _EDGES if w for i in (a, b))
_PICK_NAMES = {PICK_LIMIT: "hand limit", PICK_ONE: "Absent-minded"}


def _weakness_text(game: GangsOfGreenCity, k: int) -> str:
    c = CAST[k]
    return c.get("weakness_every_card", c["weakness"]) if game.every_card_weakness else c["weakness"]


def card(c: int) -> dict:
    """Returns a hero card as data: id, name, kind and (for a POI card) its district."""
    if c < NUM_POIS:
        return {"id": c, "name": POI_NAMES[c], "kind": "poi", "district": DISTRICT[c], "gang": GANG_NAMES[DISTRICT[c]]}
    if c < NUM_HERO:
        r = RESPITES[c - NUM_POIS]
        return {"id": c, "name": r["name"], "kind": "respite", "effect": r["effect"]}
    return {"id": c, "name": hero_card_name(c), "kind": "escalation"}


def view(game: GangsOfGreenCity, s: State, player: int | None) -> dict:
    """Returns the view: the same for every seat but for ``you`` (nothing is secret).

    The body is built once per state and shared by the views of that state (one
    state is cached on the game), so treat views as read-only.
    """
    cached = game._view_cache
    if cached[0] is not s:
        cached = (s, _build(game, s))
        game._view_cache = cached
    out = dict(cached[1])
    out["you"] = player
    return out


def sample_hidden(game: GangsOfGreenCity, s: State, player: int | None, rng: random.Random) -> State:
    """Returns ``s``: nothing is hidden from anyone (hands are open, deck orders are not stored).

    The unknown deck orders are chance nodes, so every state consistent with a
    view is the state itself, and the hero deck keeps its pile structure (one
    ESCALATION! per pile) and the gang deck its layers. ``game.sample_hero_deck``
    and ``game.sample_gang_deck`` give concrete orders (the gang deck shuffled only
    within each layer) for those who want one.
    """
    return s


def observe_action(game: GangsOfGreenCity, s: State, action: int, player: int | None, observer: int | None) -> str | None:
    """Returns the log line of ``action`` and what it did (every seat sees the same: nothing is secret).

    Chance events say their effect: "gang card Iago: a sphere of the Tonys", "riot at
    Iago (war 3/8)", "ESCALATION!: 3 spheres of the Officials at Stadium", weaknesses
    ("Absent-minded: Professor Vance (player 1) must discard a card"), a new layer on
    the gang draw pile, and the end of the game with its reason.
    """
    notes: list = []
    after = rules.apply(game, s, action, player, notes)
    if game.current_player(s) == CHANCE:
        text = _chance_text(game, s, action, after, notes)
    else:
        text = f"player {player}: {_decision_text(game, s, action, after, notes)}"
    parts = [text]
    if _new_layer(s, after):
        k = len(after.gang_layers[0])
        parts.append(f"the gang discard pile ({k} card{'' if k == 1 else 's'}) is shuffled and laid on top of "
                     "the gang draw pile")
    if after.result:
        parts.append(rules.outcome(game, after)["text"])
    return "; ".join(parts)


def _new_layer(s: State, after: State) -> bool:
    """True when ``after`` has a new top layer (an ESCALATION!'s discards, or a refill, GGC-10):
    its cards came from the discard pile, so none of them lay in a layer of ``s``."""
    if not after.gang_layers:
        return False
    return not any(c in layer for layer in s.gang_layers for c in after.gang_layers[0])


def _gang_word(g: int) -> str:
    return GANG_NAMES[g].replace("The ", "the ", 1)


def _who(s: State, q: int) -> str:
    return f"{CAST_NAMES[s.cast[q]]} (player {q})"


def _effects(s: State, after: State, notes: list) -> list[str]:
    """Texts of the sphere, riot and weakness notes of ``rules.apply``."""
    out = []
    for note in notes:
        kind = note[0]
        if kind == "riot":
            out.append(f"riot at {POI_NAMES[note[1]]} (war {note[2]}/{WAR_LOSS})")
        elif kind == "blocked":
            why = f"{_gang_word(note[2])} are defeated" if note[3] == "defeated" else "Green Ghost stands there"
            out.append(f"no sphere at {POI_NAMES[note[1]]}: {why}")
        elif kind == "waits":
            out.append(f"{CAST_NAMES[note[1]]}'s weakness for {POI_NAMES[note[2]]} waits for that discard")
        elif kind == "weakness":
            out.append(_weakness_effect(s, after, note))
    return out


def _weakness_effect(s: State, after: State, note: tuple) -> str:
    _, k, q, poi, did = note
    who = _who(s, q)
    if k == GHOST:
        left = MOVES - did
        return f"Exhausted: {who} will have {left} move{'' if left == 1 else 's'} next turn"
    if k == PROFESSOR:
        if did:
            return f"Absent-minded: {who} must discard a card"
        return f"Absent-minded: {who} holds too few cards to discard"
    if k == DETECTIVE:
        return f"Called to Headquarters: {who} is moved to {POI_NAMES[HEADQUARTERS]}"
    if k == MAYOR:
        if did:
            return f"Scandal: {who}: the safe house at {POI_NAMES[poi]} is shut down"
        return f"Scandal: {who}: no safe house shut at {POI_NAMES[poi]}"
    return f"Towed: {who} is moved to {POI_NAMES[poi]}"


def _chance_text(game: GangsOfGreenCity, s: State, action: int, after: State, notes: list) -> str:
    st = s.stage
    if st == S_CAST:
        return f"cast card: player {s.deal} is {CAST_NAMES[action - A.CAST0]}"
    if st == S_GANGS:
        c = action - A.GDRAW0
        k = SETUP_SPHERES[s.deal]
        return f"set-up gang card {POI_NAMES[c]}: {k} sphere{'' if k == 1 else 's'} of {_gang_word(DISTRICT[c])}"
    if st == S_HANDS:
        return f"starting hand: {hero_card_name(action - A.HDRAW0)} to player {s.deal % game.num_players}"
    if st == DRAW:
        c = action - A.HDRAW0
        if c >= ESC_CARD0:
            return (f"hero card {hero_card_name(c)}: the escalation meter moves to {after.esc} "
                    f"({METER[after.esc]} gang cards a turn)")
        q = s.current
        text = f"hero card {hero_card_name(c)} to {_who(s, q)}"
        if after.pick_n > 0 and after.pick_player == q:
            text += f"; over the hand limit of {HAND_LIMIT}: discard {after.pick_n}"
        return text
    c = action - A.GDRAW0
    g = DISTRICT[c]
    effects = _effects(s, after, notes)
    if st == ESC_BOTTOM:
        head = f"ESCALATION!: bottom gang card {POI_NAMES[c]}"
        place = next((x for x in notes if x[0] == "place"), None)
        if place is not None:
            if place[3] == MAX_SPHERES:
                head = f"ESCALATION!: 3 spheres of {_gang_word(g)} at {POI_NAMES[c]} (the bottom gang card)"
            else:
                head = (f"ESCALATION!: {POI_NAMES[c]} (the bottom gang card) is filled to 3 spheres of "
                        f"{_gang_word(g)}")
        return "; ".join([head, *effects])
    head = f"gang card {POI_NAMES[c]}"
    place = next((x for x in notes if x[0] == "place"), None)
    if place is not None and place[3]:
        head += f": a sphere of {_gang_word(g)}"
        return "; ".join([head, *effects])
    if s.defeated >> g & 1:
        return f"{head}: nothing ({_gang_word(g)} are defeated)"
    return f"{head}: " + "; ".join(effects) if effects else head


def _target_text(s: State, action: int, after: State) -> str:
    """A respite's target, said with its effect."""
    name = RESPITES[s.resp]["name"]
    if A.PAWN0 <= action < A.DEST0:
        return f"{name}: player {action - A.PAWN0}'s pawn will move"
    if A.DEST0 <= action < A.GCARD0:
        poi = POI_NAMES[action - A.DEST0]
        if s.resp_pawn >= 0:
            return f"{name}: player {s.resp_pawn}'s pawn moves to {poi}"
        return f"{name}: a safe house at {poi}"
    if A.GCARD0 <= action < A.WATCH0:
        return f"{name}: {POI_NAMES[action - A.GCARD0]} leaves the gang discard pile for good"
    poi, g = divmod(action - A.WATCH0, NUM_GANGS)
    k = (s.spheres[poi] >> SHIFT[g] & 3) - (after.spheres[poi] >> SHIFT[g] & 3)
    return f"{name}: {k} sphere{'' if k == 1 else 's'} of {_gang_word(g)} removed from {POI_NAMES[poi]}"


def _decision_text(game: GangsOfGreenCity, s: State, action: int, after: State, notes: list) -> str:
    text = game.action_to_str(s, action)
    q = s.pick_player
    if s.resp >= 0:
        text = _target_text(s, action, after)
    elif s.pick_n > 0 and A.DISCARD0 <= action < A.PAWN0:
        card = hero_card_name(action - A.DISCARD0)
        if s.pick_kind == PICK_ONE:
            text = f"Absent-minded: {CAST_NAMES[s.cast[q]]} discards {card}"
        elif s.pick_kind == PICK_LIMIT:
            text = f"discards {card} (hand limit {HAND_LIMIT})"
        else:
            text = f"discards {card} to end the recruitment of {_gang_word(s.pick_gang)}"
    elif A.BATTLE0 <= action < A.SHARE0:
        g = action - A.BATTLE0
        pos = s.pawns[s.current]
        left = after.spheres[pos] >> SHIFT[g] & 3
        text += f" at {POI_NAMES[pos]} ({left} left there)"
    elif A.RECRUIT0 <= action < A.BATTLE0:
        text = f"ends the recruitment of {_gang_word(action - A.RECRUIT0)}"
    parts = [text]
    for g in range(NUM_GANGS):
        if after.defeated >> g & 1 and not s.defeated >> g & 1:
            parts.append(f"{_gang_word(g)} are defeated")
    parts.extend(_effects(s, after, notes))
    return "; ".join(parts)


def _build(game: GangsOfGreenCity, s: State) -> dict:
    player = None
    n = game.num_players
    cp = game.current_player(s)
    sph = unpack_spheres(s.spheres)
    spheres = {}
    for i in range(NUM_POIS):
        b = i * NUM_GANGS
        if sph[b] or sph[b + 1] or sph[b + 2] or sph[b + 3]:
            spheres[POI_NAMES[i]] = list(sph[b : b + NUM_GANGS])
    e = game.num_escalations
    top = next((i for i, k in enumerate(s.piles) if k), None)
    out = {
        "game": game.id,
        "players": n,
        "you": player,
        "stage": STAGE_NAMES[s.stage],
        # set-up: cards dealt so far in this step; drawing: hero cards still to draw;
        # Gang Leader: gang cards still to draw
        "deal": s.deal,
        "to_move": "chance" if cp == CHANCE else (None if cp < 0 else cp),
        "current": s.current,
        "moves_left": s.moves,
        "result": None if not s.result else ("victory" if s.result == VICTORY else "defeat"),
        "reason": s.reason or None,
        "options": dict(game.option_values),
        "districts": [
            {
                "id": g,
                "name": d["name"],
                "gang": d["gang"],
                "colour": d["colour"],
                "recruitment_ended": bool(s.ended >> g & 1),
                "defeated": bool(s.defeated >> g & 1),
                "supply": s.supply[g],
                "on_board": sum(sph[g::NUM_GANGS]),
            }
            for g, d in enumerate(DISTRICTS)
        ],
        "map": {
            "width": _BOARD["width"],
            "height": _BOARD["height"],
            "names": list(_NAMES),
            "district": list(_DISTRICT),
            "x": list(_X),
            "y": list(_Y),
            "edges": list(_FLAT_EDGES),
            "wrap_edges": list(_WRAP),
            "park": PARK,
        },
        "spheres": spheres,
        "pawns": list(s.pawns),
        "meters": {
            "escalation": s.esc,
            "escalation_track": list(METER[: e + 1]),
            "gang_cards_per_turn": METER[s.esc],
            "war": s.war,
            "war_loss": WAR_LOSS,
        },
        "safe_houses": {"ids": list(s.safe), "placed": [POI_NAMES[p] for p in s.safe],
                        "supply": SAFE_HOUSES - len(s.safe)},
        "players_info": [
            {
                "seat": q,
                "cast": None if s.cast[q] < 0 else CAST[s.cast[q]]["name"],
                "role": None if s.cast[q] < 0 else CAST[s.cast[q]]["kind"],
                "power": None if s.cast[q] < 0 else CAST[s.cast[q]]["power"],
                "weakness": None if s.cast[q] < 0 else _weakness_text(game, s.cast[q]),
                "pawn": s.pawns[q],
                "pawn_at": POI_NAMES[s.pawns[q]] if s.pawns[q] < NUM_POIS else PARK_NAME,
                "hand": [hero_card_name(c) for c in s.hands[q]],
                "hand_ids": list(s.hands[q]),
                "moves_lost_next_turn": s.tired[q],
            }
            for q in range(n)
        ],
        "hero_deck": {
            "draw_pile": sum(s.piles),
            "piles": [{"cards": k, "escalation_inside": bool(x)} for k, x in zip(s.piles, s.pile_esc)],
            "top_pile": top,
            "escalations_left": len(s.esc_left),
            "unseen_cards": len(s.hero_pool),
            "discard": [hero_card_name(c) for c in s.hero_disc],
        },
        "gang_deck": {
            "draw_pile": NUM_POIS - len(s.gang_disc) - len(s.gang_out),
            # top layer first: which cards each layer holds is public, their order is not
            "layers_on_top": [[POI_NAMES[c] for c in layer] for layer in s.gang_layers],
            "unseen_below": NUM_POIS - len(s.gang_disc) - len(s.gang_out) - sum(map(len, s.gang_layers)),
            "discard": [POI_NAMES[c] for c in s.gang_disc],
            "removed": [POI_NAMES[c] for c in s.gang_out],
        },
        "quiet_night": bool(s.quiet),
        "escalation_card": None if s.esc_card < 0 else hero_card_name(ESC_CARD0 + s.esc_card),
        "window": list(s.window),
        "discard_pending": None
        if s.pick_n <= 0
        else {
            "player": s.pick_player,
            "count": s.pick_n,
            "why": _PICK_NAMES.get(s.pick_kind, "end recruitment"),
            "district": None if s.pick_gang < 0 else GANG_NAMES[s.pick_gang],
        },
        "pending_weakness": None
        if not s.weak_next
        else {"cast": CAST[s.weak_next[0]]["name"], "poi": POI_NAMES[s.weak_next[1]]},
        "respite_pending": None
        if s.resp < 0
        else {
            "name": RESPITES[s.resp]["name"],
            "player": s.resp_player,
            "pawn": None if s.resp_pawn < 0 else s.resp_pawn,
        },
    }
    if s.result:
        out["returns"] = list(game.returns(s))
        out["outcome"] = rules.outcome(game, s)["text"]
    return out
