"""A text picture of a San Quentin Kings view (never of a state: it cannot show a secret)."""

from __future__ import annotations

LEGEND = ("Legend: C/S/T = Cobra/Scorpion/Tarantula pieces or shank cards; G/W/B = green baboon/white horse/"
          "brown horse drug chips; Resp = respect, FP = fight points, Comm = commissary, Chip = bribe chips; "
          "* = you, I = initiator.")


def plural(k: int, word: str) -> str:
    """Returns "1 card", "2 cards"."""
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


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
    if view["riot"]:
        lines.append(f"Blocks: all seven played in year 3 ({played}); then the riot")
    else:
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
    kd = sup.get("known_in_deck", [0] * 6)
    if any(kd):
        lines.append(f"  known to be in the shank deck {_ct(kd[:3])}, in the drug pile G{kd[3]} W{kd[4]} B{kd[5]}")
    lines.append(
        f"Fight deck: {plural(fd['size'], 'card')} ({fd['guards']} guards in the game), {fd['discards']} discarded"
        + (", Grave drawn" if fd["grave_drawn"] else "")
    )
    lines.append("")
    lines.append(LEGEND)
    lines.append("Pieces as C/S/T in each place.")
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
        if "shank_taken_from_you" in y:
            lines.append(f"Your {y['shank_taken_from_you']} shank was stolen: the thief may play it now.")
    for k in view.get("known", []):
        what = [f"{lg['types'][t]} shank x{c}" for t, c in enumerate(k["shank_cards"]) if c]
        what += [f"{lg['drug_colours'][d]} x{c}" for d, c in enumerate(k["drug_chips"]) if c]
        lines.append(f"You know player {k['player']} holds at least: {', '.join(what)}.")
    caf = view.get("cafeteria")
    if caf:
        lines.append("")
        lines.append(
            f"Cafeteria: shanks {_ct(caf['shank_cards'])}, drugs G{caf['drug_chips'][0]} W{caf['drug_chips'][1]} "
            f"B{caf['drug_chips'][2]}, bus row {_ct(caf['bus_row'])}, respect spots {caf['respect']}"
        )
    bus = view.get("bus")
    if bus:
        lines.append(f"Bus: {_ct(bus['pieces'])}; player {bus['picking']} picks {plural(bus['picks_left'], 'piece')} more")
    fight = view.get("fight")
    if fight:
        lines.append("")
        tb = " > ".join(fight["tie_breaker"])
        if fight["round"]:
            stage = f"round {fight['round']} of 3"
        elif view["phase"] == "drug payment":
            stage = "paying to take part"
        elif fight["fists"]:
            stage = "secret fists being chosen"
        else:
            stage = "fists revealed"
        lines.append(f"FIGHT: {fight['block']} (tie-breaker {tb}), {stage}")
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
                + (f", {plural(fight['cards_to_play'], 'card')} to play" if fight["fighting_this_turn"] else "")
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
        win = final["winners"]
        lines.append(("Winner: " if len(win) == 1 else "Winners (shared): ") + ", ".join(f"player {w}" for w in win))
    return "\n".join(lines)
