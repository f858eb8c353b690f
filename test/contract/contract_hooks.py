"""Schemathesis hooks of every contract run (both auth schemes load this module).

The tenant's id in every path (CONTRACT_CLIENT_ID, set by the contract test).

A fresh Idempotency-Key for every request: the fuzzer draws header values from a small
pool and so sends the same key with different bodies, which the service rightly refuses
(422: the key "was used with another request"). A client gives each new request its own
key; the replay of one key is tested in test/idempotency*.e2e-spec.ts. A value the schema
does not allow (a negative case) is left as generated, so its refusal is still tested.
"""
import ast
import json
import os
import re
import threading
import uuid

import schemathesis

IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")
# The clientId path parameter's schema (CLIENT_ID_PATTERN in libs/auth).
CLIENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


@schemathesis.hook
def before_call(context, case, kwargs):
    # Every path names the tenant: a generated client id the schema allows becomes the
    # tenant's, in the case itself, rather than by a [parameters] override (with one, the case
    # kept the id generated for it, say longer than maxLength, and the check of
    # schema-violating requests judged the valid request sent by that value). An id the
    # schema does not allow (a negative case) is sent as generated, except in the CUSTOMAUTH3
    # run (CONTRACT_FIXED_CLIENT_ID): under the signed scheme an unknown client answers 404
    # with no body (the legacy spec), which the document, one per path for both schemes,
    # cannot say.
    client_id = os.environ.get("CONTRACT_CLIENT_ID")
    fixed = os.environ.get("CONTRACT_FIXED_CLIENT_ID") == "1"
    if client_id and case.path_parameters and "clientId" in case.path_parameters:
        generated = case.path_parameters["clientId"]
        if fixed or (isinstance(generated, str) and CLIENT_ID.fullmatch(generated)):
            case.path_parameters["clientId"] = client_id
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() == "idempotency-key":
            value = headers[name]
            if isinstance(value, str) and IDEMPOTENCY_KEY.fullmatch(value):
                headers[name] = f"contract-{uuid.uuid4()}"


# CPython 3.11's AST constructor keeps its recursion depth in state the threads share:
# two workers parsing at once (Hypothesis parses a lambda's
# source to describe a filtered strategy) can fail with "SystemError: AST constructor
# recursion depth mismatch", which schemathesis reports as an error of the operation.
# One parse at a time.
_parse_lock = threading.Lock()
_parse = ast.parse


def _serialized_parse(*args, **kwargs):
    with _parse_lock:
        return _parse(*args, **kwargs)


ast.parse = _serialized_parse


@schemathesis.serializer("application/x-ndjson")
def ndjson_serializer(ctx, value):
    """Bulk Stage's newline-delimited JSON: the document's schema is a string (the text of
    the lines); other generated values (negative cases) go as one JSON value per line."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, list):
        return "\n".join(json.dumps(item) for item in value).encode("utf-8")
    return json.dumps(value).encode("utf-8")
