'use strict';
// After the faults: waiting until every profile is Complete, then reading what was applied.
//
// What was applied, in which order: each applied write that changes a standard field
// (CustomerName included) records one "standard" history entry holding CustomerName as after
// that write (libs/profiles/src/domain/profile-history.ts); a write that changes nothing
// records none. The worker appends a write's entries to the profile's pages
// (`profile_history`, `<client>|<profile>|p<k>`, entries as JSON text) in the order it
// applies the writes, and only entries with `seq <= appliedSeq` of the profile count. The
// History route answers the same entries ordered by acceptance time (Edited.ModifiedDate),
// not by application, and without their sequence numbers; so the checks read the stored pages
// in page order (the order of application, with each entry's seq), and the route's answer is
// read too and compared with them.
const { MongoClient } = require('mongodb');
const { call } = require('./http');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Next page of a paged answer (`Link: <...>; rel="next"`), if the route ever pages. */
function nextLink(headers) {
  const link = headers?.link;
  const match = link && /<([^>]+)>\s*;\s*rel="?next"?/.exec(String(link));
  return match ? match[1] : null;
}

async function getJson(origin, session, pathname) {
  for (let tries = 0; ; tries++) {
    const res = await call(origin, 'GET', pathname, { auth: session.auth() });
    if (res.status === 200) return res;
    if (res.status === 401) await session.refresh(origin);
    if (tries >= 20)
      throw new Error(`GET ${pathname}: ${res.status ?? res.error} ${JSON.stringify(res.body)}`);
    await sleep(500);
  }
}

/** Whether the profile is Complete: GET says so and `.../Updates` lists no pending write. */
async function isComplete(origin, session, id) {
  const base = `/Profiles/v4/${session.clientId}/Profile/${id}`;
  const profile = await call(origin, 'GET', base, { auth: session.auth() });
  if (profile.status === 401) await session.refresh(origin);
  if (profile.status !== 200 || profile.body?.UpdateStatus !== 'Complete') return false;
  const updates = await call(origin, 'GET', `${base}/Updates`, { auth: session.auth() });
  if (updates.status !== 200) return false;
  return !(updates.body?.Updates ?? []).some((u) => u.Status === 'Pending Update');
}

/** Polls until every profile is Complete or `timeoutMs` passed; returns the ids still pending. */
async function waitComplete({ origin, session, ids, timeoutMs, log }) {
  const started = Date.now();
  let pending = [...ids];
  let lastLog = started;
  while (pending.length && Date.now() - started < timeoutMs) {
    const still = [];
    for (const id of pending) if (!(await isComplete(origin, session, id))) still.push(id);
    pending = still;
    if (!pending.length) break;
    if (Date.now() - lastLog > 10000) {
      log(
        `waiting for ${pending.length} profiles to be Complete (${Math.round((Date.now() - started) / 1000)} s)`,
      );
      lastLog = Date.now();
    }
    await sleep(1000);
  }
  log(
    `settled in ${Math.round((Date.now() - started) / 1000)} s; ${pending.length} profiles not Complete`,
  );
  return pending;
}

/** The History route's answer, every page of it: LastName of each entry, in its order. */
async function readHistoryRoute(origin, session, id) {
  const values = [];
  let pathname = `/Profiles/v4/${session.clientId}/Profile/${id}/History/StandardFields`;
  while (pathname) {
    const res = await getJson(origin, session, pathname);
    for (const entry of res.body) values.push(entry.CustomerName?.LastName ?? null);
    const next = nextLink(res.headers);
    pathname = next ? new URL(next, origin).pathname + new URL(next, origin).search : null;
  }
  return values;
}

/** The stored standard entries up to appliedSeq, in page order (the order of application). */
async function readStoredHistory(db, clientId, id) {
  const profile = await db.collection('profiles').findOne({ _id: `${clientId}|${id}` });
  const pages = profile?.historyPages ?? 0;
  const applied = [];
  for (let k = 0; k < pages; k++) {
    const page = await db.collection('profile_history').findOne({ _id: `${clientId}|${id}|p${k}` });
    for (const raw of page?.entries ?? []) {
      const entry = typeof raw === 'string' ? JSON.parse(raw) : raw;
      if (entry.category !== 'standard' || entry.seq > profile.appliedSeq) continue;
      applied.push({
        seq: entry.seq,
        n: entry.n,
        value: entry.snapshot?.CustomerName?.LastName ?? null,
        at: entry.modifiedAt,
      });
    }
  }
  return { appliedSeq: profile?.appliedSeq ?? 0, applied };
}

/** Everything the checks need of each profile. */
/** Whether `GET .../Profile/Name?lastName=<value>` lists profile `id`. */
async function foundByLastName(origin, session, value, id) {
  const pathname = `/Profiles/v4/${session.clientId}/Profile/Name?lastName=${encodeURIComponent(value)}`;
  const res = await getJson(origin, session, pathname);
  return (res.body ?? []).some((p) => p.ProfileId === id);
}

async function readBack({ origin, session, engineUri, dbName, ids }) {
  const mongo = await MongoClient.connect(engineUri, { serverSelectionTimeoutMS: 30000 });
  try {
    const db = mongo.db(dbName);
    const result = [];
    for (const id of ids) {
      const base = `/Profiles/v4/${session.clientId}/Profile/${id}`;
      const profile = (await getJson(origin, session, base)).body;
      const updates = (await getJson(origin, session, `${base}/Updates`)).body?.Updates ?? [];
      const stored = await readStoredHistory(db, session.clientId, id);
      const final = profile.CustomerName?.LastName ?? null;
      result.push({
        // Searches by name (the search key index in Redis, then an exact check): the
        // profile by its current LastName, and whether its first one ("v0") still finds it.
        foundByName: final === null ? null : await foundByLastName(origin, session, final, id),
        foundByOldName: final === 'v0' ? null : await foundByLastName(origin, session, 'v0', id),
        id,
        final: profile.CustomerName?.LastName ?? null,
        updateStatus: profile.UpdateStatus,
        routeValues: await readHistoryRoute(origin, session, id),
        applied: stored.applied,
        appliedSeq: stored.appliedSeq,
        failed: updates.filter((u) => u.Status === 'Failed'),
      });
    }
    return result;
  } finally {
    await mongo.close();
  }
}

/**
 * For values answered 202 and missing from history, where the write went: the stored
 * records carrying that value (`profile_writes`, read by filter: a diagnosis of a few values
 * on a small database) with the profile's appliedSeq (a record at or below it is never
 * applied; none: deleted as applied, or never stored), and the write's events
 * (`profile_events`, `<client>|<profile>|e<seq>` for each seq of the profile's eventLog):
 * an event showing the value means the write was applied and only its history entry is
 * missing.
 */
async function locateWrites({ engineUri, dbName, clientId, items }) {
  if (!items.length) return;
  const mongo = await MongoClient.connect(engineUri, { serverSelectionTimeoutMS: 30000 });
  const eventsOf = new Map(); // profile id -> [{seq, lastName}]
  try {
    const db = mongo.db(dbName);
    for (const item of items) {
      const profile = await db
        .collection('profiles')
        .findOne({ _id: `${clientId}|${item.profile}` });
      const records = await db
        .collection('profile_writes')
        .find({ clientId, profileId: item.profile })
        .toArray();
      item.appliedSeq = profile?.appliedSeq;
      item.records = records
        .filter((r) => JSON.parse(r.body ?? '{}')?.CustomerName?.LastName === item.value)
        .map((r) => ({ _id: r._id, seq: r.seq, acceptedAt: r.acceptedAt, status: r.status }));
      if (!eventsOf.has(item.profile)) {
        eventsOf.set(item.profile, await readEvents(db, clientId, item.profile, profile));
      }
      item.eventSeqs = eventsOf
        .get(item.profile)
        .filter((e) => e.lastName === item.value)
        .map((e) => e.seq);
    }
  } finally {
    await mongo.close();
  }
}

/** LastName after each write whose events the profile keeps ("profile.updated" events). */
async function readEvents(db, clientId, id, profile) {
  const out = [];
  for (const { seq } of profile?.eventLog ?? []) {
    const doc = await db.collection('profile_events').findOne({ _id: `${clientId}|${id}|e${seq}` });
    const events = typeof doc?.events === 'string' ? JSON.parse(doc.events) : (doc?.events ?? []);
    for (const event of events) {
      const lastName = event.data?.CustomerName?.LastName;
      if (event.type === 'profile.updated' && lastName !== undefined) out.push({ seq, lastName });
    }
  }
  return out;
}

module.exports = { waitComplete, readBack, locateWrites };
