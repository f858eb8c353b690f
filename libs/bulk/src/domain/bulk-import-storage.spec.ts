import {
  decodeNewProfileIds,
  decodeStagedRecords,
  encodeNewProfileIds,
  encodeStagedRecords,
  type StagedRecord,
} from './bulk-import.schema';

describe('staged records as stored in a chunk', () => {
  const records: StagedRecord[] = [
    { n: 1, stage: 1, index: 0, body: { CustomerName: { FirstName: 'Ann' }, Emails: [] } },
    {
      n: 2,
      stage: 1,
      index: 1,
      body: { AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'é"\n' }] },
    },
  ];

  it('stores each record as its JSON text and reads it back unchanged', () => {
    const stored = encodeStagedRecords(records);
    expect(stored.every((record) => typeof record === 'string')).toBe(true);
    expect(decodeStagedRecords(stored)).toEqual(records);
  });

  it('reads a chunk staged before, whose records are subdocuments, and a mix of both', () => {
    expect(decodeStagedRecords(records)).toEqual(records);
    expect(decodeStagedRecords([records[0], ...encodeStagedRecords([records[1]])])).toEqual(
      records,
    );
  });
});

describe('the profile ids reserved for a batch, as saved on the import', () => {
  const ids = [
    { index: 0, profileId: 41 },
    { index: 3, profileId: 42 },
  ];

  it('are saved as one text and read back unchanged', () => {
    const stored = encodeNewProfileIds(ids);
    expect(typeof stored).toBe('string');
    expect(decodeNewProfileIds(stored)).toEqual(ids);
  });

  it('are read as they are when an earlier version saved them as subdocuments', () => {
    expect(decodeNewProfileIds(ids)).toEqual(ids);
  });
});
