import { generateKeyPairSync } from 'node:crypto';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import request from 'supertest';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

type Json = Record<string, any>;

/**
 * Standard receipts (docs/receipts.md, "Standard receipts"): any consent history entry as a
 * Kantara Consent Receipt v1.1 and as an ISO/IEC TS 27560 record (JSON-LD, DPV), each a
 * compact JWS that the `jose` library verifies against the served key set, and refuses once
 * changed or against another key.
 */
describe('Standard receipts (Kantara v1.1, ISO/IEC TS 27560)', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const get = (path: string) =>
    request(app.http).get(`${base()}/${path}`).set('Authorization', auth);

  const complete = (profileId: number) =>
    eventually(async () => {
      const res = await get(String(profileId));
      return res.body.UpdateStatus === 'Complete' ? true : undefined;
    });

  const servedKeys = async () =>
    (await request(app.http).get('/Profiles/v4/ReceiptKeys').expect(200)).body as JSONWebKeySet;

  const payloadOf = async (jws: string, keys: JSONWebKeySet) =>
    JSON.parse(
      Buffer.from((await compactVerify(jws, createLocalJWKSet(keys))).payload).toString('utf8'),
    ) as Json;

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
    // A consent type whose attributes fill fields the service does not hold otherwise.
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/ConsentTypes`)
      .set('Authorization', auth)
      .send({
        ConsentTypes: [
          {
            TypeName: 'Privacy',
            IsActive: true,
            LocalizedFields: [{ Locale: 'en-us', Name: 'Privacy' }],
            Attributes: [
              { Key: 'Jurisdiction', Value: 'IE' },
              { Key: 'PolicyUrl', Value: 'https://acme.example/privacy' },
            ],
            Versions: [
              {
                ConsentVersion: '2.1',
                LocalizedFields: [
                  {
                    Locale: 'en-us',
                    Name: 'Privacy notice',
                    ConsentLanguage: 'You may use my data.',
                  },
                  {
                    Locale: 'fr',
                    Name: 'Avis',
                    ConsentLanguage: 'Vous pouvez utiliser mes données.',
                  },
                ],
              },
            ],
          },
        ],
      })
      .expect(201);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers a consent entry as a Kantara receipt and an ISO 27560 record, both JWS that jose verifies with the served keys', async () => {
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        DefaultLocale: 'fr-ca',
        CustomerName: { FirstName: 'Ann' },
        Consents: [{ ConsentType: 'Privacy', ConsentVersion: '2.1', ConsentStatus: 1 }],
        ProfilePreferences: [testPreference(programs.newsletter.solicit)],
        Emails: [
          {
            EmailAddress: 'ann@example.com',
            EmailAddressType: 'Personal',
            Consents: [{ ConsentType: 'Email', ConsentVersion: '1.0', ConsentStatus: 1 }],
          },
        ],
      })
      .expect(202);
    const id = created.body.ProfileId as number;
    await complete(id);
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ Consents: [{ ConsentType: 'Privacy', ConsentStatus: 3, SourceId: 'web form' }] })
      .expect(202);
    await complete(id);

    const entries = (await get(`${id}/ConsentReceipts`).expect(200)).body.Entries as Json[];
    const privacy = entries.filter((entry) => entry.ConsentType === 'Privacy');
    expect(privacy).toHaveLength(2);
    const [given, withdrawn] = privacy;
    const keys = await servedKeys();

    // Kantara v1.1: the required fields, filled from the profile, the type, its version.
    const kantara = (await get(`${id}/ConsentReceipts/${given.EntryId}/Kantara`).expect(200))
      .body as Json;
    expect(kantara).toMatchObject({ Format: 'Kantara', EntryId: given.EntryId });
    expect(keys.keys.map((key) => key.kid)).toContain(kantara.KeyId);
    expect(decodeProtectedHeader(kantara.Jws)).toEqual({
      alg: 'EdDSA',
      kid: kantara.KeyId,
      typ: 'JWT',
    });
    const claims = await payloadOf(kantara.Jws, keys);
    expect(claims).toEqual(kantara.Receipt);
    for (const field of [
      'version',
      'jurisdiction',
      'consentTimestamp',
      'collectionMethod',
      'consentReceiptID',
      'language',
      'piiPrincipalId',
      'piiControllers',
      'policyUrl',
      'services',
      'sensitive',
      'spiCat',
    ]) {
      expect(claims).toHaveProperty(field);
    }
    expect(claims).toMatchObject({
      version: 'KI-CR-v1.1.0',
      jurisdiction: 'IE',
      collectionMethod: 'Profiles API',
      language: 'fr-ca',
      piiPrincipalId: String(id),
      piiControllers: [{ piiController: tenant.clientId }],
      policyUrl: 'https://acme.example/privacy',
      services: [
        {
          service: 'Privacy',
          purposes: [{ purpose: 'Vous pouvez utiliser mes données.', consentType: 'EXPLICIT' }],
        },
      ],
      pcp: {
        consentStatus: 'Granted',
        consentVersion: '2.1',
        profileId: id,
        entryId: given.EntryId,
        entryHash: given.Hash,
      },
    });
    expect(Number.isInteger(claims.consentTimestamp)).toBe(true);

    // ISO/IEC TS 27560 (JSON-LD, DPV): the withdrawal is dpv:ConsentWithdrawn.
    const iso = (await get(`${id}/ConsentReceipts/${withdrawn.EntryId}/ISO27560`).expect(200))
      .body as Json;
    expect(decodeProtectedHeader(iso.Jws)).toEqual({
      alg: 'EdDSA',
      kid: iso.KeyId,
      cty: 'ld+json',
    });
    const record = await payloadOf(iso.Jws, keys);
    expect(record).toEqual(iso.Record);
    expect(record).toMatchObject({
      '@type': 'dpv:ConsentRecord',
      'dct:conformsTo': 'https://w3id.org/dpv/schema/dpv-27560#record',
      'dct:source': { 'dct:identifier': withdrawn.EntryId, 'schema:sha256': withdrawn.Hash },
      'dpv:hasDataSubject': { 'dct:identifier': String(id) },
      'dpv:hasJurisdiction': 'loc:IE',
      'dpv:hasNotice': { 'dct:identifier': 'Privacy 2.1', 'dct:language': 'fr-ca' },
      'dpv:hasConsentStatus': {
        '@type': 'dpv:ConsentWithdrawn',
        'dpv:isIndicatedBy': 'dpv:DataSubject',
        'dpv:hasIndicationMethod': 'web form',
      },
    });
    const givenRecord = (await get(`${id}/ConsentReceipts/${given.EntryId}/ISO27560`).expect(200))
      .body as Json;
    expect(givenRecord.Record['dpv:hasConsentStatus']['@type']).toBe('dpv:ConsentGiven');
    // The record id is the entry's: the same for both formats and every issue.
    expect(givenRecord.Record['dct:identifier']).toBe(claims.consentReceiptID);

    // A contact element's consent names the personal data it is about.
    const email = entries.find((entry) => entry.ConsentType === 'Email')!;
    const emailRecord = (await get(`${id}/ConsentReceipts/${email.EntryId}/ISO27560`).expect(200))
      .body as Json;
    expect(emailRecord.Record['dpv:hasProcess']['dpv:hasPersonalData']).toBe('pd:EmailAddress');

    // A changed copy, or another key: refused.
    for (const jws of [kantara.Jws, iso.Jws] as string[]) {
      const [header, payload, signature] = jws.split('.');
      const document = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Json;
      const forged = Buffer.from(
        JSON.stringify({ ...document, piiPrincipalId: '999', 'dct:identifier': 'x' }),
      ).toString('base64url');
      await expect(payloadOf(`${header}.${forged}.${signature}`, keys)).rejects.toThrow(
        'signature verification failed',
      );
      const stranger = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as {
        kty: string;
        crv: string;
        x: string;
      };
      await expect(
        payloadOf(jws, {
          keys: [{ ...stranger, kid: decodeProtectedHeader(jws).kid, alg: 'EdDSA' }],
        }),
      ).rejects.toThrow('signature verification failed');
    }
  });

  it('answers 404 for a preference entry, an unknown entry or profile; 400 for a bad entry id', async () => {
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        ProfilePreferences: [testPreference(programs.newsletter.solicit)],
      })
      .expect(202);
    const id = created.body.ProfileId as number;
    await complete(id);
    const [preference] = (await get(`${id}/ConsentReceipts`).expect(200)).body.Entries as Json[];
    expect(preference.Category).toBe('preference');
    const res = await get(`${id}/ConsentReceipts/${preference.EntryId}/Kantara`).expect(404);
    expect(res.body.Message).toContain('describe consents only');
    await get(`${id}/ConsentReceipts/${preference.EntryId}/ISO27560`).expect(404);
    await get(`${id}/ConsentReceipts/99.0/ISO27560`).expect(404);
    await get(`${id + 1000}/ConsentReceipts/1.0/Kantara`).expect(404);
    await get(`${id}/ConsentReceipts/x/Kantara`).expect(400);
  });
});
