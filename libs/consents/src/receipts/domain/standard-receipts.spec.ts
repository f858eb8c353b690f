import { generateKeyPairSync } from 'node:crypto';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import {
  chainHistoryEntries,
  type Edited,
  type HistoryContainer,
  type ProfileHistory,
  type StoredConfirmationEvidence,
  type StoredConsent,
} from '@app/profiles';
import { historyEntry } from '@app/profiles/testing';
import { consentFacts, type ConsentFactsSources, uuidFromHash } from './consent-facts';
import { dpvConsentStatus, iso27560Record } from './iso27560-record';
import { kantaraReceipt } from './kantara-receipt';
import { parseSigningKey } from './receipt';
import { signStandardReceipt } from './standard-receipt';

const key = parseSigningKey(
  generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
);

const EDITED: Edited = {
  CreateDate: '2026-03-01T10:00:00.000Z',
  CreatedBy: 'crm',
  ModifiedBy: 'crm',
  ModifiedDate: '2026-03-01T10:00:00.000Z',
};

function consentEntry(
  snapshot: Partial<StoredConsent>,
  container?: HistoryContainer,
): ProfileHistory {
  const entry = historyEntry('consent', {
    seq: 3,
    n: 1,
    modifiedAt: '2026-03-01T10:00:00.000Z',
    list: 'Consents',
    ...(container ? { container } : {}),
    snapshot: {
      ConsentType: 'terms',
      ConsentVersion: '2.0',
      ConsentStatus: 1,
      ConsentDate: '2026-03-01T09:59:00.000Z',
      IsActive: true,
      Expired: false,
      Edited: EDITED,
      ...snapshot,
    },
  });
  return chainHistoryEntries(undefined, [entry], ['consent']).entries[0];
}

function sources(entry: ProfileHistory, more: Partial<ConsentFactsSources> = {}) {
  return {
    clientId: 'acme',
    profileId: 7,
    entry,
    chainPosition: 4,
    consentType: {
      TypeName: 'Terms',
      Attributes: [
        { Key: 'jurisdiction', Value: 'ie' },
        { Key: 'PolicyUrl', Value: 'https://acme.example/privacy' },
        { Key: 'Colour', Value: 'blue' },
      ],
    },
    presentation: {
      TypeId: 1,
      TypeName: 'Terms',
      FormerNames: [],
      IsActive: true,
      LocalizedFields: [{ Locale: 'en-us', Name: 'Terms of use' }],
      Versions: [
        {
          ConsentVersion: '2.0',
          IsActive: true,
          PublishedDate: '2026-01-01T00:00:00.000Z',
          LocalizedFields: [
            { Locale: 'en-us', Name: 'Terms 2', ConsentLanguage: 'I accept the terms.' },
            { Locale: 'fr', Name: 'Conditions 2', ConsentLanguage: "J'accepte les conditions." },
          ],
        },
      ],
      LatestVersion: '2.0',
    },
    profileLocale: 'fr-ca',
    ...more,
  } as ConsentFactsSources;
}

const EMAIL_CONTAINER: HistoryContainer = {
  list: 'Emails',
  fields: { EmailAddress: 'pat@example.com' },
};

describe('standard receipts of a consent entry', () => {
  it('fills the Kantara receipt v1.1 from the entry, the consent type and the profile', () => {
    const entry = consentEntry({});
    const receipt = kantaraReceipt(
      consentFacts(sources(entry)),
      new Date('2026-03-02T00:00:00.000Z'),
    );
    expect(receipt).toMatchObject({
      version: 'KI-CR-v1.1.0',
      jurisdiction: 'ie',
      consentTimestamp: Date.parse('2026-03-01T09:59:00.000Z') / 1000,
      collectionMethod: 'Profiles API',
      language: 'fr-ca',
      piiPrincipalId: '7',
      piiControllers: [{ piiController: 'acme', contact: '', address: {}, email: '', phone: '' }],
      policyUrl: 'https://acme.example/privacy',
      services: [
        {
          service: 'Terms',
          purposes: [
            {
              purpose: "J'accepte les conditions.",
              consentType: 'EXPLICIT',
              purposeCategory: [],
              piiCategory: [],
              termination: '',
              thirdPartyDisclosure: false,
            },
          ],
        },
      ],
      sensitive: false,
      spiCat: [],
      iat: Date.parse('2026-03-02T00:00:00.000Z') / 1000,
      pcp: {
        consentStatus: 'Granted',
        consentVersion: '2.0',
        entryId: '3.1',
        entryHash: entry.hash,
        chainPosition: 4,
      },
    });
    // The same entry, the same receipt id (a UUID): re-issuing names the same consent.
    expect(receipt.consentReceiptID).toBe(uuidFromHash(`consent-record:${entry.hash}`));
    expect(receipt.consentReceiptID).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('maps the consent state to DPV: given, refused, withdrawn, revoked, expired, unknown', () => {
    const state = (snapshot: Partial<StoredConsent>) =>
      dpvConsentStatus(consentFacts(sources(consentEntry(snapshot))));
    expect(state({ ConsentStatus: 1 })).toBe('dpv:ConsentGiven');
    expect(state({ ConsentStatus: 2 })).toBe('dpv:ConsentRefused');
    expect(state({ ConsentStatus: 3 })).toBe('dpv:ConsentWithdrawn');
    expect(
      state({ ConsentStatus: 3, Edited: { ...EDITED, ModifiedBy: 'system:do-not-contact' } }),
    ).toBe('dpv:ConsentRevoked');
    expect(state({ ConsentStatus: 1, IsActive: false })).toBe('dpv:ConsentRevoked');
    expect(state({ ConsentStatus: 1, Expired: true })).toBe('dpv:ConsentExpired');
    expect(state({ ConsentStatus: 4 })).toBe('dpv:ConsentUnknown');
  });

  it('names a double opt-in with its evidence as the collection method of a confirmed grant, in both', () => {
    const Confirmation = {
      Method: 'DoubleOptIn',
      ConfirmedDate: '2026-03-01T09:59:00.000Z',
      LinkId: 'AbCdEfGhIjKlMnOpQrStUv',
      IpAddress: '203.0.113.9',
      UserAgent: 'Mail/1.0',
    };
    const method =
      "DoubleOptIn: confirmed from the person's mailbox at 2026-03-01T09:59:00.000Z (confirmation AbCdEfGhIjKlMnOpQrStUv; request from 203.0.113.9, Mail/1.0)";
    const granted = consentFacts(
      sources(consentEntry({ SourceId: 'signup-form', Confirmation }, EMAIL_CONTAINER)),
    );
    expect(kantaraReceipt(granted, new Date()).collectionMethod).toBe(method);
    expect(iso27560Record(granted)['dpv:hasConsentStatus']['dpv:hasIndicationMethod']).toBe(method);
    // A later revocation keeps the evidence on the consent, but was not collected by it.
    const revoked = consentFacts(
      sources(consentEntry({ ConsentStatus: 3, SourceId: 'signup-form', Confirmation })),
    );
    expect(kantaraReceipt(revoked, new Date()).collectionMethod).toBe('signup-form');
  });

  it('names a confirmation a bulk import stated (no link id, free evidence, another method)', () => {
    const method = (Confirmation: StoredConfirmationEvidence) =>
      kantaraReceipt(
        consentFacts(sources(consentEntry({ Confirmation }, EMAIL_CONTAINER))),
        new Date(),
      ).collectionMethod;
    expect(
      method({
        Method: 'DoubleOptIn',
        ConfirmedDate: '2026-01-15T08:30:00.000Z',
        Evidence: 'previous provider',
      }),
    ).toBe(
      "DoubleOptIn: confirmed from the person's mailbox at 2026-01-15T08:30:00.000Z (evidence: previous provider)",
    );
    expect(method({ Method: 'PaperForm', ConfirmedDate: '2026-01-15T08:30:00.000Z' })).toBe(
      'PaperForm: confirmed at 2026-01-15T08:30:00.000Z',
    );
  });

  it('builds the ISO/IEC TS 27560 record as JSON-LD with DPV terms', () => {
    const entry = consentEntry(
      { ConsentStatus: 3, ExpirationDate: '2027-03-01T00:00:00.000Z', Locale: 'en-us' },
      { list: 'Emails', fields: { EmailAddress: 'ann@example.com' } },
    );
    const record = iso27560Record(consentFacts(sources(entry)));
    expect(record).toMatchObject({
      '@type': 'dpv:ConsentRecord',
      '@id': `urn:uuid:${uuidFromHash(`consent-record:${entry.hash}`)}`,
      'dct:conformsTo': 'https://w3id.org/dpv/schema/dpv-27560#record',
      'dct:created': '2026-03-01T10:00:00.000Z',
      'dct:source': { 'dct:identifier': '3.1', 'schema:sha256': entry.hash, 'schema:position': 4 },
      'dpv:hasDataSubject': { '@type': 'dpv:DataSubject', 'dct:identifier': '7' },
      'dpv:hasDataController': { '@id': 'urn:pcp:client:acme' },
      'dpv:hasJurisdiction': 'loc:IE',
      'dpv:hasNotice': {
        '@type': 'dpv:ConsentNotice',
        'dct:identifier': 'Terms 2.0',
        'dct:title': 'Terms 2',
        'dct:description': 'I accept the terms.',
        'dct:language': 'en-us',
        'dct:date': '2026-01-01T00:00:00.000Z',
        'schema:url': 'https://acme.example/privacy',
      },
      'dpv:hasProcess': {
        'dpv:hasLegalBasis': 'dpv:Consent',
        'dpv:hasPersonalData': 'pd:EmailAddress',
      },
      'dpv:hasConsentStatus': {
        '@type': 'dpv:ConsentWithdrawn',
        'dpv:isIndicatedAtTime': '2026-03-01T09:59:00.000Z',
        'dpv:isIndicatedBy': 'dpv:DataSubject',
        'dpv:hasDuration': {
          '@type': 'dpv:UntilTimeDuration',
          'rdf:value': '2027-03-01T00:00:00.000Z',
        },
      },
    });
    expect(record['@context']).toMatchObject({ dpv: 'https://w3id.org/dpv#' });
  });

  it('signs both as compact JWS (EdDSA, kid) that jose verifies; a changed copy fails', async () => {
    const facts = consentFacts(sources(consentEntry({})));
    const jwks = createLocalJWKSet({ keys: [key.jwk] });
    for (const [format, document] of [
      ['Kantara', kantaraReceipt(facts, new Date())],
      ['ISO27560', iso27560Record(facts)],
    ] as const) {
      const jws = await signStandardReceipt(format, document, key);
      expect(decodeProtectedHeader(jws)).toMatchObject({ alg: 'EdDSA', kid: key.jwk.kid });
      const { payload } = await compactVerify(jws, jwks);
      expect(JSON.parse(Buffer.from(payload).toString('utf8'))).toEqual(document);

      const [header, body, signature] = jws.split('.');
      const changed = Buffer.from(JSON.stringify({ ...document, tampered: true }), 'utf8').toString(
        'base64url',
      );
      await expect(compactVerify(`${header}.${changed}.${signature}`, jwks)).rejects.toThrow(
        'signature verification failed',
      );
      expect(body).not.toBe(changed);
    }
  });
});
