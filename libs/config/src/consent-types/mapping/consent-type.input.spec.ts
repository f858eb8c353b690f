import { mergeVersions } from './consent-type.input';
import type { StoredConsentVersion } from '../domain/consent-type.schema';

const earlier = new Date('2024-01-01T00:00:00.000Z');
const now = new Date('2024-06-01T12:00:00.000Z');

const stored: StoredConsentVersion = {
  ConsentVersion: '1.0',
  LocalizedFields: [{ Locale: 'en', Name: 'Terms', ConsentLanguage: 'I agree' }],
  IsActive: true,
  IsAssociatedWithProfiles: false,
  PublishedDate: earlier.toISOString(),
  Edited: {
    CreateDate: earlier.toISOString(),
    CreatedBy: 'alice',
    ModifiedDate: earlier.toISOString(),
    ModifiedBy: 'alice',
  },
};

describe('mergeVersions', () => {
  it('publishes new versions now and keeps stored ones untouched when unchanged', () => {
    const { versions, published } = mergeVersions(
      [stored],
      [
        {
          ConsentVersion: '1.0',
          LocalizedFields: [
            { Locale: 'en', Name: 'Terms', ConsentLanguage: 'I agree', Description: null as never },
          ],
          ExpirationInDays: null as never,
          PublishedDate: 'ignored',
        },
        { ConsentVersion: ' 2.0 ', LocalizedFields: [{ Locale: 'en', Name: 'Terms v2' }] },
      ],
      'bob',
      now,
    );
    expect(published).toEqual(['2.0']);
    expect(versions[0]).toEqual(stored);
    expect(versions[1]).toEqual({
      ConsentVersion: '2.0',
      LocalizedFields: [
        { ConsentLanguage: undefined, Locale: 'en', Name: 'Terms v2', Description: undefined },
      ],
      ExpirationInDays: undefined,
      IsActive: true,
      IsAssociatedWithProfiles: false,
      PublishedDate: now.toISOString(),
      Edited: {
        CreateDate: now.toISOString(),
        CreatedBy: 'bob',
        ModifiedDate: now.toISOString(),
        ModifiedBy: 'bob',
      },
    });
  });

  it('stamps a changed stored version as modified, keeping its publication date', () => {
    const { versions, published } = mergeVersions(
      [stored],
      [{ ConsentVersion: '1.0', LocalizedFields: stored.LocalizedFields, IsActive: false }],
      'bob',
      now,
    );
    expect(published).toEqual([]);
    expect(versions[0].IsActive).toBe(false);
    expect(versions[0].PublishedDate).toBe(earlier.toISOString());
    expect(versions[0].Edited).toEqual({
      CreateDate: earlier.toISOString(),
      CreatedBy: 'alice',
      ModifiedDate: now.toISOString(),
      ModifiedBy: 'bob',
    });
  });

  it('matches stored versions trimmed and case-insensitively', () => {
    const spring = { ...stored, ConsentVersion: 'Spring' };
    const { versions, published } = mergeVersions(
      [spring],
      [{ ConsentVersion: ' SPRING ', LocalizedFields: stored.LocalizedFields }],
      'bob',
      now,
    );
    expect(published).toEqual([]);
    expect(versions[0].PublishedDate).toBe(earlier.toISOString());
  });

  it('publishes strictly after the versions published before, even with a clock behind', () => {
    const future = { ...stored, PublishedDate: '2030-01-01T00:00:00.000Z' };
    const { versions, publishedAt } = mergeVersions(
      [future],
      [
        { ConsentVersion: '1.0', LocalizedFields: stored.LocalizedFields },
        { ConsentVersion: '2.0', LocalizedFields: stored.LocalizedFields },
      ],
      'bob',
      now,
    );
    expect(publishedAt.toISOString()).toBe('2030-01-01T00:00:00.001Z');
    expect(versions[1].PublishedDate).toBe('2030-01-01T00:00:00.001Z');
    expect(versions[1].Edited.CreateDate).toBe(now.toISOString());
  });
});
