"""The designed components in gangs_of_green_city.json: the city, the cast, the respites, the counts."""

from __future__ import annotations

import json
from pathlib import Path

from kingmaker.games.gangs_of_green_city import data as D

_JSON = Path(D.__file__).with_name("gangs_of_green_city.json")


def test_data_file_is_marked_as_designed() -> None:
    raw = json.loads(_JSON.read_text())
    assert "designed" in raw and "_about" in raw
    for key in ("map", "featured", "cast", "respites", "escalation_meter", "starting_hands"):
        assert key in raw["designed"]


def test_components_48_pois_in_four_districts_of_twelve() -> None:
    """Components: 48 gang cards, one per POI; four gangs, so four districts of twelve."""
    assert D.NUM_POIS == 48
    for g in range(4):
        assert sum(1 for d in D.DISTRICT if d == g) == 12
    assert D.GANG_NAMES == ("The Tonys", "The Louies", "The Left Hand", "The Officials")


def test_every_place_name_is_unique_and_the_rulebook_names_exist() -> None:
    names = [n.lower() for n in D.ALL_NAMES]
    assert len(set(names)) == len(names) == 49
    for name in ("Center Park", "Green City High School", "DeVos Financial", "Iago", "Alien Weapons Marketplace"):
        assert name.lower() in D.POI_BY_NAME


def test_connections_are_symmetric_without_self_loops() -> None:
    for a in range(D.NUM_POIS):
        assert a not in D.NEIGHBOURS[a]
        for b in D.NEIGHBOURS[a]:
            assert a in D.NEIGHBOURS[b], (D.POI_NAMES[a], D.POI_NAMES[b])


def test_every_poi_has_two_to_six_neighbours() -> None:
    degrees = [len(D.NEIGHBOURS[a]) for a in range(D.NUM_POIS)]
    assert min(degrees) >= 2 and max(degrees) <= 6


def test_the_city_is_connected() -> None:
    seen = {0}
    frontier = [0]
    while frontier:
        a = frontier.pop()
        for b in D.NEIGHBOURS[a]:
            if b not in seen:
                seen.add(b)
                frontier.append(b)
    assert seen == set(range(D.NUM_POIS))
    assert all(d < 99 for row in D.DIST for d in row)


def test_some_links_cross_districts() -> None:
    cross = {(a, b) for a in range(48) for b in D.NEIGHBOURS[a] if D.DISTRICT[a] != D.DISTRICT[b]}
    districts_linked = {(D.DISTRICT[a], D.DISTRICT[b]) for a, b in cross}
    assert len(cross) >= 8
    for g in range(4):
        assert any(x == g for x, _ in districts_linked)


def test_travel_lines_wrap_around_to_iago_or_the_alien_weapons_marketplace() -> None:
    """Travel: 'The white lines that go off the edge of the board "wrap around" to the opposite
    board edge and continue to the indicated POI's, either to Iago or the Alien Weapons Marketplace.'"""
    iago, awm = D.POI_BY_NAME["iago"], D.POI_BY_NAME["alien weapons marketplace"]
    assert awm in D.NEIGHBOURS[iago]
    half = D.DATA["board"]["width"] // 2
    wraps = [(a, b) for a in range(48) for b in D.NEIGHBOURS[a] if a < b and abs(D.PLACES[a]["x"] - D.PLACES[b]["x"]) > half]
    assert wraps and all(iago in e or awm in e for e in wraps)
    assert D.PLACES[iago]["x"] < 150 and D.PLACES[awm]["x"] > 850  # on opposite edges


def test_center_park_leads_into_every_district_and_is_never_a_destination() -> None:
    """Setup: 'Center Park is not a playable space after the game begins.'"""
    exits = D.NEIGHBOURS[D.PARK]
    assert 4 <= len(exits) <= 6
    assert {D.DISTRICT[p] for p in exits} == {0, 1, 2, 3}
    assert all(D.PARK not in D.NEIGHBOURS[p] for p in range(48))


def test_every_place_has_coordinates_on_the_board() -> None:
    w, h = D.DATA["board"]["width"], D.DATA["board"]["height"]
    coords = {(p["x"], p["y"]) for p in D.PLACES}
    assert len(coords) == 48
    assert all(0 < p["x"] < w and 0 < p["y"] < h for p in D.PLACES)
    park = D.DATA["center_park"]
    assert 0 < park["x"] < w and 0 < park["y"] < h


def test_counts_match_the_component_list() -> None:
    """Components: 6 safe houses, 96 gang spheres, 59 hero cards, 48 gang cards, 5 cast cards."""
    assert D.SAFE_HOUSES == 6
    assert D.SPHERES_PER_GANG * D.NUM_GANGS == 96
    assert D.NUM_POIS + D.NUM_RESPITES + D.MAX_ESCALATIONS == 59
    assert D.NUM_CAST == 5
    assert D.HAND_LIMIT == 7 and D.MOVES == 4 and D.RECRUIT_CARDS == 5
    assert D.METER == (2, 2, 2, 3, 3, 4, 4)
    assert D.WAR_LOSS == 8
    assert D.STARTING_HANDS == {2: 4, 3: 3, 4: 2, 5: 2}
    assert D.SETUP_SPHERES == (3, 3, 3, 2, 2, 2, 1, 1, 1)


def test_every_gang_card_and_escalation_features_a_cast_member() -> None:
    counts = [D.FEATURED.count(k) for k in range(5)]
    assert sum(counts) == 48 and min(counts) >= 9
    assert len(D.ESC_FEATURED) == 6 and set(D.ESC_FEATURED) == set(range(5))


def test_cast_and_respites_have_one_line_texts() -> None:
    kinds = {c["kind"] for c in D.CAST}
    assert {"superhero", "public figure", "cop", "citizen"} <= kinds
    for c in D.CAST:
        assert c["power"] and c["weakness"] and "\n" not in c["power"] + c["weakness"]
    assert len(D.RESPITES) == 5
    assert all(r["effect"] and "\n" not in r["effect"] for r in D.RESPITES)
