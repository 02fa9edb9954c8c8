"""What a player sees of a Gangs Of Green City state: everything.

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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.api import CHANCE
from .data import (
    CAST,
    DATA,
    DISTRICT,
    DISTRICTS,
    ESC_CARD0,
    GANG_NAMES,
    METER,
    NEIGHBOURS,
    NUM_GANGS,
    NUM_HERO,
    NUM_POIS,
    PARK,
    PARK_NAME,
    PLACES,
    POI_NAMES,
    RESPITES,
    SAFE_HOUSES,
    WAR_LOSS,
    hero_card_name,
)
from .state import PICK_LIMIT, PICK_ONE, STAGE_NAMES, VICTORY, State, unpack_spheres

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
    """Returns the log line of ``action`` (every seat sees the same: nothing is secret)."""
    if game.current_player(s) == CHANCE:
        return f"chance: {game.action_to_str(s, action)}"
    return f"player {player}: {game.action_to_str(s, action)}"


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
    return out
