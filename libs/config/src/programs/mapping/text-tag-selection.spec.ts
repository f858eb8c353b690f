import type { ProgramDto } from '../dto/program.dto';
import { limitToLocale } from './text-tag-selection';

const program: ProgramDto = {
  Id: 1,
  Name: 'News',
  ProgramType: 'Marketing',
  Locales: [
    { ID: 'en-us', DisplayTags: [{ Key: 'Title', Value: 'News' }] },
    { ID: 'fr', DisplayTags: [{ Key: 'Title', Value: 'Nouvelles' }] },
  ],
  Filters: [
    {
      ID: 1,
      Name: 'Email',
      ChannelID: 'Email',
      Locales: [{ ID: 'fr-ca', DisplayTags: [] }],
      FrequencyLocales: [{ ID: 'en', Frequencies: [{ ID: 'Weekly' }] }],
    },
  ],
};

describe('limitToLocale', () => {
  it('keeps only the entries of the locale, on programs and filters', () => {
    const [limited] = limitToLocale([program], 'FR-CA', 'localeId');
    expect(limited.Locales?.map((l) => l.ID)).toEqual(['fr']);
    expect(limited.Filters?.[0].Locales?.map((l) => l.ID)).toEqual(['fr-ca']);
    expect(limited.Filters?.[0].FrequencyLocales).toEqual([]);
    expect(program.Locales).toHaveLength(2);
  });

  it('answers 404 when nothing has the locale, but not for an empty answer', () => {
    expect(() => limitToLocale([program], 'de', 'localeId')).toThrow(
      'No program or filter has text tags for locale "de"',
    );
    expect(limitToLocale([], 'de', 'localeId')).toEqual([]);
  });

  it('refuses a malformed locale', () => {
    expect(() => limitToLocale([program], 'e_n', 'locale')).toThrow('Invalid locale (value "e_n")');
  });
});
