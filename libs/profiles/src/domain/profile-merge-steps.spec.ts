import type { AbsorbContext } from './profile-absorb';
import type { ProfileData } from './profile-data.schema';
import { ProfileRules } from './profile-rules';
import { emptyProfileData } from '../testing';
import {
  applyAbsorb,
  applyMergedInto,
  MergeRefusal,
  type MergeSide,
  refuseWriteOnMerged,
} from './profile-merge-steps';

const edited = { CreateDate: 't', CreatedBy: 'u', ModifiedDate: 't', ModifiedBy: 'u' };
const ctx: AbsorbContext = {
  at: '2026-11-28T06:00:00.000Z',
  userId: 'merger',
  reasonCode: 'Duplicate',
  updateRuleOf: () => undefined,
  // No rule module: the steps are checked, not the precedence (profile-absorb.spec.ts).
  precedence: new ProfileRules([]).mergePrecedence(),
};

function data(email: string, altId?: string): ProfileData {
  return emptyProfileData(edited, {
    Emails: [
      { EmailAddress: email, IsActive: true, Consents: [], EmailPreferences: [], Edited: edited },
    ],
    AlternateIds: altId
      ? [{ AlternateIdType: 'CRM', AlternateId: altId, IsActive: true, Edited: edited }]
      : [],
  });
}

const S = (): MergeSide => ({ profileId: 7, state: 'active', data: data('s@example.com') });
const A = (): MergeSide => ({
  profileId: 42,
  state: 'active',
  data: data('a@example.com', 'crm-1'),
});

describe('merge step 1: merged-into on the absorbed profile', () => {
  it('marks A merged into S, keeps its data, and asks for the absorb write', () => {
    const { next, queueAbsorb } = applyMergedInto(A(), S(), null);
    expect(next).toMatchObject({ state: 'merged', mergedInto: 7 });
    expect(next.data).toEqual(A().data);
    expect(queueAbsorb).toBe(true);
  });

  it('is a no-op when re-applied (A already merged into S)', () => {
    const once = applyMergedInto(A(), S(), null).next;
    const again = applyMergedInto(once, S(), null);
    expect(again).toEqual({ next: once, queueAbsorb: false });
  });

  it('refuses A merged into another profile, naming it', () => {
    const merged: MergeSide = { ...A(), state: 'merged', mergedInto: 9 };
    expect(() => applyMergedInto(merged, S(), null)).toThrow(
      'Profile 42 was merged into profile 9',
    );
  });

  it('refuses a cycle: S is being merged into A', () => {
    expect(() => applyMergedInto(A(), S(), { survivor: 42 })).toThrow(
      'merging both ways is refused',
    );
    expect(() => applyMergedInto(A(), S(), { survivor: 3 })).toThrow(MergeRefusal);
  });

  it('refuses an inactive survivor or absorbed profile, and a profile absorbing itself', () => {
    expect(() => applyMergedInto(A(), { ...S(), state: 'deleted' }, null)).toThrow(MergeRefusal);
    expect(() => applyMergedInto(A(), null, null)).toThrow(MergeRefusal);
    expect(() => applyMergedInto({ ...A(), state: 'deleted' }, S(), null)).toThrow(MergeRefusal);
    expect(() => applyMergedInto(S(), S(), null)).toThrow('cannot absorb itself');
  });
});

describe('merge step 2: absorb on the survivor', () => {
  const mergedA = () => applyMergedInto(A(), S(), null).next;

  it('folds A into S, records it absorbed, and names the claims to move', () => {
    const { next, claimsToMove, noop } = applyAbsorb(S(), mergedA(), ctx);
    expect(noop).toBe(false);
    expect(next.absorbed).toEqual([42]);
    expect(next.data!.Emails.map((e) => e.EmailAddress)).toEqual([
      's@example.com',
      'a@example.com',
    ]);
    expect(next.data!.AlternateIds.map((p) => p.AlternateId)).toEqual(['crm-1']);
    expect(next.data!.ReasonCode).toBe('Duplicate');
    expect(claimsToMove.map((p) => p.AlternateId)).toEqual(['crm-1']);
  });

  it('is a no-op the second time (merging twice changes nothing)', () => {
    const once = applyAbsorb(S(), mergedA(), ctx).next;
    const again = applyAbsorb(once, mergedA(), ctx);
    expect(again).toEqual({ next: once, claimsToMove: [], noop: true });
  });

  it('refuses to absorb a profile not merged into the survivor', () => {
    expect(() => applyAbsorb(S(), A(), ctx)).toThrow(
      'Profile 42 is not being merged into profile 7',
    );
    expect(() => applyAbsorb(S(), { ...mergedA(), mergedInto: 8 }, ctx)).toThrow(MergeRefusal);
  });

  it('refuses when the survivor is no longer active', () => {
    expect(() => applyAbsorb({ ...S(), state: 'deleted' }, mergedA(), ctx)).toThrow(MergeRefusal);
  });
});

describe('writes on a merged profile', () => {
  it('are refused naming the survivor; writes on others pass', () => {
    expect(() => refuseWriteOnMerged({ ...A(), state: 'merged', mergedInto: 7 })).toThrow(
      'Profile 42 was merged into profile 7',
    );
    expect(() => refuseWriteOnMerged(S())).not.toThrow();
  });
});
