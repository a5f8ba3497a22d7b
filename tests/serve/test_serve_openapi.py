"""The server's OpenAPI schema checked by schemathesis against the running server: whatever a client
sends, the answer is documented, fits its schema and is never a server error.
"""

from __future__ import annotations

import schemathesis
from serve_support import SERVED
from hypothesis import HealthCheck, settings
from schemathesis.checks import content_type_conformance, not_a_server_error, response_schema_conformance, status_code_conformance

from cardarena.serve.app import create_app
from cardarena.serve.bots import Roster

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


SERVED_BOTS = Roster.serving(SERVED)
schema = schemathesis.openapi.from_dict(create_app(SERVED_BOTS).openapi())


@schema.parametrize()
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_answer_fits_the_schema_and_none_is_a_server_error(case, server_url):
    case.call_and_validate(base_url=server_url, checks=CHECKS)


def test_the_schema_served_documents_every_route_and_its_errors(client):
    paths = client.http.get("/openapi.json").json()["paths"]
    assert set(paths) == {"/healthz", "/v1/games", "/v1/bots", "/v1/act", "/v1/tables", "/v1/tables/{table_id}", "/v1/tables/{table_id}/actions"}
    assert set(paths["/v1/act"]["post"]["responses"]) == {"200", "404", "413", "422"}
    assert set(paths["/v1/tables/{table_id}/actions"]["post"]["responses"]) == {"200", "403", "404", "409", "413", "422"}
