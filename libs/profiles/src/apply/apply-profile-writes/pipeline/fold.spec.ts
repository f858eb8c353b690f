import { CONSENT_PROFILE_RULES } from '@app/consents/profile-rules/consent-profile-rules';
import { PREFERENCE_PROFILE_RULES } from '@app/preferences/profile-rules/preference-profile-rules';
import { TenantScopedModel } from '@app/shared';
import { ProfileRules } from '../../../domain/profile-rules';
import { PermanentWriteError } from '../../../domain/profile-transition';
import type { ProfileTypeKind, ProfileVocabulary } from '../../../domain/profile-vocabulary';
import type { ProfileWrite, ProfileWriteKind } from '../../../domain/profile-write.schema';
import type { Profile } from '../../../domain/profile.schema';
import { historyPageKey, profileKey, writeKey } from '../../../keys';
import { ProfileEventRepository } from '../../../persistence/profile-event.repository';
import {
  decodeHistoryEntries,
  type ProfileHistory,
  type ProfileHistoryDoc,
} from '../../../domain/profile-history.schema';
import { ProfileHistoryRepository } from '../../../persistence/profile-history.repository';
import { ProfileEventRecorder } from '../../profile-event-recorder.service';
import { foldAll, type FoldContext, foldWrite, skipWrite } from './fold';
import { RecordStage, trustedTail } from './record.stage';
import { EMAIL_PROGRAM_VOCABULARY } from '../../../testing';

/*
 * One pass over a profile's writes must leave exactly what applying them one at a time
 * left (the handler before passes): the same profile, history pages, events and failures.
 * The writes are random (seedable: FOLD_SEED=<n> replays one sequence), with the real
 * consent and preference rule modules; the engine is an in-memory store of documents by
 * `_id` behind the real repositories.
 */

const RULES = new ProfileRules([CONSENT_PROFILE_RULES, PREFERENCE_PROFILE_RULES]);
const NOW = new Date('2026-02-10T00:00:00.000Z');
const LATER = new Date('2026-03-01T00:00:00.000Z');
const CLIENT = 'c1';
const PROFILE = 7;

function vocabulary(): ProfileVocabulary {
  const types: Record<string, { IsActive: boolean }> = {
    'CustomerTypes:customer': { IsActive: true },
    'EmailTypes:personal': { IsActive: true },
  };
  const consents = ['marketing', 'terms'];
  return {
    type: (kind: ProfileTypeKind, name: string) => types[`${kind}:${name.toLowerCase()}`],
    renamedConsentTypes: false,
    consentTypeName: (name: string) =>
      consents.includes(name.toLowerCase()) ? name[0].toUpperCase() + name.slice(1) : undefined,
    consentType: (name: string) =>
      consents.includes(name.toLowerCase())
        ? { IsActive: true, Versions: [{ ConsentVersion: '1.0', IsActive: true }] }
        : undefined,
    customField: (name: string) => (name.toLowerCase() === 'tier' ? { IsActive: true } : undefined),
    // A value outside the picklist refuses the write (a failure in the middle of a pass).
    checkCustomFieldValue: (name, value) =>
      value !== null && !['Gold', 'Silver'].includes(value) ? `"${value}" not allowed` : null,
    requiredCustomFields: () => [],
    consentTypesWithAttributes: () => [],
    ...EMAIL_PROGRAM_VOCABULARY,
  };
}

/** Mulberry32: a small seedable generator. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A create, then `count` random merges, overwrites, patches, consents and preferences. */
function randomWrites(seed: number, count: number): ProfileWrite[] {
  const next = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  const bodies: [ProfileWriteKind, () => object][] = [
    ['merge', () => ({ CustomerName: { FirstName: pick(['Ann', 'Bo', 'Cy']) } })],
    ['merge', () => ({ CustomFields: [{ Name: 'Tier', Value: pick(['Gold', 'Silver', 'Tin']) }] })],
    [
      'merge',
      () => ({
        Consents: [
          {
            ConsentType: pick(['Marketing', 'Terms']),
            ConsentVersion: '1.0',
            ConsentStatus: pick([1, 3]),
          },
        ],
      }),
    ],
    [
      'merge',
      () => ({
        Emails: [
          {
            EmailAddress: 'a@b.io',
            EmailPreferences: [
              { ProgramId: '1', ChannelId: 'Email', FilterId: '10', PreferenceType: pick([1, 2]) },
            ],
          },
        ],
      }),
    ],
    ['merge', () => ({ ProfileTags: [{ Name: pick(['vip', 'new', 'old']) }] })],
    [
      'overwrite',
      () => ({
        CustomerType: 'Customer',
        CustomerName: { LastName: pick(['Lee', 'Ng']) },
        ProfileTags: [{ Name: pick(['vip', 'new']) }],
      }),
    ],
    [
      'patch',
      () => ({
        Operations: [{ op: 'add', path: '/DefaultLocale', value: pick(['fr-ca', 'it-it']) }],
      }),
    ],
  ];
  const writes = [
    write(1, 'create', { CustomerType: 'Customer', CustomerName: { FirstName: 'Zed' } }),
  ];
  for (let seq = 2; seq <= count + 1; seq++) {
    const [kind, body] = pick(bodies);
    writes.push(write(seq, kind, body()));
  }
  // Half of the sequences delete the profile near their end (the writes after it fail).
  if (next() < 0.5) writes[count - 3] = write(count - 2, 'delete', {});
  return writes;
}

function write(seq: number, kind: ProfileWriteKind, body: object): ProfileWrite {
  return {
    _id: writeKey(CLIENT, PROFILE, seq),
    clientId: CLIENT,
    profileId: PROFILE,
    seq,
    kind,
    body: JSON.stringify(body),
    userId: 'alice',
    acceptedAt: new Date(Date.parse('2026-02-01T00:00:00.000Z') + seq * 1000),
    status: 'pending',
    attempts: 0,
  };
}

const SHELL: Profile = {
  _id: profileKey(CLIENT, PROFILE),
  clientId: CLIENT,
  profileId: PROFILE,
  state: 'pending',
  appliedSeq: 0,
};

/** Documents by `_id`, as the engine keeps them (a model and its driver collection). */
function memoryModel() {
  const docs = new Map<string, Record<string, unknown>>();
  const copy = <T>(value: T): T => structuredClone(value);
  /** `$set` of top-level fields and of array elements by position (`entries.3`). */
  const setFields = (doc: Record<string, unknown>, fields: Record<string, unknown>) => {
    for (const [path, value] of Object.entries(fields)) {
      const [field, position] = path.split('.');
      if (position === undefined) doc[field] = copy(value);
      else (doc[field] as unknown[])[Number(position)] = copy(value);
    }
  };
  type BulkOp =
    | { replaceOne: { filter: { _id: string }; replacement: Record<string, unknown> } }
    | { updateOne: { filter: { _id: string }; update: { $set: Record<string, unknown> } } };
  const collection = {
    findOne: async (filter: { _id: string }) => copy(docs.get(filter._id) ?? null),
    insertMany: async (items: { _id: string }[]) => {
      const writeErrors: { index: number; code: number }[] = [];
      items.forEach((item, index) => {
        if (docs.has(item._id)) writeErrors.push({ index, code: 11000 });
        else docs.set(item._id, copy(item));
      });
      if (writeErrors.length) throw Object.assign(new Error('duplicate'), { writeErrors });
    },
    replaceOne: async (filter: { _id: string }, doc: Record<string, unknown>) =>
      void docs.set(filter._id, copy(doc)),
    deleteOne: async (filter: { _id: string }) => ({
      deletedCount: docs.delete(filter._id) ? 1 : 0,
    }),
    bulkWrite: async (ops: BulkOp[]) => {
      let matchedCount = 0;
      let upsertedCount = 0;
      for (const op of ops) {
        if ('replaceOne' in op) {
          const { filter, replacement } = op.replaceOne;
          if (docs.has(filter._id)) matchedCount++;
          else upsertedCount++;
          docs.set(filter._id, copy({ ...replacement, _id: filter._id }));
        } else {
          const doc = docs.get(op.updateOne.filter._id);
          if (!doc) continue;
          matchedCount++;
          setFields(doc, op.updateOne.update.$set);
        }
      }
      return { matchedCount, upsertedCount };
    },
  };
  const model = {
    findById: (id: string) => ({ lean: () => ({ exec: async () => copy(docs.get(id) ?? null) }) }),
    replaceOne: collection.replaceOne,
    deleteOne: collection.deleteOne,
    collection,
  };
  return { docs, model: model as never };
}

/** The history pages' counted entries by page `_id` (an empty page as none). */
function pageEntries(pages: Map<string, Record<string, unknown>>): Map<string, ProfileHistory[]> {
  const counted = new Map<string, ProfileHistory[]>();
  for (const [id, doc] of pages) {
    const entries = decodeHistoryEntries(doc as unknown as ProfileHistoryDoc);
    if (entries.length) counted.set(id, entries);
  }
  return counted;
}

interface Outcome {
  profile: Profile;
  pages: Map<string, ProfileHistory[]>;
  events: Map<string, unknown>;
  failures: Map<number, string>;
}

function stores() {
  const pages = memoryModel();
  const events = memoryModel();
  return {
    pages,
    events,
    history: new ProfileHistoryRepository(new TenantScopedModel(pages.model)),
    eventRepository: new ProfileEventRepository(new TenantScopedModel(events.model)),
  };
}

const CTX: FoldContext = { vocabulary: vocabulary(), rules: RULES, now: NOW };

/**
 * The pipeline's way: fold up to `size` writes, then the record stage, per pass. With
 * `tail` 'absent', each pass starts from a profile without its last page's count, so the
 * record stage reads and replaces the page (a profile saved before the count was kept);
 * with 'stale', from a wrong count saved by an earlier save than the profile's last (as a
 * worker of an older version leaves it), which must not be trusted either.
 */
async function inPasses(
  writes: ProfileWrite[],
  size: number,
  now: Date,
  tail: 'kept' | 'absent' | 'stale' = 'kept',
): Promise<Outcome> {
  const ctx = { ...CTX, now };
  const { pages, events, history, eventRepository } = stores();
  const failures = new Map<number, string>();
  const records = {
    markFailed: async (id: string, reason: string) =>
      void failures.set(Number(id.split('|').pop()), reason),
  };
  const crashPoints = { at: async () => undefined };
  const record = new RecordStage(records as never, history, eventRepository, crashPoints as never);
  let profile = SHELL;
  for (let at = 0; at < writes.length;) {
    if (tail === 'absent') delete profile.historyTail;
    if (tail === 'stale') profile.historyTail = { seq: profile.appliedSeq - 1, entries: 0 };
    const { profile: end, steps } = foldAll(profile, writes.slice(at, at + size), ctx);
    profile = structuredClone(await record.run(profile, end, steps));
    at += steps.length;
  }
  return { profile, pages: pageEntries(pages.docs), events: events.docs, failures };
}

/** The handler before passes: each write applied, recorded and saved alone. */
async function oneAtATime(writes: ProfileWrite[], now: Date): Promise<Outcome> {
  const ctx = { ...CTX, now };
  const { pages, events, history, eventRepository } = stores();
  const recorder = new ProfileEventRecorder(eventRepository, { now: () => now } as never);
  const failures = new Map<number, string>();
  let profile = SHELL;
  for (const each of writes) {
    let next: Profile;
    try {
      const folded = foldWrite(profile, each, ctx);
      next = folded.next;
      const counted = await history.recordPass(
        CLIENT,
        PROFILE,
        { pages: profile.historyPages ?? 0, tail: trustedTail(profile) },
        { fromSeq: each.seq, toSeq: each.seq, entries: folded.entries, erases: false },
        { lastWriteFailed: profile.lastFailure?.seq === profile.appliedSeq },
      );
      if (each.kind !== 'erase') {
        next.historyPages = counted.pages;
        if (counted.tail !== undefined)
          next.historyTail = { seq: next.appliedSeq, entries: counted.tail };
      }
      const deletes = next.state === 'deleted' && profile.state !== 'deleted';
      if (deletes) await recorder.eraseBefore(profile, each.seq);
      next.eventLog = await recorder.record(
        deletes ? { ...profile, eventLog: undefined } : profile,
        each,
        folded.events,
      );
    } catch (error) {
      if (!(error instanceof PermanentWriteError)) throw error;
      await history.eraseWrite(CLIENT, PROFILE, profile.historyPages ?? 0, each.seq);
      await recorder.eraseWrite(each);
      failures.set(each.seq, error.message);
      next = skipWrite(profile, each, error.message, now);
    }
    profile = structuredClone(next);
  }
  return { profile, pages: pageEntries(pages.docs), events: events.docs, failures };
}

const SEEDS = process.env.FOLD_SEED
  ? [Number(process.env.FOLD_SEED)]
  : Array.from({ length: 12 }, (_, k) => 1000 + k);

describe('applying writes in one pass equals applying them one at a time', () => {
  it.each(SEEDS)('random writes, seed %i', async (seed) => {
    // Events kept (within EVENT_HISTORY_DAYS of their writes), or dropped at once (past it).
    const now = seed % 3 ? NOW : LATER;
    const writes = randomWrites(seed, 60);
    const expected = await oneAtATime(writes, now);
    // The sequences do refuse writes in the middle (a custom field value not allowed).
    expect(expected.failures.size).toBeGreaterThan(0);
    expect(expected.pages.size).toBeGreaterThan(1);
    if (now === NOW) expect(expected.events.size).toBeGreaterThan(0);
    // Consent and preference entries are linked into the receipt chain.
    expect(JSON.stringify([...expected.pages.values()])).toContain('prevHash');
    for (const [size, tail] of [
      [100, 'kept'],
      [7, 'kept'],
      [1, 'kept'],
      [7, 'absent'],
      [3, 'stale'],
    ] as const) {
      const actual = await inPasses(writes, size, now, tail);
      // The last page's count may be known by one way and not the other (a refused write
      // leaves it untrusted one at a time; a pass that erases reads it): when trusted, it is
      // the last page's.
      const withoutTail = ({ historyTail: _tail, ...rest }: Profile) => rest;
      expect(withoutTail(actual.profile)).toEqual(withoutTail(expected.profile));
      const trusted = trustedTail(actual.profile);
      if (trusted !== undefined) {
        const lastPage = historyPageKey(CLIENT, PROFILE, actual.profile.historyPages! - 1);
        expect(trusted).toBe(actual.pages.get(lastPage)?.length ?? 0);
      }
      expect(actual.pages).toEqual(expected.pages);
      expect(actual.events).toEqual(expected.events);
      expect(actual.failures).toEqual(expected.failures);
    }
  });

  it('folds a delete as the last write of its pass', () => {
    const writes = [
      write(1, 'create', { CustomerType: 'Customer' }),
      write(2, 'merge', { CustomerName: { FirstName: 'A' } }),
      write(3, 'delete', {}),
      write(4, 'merge', { CustomerName: { FirstName: 'B' } }),
    ];
    const { steps, profile } = foldAll(SHELL, writes, CTX);
    expect(steps.map((step) => step.write.seq)).toEqual([1, 2, 3]);
    expect(profile.state).toBe('deleted');
    expect(foldAll(profile, writes.slice(3), CTX).steps[0].failure).toBeDefined();
  });
});
