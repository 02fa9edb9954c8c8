"""The OpenAPI 3.1 description of the HTTP API, served at ``/openapi.json``."""

from __future__ import annotations

from .. import __version__

_TOKEN = {
    "name": "token",
    "in": "query",
    "required": False,
    "description": "A seat token (or send `Authorization: Bearer <token>`). Without one you are a spectator.",
    "schema": {"type": "string"},
}
_MID = {"name": "mid", "in": "path", "required": True, "schema": {"type": "string"}}


def _ok(ref: str, text: str) -> dict:
    return {"description": text, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}


def _errors(*codes: int) -> dict:
    out = {}
    for c in codes:
        out[str(c)] = {
            "description": {
                400: "A bad request or an illegal move (code action/*, request/invalid, game/*)",
                403: "The seat token does not allow this (seat/forbidden)",
                404: "No such match (match/not_found) or game (game/unknown)",
                409: "Another move won the race for this version (match/conflict)",
            }[c],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
    return out


def openapi_spec() -> dict:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Kingmaker web API",
            "version": __version__,
            "description": (
                "Play Kingmaker's games over HTTP and a WebSocket (`/ws/matches/{mid}`, see docs/web.md). "
                "Everything a seat receives is built from `game.view(state, seat)`, "
                "`Match.log_for(seat)` and the seat's own legal moves."
            ),
        },
        "paths": {
            "/api/games": {
                "get": {
                    "summary": "The games (ids, player counts, options) and the bot kinds",
                    "responses": {"200": _ok("Games", "Games and bots")},
                }
            },
            "/api/matches": {
                "get": {
                    "summary": "The lobby: public matches, most recent first",
                    "responses": {"200": _ok("Lobby", "Matches")},
                },
                "post": {
                    "summary": "Create a match; returns every human seat's token (send invite links)",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CreateMatch"}}},
                    },
                    "responses": {"200": _ok("Created", "The match id and seat tokens"), **_errors(400, 404)},
                },
            },
            "/api/matches/{mid}": {
                "get": {
                    "summary": "A match's public summary (game, seats, status)",
                    "parameters": [_MID],
                    "responses": {"200": _ok("Summary", "Summary"), **_errors(404)},
                }
            },
            "/api/matches/{mid}/state": {
                "get": {
                    "summary": "What the token's seat (or a spectator) may know now",
                    "parameters": [_MID, _TOKEN],
                    "responses": {"200": _ok("State", "The seat's state message"), **_errors(403, 404)},
                }
            },
            "/api/matches/{mid}/moves": {
                "post": {
                    "summary": "Play a move for the token's seat",
                    "parameters": [_MID, _TOKEN],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Move"}}},
                    },
                    "responses": {
                        "200": _ok("MoveResult", "Accepted and stored"),
                        **_errors(400, 403, 404, 409),
                    },
                }
            },
            "/api/matches/{mid}/join": {
                "post": {
                    "summary": "Take a seat: with its invite token, or any open seat of a public match",
                    "parameters": [_MID],
                    "requestBody": {
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Join"}}},
                    },
                    "responses": {"200": _ok("Joined", "The seat and its token"), **_errors(400, 403, 404)},
                }
            },
            "/api/matches/{mid}/leave": {
                "post": {
                    "summary": "Give up the token's seat: it opens again, or a bot takes it over",
                    "parameters": [_MID, _TOKEN],
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {"type": "object", "properties": {"bot": {"type": "string"}}}
                            }
                        },
                    },
                    "responses": {"200": {"description": "Left"}, **_errors(400, 403, 404)},
                }
            },
            "/api/matches/{mid}/replay": {
                "get": {
                    "summary": "Every step as the token's seat saw it (or as a spectator)",
                    "parameters": [_MID, _TOKEN],
                    "responses": {"200": _ok("Replay", "Frames and log"), **_errors(403, 404)},
                }
            },
            "/api/errors": {
                "get": {"summary": "Every error code", "responses": {"200": {"description": "Codes"}}}
            },
            "/api/health": {"get": {"summary": "Liveness", "responses": {"200": {"description": "OK"}}}},
        },
        "components": {
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {
                        "error": {
                            "type": "object",
                            "required": ["code", "message"],
                            "properties": {
                                "code": {"type": "string", "examples": ["action/illegal", "match/conflict"]},
                                "message": {"type": "string"},
                                "details": {"type": "object"},
                            },
                        }
                    },
                },
                "Games": {
                    "type": "object",
                    "properties": {
                        "games": {"type": "array", "items": {"type": "object"}},
                        "bots": {"type": "object", "additionalProperties": {"type": "array"}},
                    },
                },
                "Seat": {
                    "type": "object",
                    "properties": {
                        "seat": {"type": "integer"},
                        "kind": {"enum": ["human", "bot"]},
                        "bot": {"type": ["string", "null"]},
                        "name": {"type": ["string", "null"]},
                        "claimed": {"type": "boolean"},
                        "connected": {"type": "boolean"},
                    },
                },
                "SeatRequest": {
                    "type": "object",
                    "properties": {
                        "kind": {"enum": ["human", "bot"]},
                        "bot": {"type": "string", "examples": ["random", "heuristic", "ismcts:normal"]},
                        "name": {"type": "string", "maxLength": 40},
                    },
                },
                "CreateMatch": {
                    "type": "object",
                    "required": ["game"],
                    "properties": {
                        "game": {"type": "string", "examples": ["kings-kilt"]},
                        "players": {"type": "integer"},
                        "options": {"type": "object"},
                        "seats": {"type": "array", "items": {"$ref": "#/components/schemas/SeatRequest"}},
                        "you": {"type": ["integer", "null"], "description": "the creator's seat (default 0)"},
                        "public": {"type": "boolean", "default": True},
                        "seed": {"type": "integer", "minimum": 0},
                    },
                },
                "Created": {
                    "type": "object",
                    "properties": {
                        "match": {"type": "string"},
                        "tokens": {"type": "object", "additionalProperties": {"type": "string"}},
                        "you": {"type": ["integer", "null"]},
                        "summary": {"$ref": "#/components/schemas/Summary"},
                    },
                },
                "Summary": {
                    "type": "object",
                    "properties": {
                        "match": {"type": "string"},
                        "game": {"type": "string"},
                        "name": {"type": "string"},
                        "players": {"type": "integer"},
                        "version": {"type": "integer"},
                        "status": {"enum": ["playing", "over"]},
                        "seats": {"type": "array", "items": {"$ref": "#/components/schemas/Seat"}},
                        "result": {"type": ["array", "null"], "items": {"type": "number"}},
                    },
                },
                "Lobby": {
                    "type": "object",
                    "properties": {"matches": {"type": "array", "items": {"$ref": "#/components/schemas/Summary"}}},
                },
                "State": {
                    "type": "object",
                    "description": "The same message the WebSocket sends (type 'state').",
                    "properties": {
                        "type": {"const": "state"},
                        "match": {"type": "string"},
                        "game": {"type": "string"},
                        "version": {"type": "integer", "description": "the number of actions taken so far"},
                        "seat": {"type": ["integer", "null"]},
                        "status": {"enum": ["playing", "over"]},
                        "to_move": {"description": "a seat number, or 'chance', 'simultaneous', 'terminal'"},
                        "acting": {"type": "array", "items": {"type": "integer"}},
                        "simultaneous": {"type": "boolean"},
                        "view": {"type": "object", "description": "game.view(state, seat)"},
                        "legal": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {"action": {"type": "integer"}, "text": {"type": "string"}},
                            },
                        },
                        "log": {
                            "type": "object",
                            "properties": {
                                "start": {"type": "integer"},
                                "lines": {"type": "array", "items": {"type": "string"}},
                                "total": {"type": "integer"},
                            },
                        },
                        "result": {"type": ["array", "null"], "items": {"type": "number"}},
                        "seats": {"type": "array", "items": {"$ref": "#/components/schemas/Seat"}},
                    },
                },
                "Move": {
                    "type": "object",
                    "properties": {
                        "action": {"type": "integer"},
                        "text": {"type": "string", "description": "the move's notation, instead of action"},
                        "version": {"type": "integer", "description": "the version the move was chosen at"},
                        "seat": {"type": "integer", "description": "optional; must be the token's seat"},
                    },
                },
                "MoveResult": {
                    "type": "object",
                    "properties": {
                        "match": {"type": "string"},
                        "seat": {"type": "integer"},
                        "version": {"type": "integer"},
                        "state": {"$ref": "#/components/schemas/State"},
                    },
                },
                "Join": {
                    "type": "object",
                    "properties": {
                        "token": {"type": "string", "description": "the seat's invite token"},
                        "seat": {"type": "integer"},
                        "name": {"type": "string", "maxLength": 40},
                    },
                },
                "Joined": {
                    "type": "object",
                    "properties": {
                        "match": {"type": "string"},
                        "seat": {"type": "integer"},
                        "token": {"type": "string"},
                    },
                },
                "Replay": {
                    "type": "object",
                    "properties": {
                        "match": {"type": "string"},
                        "seat": {"type": ["integer", "null"]},
                        "frames": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "version": {"type": "integer"},
                                    "to_move": {},
                                    "view": {"type": "object"},
                                    "log_total": {"type": "integer"},
                                    "by": {"type": ["integer", "null"]},
                                },
                            },
                        },
                        "log": {"type": "array", "items": {"type": "string"}},
                    },
                },
            }
        },
    }
