import { PROFILE_WIRE_FORMAT } from '../wire/profile-wire-format';
import { PermanentWriteError } from './permanent-write-error';
import type { ProfileData, StoredConsent, StoredPreference } from './profile-data.schema';
import { applyProfileWrite } from './apply-profile-write';
import { ProfileRules } from './profile-rules';
import type { ProfileRuleModule } from './profile-rules.port';
import { transitionProfile } from './profile-transition';
import { partialVocabulary } from '../testing';
import type { Profile } from './profile.schema';
import type { ProfileWrite } from './profile-write.schema';

/*
 * The seam between Profiles and its rule modules: the write pipeline runs here against
 * fake modules of the port (ProfileRuleModule), as it runs against Consents and
 * Preferences in the apps. Only what the port hands over and takes back is relied on.
 */

const t1 = { at: '2026-01-01T00:00:00.000Z', userId: 'alice' };
const vocabulary = partialVocabulary({
  type: () => ({ IsActive: true }),
  consentType: () => undefined,
  customField: () => undefined,
  checkCustomFieldValue: () => null,
  requiredCustomFields: () => [],
  renamedConsentTypes: false,
  consentTypeName: () => undefined,
  program: () => undefined,
  filter: () => undefined,
  channel: () => undefined,
});

const stored = (): Profile =>
  ({
    _id: 'c|1',
    clientId: 'c',
    profileId: 1,
    state: 'active',
    appliedSeq: 1,
    data: applyProfileWrite(undefined, { CustomerType: 'Customer' }, 'overwrite', t1),
  }) as Profile;

const write = (seq: number, kind: string, body: object, scope?: ProfileWrite['scope']) =>
  ({
    _id: `c|1|${seq}`,
    clientId: 'c',
    profileId: 1,
    seq,
    kind,
    body: JSON.stringify(body),
    userId: 'bob',
    scope,
    acceptedAt: new Date('2026-02-01T00:00:00.000Z'),
    status: 'pending',
    attempts: 0,
  }) as ProfileWrite;

/** A fake module that records what it is handed and stamps what it derives. */
function recordingModule(name: string, log: string[]): ProfileRuleModule {
  return {
    name,
    problems: (_body, _vocabulary, kind) => (log.push(`${name} problems ${kind}`), []),
    derive: (_before, after) => (
      log.push(`${name} derive`),
      { ...after, CustomerType: `${after.CustomerType}+${name}` }
    ),
    afterMerge: (data, body) => (log.push(`${name} afterMerge ${Object.keys(body)}`), data),
  };
}

describe('ProfileRules against fake rule modules', () => {
  it('runs every module in the composed order for a merge: problems, afterMerge, derive', () => {
    const log: string[] = [];
    const rules = new ProfileRules([recordingModule('a', log), recordingModule('b', log)]);
    const next = transitionProfile(
      stored(),
      write(2, 'merge', { CustomerType: 'Prospect' }),
      vocabulary,
      PROFILE_WIRE_FORMAT,
      rules,
    );
    expect(log).toEqual([
      'a problems merge',
      'b problems merge',
      'a afterMerge CustomerType',
      'b afterMerge CustomerType',
      'a derive',
      'b derive',
    ]);
    // Each module's step sees what the previous one made.
    expect(next.data).toMatchObject({ CustomerType: 'Prospect+a+b' });
  });

  it("refuses a write a module finds a problem in, with the module's message", () => {
    const refusing: ProfileRuleModule = { name: 'refusing', problems: () => ['Consents[0]: no'] };
    expect(() =>
      transitionProfile(
        stored(),
        write(2, 'merge', { CustomerType: 'Prospect' }),
        vocabulary,
        PROFILE_WIRE_FORMAT,
        new ProfileRules([refusing]),
      ),
    ).toThrow(new PermanentWriteError('Consents[0]: no'));
  });

  it("checks a bulk import's flags again when applying its write, against the profile as it is then", () => {
    const seen: unknown[] = [];
    const flagged: ProfileRuleModule = {
      name: 'flagged',
      importProblems: (body, current, flags) => (
        seen.push([Object.keys(body), current?.CustomerType, flags]),
        flags.allowPriorConsents ? [] : ['Consents[0].ConsentDate: prior']
      ),
    };
    const rules = new ProfileRules([flagged]);
    const imported = (allowPriorConsents: boolean) => ({
      ...write(2, 'merge', { Consents: [] }),
      importFlags: { allowPriorConsents },
    });
    expect(() =>
      transitionProfile(stored(), imported(false), vocabulary, PROFILE_WIRE_FORMAT, rules),
    ).toThrow(new PermanentWriteError('Consents[0].ConsentDate: prior'));
    expect(
      transitionProfile(stored(), imported(true), vocabulary, PROFILE_WIRE_FORMAT, rules)
        .appliedSeq,
    ).toBe(2);
    // A write without flags (the Data API's) is not checked.
    transitionProfile(stored(), write(2, 'merge', {}), vocabulary, PROFILE_WIRE_FORMAT, rules);
    expect(seen).toEqual([
      [['Consents'], 'Customer', { allowPriorConsents: false }],
      [['Consents'], 'Customer', { allowPriorConsents: true }],
    ]);
  });

  it("hands a module's own write kind to it, with the writer's view; undefined leaves the data", () => {
    const seen: unknown[] = [];
    const owner: ProfileRuleModule = {
      name: 'owner',
      writeKinds: {
        'dnc-apply': (profile, body, ctx) => {
          seen.push([profile.appliedSeq, body, ctx.userId, [...(ctx.view.scope?.programs ?? [])]]);
          return { ...profile.data!, LastName: String((body as { Key?: unknown }).Key) };
        },
        'consent-version-pending': () => undefined,
      },
    };
    const rules = new ProfileRules([owner]);
    const marked = transitionProfile(
      stored(),
      write(
        2,
        'dnc-apply',
        { Key: 'x' },
        { programs: ['7'], consents: 'write', preferences: 'write' },
      ),
      vocabulary,
      PROFILE_WIRE_FORMAT,
      rules,
    );
    expect(seen).toEqual([[1, { Key: 'x' }, 'bob', ['7']]]);
    expect(marked).toMatchObject({ appliedSeq: 2, data: { LastName: 'x' } });
    const before = stored();
    const unchanged = transitionProfile(
      before,
      write(2, 'consent-version-pending', {}),
      vocabulary,
      PROFILE_WIRE_FORMAT,
      rules,
    );
    expect(unchanged).toMatchObject({ appliedSeq: 2 });
    expect(unchanged.data).toBe(before.data);
  });

  it('refuses a write kind no module owns, and two modules claiming one kind', () => {
    expect(() =>
      transitionProfile(
        stored(),
        write(2, 'dnc-apply', {}),
        vocabulary,
        PROFILE_WIRE_FORMAT,
        new ProfileRules([]),
      ),
    ).toThrow(PermanentWriteError);
    const claim = (name: string): ProfileRuleModule => ({
      name,
      writeKinds: { 'dnc-apply': () => undefined },
    });
    expect(() => new ProfileRules([claim('a'), claim('b')])).toThrow('dnc-apply');
  });

  it('expires through every module: counts by module, Edited stamped once, same object when nothing is due', () => {
    const due = (name: string, count: number): ProfileRuleModule => ({
      name,
      expire: (data) => (count ? { data: { ...data, Suffix: name }, count } : { data, count }),
      nextDue: () => (name === 'a' ? Date.parse('2026-05-01') : Date.parse('2026-03-01')),
    });
    const data = stored().data as ProfileData;
    const ctx = { at: '2026-04-01T00:00:00.000Z', userId: 'system' };
    const some = new ProfileRules([due('a', 2), due('b', 0)]).expire(data, ctx.at, ctx);
    expect(some.counts).toEqual({ a: 2, b: 0 });
    expect(some.data.Edited).toMatchObject({ ModifiedDate: ctx.at, ModifiedBy: 'system' });
    const none = new ProfileRules([due('a', 0), due('b', 0)]).expire(data, ctx.at, ctx);
    expect(none.data).toBe(data);
    expect(new ProfileRules([due('a', 0), due('b', 0)]).nextDue(data)?.toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    );
    expect(new ProfileRules([due('a', 0)]).nextDue({ ...data, IsActive: false })).toBeUndefined();
  });

  it("asks a merge's precedence of the module owning the list, with every module's marks", () => {
    const pref = (FilterId: string): StoredPreference => ({
      ProgramId: '1',
      ChannelId: '1',
      FilterId,
      IsActive: true,
    });
    const seen: string[] = [];
    const owner: ProfileRuleModule = {
      name: 'owner',
      mergePrecedence: {
        // Keeps the marked side, else the absorbed one: the composition passes `marked` on.
        preference: (s, a, marked) => {
          seen.push(`${s?.FilterId}/${a?.FilterId}`);
          return s && marked(s) ? s : a;
        },
      },
    };
    const marker: ProfileRuleModule = {
      name: 'marker',
      mergePrecedence: { marksPreference: (p) => p.FilterId === 'marked' },
    };
    const precedence = new ProfileRules([owner, marker]).mergePrecedence();
    expect(precedence.preference(pref('marked'), pref('other'))?.FilterId).toBe('marked');
    expect(precedence.preference(pref('plain'), pref('other'))?.FilterId).toBe('other');
    expect(seen).toEqual(['marked/other', 'plain/other']);
    // No module claims consents: the survivor's element, else the absorbed one.
    const consent: StoredConsent = {
      ConsentType: 'M',
      IsActive: true,
      Edited: { CreateDate: t1.at, CreatedBy: 'u', ModifiedDate: t1.at, ModifiedBy: 'u' },
    };
    expect(precedence.consent(undefined, consent)).toBe(consent);
    expect(() => new ProfileRules([owner, owner])).toThrow("preferences' merge precedence");
  });
});
