import type { ProfileData, ProfileView } from '@app/profiles';
import { serializeReply } from '@app/shared';
import type { ContactDecisionDto } from '../../dto/contact-decision.dto';
import { type DecisionInputs, DecisionRenderings } from './decision-renderings';

const data = () => ({ IsActive: true }) as unknown as ProfileData;
const unscoped: ProfileView = { implied: false, scope: undefined };
const inputs = (extra: Partial<DecisionInputs> = {}): DecisionInputs => ({
  question: { target: { kind: 'profile', profileId: 5 }, channel: 'Email', programId: 7 },
  view: unscoped,
  acceptedSeq: 3,
  configurationStamp: 'c1',
  listsStamp: 'l1',
  ...extra,
});
const dto = (allowed: boolean): ContactDecisionDto => ({
  Allowed: allowed,
  ProfileIds: [5],
  ChannelId: 'Email',
  ProgramId: '7',
  Reasons: [],
});

describe('DecisionRenderings', () => {
  it('reuses an answer only for the same data object, inputs and time before its change', () => {
    const renderings = new DecisionRenderings();
    const profile = data();
    const kept = renderings.keep(profile, inputs(), dto(true), 1_000);
    expect(Object.isFrozen(kept)).toBe(true);
    expect(serializeReply(kept)).toBe(JSON.stringify(dto(true)));
    expect(renderings.find(profile, inputs(), 999)).toBe(kept);
    // Time alone: from changesAt on, the answer is decided again.
    expect(renderings.find(profile, inputs(), 1_000)).toBeUndefined();
    // Any other input, or another data object (another appliedSeq), is another answer.
    for (const other of [
      inputs({ acceptedSeq: 4 }),
      inputs({ configurationStamp: 'c2' }),
      inputs({ listsStamp: null }),
      inputs({ view: { implied: true, scope: undefined } }),
      inputs({ question: { ...inputs().question, programId: 8 } }),
      inputs({ question: { ...inputs().question, filterId: 1 } }),
      inputs({ question: { ...inputs().question, consentType: 'Marketing' } }),
      inputs({
        question: {
          ...inputs().question,
          value: { list: 'Emails', text: 'Pat@example.com', key: 'pat@example.com' },
        },
      }),
    ])
      expect(renderings.find(profile, other, 0)).toBeUndefined();
    expect(renderings.find(data(), inputs(), 0)).toBeUndefined();
  });

  it('keeps a bounded number of answers per data object', () => {
    const renderings = new DecisionRenderings();
    const profile = data();
    for (let programId = 1; programId <= 40; programId++) {
      const question = { ...inputs().question, programId };
      renderings.keep(profile, inputs({ question }), dto(true), Infinity);
    }
    const found = Array.from({ length: 40 }, (_, i) =>
      renderings.find(profile, inputs({ question: { ...inputs().question, programId: i + 1 } }), 0),
    ).filter(Boolean);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(32);
  });
});
