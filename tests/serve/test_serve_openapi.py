"""The server's OpenAPI schema checked by schemathesis against the running servers, with and without
API keys: whatever a client sends, the answer is documented, fits its schema and is never a server error.
"""

from __future__ import annotations

import httpx
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from serve_support import DAVE, KEY_FILE, SERVED

from cardarena.serve.app import create_app
from cardarena.serve.bots import Roster
from cardarena.serve.keys import API_KEY_HEADER, ApiKeys

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))

SERVED_BOTS = Roster.serving(SERVED)
schema = schemathesis.openapi.from_dict(create_app(SERVED_BOTS).openapi())
keyed_schema = schemathesis.openapi.from_dict(create_app(SERVED_BOTS, api_keys=ApiKeys.parse(KEY_FILE)).openapi())


@schema.parametrize()
@SETTINGS
def test_every_answer_fits_the_schema_and_none_is_a_server_error(case, server_url):
    case.call_and_validate(base_url=server_url, checks=CHECKS)


@keyed_schema.parametrize()
@SETTINGS
def test_with_api_keys_every_answer_fits_the_schema(case, keyed_url):
    case.call_and_validate(base_url=keyed_url, checks=CHECKS)
    case.call_and_validate(base_url=keyed_url, checks=CHECKS, headers={API_KEY_HEADER: DAVE})


TABLE_PATHS = {
    "/v1/tables",
    "/v1/tables/{table_id}",
    "/v1/tables/{table_id}/actions",
    "/v1/tables/{table_id}/history",
    "/v1/tables/{table_id}/spectate",
}


def test_the_schema_served_documents_every_route_and_its_errors(client):
    paths = client.http.get("/openapi.json").json()["paths"]
    web_paths = {"/web/renderers/{game}.js", "/web/rules/{game}.md", "/web/decks/{deck}.js"}
    assert set(paths) == {"/healthz", "/v1/games", "/v1/bots", "/v1/act", *web_paths, *TABLE_PATHS}
    for path in web_paths:
        assert set(paths[path]["get"]["responses"]) == {"200", "404", "422"}
    assert set(paths["/v1/act"]["post"]["responses"]) == {"200", "404", "413", "415", "422"}
    assert set(paths["/v1/tables"]) == {"get", "post"}
    assert set(paths["/v1/tables/{table_id}"]) == {"get", "delete"}
    assert set(paths["/v1/tables/{table_id}"]["delete"]["responses"]) == {"204", "403", "404", "422"}
    assert set(paths["/v1/tables/{table_id}/actions"]["post"]["responses"]) == {
        "200",
        "403",
        "404",
        "409",
        "413",
        "415",
        "422",
    }
    assert set(paths["/v1/tables/{table_id}/history"]["get"]["responses"]) == {"200", "403", "404", "409", "422"}
    assert set(paths["/v1/tables/{table_id}/spectate"]["get"]["responses"]) == {"200", "403", "404", "422"}


def test_with_api_keys_the_schema_documents_the_header_and_the_401(keyed_url):
    served = httpx.get(f"{keyed_url}/openapi.json").json()
    assert served["components"]["securitySchemes"] == {
        "APIKeyHeader": {
            "type": "apiKey",
            "in": "header",
            "name": API_KEY_HEADER,
            "description": "One of the keys in the server's --api-keys file.",
        }
    }
    for path, operations in served["paths"].items():
        for operation in operations.values():
            assert ("401" in operation["responses"]) == path.startswith("/v1/"), path
    assert set(served["paths"]["/v1/tables/{table_id}"]["delete"]["responses"]) == {"204", "401", "403", "404", "422"}
