'use strict';
// The two authentication checks of the bench's GET baselines (baseline-server.js) and of the
// stack's floor (nest-floor-server.js), written once so both do exactly the same work.
const jwt = require('jsonwebtoken');
const { createHmac, timingSafeEqual } = require('node:crypto');

const SIGNED = /^CUSTOMAUTH3-HMAC-SHA256 Credential=([^/]+)\/(\S+) Signature=(\S+)$/;

/** The claims of a valid HS256 bearer token (`secret` a KeyObject), or null. */
function bearerClaims(authorization, secret) {
  const token = (authorization || '').replace(/^Bearer /, '');
  try {
    return jwt.verify(token, secret, { algorithms: ['HS256'] });
  } catch {
    return null;
  }
}

/**
 * The user id of a CUSTOMAUTH3-HMAC-SHA256 header whose signature is the client's (one
 * HMAC-SHA256 of `<clientId>:<userId>:<timestamp>` with its key), or null.
 */
function signedUserId(authorization, clientId, hmacKey) {
  const match = SIGNED.exec(authorization || '');
  if (!match) return null;
  const expected = createHmac('sha256', hmacKey ?? '')
    .update(`${clientId}:${match[1]}:${match[2]}`)
    .digest();
  const given = Buffer.from(match[3], 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected) ? match[1] : null;
}

module.exports = { bearerClaims, signedUserId };
