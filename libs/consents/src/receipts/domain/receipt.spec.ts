import { generateKeyPairSync } from 'node:crypto';
import {
  chainHistoryEntries,
  type Edited,
  type ProfileHistory,
  type StoredConsent,
} from '@app/profiles';
import { historyEntry } from '@app/profiles/testing';
import {
  type ConsentReceipt,
  issueReceipt,
  parseSigningKey,
  proofEntry,
  receiptProblems,
} from './receipt';

const CHAINED = ['consent', 'preference'];

const edited = (seq: number): Edited => {
  const at = `2026-01-0${seq}T00:00:00.000Z`;
  return { CreateDate: at, CreatedBy: 'alice', ModifiedDate: at, ModifiedBy: 'alice' };
};

function pem(): string {
  return generateKeyPairSync('ed25519')
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
}

function chain(): ProfileHistory[] {
  const entries = [1, 2, 3].map((seq) =>
    historyEntry(seq === 2 ? 'preference' : 'consent', {
      seq,
      modifiedAt: `2026-01-0${seq}T00:00:00.000Z`,
      list: 'Consents',
      snapshot: { ConsentType: 'Terms', ConsentStatus: seq, IsActive: true, Edited: edited(seq) },
    }),
  );
  return chainHistoryEntries(undefined, entries, CHAINED).entries;
}

function receiptOf(key = parseSigningKey(pem()), visible = [true, true]): ConsentReceipt {
  const entries = chain();
  return JSON.parse(
    JSON.stringify(
      issueReceipt({
        clientId: 'c1',
        profileId: 7,
        entry: entries[2],
        earlier: entries.slice(0, 2).map((entry, k) => proofEntry(entry, visible[k])),
        issuedAt: new Date('2026-03-01T00:00:00.000Z'),
        key,
      }),
    ),
  ) as ConsentReceipt;
}

describe('consent receipts', () => {
  const key = parseSigningKey(pem());

  it('verifies against the signing key, with earlier entries in full or by their links', () => {
    const receipt = receiptOf(key);
    expect(receipt.Receipt).toMatchObject({
      ClientId: 'c1',
      ProfileId: 7,
      EntryId: '3.0',
      ChainPosition: 3,
      KeyId: key.jwk.kid,
      SignatureAlgorithm: 'Ed25519',
    });
    expect(receiptProblems(receipt, [key.jwk])).toEqual([]);
    const redacted = receiptOf(key, [false, true]);
    expect(redacted.Proof[0]).toEqual(expect.objectContaining({ redacted: true }));
    expect(redacted.Proof[0]).not.toHaveProperty('snapshot');
    expect(receiptProblems(redacted, [key.jwk])).toEqual([]);
  });

  it('fails on another key, a changed statement, a changed entry or proof', () => {
    const other = parseSigningKey(pem());
    expect(receiptProblems(receiptOf(key), [other.jwk])).toEqual([
      expect.stringContaining('no trusted key'),
    ]);
    expect(receiptProblems(receiptOf(key), [{ ...other.jwk, kid: key.jwk.kid }])).toEqual([
      'the signature does not verify',
    ]);

    const statement = receiptOf(key);
    statement.Receipt.IssuedAt = '2027-01-01T00:00:00.000Z';
    expect(receiptProblems(statement, [key.jwk])).toEqual(['the signature does not verify']);

    const entry = receiptOf(key);
    (entry.Entry.snapshot as StoredConsent).ConsentStatus = 1;
    expect(receiptProblems(entry, [key.jwk])).toEqual([
      expect.stringMatching(/^entry 3\.0: content hashes to/),
    ]);

    const proof = receiptOf(key);
    ((proof.Proof[0] as ProfileHistory).snapshot as StoredConsent).ConsentStatus = 4;
    expect(receiptProblems(proof, [key.jwk])).toEqual([
      expect.stringMatching(/^entry 1\.0: content hashes to/),
    ]);

    const cut = receiptOf(key);
    cut.Proof.shift();
    expect(receiptProblems(cut, [key.jwk])).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Receipt.ChainPosition'),
        expect.stringMatching(/^entry 2\.0: prevHash/),
      ]),
    );
  });

  it('reads PKCS#8 keys as PEM (line breaks escaped too) or base64 DER; refuses others', () => {
    const text = pem();
    const der = parseSigningKey(text).privateKey.export({ format: 'der', type: 'pkcs8' });
    expect(parseSigningKey(der.toString('base64')).jwk).toEqual(parseSigningKey(text).jwk);
    expect(parseSigningKey(text.replace(/\n/g, '\\n')).jwk).toEqual(parseSigningKey(text).jwk);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    expect(() => parseSigningKey(rsa)).toThrow('an Ed25519 key is required, not rsa');
    expect(() => parseSigningKey('not a key')).toThrow('not a PKCS#8 private key');
  });
});
