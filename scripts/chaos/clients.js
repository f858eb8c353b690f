'use strict';
// The writers of a fault run: `clients` concurrent loops over HTTP. Each takes a profile no
// other loop is writing, sends that profile's next value (a merge of CustomerName.LastName
// "v<N>", N increasing per profile) and keeps the profile until the value has its answer or
// was given up, so the writes of one profile go out one after the other. Every attempt and
// the value's outcome are recorded: that record is what the checks compare with history.
const { randomUUID } = require('node:crypto');
const { call } = require('./http');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const RESEND_DELAY_MS = 250;

/**
 * When a behaviour sends a value again (and with which answers):
 *  resend  the same body after a 503 (or 429) or no answer;
 *  key     the same body and Idempotency-Key after a 503, 409 (or 429) or no answer;
 *  giveup  never: on to the next value.
 */
const BEHAVIOURS = {
  resend: (attempt) => attempt.error !== undefined || [429, 503].includes(attempt.status),
  key: (attempt) => attempt.error !== undefined || [409, 429, 503].includes(attempt.status),
  giveup: () => false,
};

/** The behaviour of client `i`: one of them for all, or mixed in turn. */
function behaviourOf(i, mode) {
  const names = Object.keys(BEHAVIOURS);
  return mode === 'mixed' ? names[i % names.length] : mode;
}

/**
 * A value's outcome from its attempts: "accepted" (some attempt answered 2xx), "unknown"
 * (none did and some got no answer: a dropped connection may still have been accepted),
 * else "refused" (every attempt was answered with an error, or never reached an api).
 */
function outcomeOf(attempts) {
  if (attempts.some((a) => a.status >= 200 && a.status < 300)) return 'accepted';
  if (attempts.some((a) => a.error === 'dropped')) return 'unknown';
  return 'refused';
}

/**
 * Runs the writers until `stopSending()` is called; `done` then resolves once each loop's
 * value under way ended (resends go on for at most `finishMs` after the stop).
 */
function startClients({ stack, session, profileIds, clients, mode, timeoutMs, finishMs, log }) {
  const runId = randomUUID().slice(0, 8);
  const profiles = profileIds.map((id) => ({ id, next: 1, busy: false }));
  const values = []; // one record per value sent (see sendValue)
  let accepted = 0; // order of 2xx answers over the run
  let sending = true;
  let finishBy = Infinity;

  const takeProfile = () => {
    const free = profiles.filter((p) => !p.busy);
    if (!free.length) return null;
    const profile = free[Math.floor(Math.random() * free.length)];
    profile.busy = true;
    return profile;
  };

  /** Sends one value until its behaviour stops resending; returns its record. */
  const sendValue = async (client, profile) => {
    const n = profile.next++;
    const record = {
      profileId: profile.id,
      n,
      value: `v${n}`,
      client: client.index,
      behaviour: client.behaviour,
      key: client.behaviour === 'key' ? `chaos-${runId}-${profile.id}-${n}` : undefined,
      attempts: [],
      sentAt: Date.now(),
    };
    values.push(record);
    for (;;) {
      const api = stack.apis[client.api % stack.apis.length];
      // The request id names the attempt, so that an api's log line can be matched with it.
      const requestId = `chaos-${runId}-p${profile.id}-v${n}-a${record.attempts.length + 1}`;
      const res = await call(
        api.origin,
        'POST',
        `/Profiles/v4/${session.clientId}/Profile/${profile.id}`,
        {
          auth: session.auth(),
          body: { CustomerName: { LastName: record.value } },
          headers: {
            'x-request-id': requestId,
            ...(record.key ? { 'idempotency-key': record.key } : {}),
          },
          timeoutMs,
        },
      );
      const attempt = {
        api: client.api % stack.apis.length,
        requestId,
        at: Date.now(),
        ms: res.ms,
      };
      if (res.status !== undefined) attempt.status = res.status;
      else Object.assign(attempt, { error: res.error, code: res.code });
      record.attempts.push(attempt);
      if (attempt.status >= 200 && attempt.status < 300) {
        record.acceptOrder = ++accepted;
        break;
      }
      // No answer: the next attempt goes to the next api (as a load balancer would).
      if (attempt.error) client.api++;
      const late = !sending && Date.now() > finishBy;
      if (attempt.status === 401 && !late) {
        // Not a fault of the write path: the token is fetched again, the value resent.
        await session.refresh(api.origin);
        await sleep(RESEND_DELAY_MS);
        continue;
      }
      if (late || !BEHAVIOURS[client.behaviour](attempt)) break;
      await sleep(RESEND_DELAY_MS);
    }
    record.outcome = outcomeOf(record.attempts);
    return record;
  };

  const loop = async (client) => {
    while (sending) {
      const profile = takeProfile();
      if (!profile) {
        await sleep(5);
        continue;
      }
      try {
        await sendValue(client, profile);
      } finally {
        profile.busy = false;
      }
    }
  };

  const loops = Array.from({ length: clients }, (_, index) =>
    loop({ index, api: index, behaviour: behaviourOf(index, mode) }),
  );
  log(
    `clients: ${loops.length} (${Array.from({ length: clients }, (_, i) => behaviourOf(i, mode)).join(', ')})`,
  );
  return {
    values,
    profiles,
    stopSending() {
      sending = false;
      finishBy = Date.now() + finishMs;
    },
    done: Promise.all(loops),
  };
}

module.exports = { BEHAVIOURS, startClients, outcomeOf };
