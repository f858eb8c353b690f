import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { tenantKey } from '@app/shared';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import {
  type ConsentReceipt,
  parseSigningKey,
  receiptProblems,
} from '../../libs/consents/src/receipts/domain/receipt';
import type { StoredConsent } from '../../libs/profiles/src/domain/profile-data.schema';

type Entry = Record<string, any>;

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'scripts/verify-receipt.js');

/** Runs the CLI as a user would (plain node), on files written to a temporary folder. */
function cli(...args: string[]): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

/**
 * Consent receipts (docs/receipts.md): a profile's consent and preference history entries
 * form a hash chain; a receipt of one is signed (Ed25519) and verifies offline, by the
 * service's code and by `npm run verify-receipt`; tampering with a stored entry is found by
 * GET .../ConsentChain and by the CLI over the profile's export.
 */
describe('Consent receipts', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  let dir: string;
  const base = (t: TestTenant = tenant) => `/Profiles/v4/${t.clientId}/Profile`;
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  const get = (path: string, authorization = auth, t: TestTenant = tenant) =>
    request(app.http)
      .get(`${base(t)}/${path}`)
      .set('Authorization', authorization);

  const complete = (profileId: number) =>
    eventually(async () => {
      const res = await get(String(profileId));
      return res.body.UpdateStatus === 'Complete' ? true : undefined;
    });

  /** A profile after three writes changing consents and preferences; returns its id. */
  async function profileWithChanges(): Promise<number> {
    const solicit = programs.newsletter.solicit;
    const email = programs.newsletter.email;
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
        Consents: [
          { ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 },
          { ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 },
        ],
        ProfilePreferences: [testPreference(solicit)],
        Emails: [
          {
            EmailAddress: 'ann@example.com',
            EmailAddressType: 'Personal',
            Consents: [{ ConsentType: 'Email', ConsentVersion: '1.0', ConsentStatus: 1 }],
            EmailPreferences: [testPreference(email)],
          },
        ],
      })
      .expect(202);
    const id = created.body.ProfileId as number;
    await complete(id);
    const merges = [
      { Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }], CustomerName: { FirstName: 'A' } },
      {
        ProfilePreferences: [testPreference(solicit, { PreferenceType: 2 })],
        Emails: [
          {
            EmailAddress: 'ann@example.com',
            Consents: [{ ConsentType: 'Email', ConsentStatus: 3 }],
          },
        ],
      },
      { Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }] },
    ];
    for (const body of merges) {
      await request(app.http)
        .post(`${base()}/${id}`)
        .set('Authorization', auth)
        .send(body)
        .expect(202);
      await complete(id);
    }
    return id;
  }

  const receiptsOf = async (id: number): Promise<Entry[]> =>
    (await get(`${id}/ConsentReceipts`).expect(200)).body.Entries as Entry[];

  const receiptKeys = async () =>
    (await request(app.http).get('/Profiles/v4/ReceiptKeys').expect(200)).body as {
      keys: Entry[];
    };

  const db = () => app.api.get<Connection>(getConnectionToken()).db!;

  /** The profile's stored history pages, decoded (what an export holds as History). */
  async function storedEntries(id: number): Promise<Entry[]> {
    const entries: Entry[] = [];
    for (let page = 0; ; page++) {
      const doc = await db()
        .collection('profile_history')
        .findOne({ _id: tenantKey(tenant.clientId, id, `p${page}`) } as object);
      if (!doc) break;
      for (const entry of doc.entries as unknown[]) {
        entries.push(typeof entry === 'string' ? JSON.parse(entry) : (entry as Entry));
      }
    }
    return entries.sort((a, b) => a.seq - b.seq || a.n - b.n);
  }

  /** Rewrites the stored entry `<seq>.<n>` with `change` (a tamperer with engine access). */
  async function tamper(id: number, entryId: string, change: (entry: Entry) => Entry | null) {
    for (let page = 0; ; page++) {
      const _id = tenantKey(tenant.clientId, id, `p${page}`);
      const doc = await db()
        .collection('profile_history')
        .findOne({ _id } as object);
      if (!doc) throw new Error(`entry ${entryId} not found`);
      const entries = (doc.entries as string[]).map((text) => JSON.parse(text) as Entry);
      const at = entries.findIndex((entry) => `${entry.seq}.${entry.n}` === entryId);
      if (at < 0) continue;
      const changed = change(entries[at]);
      if (changed) entries[at] = changed;
      else entries.splice(at, 1);
      await db()
        .collection('profile_history')
        .updateOne({ _id } as object, {
          $set: { entries: entries.map((entry) => JSON.stringify(entry)) },
        });
      return;
    }
  }

  /**
   * The profile's export: the data-subject export route when it answers, else an export-like
   * file built from the stored pages (ClientId, ProfileId, History in (seq, n) order).
   */
  async function exportOf(id: number): Promise<Entry> {
    const res = await get(`${id}/Export`).buffer(true);
    if (res.status === 200) {
      const body =
        typeof res.body === 'object' && res.body.History ? res.body : JSON.parse(res.text);
      if (Array.isArray(body.History)) return body as Entry;
    }
    return { ClientId: tenant.clientId, ProfileId: id, History: await storedEntries(id) };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'receipts-'));
    app = await startTestApp();
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('chains the consent and preference entries, and a receipt of one verifies in-process and with the CLI', async () => {
    const id = await profileWithChanges();
    const listed = await receiptsOf(id);
    // Create: Terms, Marketing, the email's consent, two preferences; then Terms revoked,
    // the solicit preference and the email consent changed, Terms granted again.
    expect(listed.map((entry) => entry.Category)).toEqual(
      expect.arrayContaining(['consent', 'preference']),
    );
    expect(listed.length).toBeGreaterThanOrEqual(8);
    const stored = (await storedEntries(id)).filter((entry) =>
      ['consent', 'preference'].includes(entry.category),
    );
    expect(listed.map((entry) => entry.EntryId)).toEqual(
      stored.map((entry) => `${entry.seq}.${entry.n}`),
    );
    expect(stored[0].prevHash).toBeNull();
    for (let k = 1; k < stored.length; k++) expect(stored[k].prevHash).toBe(stored[k - 1].hash);
    // Entries of other categories are not chained.
    for (const entry of (await storedEntries(id)).filter((e) => e.category === 'standard')) {
      expect(entry).not.toHaveProperty('hash');
    }

    const last = listed[listed.length - 1];
    expect(last).toMatchObject({ Category: 'consent', ConsentType: 'Terms' });
    const res = await get(`${id}/ConsentReceipts/${last.EntryId}`).expect(200);
    const receipt = res.body as ConsentReceipt;
    expect(receipt.Receipt).toMatchObject({
      Version: 1,
      ClientId: tenant.clientId,
      ProfileId: id,
      EntryId: last.EntryId,
      Category: 'consent',
      EntryHash: last.Hash,
      ChainPosition: listed.length,
      SignatureAlgorithm: 'Ed25519',
    });
    expect(receipt.Entry.snapshot).toMatchObject({ ConsentType: 'Terms', ConsentStatus: 1 });
    expect(receipt.Proof).toHaveLength(listed.length - 1);

    // The public keys: unauthenticated, a JWK set holding the receipt's key.
    const keys = await receiptKeys();
    expect(keys.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(keys.keys.map((key) => key.kid)).toContain(receipt.Receipt.KeyId);
    expect(receipt.PublicKey).toEqual(keys.keys[0]);

    // In-process, against the pinned keys.
    expect(receiptProblems(receipt, keys.keys as never)).toEqual([]);

    // The CLI, with the pinned keys, through npm as documented, and from the receipt alone.
    const receiptFile = file('receipt.json', res.text);
    const keysFile = file('keys.json', keys);
    const pinned = cli(receiptFile, '--key', keysFile);
    expect(pinned).toMatchObject({ status: 0 });
    expect(pinned.out).toContain(`OK: receipt of entry ${last.EntryId} of profile ${id}`);
    const npm = spawnSync(
      'npm',
      ['run', '-s', 'verify-receipt', '--', receiptFile, '--key', keysFile],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(npm.status).toBe(0);
    expect(npm.stdout).toContain('OK: receipt');
    const alone = cli(receiptFile);
    expect(alone.status).toBe(0);
    expect(alone.out).toContain('warning: no --key given');

    // A receipt of an earlier preference change verifies too.
    const preference = listed.find((entry) => entry.Category === 'preference')!;
    const early = await get(`${id}/ConsentReceipts/${preference.EntryId}`).expect(200);
    expect(cli(file('early.json', early.text), '--key', keysFile).status).toBe(0);
  });

  it('a receipt whose signature, statement, entry or key is not the signed one fails', async () => {
    const id = await profileWithChanges();
    const [first, second] = await receiptsOf(id);
    const res = await get(`${id}/ConsentReceipts/${second.EntryId}`).expect(200);
    const keysFile = file('keys2.json', await receiptKeys());
    const original = res.body as ConsentReceipt;
    const copy = () => JSON.parse(res.text) as ConsentReceipt;

    const signature = copy();
    const bytes = Buffer.from(signature.Signature, 'base64url');
    bytes[0] ^= 0xff;
    signature.Signature = bytes.toString('base64url');
    const statement = copy();
    statement.Receipt.IssuedAt = '2020-01-01T00:00:00.000Z';
    const entry = copy();
    const consent = entry.Entry.snapshot as StoredConsent;
    consent.ConsentStatus = consent.ConsentStatus === 1 ? 3 : 1;
    const proof = copy();
    (proof.Proof[0] as Entry).modifiedAt = '2020-01-01T00:00:00.000Z';
    expect(proof.Proof[0]).toMatchObject({ seq: Number(first.EntryId.split('.')[0]) });

    const keys = (await receiptKeys()).keys as never;
    expect(receiptProblems(original, keys)).toEqual([]);
    for (const [name, tampered, expected] of [
      ['signature', signature, 'the signature does not verify'],
      ['statement', statement, 'the signature does not verify'],
      ['entry', entry, `entry ${second.EntryId}: content-hash-mismatch`],
      ['proof', proof, `entry ${first.EntryId}: content-hash-mismatch`],
    ] as const) {
      expect(receiptProblems(tampered, keys).length).toBeGreaterThan(0);
      const run = cli(file(`tampered-${name}.json`, tampered), '--key', keysFile);
      expect(run.status).toBe(1);
      expect(run.out).toContain('FAILED');
      expect(run.out).toContain(expected);
    }

    // Another key (not the service's) is not trusted, whatever kid its file claims.
    const stranger = parseSigningKey(
      generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    );
    const strangerFile = file('stranger.json', {
      keys: [{ ...stranger.jwk, kid: original.Receipt.KeyId }],
    });
    const run = cli(file('original.json', res.text), '--key', strangerFile);
    expect(run.status).toBe(1);
    expect(run.out).toContain("no trusted key has the receipt's KeyId");
  });

  it('finds a stored entry edited in the engine: the verification endpoint and the CLI over the export', async () => {
    const id = await profileWithChanges();
    const report = await get(`${id}/ConsentChain`).expect(200);
    const listed = await receiptsOf(id);
    expect(report.body).toEqual({
      ProfileId: id,
      Ok: true,
      Chained: listed.length,
      Unchained: 0,
      Head: listed[listed.length - 1].Hash,
      SavedHead: listed[listed.length - 1].Hash,
      Problems: [],
      Absorbed: [],
    });
    const clean = cli(file(`export-${id}.json`, await exportOf(id)));
    expect(clean.status).toBe(0);
    expect(clean.out).toContain(`OK: hash chain of profile ${id}`);

    // A Revoked consent rewritten as Granted, straight in the engine.
    const revoked = (await storedEntries(id)).find(
      (entry) => entry.category === 'consent' && entry.snapshot.ConsentStatus === 3,
    )!;
    const target = `${revoked.seq}.${revoked.n}`;
    await tamper(id, target, (entry) => ({
      ...entry,
      snapshot: { ...entry.snapshot, ConsentStatus: 1 },
    }));

    const flagged = await get(`${id}/ConsentChain`).expect(200);
    expect(flagged.body.Ok).toBe(false);
    expect(flagged.body.Problems).toEqual([
      expect.objectContaining({ EntryId: target, Reason: 'content-hash-mismatch' }),
    ]);
    const run = cli(file(`export-${id}-tampered.json`, await exportOf(id)));
    expect(run.status).toBe(1);
    expect(run.out).toContain(`entry ${target}: content-hash-mismatch`);

    // The service signs nothing over a chain that fails: 409 naming the entry.
    const last = listed[listed.length - 1];
    const refused = await get(`${id}/ConsentReceipts/${last.EntryId}`).expect(409);
    expect(refused.body.Message).toContain(`fails at entry ${target}`);
  });

  it('finds the last chained entry cut off (the saved head) and a rewritten hash (the next link)', async () => {
    const id = await profileWithChanges();
    const listed = await receiptsOf(id);
    const [, middle] = listed;
    const last = listed[listed.length - 1];
    // A tamperer who recomputes the entry's own hash is found by the next entry's link.
    const { historyEntryHash } = await import('../../libs/profiles/src/domain/history-chain');
    await tamper(id, middle.EntryId, (entry) => {
      const changed = { ...entry, modifiedAt: '2020-01-01T00:00:00.000Z' };
      return { ...changed, hash: historyEntryHash(changed) };
    });
    await tamper(id, last.EntryId, () => null);
    const report = (await get(`${id}/ConsentChain`).expect(200)).body;
    expect(report.Ok).toBe(false);
    expect(report.Problems).toEqual([
      expect.objectContaining({ EntryId: listed[2].EntryId, Reason: 'broken-link' }),
      expect.objectContaining({ Reason: 'head-mismatch' }),
    ]);
    expect(report.SavedHead).toBe(last.Hash);
  });

  it("chains a bulk import's new profiles (the import's fast path), and their later writes after them", async () => {
    const crm = `R-${Date.now().toString(36)}`;
    const bulk = `/Profiles/v4/${tenant.clientId}/Bulk/Import`;
    const initiated = await request(app.http)
      .post(bulk)
      .set('Authorization', auth)
      .send({ Name: 'Receipts', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM' })
      .expect(201);
    const token = initiated.body.AccessToken as number;
    await request(app.http)
      .post(`${bulk}/${token}/Stage`)
      .set('Authorization', auth)
      .send([
        {
          CustomerType: 'Customer',
          AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: crm }],
          Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
          ProfilePreferences: [testPreference(programs.newsletter.solicit)],
        },
      ])
      .expect((res) => expect(res.status).toBeLessThan(300));
    await request(app.http)
      .post(`${bulk}/${token}/Execute`)
      .set('Authorization', auth)
      .expect((res) => expect(res.status).toBeLessThan(300));
    const id = await eventually(async () => {
      const res = await request(app.http)
        .get(`${base()}/AlternateId?alternateIdType=CRM&alternateId=${crm}`)
        .set('Authorization', auth);
      return res.status === 200 && res.body.UpdateStatus === 'Complete'
        ? (res.body.ProfileId as number)
        : undefined;
    });
    const imported = (await get(`${id}/ConsentChain`).expect(200)).body;
    expect(imported).toMatchObject({ Ok: true, Chained: 2, Unchained: 0, Problems: [] });
    expect(imported.SavedHead).toBe(imported.Head);
    expect(imported.Head).toEqual(expect.any(String));

    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] })
      .expect(202);
    await complete(id);
    const after = (await get(`${id}/ConsentChain`).expect(200)).body;
    expect(after).toMatchObject({ Ok: true, Chained: 3, Problems: [] });
    const [, , added] = await receiptsOf(id);
    const receipt = (await get(`${id}/ConsentReceipts/${added.EntryId}`).expect(200)).body;
    expect(receipt.Entry.prevHash).toBe(imported.Head);
  });

  it('keeps tenants apart and refuses a malformed or unknown entry id', async () => {
    const id = await profileWithChanges();
    const [entry] = await receiptsOf(id);
    const otherAuth = await other.bearer();
    // Another client's caller, on its own client's path: no such profile there.
    for (const path of [
      `${id}/ConsentReceipts/${entry.EntryId}`,
      `${id}/ConsentChain`,
      `${id}/ConsentReceipts`,
    ]) {
      await get(path, otherAuth, other).expect(404);
      // And on this client's path: the client is unknown to it.
      await get(path, otherAuth, tenant).expect(404);
    }
    const bad = await get(`${id}/ConsentReceipts/abc`).expect(400);
    expect(bad.body.Message).toContain('entryId');
    expect(bad.body.Message).toContain('"abc"');
    // The profile's create recorded its standard fields as entry 1.0: not a chained entry.
    const unchained = await get(`${id}/ConsentReceipts/1.0`).expect(404);
    expect(unchained.body.Message).toContain('1.0');
    await get(`${id}/ConsentReceipts/99.0`).expect(404);
    await get(`${id + 1000}/ConsentChain`).expect(404);
  });
});
