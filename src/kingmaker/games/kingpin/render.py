"""A text picture of a Kingpin view (never of a state): the grid with each tile's icons by side.

Each square is four lines of eleven characters::

    +-----------+
    |    PP     |   icons on the tile's north side (P pistol, C car, V vest, S pen)
    |V   R3^   C|   west icons, mafia letter + toughness + facing arrow, east icons
    |  Vasili   |   the gangster's short name (a sniper's ends with '@')
    |          *|   south icons; '*' marks a square under an enemy sniper's fire
    +-----------+

Empty squares show their kind: ``~ NML ~`` (No Man's Land), ``area 0`` /
``area 1`` (areas of influence) and ``exit ^`` / ``exit v`` (red triangles).
"""

from __future__ import annotations

W = 11
_ARROW = {"N": "^", "E": ">", "S": "v", "W": "<"}


def _cell(sq: dict) -> list[str]:
    tile = sq["tile"]
    fire = "*" if sq["under_fire_by"] else " "
    if tile is None:
        top = {"no_mans_land": "~ NML ~", "area": f"area {sq['area_of']}", "plain": ""}[sq["kind"]]
        mid = f"exit {_ARROW[sq['exit_dir']]}" if sq["exit_for"] is not None else ""
        return [top.center(W), mid.center(W), "".center(W), " " * (W - 1) + fire]
    sides = tile["sides"]
    letter = tile["mafia"][:1].upper()
    mid = f"{letter}{tile['toughness']}{_ARROW[tile['facing']]}"
    line1 = sides["W"]["icons"].ljust(4) + mid + sides["E"]["icons"].rjust(4)
    name = tile["short"] + ("@" if tile["sniper"] else "")
    south = sides["S"]["icons"].center(W - 1) + fire
    return [sides["N"]["icons"].center(W), line1[:W], name[:W].center(W), south]


def render(view: dict) -> str:
    """Returns the board (row 5 at the top), each player's tiles and the state of play."""
    b = view["board"]
    cols, rows = b["columns"], b["rows"]
    squares = b["squares"]
    sep = "   +" + "+".join("-" * W for _ in range(cols)) + "+"
    lines = ["    " + " ".join(n.center(W) for n in b["column_names"]), sep]
    for r in range(rows - 1, -1, -1):
        cells = [_cell(squares[r * cols + c]) for c in range(cols)]
        for i in range(4):
            label = f"{r + 1:>2} " if i == 1 else "   "
            lines.append(label + "|" + "|".join(cell[i] for cell in cells) + "|")
        lines.append(sep)
    mafias = [p["mafia"] for p in view["players_info"] if p["mafia"]] + view["mafias_available"]
    letters = ", ".join(f"{m['key'][:1].upper()} {m['name']}" for m in mafias)
    lines.append(f"Board {b['name']}. Legend: P pistol, C car, V vest, S support pen (by side);")
    lines.append(f"  letter = mafia ({letters}); number = toughness;")
    lines.append("  arrow = facing (^ N, > E, v S, < W); @ sniper; * under enemy sniper fire;")
    lines.append("  area N = player N's area of influence; exit ^/v = red triangle where")
    lines.append("  the enemy's tiles leave the board; ~ NML ~ = No Man's Land.")
    fired = [f"{s['name']} ({', '.join(s['under_fire_by'])})" for s in squares if s["under_fire_by"]]
    if fired:
        lines.append("Sniper fire on: " + ", ".join(fired))
    for p in view["players_info"]:
        m = p["mafia"]
        who = f"Player {p['player']}" + (" (you)" if view["you"] == p["player"] else "")
        if m is None:
            lines.append(f"{who}: no mafia chosen yet")
            continue
        left = p["actions_left"]
        label = "actions left" if view["action_track"] else "actions before dawn"
        lines.append(f"{who}: {m['name']} ({m['color']}), {label}: {left}")
        if "face_up" in p:
            lines.append("  face up (T toughness, icons top/right/bottom/left, - none):"
                         + ("" if p["face_up"] else " none"))
            for t in p["face_up"]:
                pr = t["printed"]
                icons = "/".join(pr[k]["icons"] or "-" for k in ("top", "right", "bottom", "left"))
                lines.append(f"    {t['short']} T{t['toughness']} [{icons}]" + (" sniper" if t["sniper"] else ""))
            down = p["face_down"]
            lines.append(f"  face down: {down['count']}" + (f" ({', '.join(down['tiles'])})" if down["tiles"] else "")
                         + "; liquidated: " + (", ".join(p["liquidated"]) or "none"))
    if view["last_liquidated"]:
        lines.append("Last attack liquidated: " + ", ".join(view["last_liquidated"]))
    if view["mafias_available"] and view["phase"] == "choose mafia":
        lines.append("Mafias to choose from: " + ", ".join(m["name"] for m in view["mafias_available"]))
    if "winner" in view:
        text = view.get("outcome") or f"player {view['winner']} wins: {view['reason_text']}"
        lines.append(text[:1].upper() + text[1:] + ".")
    elif view["to_move"] is not None:
        who = view["to_move"]
        lines.append("To move: " + (who if who == "chance" else f"player {who}"))
    return "\n".join(lines)
