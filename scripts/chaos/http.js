'use strict';
// HTTP for the fault run: one undici request that never throws. A request either has an
// answer (`status`) or failed without one (`error`): "refused" when no connection was made
// (the request never reached an api, so it cannot have been applied), "dropped" for every
// other failure (reset, closed, timed out: it may have been applied). The tenant: a client
// made with the admin CLI, a bearer token fetched again on a 401.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { request } = require('undici');
const { ROOT } = require('../lib/engines');

const CLIENT_ID = 'chaos';
const USER_ID = 'chaos';

/** Error codes that mean the connection was never made. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']);

async function call(origin, method, pathname, { auth, body, headers = {}, timeoutMs = 10000 }) {
  const started = Date.now();
  try {
    const res = await request(`${origin}${pathname}`, {
      method,
      headers: {
        ...headers,
        ...(auth ? { authorization: auth } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    let parsed;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.statusCode, body: parsed, headers: res.headers, ms: Date.now() - started };
  } catch (error) {
    const code = error.code || error.cause?.code || error.name;
    return {
      error: NOT_CONNECTED.has(code) ? 'refused' : 'dropped',
      code,
      ms: Date.now() - started,
    };
  }
}

/** A client and its first user (Administrators: every permission) via the built admin CLI. */
function createClient(env) {
  const cli = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'dist/apps/api/apps/api/src/admin/cli.js'),
      'create-client',
      '--client-id',
      CLIENT_ID,
      '--user-id',
      USER_ID,
    ],
    { env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`create-client: ${cli.stderr}`);
  return JSON.parse(cli.stdout);
}

/**
 * The tenant's credentials: `auth()` is the current bearer header; `refresh(origin)` fetches
 * a new token (after a 401, e.g. when an api lost what it knew of the token).
 */
function tenantSession(created) {
  let bearer = null;
  const session = {
    clientId: CLIENT_ID,
    auth: () => bearer,
    async refresh(origin) {
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        scope: `${CLIENT_ID}/${USER_ID}`,
        client_id: created.oauthClientId,
        client_secret: created.oauthClientSecret,
      }).toString();
      const res = await request(`${origin}/oauth2/v1/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        headersTimeout: 10000,
        bodyTimeout: 10000,
      }).catch((error) => ({ statusCode: 0, error }));
      if (res.statusCode !== 200) {
        if (res.body) await res.body.text();
        return false;
      }
      bearer = `Bearer ${(await res.body.json()).access_token}`;
      return true;
    },
  };
  return session;
}

/** The vocabulary a profile needs: the customer type "Customer". */
async function configureTenant(origin, session) {
  const res = await call(origin, 'POST', `/Profiles/v4/${CLIENT_ID}/CustomerTypes`, {
    auth: session.auth(),
    body: {
      CustomerTypes: [
        { TypeName: 'Customer', LocalizedFields: [{ Locale: 'en-us', Name: 'Customer' }] },
      ],
    },
  });
  if (res.status !== 201)
    throw new Error(`CustomerTypes: ${res.status} ${JSON.stringify(res.body)}`);
}

module.exports = { call, createClient, tenantSession, configureTenant, CLIENT_ID };
