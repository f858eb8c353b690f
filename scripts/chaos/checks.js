'use strict';
// The checks of a fault run: pure functions of what the clients recorded (each value sent,
// its attempts and outcome: clients.js) and what each profile holds once Complete (its
// applied standard-history entries in the order of application, the History route's answer,
// GET's LastName: read-back.js). Values are "v<N>" with N strictly increasing per profile, so
// a value's number says when it was sent, and a value applied twice must show as the new
// value of two entries (an entry is recorded only when the value changes).

const num = (value) =>
  typeof value === 'string' && /^v\d+$/.test(value) ? Number(value.slice(1)) : NaN;

/** The checks, in the order they are printed; `extra` ones go beyond the five. */
const CHECKS = [
  { id: 'errorApplied', title: 'answered error but applied' },
  { id: 'appliedTwice', title: 'applied twice (keyed)' },
  { id: 'outOfOrder', title: 'out of order' },
  { id: 'finalOlder', title: 'final state older than last 202' },
  { id: 'lost', title: 'lost (202 but not in history)' },
  { id: 'getVsHistory', title: "GET's LastName is not history's last", extra: true },
  {
    id: 'searchByName',
    title: 'not found by its current name, or found by an old one',
    extra: true,
  },
  { id: 'notComplete', title: 'not Complete in time', extra: true },
];

/** A short description of a value's attempts: "503,503,202" or "dropped(UND_ERR_SOCKET)". */
function attemptsText(record) {
  return record.attempts
    .map((a) => (a.status !== undefined ? String(a.status) : `${a.error}(${a.code})`))
    .join(',');
}

/**
 * Runs every check on every profile. `profiles`: read-back results; `values`: the client
 * records; `pendingIds`: profiles not Complete in time. Returns { [checkId]: [violation] }
 * (each violation a small object naming the profile and values) and `notes` (findings that
 * are not violations of the checks, e.g. the route's order against the applied one).
 */
function runChecks({ profiles, values, pendingIds = [] }) {
  const found = Object.fromEntries(CHECKS.map((c) => [c.id, []]));
  const notes = { routeDiffers: [], duplicateEntries: [], unknownApplied: 0, unknownNotApplied: 0 };
  for (const id of pendingIds) found.notComplete.push({ profile: id });

  for (const profile of profiles) {
    const sent = values.filter((r) => r.profileId === profile.id);
    const byValue = new Map(sent.map((r) => [r.value, r]));
    // Distinct writes (seq) per value; an entry recorded twice for one write is a note.
    const seqsOf = new Map();
    const seen = new Set();
    for (const entry of profile.applied) {
      const key = `${entry.seq}|${entry.n}`;
      if (seen.has(key)) notes.duplicateEntries.push({ profile: profile.id, seq: entry.seq });
      seen.add(key);
      if (!seqsOf.has(entry.value)) seqsOf.set(entry.value, new Set());
      seqsOf.get(entry.value).add(entry.seq);
    }

    // 1. Every attempt answered with an error (none 2xx, none unanswered), yet applied.
    for (const record of sent) {
      if (record.outcome === 'refused' && seqsOf.has(record.value)) {
        found.errorApplied.push({
          profile: profile.id,
          value: record.value,
          behaviour: record.behaviour,
          answers: attemptsText(record),
          seqs: [...seqsOf.get(record.value)],
        });
      }
      if (record.outcome === 'unknown') {
        if (seqsOf.has(record.value)) notes.unknownApplied++;
        else notes.unknownNotApplied++;
      }
    }

    // 2. A keyed value that is the new value of entries of two different writes.
    for (const record of sent) {
      const seqs = seqsOf.get(record.value);
      if (record.key && seqs && seqs.size > 1) {
        found.appliedTwice.push({
          profile: profile.id,
          value: record.value,
          answers: attemptsText(record),
          seqs: [...seqs],
        });
      }
    }

    // 3. In the order of application, a value after a higher one (the 202s' order is the
    // values' order, since a profile's next value is sent after the previous one's answer).
    let highest = null;
    for (const entry of profile.applied) {
      if (highest && num(entry.value) < num(highest.value)) {
        const record = byValue.get(entry.value);
        found.outOfOrder.push({
          profile: profile.id,
          value: entry.value,
          seq: entry.seq,
          after: highest.value,
          afterSeq: highest.seq,
          answers: record ? attemptsText(record) : 'not sent by this run',
          outcome: record?.outcome,
        });
      }
      if (!highest || num(entry.value) > num(highest.value)) highest = entry;
    }

    // 4. GET's value is older than the last value answered 202.
    const lastAccepted = sent
      .filter((r) => r.outcome === 'accepted')
      .sort((a, b) => a.acceptOrder - b.acceptOrder)
      .pop();
    if (lastAccepted && !(num(profile.final) >= lastAccepted.n)) {
      found.finalOlder.push({
        profile: profile.id,
        final: profile.final,
        last202: lastAccepted.value,
      });
    }

    // 5. Answered 202, never applied.
    for (const record of sent) {
      if (record.outcome === 'accepted' && !seqsOf.has(record.value)) {
        found.lost.push({
          profile: profile.id,
          value: record.value,
          behaviour: record.behaviour,
          answers: attemptsText(record),
        });
      }
    }

    // Extra: once Complete, GET and history agree (docs/profile-data-api.md, History/Design).
    const last = profile.applied[profile.applied.length - 1];
    if (last && last.value !== profile.final) {
      found.getVsHistory.push({
        profile: profile.id,
        final: profile.final,
        historyLast: last.value,
      });
    }

    // Extra: searches find the profile by its current name and not by its first one.
    if (profile.foundByName === false || profile.foundByOldName === true) {
      found.searchByName.push({
        profile: profile.id,
        final: profile.final,
        foundByCurrent: profile.foundByName,
        foundByV0: profile.foundByOldName,
      });
    }

    // Note: the History route's answer against the stored entries in application order.
    const appliedValues = profile.applied.map((e) => e.value);
    if (appliedValues.join() !== profile.routeValues.join()) {
      notes.routeDiffers.push({
        profile: profile.id,
        route: profile.routeValues.length,
        stored: appliedValues.length,
        firstDifference: firstDifference(profile.routeValues, appliedValues),
      });
    }
  }
  return { found, notes };
}

function firstDifference(a, b) {
  const i = a.findIndex((v, k) => v !== b[k]);
  const at = i === -1 ? Math.min(a.length, b.length) : i;
  return { index: at, route: a.slice(at, at + 3), stored: b.slice(at, at + 3) };
}

/** Counts of answers by status over every attempt ("dropped(CODE)" when none came). */
function answerCounts(values) {
  const counts = {};
  for (const record of values) {
    for (const a of record.attempts) {
      const key = a.status !== undefined ? String(a.status) : `${a.error}(${a.code})`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  return counts;
}

/** Values by behaviour and outcome. */
function outcomeCounts(values) {
  const counts = {};
  for (const record of values) {
    const row = (counts[record.behaviour] ??= { accepted: 0, refused: 0, unknown: 0 });
    row[record.outcome]++;
  }
  return counts;
}

module.exports = { CHECKS, runChecks, answerCounts, outcomeCounts, num };
