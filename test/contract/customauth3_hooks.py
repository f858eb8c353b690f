"""Schemathesis hooks: signs every request with the CUSTOMAUTH3-HMAC-SHA256 scheme.

Written independently of the service's code, as a client would: keyed
HMAC-SHA256(key, "ClientId:UserId:Timestamp"), Base64. The client id, user id and key come
from the environment the contract test sets (CUSTOMAUTH3_CLIENT_ID, _USER_ID, _KEY).
The hooks every run has (contract_hooks) are loaded with it.
"""
import base64
import hashlib
import hmac
import os
from datetime import datetime, timezone
from urllib.parse import quote

import schemathesis

import contract_hooks  # noqa: F401  (the hooks of every contract run)


@schemathesis.auth()
class CustomAuth3:
    def get(self, case, context):
        # Nothing to fetch: every request is signed on its own (set below).
        return "unused"

    def set(self, case, data, context):
        client_id = os.environ["CUSTOMAUTH3_CLIENT_ID"]
        user_id = quote(os.environ["CUSTOMAUTH3_USER_ID"], safe="")
        key = os.environ["CUSTOMAUTH3_KEY"]
        timestamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        core = f"{client_id}:{user_id}:{timestamp}".encode()
        signature = base64.b64encode(hmac.new(key.encode(), core, hashlib.sha256).digest()).decode()
        case.headers = case.headers or {}
        case.headers["Authorization"] = (
            f"CUSTOMAUTH3-HMAC-SHA256 Credential={user_id}/{timestamp} Signature={signature}"
        )
