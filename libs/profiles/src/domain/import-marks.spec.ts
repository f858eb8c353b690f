import { IMPORT_MARKS_KEPT, importRecordApplied, withImportMark } from './import-marks';
import type { Profile } from './profile.schema';

describe('import marks (a bulk import record applied once)', () => {
  const profile = {
    _id: 'c|1',
    clientId: 'c',
    profileId: 1,
    state: 'active',
    appliedSeq: 3,
  } as Profile;

  it('a record is applied when the profile holds it or a later record of the same import', () => {
    const marked = withImportMark(profile, { accessToken: 7, n: 10 });
    expect(importRecordApplied(marked, { accessToken: 7, n: 10 })).toBe(true);
    expect(importRecordApplied(marked, { accessToken: 7, n: 9 })).toBe(true);
    expect(importRecordApplied(marked, { accessToken: 7, n: 11 })).toBe(false);
    expect(importRecordApplied(marked, { accessToken: 8, n: 1 })).toBe(false);
    expect(importRecordApplied(profile, { accessToken: 7, n: 1 })).toBe(false);
  });

  it('keeps one mark per import, the latest, and the last IMPORT_MARKS_KEPT imports', () => {
    let marked = withImportMark(profile, { accessToken: 1, n: 5 });
    marked = withImportMark(marked, { accessToken: 1, n: 6 });
    expect(marked.importMarks).toEqual([{ accessToken: 1, n: 6 }]);
    for (let token = 2; token <= IMPORT_MARKS_KEPT + 1; token++)
      marked = withImportMark(marked, { accessToken: token, n: 1 });
    expect(marked.importMarks).toHaveLength(IMPORT_MARKS_KEPT);
    expect(marked.importMarks!.some((mark) => mark.accessToken === 1)).toBe(false);
    expect(profile.importMarks).toBeUndefined(); // pure
  });
});
