"""A text picture of a San Quentin Kings view (never of a state: it cannot show a secret)."""

from __future__ import annotations


def _ct(counts: list[int]) -> str:
    return f"C{counts[0]} S{counts[1]} T{counts[2]}"


def _sl(counts) -> str:
    return "/".join(str(c) for c in counts).ljust(5)


def render(view: dict) -> str:
    """Returns the blocks, tracks, every gang's cell, yard, solitary and goods, and the fight area."""
    lg = view["legend"]
    lines = []
    year = "RIOT" if view["riot"] else f"year {view['year']} of 3"
    lines.append(f"San Quentin Kings - {year} - initiator: player {view['initiator']} - {view['phase']}")
    played = ", ".join(view["blocks_played"]) or "none"
    lines.append(f"Blocks played this year: {played}")
    lines.append(f"Blocks open: {', '.join(view['blocks_open']) or 'none'}")
    if view["block"]:
        lines.append(f"Action: {view['block']}")
    sup = view["supply"]
    fd = view["fight_deck"]
    lines.append(
        f"Supply: shank deck {sup['shank_deck']} (discards {_ct(sup['shank_discards'])}), drug pile "
        f"{sup['drug_pile']} (used G{sup['used_drugs'][0]} W{sup['used_drugs'][1]} B{sup['used_drugs'][2]}), "
        f"commissary {sup['commissary']}, bribe chips {sup['bribe_chips']}"
    )
    lines.append(
        f"Fight deck: {fd['size']} cards ({fd['guards']} guards in the game), {fd['discards']} discarded"
        + (", Grave drawn" if fd["grave_drawn"] else "")
    )
    lines.append("")
    lines.append("Pieces as Cobra/Scorpion/Tarantula. * you, I initiator.")
    lines.append("        Cell   Yard   Solit. Court  Resp  FP Shank Drug Comm Chip")
    for q, gang in enumerate(view["gangs"]):
        tag = ("*" if q == view["you"] else " ") + ("I" if q == view["initiator"] else " ")
        lines.append(
            f"{tag} p{q}   {_sl(gang['cell'])}  {_sl(gang['yard'])}  {_sl(gang['solitary'])}  {_sl(gang['court'])}  "
            f"{gang['respect']:>4} {gang['fight_points']:>3} {gang['shank_cards']:>5} {gang['drug_chips']:>4} "
            f"{gang['commissary']:>4} {gang['bribe_chips']:>4}"
        )
        extra = []
        if "removed" in gang:
            extra.append(f"removed {_sl(gang['removed'])}")
        if "owed" in gang:
            extra.append("owed " + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in gang["owed"].items() if v))
        if extra:
            lines.append("        " + "; ".join(extra))
    if "yours" in view:
        y = view["yours"]
        sh = ", ".join(f"{lg['types'][t]} x{c}" for t, c in enumerate(y["shank_cards"]) if c) or "none"
        dr = ", ".join(f"{lg['drug_colours'][d]} x{c}" for d, c in enumerate(y["drug_chips"]) if c) or "none"
        lines.append(f"Your shank cards: {sh}.  Your drugs: {dr}.")
        if "fist" in y:
            lines.append(f"Your fist: {_ct(y['fist'])}")
        if "stolen_shank" in y:
            lines.append(f"You stole a {y['stolen_shank']} shank: play it now or keep it.")
    caf = view.get("cafeteria")
    if caf:
        lines.append("")
        lines.append(
            f"Cafeteria: shanks {_ct(caf['shank_cards'])}, drugs G{caf['drug_chips'][0]} W{caf['drug_chips'][1]} "
            f"B{caf['drug_chips'][2]}, bus row {_ct(caf['bus_row'])}, respect spots {caf['respect']}"
        )
    bus = view.get("bus")
    if bus:
        lines.append(f"Bus: {_ct(bus['pieces'])}; player {bus['picking']} picks {bus['picks_left']} more")
    fight = view.get("fight")
    if fight:
        lines.append("")
        tb = " > ".join(fight["tie_breaker"])
        lines.append(f"FIGHT: {fight['block']} (tie-breaker {tb}), round {fight['round']}")
        if fight["fists"]:
            for f in fight["fists"]:
                extra = f" {_ct(f['fist'])}" if "fist" in f else ""
                lines.append(f"  player {f['player']}: {f['status']}{extra}")
        for area in fight["areas"]:
            st = area["strength"]
            bribed = ""
            if area.get("bribed_in"):
                bribed = " + bribed " + ", ".join(f"{b['type']} of p{b['owner']}" for b in area["bribed_in"])
            lines.append(
                f"  player {area['player']}{' (passed)' if area['passed'] else ''}: pieces {_ct(area['pieces'])}"
                f"{bribed}; cards {', '.join(area['cards']) or '-'}; strength {_ct(st)}"
            )
        if fight["turn"] is not None:
            lines.append(
                f"  turn: player {fight['turn']}"
                + (f", {fight['cards_to_play']} card(s) to play" if fight["fighting_this_turn"] else "")
                + (", bribe used" if fight["bribe_used"] else "")
            )
        if fight["drawn_card"]:
            lines.append(f"  drawn: {fight['drawn_card']} (keep it or bribe to redraw)")
    if view.get("pending"):
        lines.append("Waiting: " + "; ".join(view["pending"]))
    final = view.get("final")
    if final:
        lines.append("")
        lines.append("Final respect:")
        for q, r in enumerate(final["respect"]):
            parts = " + ".join(f"{k.replace('_', ' ')} {v}" for k, v in r.items() if k != "total" and v)
            lines.append(f"  player {q}: {r['total']} = {parts or '0'}")
        lines.append("Winner(s): " + ", ".join(f"player {w}" for w in final["winners"]))
    return "\n".join(lines)
