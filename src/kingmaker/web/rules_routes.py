"""The rules a page shows beside a match: a game's rulebook, its rulings and its designed cards.

    GET /api/games/{game}/rules  ->  {"game", "name", "rulebook", "rulings", "cards"}

``rulebook`` is the rulebook's plain text (``src/kingmaker/rulebooks/``), ``rulings``
the project's rulings in Markdown (``docs/rulings/<game>.md``; None when the package
is installed without the docs), and ``cards`` the texts of the designed components
found in the game's data file: ``{name: text}`` for every record that has a name and
an effect, power, weakness or text (Gangs of Green City's respite and cast cards,
Kingpins' abilities). Nothing here depends on a match: it is public.

The routes are plain Starlette routes, so they mount on Starlette and FastAPI alike::

    from kingmaker.web.rules_routes import rules_routes
    app.router.routes.extend(rules_routes())      # Starlette(routes=[...]) or FastAPI()
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core.errors import GameError, UnknownGameError
from ..core.registry import available_games, game_class

__all__ = ["rules_for", "rules_routes"]

PACKAGE = Path(__file__).resolve().parents[1]  # src/kingmaker
RULINGS_DIRS = (PACKAGE.parents[1] / "docs" / "rulings", PACKAGE / "rulings")
TEXT_FIELDS = ("effect", "power", "weakness", "text")


def _cards(data: object) -> dict[str, str]:
    """Returns ``{name: text}`` for every record of ``data`` with a name and a text field."""
    out: dict[str, str] = {}

    def walk(o: object) -> None:
        if isinstance(o, dict):
            name = o.get("name")
            texts = [f"{k}: {o[k]}" if k == "weakness" else str(o[k]) for k in TEXT_FIELDS if isinstance(o.get(k), str)]
            if isinstance(name, str) and texts:
                out[name] = " ".join(texts)
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(data)
    return out


@functools.cache
def rules_for(game_id: str) -> dict:
    """Returns the rules document of ``game_id`` (see the module docstring).

    Raises:
        UnknownGameError: no game has this id.
    """
    if game_id not in available_games():
        raise UnknownGameError(f"no game {game_id[:40]!r}; games: {', '.join(available_games())}")
    cls = game_class(game_id)
    rulebook = None
    if cls.rulebook and (PACKAGE / "rulebooks" / cls.rulebook).exists():
        rulebook = (PACKAGE / "rulebooks" / cls.rulebook).read_text(encoding="utf-8")
    rulings = next((p.read_text(encoding="utf-8") for d in RULINGS_DIRS if (p := d / f"{game_id}.md").exists()), None)
    cards: dict[str, str] = {}
    pkg_dir = Path(sys.modules[cls.__module__].__file__).parent
    for f in sorted(pkg_dir.glob("*.json")):
        cards.update(_cards(json.loads(f.read_text(encoding="utf-8"))))
    return {"game": game_id, "name": cls.name, "rulebook": rulebook, "rulings": rulings, "cards": cards}


async def _rules(request: Request) -> Response:
    try:
        body = rules_for(request.path_params["game"])
    except GameError as e:
        return JSONResponse({"error": e.to_dict()}, status_code=404)
    return JSONResponse(body, headers={"Cache-Control": "public, max-age=300"})


def rules_routes() -> list[Route]:
    """Returns the routes to add to an app: ``GET /api/games/{game}/rules``."""
    return [Route("/api/games/{game}/rules", _rules, methods=["GET"])]
