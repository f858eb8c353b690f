import { spawnSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import {
  type ConsentReceipt,
  receiptProblems,
} from '../../libs/consents/src/receipts/domain/receipt';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'scripts/verify-receipt.js');

/**
 * RECEIPT_SIGNING_KEY set (docs/receipts.md, "The key"): receipts are signed with that key,
 * ReceiptKeys serves its public half, and a verifier holding only the operator's public key
 * (a PEM, as an operator would publish it) accepts the receipt.
 */
describe('Consent receipts signed with a configured key', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let dir: string;
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const strangerKey = generateKeyPairSync('ed25519').publicKey;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'receipt-key-'));
    app = await startTestApp({
      env: {
        RECEIPT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs receipts with the configured key, serves its public half, and the CLI accepts it with that PEM only', async () => {
    const auth = await tenant.bearer();
    const base = `/Profiles/v4/${tenant.clientId}/Profile`;
    const created = await request(app.http)
      .post(base)
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        CustomerName: { FirstName: 'Kim' },
        Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
      })
      .expect(202);
    const id = created.body.ProfileId as number;
    const entries = await eventually(async () => {
      const res = await request(app.http)
        .get(`${base}/${id}/ConsentReceipts`)
        .set('Authorization', auth);
      return res.status === 200 && res.body.Entries?.length
        ? (res.body.Entries as any[])
        : undefined;
    });
    const res = await request(app.http)
      .get(`${base}/${id}/ConsentReceipts/${entries[0].EntryId}`)
      .set('Authorization', auth)
      .expect(200);
    const receipt = res.body as ConsentReceipt;

    // The served key is the configured key's public half (same x), named by the receipt.
    const keys = (await request(app.http).get('/Profiles/v4/ReceiptKeys').expect(200)).body
      .keys as Array<Record<string, string>>;
    const configured = publicKey.export({ format: 'jwk' }) as Record<string, string>;
    const served = keys.find((key) => key.kid === receipt.Receipt.KeyId);
    expect(served).toMatchObject({ kty: 'OKP', crv: 'Ed25519', x: configured.x });
    expect(receiptProblems(receipt, keys as never)).toEqual([]);

    // Offline, with only the operator's public key as a PEM file: accepted; another key: refused.
    const receiptFile = join(dir, 'receipt.json');
    writeFileSync(receiptFile, res.text);
    const pem = (key: ReturnType<typeof createPublicKey>, name: string) => {
      const path = join(dir, name);
      writeFileSync(path, key.export({ format: 'pem', type: 'spki' }).toString());
      return path;
    };
    const ok = spawnSync(process.execPath, [CLI, receiptFile, '--key', pem(publicKey, 'op.pem')], {
      encoding: 'utf8',
    });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('OK: receipt');
    const wrong = spawnSync(
      process.execPath,
      [CLI, receiptFile, '--key', pem(strangerKey, 'stranger.pem')],
      { encoding: 'utf8' },
    );
    expect(wrong.status).toBe(1);
  });
});
