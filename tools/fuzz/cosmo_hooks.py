"""Schemathesis hooks for Cosmo's fuzz pass (`tools/fuzz-api`).

Six rules relate a field to another field of the request or to the clock, which a
JSON Schema cannot state; the OpenAPI document states them in words:

* `POST /api/explore` and `POST /api/context`: `until` must be after `since`;
* `POST /api/sources`: `ended_at` must not be before `started_at`;
* `GET /api/admin/usage`: `from` must not be after `to`;
* `POST /api/admin/jobs/{kind}/run` and `/dry-run`: `as_of` within 10 years of now.

A schema-valid request that breaks one of them is refused with 422 naming that field,
which is right, not a gap in the schema. This hook drops exactly those refusals and
nothing else: any other schema-valid request the server refuses still fails the run.
"""

import schemathesis

CROSS_FIELD_RULES = {
    ("POST", "/api/explore"): "until",
    ("POST", "/api/context"): "until",
    ("POST", "/api/sources"): "ended_at",
    ("GET", "/api/admin/usage"): "from",
    ("POST", "/api/admin/jobs/{kind}/run"): "as_of",
    ("POST", "/api/admin/jobs/{kind}/dry-run"): "as_of",
}


@schemathesis.hook
def filter_failure(context, failure, case, response):
    field = CROSS_FIELD_RULES.get((case.method.upper(), case.path))
    if failure.code != "ST202" or field is None or response.status_code != 422:
        return True
    try:
        return response.json()["error"]["field"] != field
    except (ValueError, KeyError, TypeError):
        return True
