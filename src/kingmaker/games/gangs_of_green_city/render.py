"""A text picture of a Gangs Of Green City view (never of a state)."""

from __future__ import annotations

_SHORT = ("T", "L", "H", "O")  # Tonys, Louies, left Hand, Officials


def render(view: dict) -> str:
    """Returns the districts with their spheres, safe houses and pawns, the meters and the hands.

    Sphere counts read T/L/H/O for The Tonys, The Louies, The Left Hand and The Officials;
    places with no sphere, safe house or pawn are only counted.
    """
    m = view["map"]
    names = m["names"]
    spheres = view["spheres"]
    safe = set(view["safe_houses"]["ids"])
    pawns: dict[int, list[int]] = {}
    for q, pos in enumerate(view["pawns"]):
        pawns.setdefault(pos, []).append(q)
    lines = []
    meters = view["meters"]
    track = meters["escalation_track"]
    esc = "".join(f"[{x}]" if i == meters["escalation"] else f" {x} " for i, x in enumerate(track))
    lines.append(
        f"Escalation meter {esc}  ({meters['gang_cards_per_turn']} gang cards a turn)   "
        f"War meter {meters['war']}/{meters['war_loss']}"
    )
    for d in view["districts"]:
        status = "DEFEATED" if d["defeated"] else ("recruitment ended" if d["recruitment_ended"] else "recruiting")
        lines.append("")
        lines.append(
            f"== {d['name']} ({d['gang']}, {d['colour']}): {d['on_board']} spheres on the board, "
            f"{d['supply']} in the supply, {status}"
        )
        quiet = 0
        for i, name in enumerate(names):
            if m["district"][i] != d["id"]:
                continue
            counts = spheres.get(name)
            if not counts and i not in safe and i not in pawns:
                quiet += 1
                continue
            cubes = " ".join(f"{_SHORT[g]}{c}" for g, c in enumerate(counts) if c) if counts else ""
            tags = []
            if i in safe:
                tags.append("SAFE HOUSE")
            if i in pawns:
                tags.append("pawns " + ",".join(f"p{q}" for q in pawns[i]))
            lines.append(f"  {name:<28}{cubes:<14}{'  '.join(tags)}")
        if quiet:
            lines.append(f"  ({quiet} quiet places)")
    park = m["park"]
    if park in pawns:
        lines.append(f"\n  {names[park]}: pawns " + ",".join(f"p{q}" for q in pawns[park]))
    lines.append("")
    lines.append(f"Safe houses: {len(safe)} placed, {view['safe_houses']['supply']} in the supply")
    hd, gd = view["hero_deck"], view["gang_deck"]
    piles = " ".join(f"{p['cards']}{'*' if p['escalation_inside'] else ''}" for p in hd["piles"])
    lines.append(f"Hero draw pile: {hd['draw_pile']} cards in piles {piles or '-'} (* = ESCALATION! inside)")
    top = "".join(
        f"; layer {i + 1} on top (any order): {', '.join(layer)}" for i, layer in enumerate(gd["layers_on_top"])
    )
    lines.append(f"Gang draw pile: {gd['draw_pile']} cards{top}; discard: {', '.join(gd['discard']) or '-'}")
    if view["quiet_night"]:
        lines.append("Quiet Night: the next Gang Leader phase is skipped")
    lines.append("")
    for p in view["players_info"]:
        you = " (you)" if p["seat"] == view["you"] else ""
        turn = " <- turn" if p["seat"] == view["current"] else ""
        tired = f", loses {p['moves_lost_next_turn']} move(s) next turn" if p["moves_lost_next_turn"] else ""
        lines.append(f"p{p['seat']}{you} {p['cast'] or '?'} at {p['pawn_at']}{tired}{turn}")
        lines.append(f"    hand: {', '.join(p['hand']) or '-'}")
    if view["result"]:
        lines.append(f"\nGame over: {view['result'].upper()} ({view['reason']})")
    else:
        extra = ""
        if view["discard_pending"]:
            dp = view["discard_pending"]
            extra = f"; p{dp['player']} must discard {dp['count']} ({dp['why']})"
        if view["respite_pending"]:
            rp = view["respite_pending"]
            extra = f"; p{rp['player']} chooses the target of {rp['name']}"
        lines.append(f"\nStage: {view['stage']}, moves left {view['moves_left']}{extra}")
    return "\n".join(lines)
