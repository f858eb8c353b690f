import { canonicalChannel, canonicalProgramType } from './program-vocabulary';

describe('program vocabulary', () => {
  it('canonicalises program types in any case, with the DNC aliases', () => {
    expect(canonicalProgramType('marketing')).toBe('Marketing');
    expect(canonicalProgramType('Do Not Contact (DNC)')).toBe('Do Not Contact (DNC)');
    expect(canonicalProgramType('dnc')).toBe('Do Not Contact (DNC)');
    expect(canonicalProgramType('Do  not contact')).toBe('Do Not Contact (DNC)');
    expect(canonicalProgramType('Promotional')).toBeUndefined();
    expect(canonicalProgramType(3)).toBeUndefined();
  });

  it('canonicalises channels, Text and SMS giving Text/SMS', () => {
    expect(canonicalChannel('EMAIL')).toBe('Email');
    expect(canonicalChannel('text')).toBe('Text/SMS');
    expect(canonicalChannel('SMS')).toBe('Text/SMS');
    expect(canonicalChannel('Text/SMS')).toBe('Text/SMS');
    expect(canonicalChannel('Fax')).toBeUndefined();
  });
});
