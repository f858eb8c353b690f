import { textKey } from './text-key';

describe('textKey', () => {
  it('trims, folds runs of white space and lower-cases', () => {
    expect(textKey('  Email\t  Opt-In \n')).toBe('email opt-in');
    expect(textKey('MARKETING')).toBe(textKey('marketing'));
    expect(textKey('a  b')).toBe(textKey('A b'));
  });

  it('gives the empty key to anything that is not text', () => {
    expect(textKey(undefined)).toBe('');
    expect(textKey(null)).toBe('');
    expect(textKey(42)).toBe('');
  });
});
