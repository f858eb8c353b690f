import { selectLocalized } from './locale-selection';

const fields = [
  { Locale: 'en-us', Name: 'Home' },
  { Locale: 'fr', Name: 'Domicile' },
  { Locale: 'fr-CA', Name: 'Maison' },
  { Locale: 'de-de', Name: 'Zuhause' },
];

describe('selectLocalized', () => {
  it('takes the exact locale, case-insensitively', () => {
    expect(selectLocalized(fields, 'FR-ca').map((f) => f.Name)).toEqual(['Maison']);
  });

  it('falls back from a region to its language', () => {
    expect(selectLocalized(fields, 'fr-be').map((f) => f.Name)).toEqual(['Domicile']);
  });

  it('takes the language itself before any of its regions', () => {
    expect(selectLocalized(fields, 'fr').map((f) => f.Name)).toEqual(['Domicile']);
  });

  it('lets a language-only locale match its regions', () => {
    expect(selectLocalized(fields, 'de').map((f) => f.Name)).toEqual(['Zuhause']);
    expect(selectLocalized(fields, 'en').map((f) => f.Name)).toEqual(['Home']);
  });

  it('matches nothing for another language, or a region whose language has no entry', () => {
    expect(selectLocalized(fields, 'es')).toEqual([]);
    expect(selectLocalized(fields, 'en-gb')).toEqual([]);
  });
});
