import { applyPatchOperations } from './json-patch';

const doc = {
  TypeId: 3,
  TypeName: 'Home',
  IsActive: true,
  LocalizedFields: [{ Locale: 'en', Name: 'Home' }],
};

describe('applyPatchOperations', () => {
  it('applies add, replace and remove to a copy', () => {
    const result = applyPatchOperations(doc, [
      { op: 'replace', path: '/TypeName', value: 'House' },
      { op: 'add', path: '/LocalizedFields/-', value: { Locale: 'fr', Name: 'Maison' } },
      { op: 'remove', path: '/LocalizedFields/0' },
    ]);
    expect(result).toEqual({
      TypeId: 3,
      TypeName: 'House',
      IsActive: true,
      LocalizedFields: [{ Locale: 'fr', Name: 'Maison' }],
    });
    expect(doc.TypeName).toBe('Home');
    expect(doc.LocalizedFields).toHaveLength(1);
  });

  it('changes nothing when a test fails, and says which operation failed', () => {
    expect(() =>
      applyPatchOperations(doc, [
        { op: 'replace', path: '/TypeName', value: 'House' },
        { op: 'test', path: '/IsActive', value: false },
      ]),
    ).toThrow('Operations[1] (test /IsActive) was refused: test failed');
    expect(doc.TypeName).toBe('Home');
  });

  it('refuses move and copy', () => {
    expect(() =>
      applyPatchOperations(doc, [{ op: 'move', from: '/TypeName', path: '/X' }]),
    ).toThrow('Operations[0].op "move" is not supported');
    expect(() =>
      applyPatchOperations(doc, [{ op: 'copy', from: '/TypeName', path: '/X' }]),
    ).toThrow('"copy"');
  });

  it('refuses read-only fields and paths that do not exist', () => {
    expect(() =>
      applyPatchOperations(doc, [{ op: 'replace', path: '/TypeId', value: 9 }], ['TypeId']),
    ).toThrow('Operations[0].path "/TypeId" is read-only');
    expect(() => applyPatchOperations(doc, [{ op: 'remove', path: '/LocalizedFields/5' }])).toThrow(
      'Operations[0] (remove /LocalizedFields/5) was refused',
    );
  });

  it('refuses an empty operation list', () => {
    expect(() => applyPatchOperations(doc, [])).toThrow('non-empty array');
  });
});
