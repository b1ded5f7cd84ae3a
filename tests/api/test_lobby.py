"""Identity, catalog and lobby rules through the public API (API.md)."""

from __future__ import annotations

import httpx

from tests.support.client import make_table, new_player


def test_create_player_returns_token_and_me_answers(http: httpx.Client) -> None:
    ana = new_player(http, "  Ana  ")
    assert ana.name == "Ana"
    r = ana.get("/api/v1/me")
    assert r.status_code == 200
    assert r.json() == {"id": ana.id, "name": "Ana", "webhook_url": None}


def test_me_without_or_with_bad_token_is_unauthorized(http: httpx.Client) -> None:
    r = http.get("/api/v1/me")
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "unauthorized"
    r = http.get("/api/v1/me", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "unauthorized"


def test_player_name_is_validated(http: httpx.Client) -> None:
    for body in ({}, {"name": ""}, {"name": "x" * 41}, {"name": "\u0000"}, {"name": 5}):
        r = http.post("/api/v1/players", json=body)
        assert r.status_code == 422, body
        assert r.json()["error"]["code"] == "validation_error"


def test_games_lists_schemas(http: httpx.Client) -> None:
    games = {g["id"]: g for g in http.get("/api/v1/games").json()}
    pick = games["pick"]
    assert pick["min_players"] == 2 and pick["max_players"] == 4
    assert "pile" in pick["options_schema"]["properties"]
    assert "oneOf" in pick["action_schema"] or "anyOf" in pick["action_schema"]


def test_openapi_shows_per_game_schemas(http: httpx.Client) -> None:
    doc = http.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    assert "pick_action" in schemas and "pick_options" in schemas
    action = schemas["ActionRequest"]["properties"]["action"]
    assert {"$ref": "#/components/schemas/pick_action"} in action["oneOf"]


def test_table_lifecycle_create_join_bots_start(http: httpx.Client) -> None:
    owner, guest = new_player(http, "Owner"), new_player(http, "Guest")
    table = make_table(owner, "pick", 3)
    assert table["status"] == "open" and table["owner"]["id"] == owner.id
    assert table["seats"][0]["player"]["id"] == owner.id
    tid = table["id"]

    assert guest.post(f"/api/v1/tables/{tid}/join").json() == {"seat": 1}
    r = guest.post(f"/api/v1/tables/{tid}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_seated"

    r = guest.post(f"/api/v1/tables/{tid}/start")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = owner.post(f"/api/v1/tables/{tid}/start")
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_not_full"

    r = guest.post(f"/api/v1/tables/{tid}/bots")
    assert r.status_code == 403
    r = owner.post(f"/api/v1/tables/{tid}/bots", {"level": "normal"})
    assert r.status_code == 200
    assert r.json()["seats"][2]["bot"] is True

    third = new_player(http, "Late")
    r = third.post(f"/api/v1/tables/{tid}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_full"

    listed = {
        t["id"]
        for t in http.get("/api/v1/tables", params={"status": "open", "game": "pick"}).json()
    }
    assert tid in listed

    r = owner.post(f"/api/v1/tables/{tid}/start")
    assert r.status_code == 200 and r.json()["status"] == "playing"
    assert owner.post(f"/api/v1/tables/{tid}/start").json()["error"]["code"] == "already_started"
    r = guest.post(f"/api/v1/tables/{tid}/leave")
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_started"
    r = third.post(f"/api/v1/tables/{tid}/join")
    assert r.json()["error"]["code"] == "already_started"
    playing = {t["id"] for t in http.get("/api/v1/tables", params={"status": "playing"}).json()}
    assert tid in playing


def test_leave_before_start_frees_the_seat_and_owner_leaving_alone_removes_table(
    http: httpx.Client,
) -> None:
    owner, guest = new_player(http, "O"), new_player(http, "G")
    tid = make_table(owner, "pick", 2)["id"]
    guest.post(f"/api/v1/tables/{tid}/join")
    assert guest.post(f"/api/v1/tables/{tid}/leave").status_code == 204
    assert http.get(f"/api/v1/tables/{tid}").json()["seats"][1]["player"] is None
    assert owner.post(f"/api/v1/tables/{tid}/leave").status_code == 204
    r = http.get(f"/api/v1/tables/{tid}")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_owner_leaving_hands_the_table_to_the_next_player(http: httpx.Client) -> None:
    owner, guest = new_player(http, "O"), new_player(http, "G")
    tid = make_table(owner, "pick", 2)["id"]
    guest.post(f"/api/v1/tables/{tid}/join")
    owner.post(f"/api/v1/tables/{tid}/leave")
    assert http.get(f"/api/v1/tables/{tid}").json()["owner"]["id"] == guest.id


def test_bad_table_creation_is_rejected_in_the_envelope(http: httpx.Client) -> None:
    owner = new_player(http, "O")
    cases = [
        ({"game": "nope"}, 404, "not_found"),
        ({"game": "pick", "seats": 9}, 422, "validation_error"),
        ({"game": "pick", "options": {"pile": 1000}}, 422, "validation_error"),
        ({"game": "pick", "options": {"colour": "red"}}, 422, "validation_error"),
        ({"game": "pick", "options": "x"}, 422, "validation_error"),
        ({"game": "pick", "options": {"pile": 3, "max_take": 3}}, 422, "validation_error"),
    ]
    for body, status, code in cases:
        r = owner.post("/api/v1/tables", body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["error"]["code"] == code
    r = http.post("/api/v1/tables", json={"game": "pick"})
    assert r.status_code == 401


def test_bot_level_is_validated(http: httpx.Client) -> None:
    owner = new_player(http, "O")
    tid = make_table(owner, "pick", 2)["id"]
    r = owner.post(f"/api/v1/tables/{tid}/bots", {"level": "godlike"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"


def test_unknown_routes_and_methods_use_the_envelope(http: httpx.Client) -> None:
    r = http.get("/api/v1/nothing")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = http.delete("/api/v1/games")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
    r = http.post(
        "/api/v1/players", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
    r = http.get("/api/v1/tables", params={"status": "weird"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"


def test_health_and_metrics(http: httpx.Client) -> None:
    assert http.get("/healthz").json() == {"status": "ok"}
    ready = http.get("/readyz")
    assert ready.status_code == 200 and ready.json()["database"] == "ok"
    metrics = http.get("/metrics").text
    assert "partida_http_requests_total" in metrics
    assert "partida_action_seconds" in metrics
