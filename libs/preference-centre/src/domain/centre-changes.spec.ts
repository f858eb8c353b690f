import type { ClientPresentation, PresentationFilter } from '@app/config';
import type { StoredPreference } from '@app/profiles';
import { type DeepPartial, partialData } from '@app/profiles/testing';
import {
  type CentreMergeBody,
  changesOfForm,
  changesOfGpc,
  changesOfUnsubscribe,
  FIELD,
} from './centre-changes';
import { buildCentrePage, type CentrePage } from './centre-page';

const NOW = new Date('2026-06-01T00:00:00.000Z');

const filter = (Id: number, extra: Partial<PresentationFilter> = {}): PresentationFilter => ({
  Id,
  Name: `Filter ${Id}`,
  ChannelId: 'Email',
  IsActive: true,
  Locales: [],
  FrequencyLocales: [],
  RequiredConsentTypes: [],
  RequiredAttributes: [],
  SaleOrShare: false,
  ...extra,
});

/** Program 1 (partners, marked SaleOrShare; filter 12 needs a consent), program 2 (news). */
const presentation: ClientPresentation = {
  stamp: 's',
  consentTypes: [],
  programs: [
    {
      Id: 1,
      Name: 'Partners',
      ProgramType: 'Marketing',
      IsActive: true,
      Locales: [],
      Filters: [
        filter(11, { SaleOrShare: true }),
        filter(12, { SaleOrShare: true, RequiredConsentTypes: ['Marketing'] }),
      ],
    },
    {
      Id: 2,
      Name: 'News',
      ProgramType: 'Marketing',
      IsActive: true,
      Locales: [],
      Filters: [filter(21)],
    },
  ],
};

const pref = (
  ProgramId: number,
  FilterId: number,
  extra: DeepPartial<StoredPreference> = {},
): DeepPartial<StoredPreference> => ({
  ProgramId: String(ProgramId),
  ChannelId: 'Email',
  FilterId: String(FilterId),
  PreferenceType: 1,
  IsActive: true,
  ...extra,
});

const pageOf = (preferences: DeepPartial<StoredPreference>[]): CentrePage =>
  buildCentrePage(
    partialData({
      Emails: [{ EmailAddress: 'pat@example.com', EmailPreferences: preferences }],
    }),
    presentation,
    NOW,
  );

const choice = (page: CentrePage, filterId: number) =>
  page.programs.flatMap((p) => p.choices).find((c) => c.filterId === filterId)!;

const emailPreferences = (body: CentreMergeBody | null) =>
  body?.Emails?.[0]?.EmailPreferences ?? [];

/** The form of a page as shown, with `ticked` ticked. */
function form(page: CentrePage, ticked: number[], extra: Record<string, string> = {}) {
  const choices = page.programs.flatMap((p) => p.choices);
  return {
    [FIELD.action]: 'save',
    [FIELD.shown]: choices.map((c) => c.id),
    ...Object.fromEntries(
      choices.filter((c) => ticked.includes(c.filterId)).map((c) => [FIELD.optIn(c.id), '1']),
    ),
    ...extra,
  };
}

describe('Global Privacy Control changes', () => {
  it('marks the choices of SaleOrShare programs and says the client marked some', () => {
    const page = pageOf([]);
    expect(page.saleOrShareMarked).toBe(true);
    expect(choice(page, 11).saleOrShare).toBe(true);
    expect(choice(page, 21).saleOrShare).toBe(false);
  });

  it('opts out of the marked choices, with the attribute and the SourceId', () => {
    const page = pageOf([pref(1, 11), pref(2, 21)]);
    const changes = changesOfGpc(page);
    // Filter 12 holds nothing and would need a consent: nothing to withdraw.
    expect(emailPreferences(changes.body)).toEqual([
      expect.objectContaining({
        ProgramId: '1',
        FilterId: '11',
        PreferenceType: 2,
        SourceId: 'GlobalPrivacyControl',
        UserId: 'PreferenceCentre',
        PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptOut' }],
      }),
    ]);
    expect(changes.preferences).toBe(1);
  });

  it('writes nothing once applied, nor over an opt-in confirmed under the signal', () => {
    const applied = pref(1, 11, {
      PreferenceType: 2,
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptOut' }],
    });
    expect(changesOfGpc(pageOf([applied])).body).toBeNull();
    const confirmed = pref(1, 11, {
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptInConfirmed' }],
    });
    expect(changesOfGpc(pageOf([confirmed])).body).toBeNull();
    // The person's own opt-out stands as it is.
    expect(changesOfGpc(pageOf([pref(1, 11, { PreferenceType: 2 })])).body).toBeNull();
    // An opt-in made again without the confirmation is opted out again.
    const again = pref(1, 11, {
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptOut' }],
    });
    expect(emailPreferences(changesOfGpc(pageOf([again])).body)).toHaveLength(1);
  });

  it('writes nothing when the client marked nothing', () => {
    const unmarked: ClientPresentation = {
      ...presentation,
      programs: presentation.programs.map((p) => ({
        ...p,
        Filters: p.Filters.map((f) => ({ ...f, SaleOrShare: false })),
      })),
    };
    const page = buildCentrePage(
      { Emails: [{ EmailAddress: 'a@b.c', EmailPreferences: [pref(1, 11)] }] } as never,
      unmarked,
      NOW,
    );
    expect(page.saleOrShareMarked).toBe(false);
    expect(changesOfGpc(page).body).toBeNull();
  });

  it('asks for a confirmation before an opt-in of a marked choice under the signal', () => {
    const page = pageOf([pref(1, 11, { PreferenceType: 2 })]);
    const asked = changesOfForm(page, form(page, [11, 21]), { gpc: true });
    expect(asked.body).toBeNull();
    expect(asked.needsConfirmation?.map((c) => c.filterId)).toEqual([11]);

    const confirmed = changesOfForm(page, form(page, [11, 21], { gpcConfirm: '1' }), {
      gpc: true,
    });
    expect(emailPreferences(confirmed.body)).toEqual([
      expect.objectContaining({
        FilterId: '11',
        PreferenceType: 1,
        SourceId: 'PreferenceCentre',
        PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptInConfirmed' }],
      }),
      expect.objectContaining({ FilterId: '21', PreferenceType: 1 }),
    ]);
    expect(emailPreferences(confirmed.body)[1]).not.toHaveProperty('PreferenceAttributes');

    // "No": the other changes only.
    const declined = changesOfForm(page, form(page, [11, 21], { gpcConfirm: '0' }), {
      gpc: true,
    });
    expect(emailPreferences(declined.body)).toEqual([
      expect.objectContaining({ FilterId: '21', PreferenceType: 1 }),
    ]);

    // Without the signal: an ordinary opt-in.
    const plain = changesOfForm(page, form(page, [11]), { gpc: false });
    expect(emailPreferences(plain.body)).toEqual([
      expect.objectContaining({ FilterId: '11', PreferenceType: 1, SourceId: 'PreferenceCentre' }),
    ]);
    expect(emailPreferences(plain.body)[0]).not.toHaveProperty('PreferenceAttributes');
  });

  it('clears a confirmation when the person opts out of what they had confirmed', () => {
    const confirmed = pref(1, 11, {
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptInConfirmed' }],
    });
    const page = pageOf([confirmed]);
    const out = changesOfForm(page, form(page, []), { gpc: false });
    expect(emailPreferences(out.body)).toEqual([
      expect.objectContaining({
        FilterId: '11',
        PreferenceType: 2,
        PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: null }],
      }),
    ]);
    const unsubscribed = changesOfUnsubscribe(page, { kind: 'all' });
    expect(emailPreferences(unsubscribed.body)[0]).toMatchObject({
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: null }],
    });
  });
});

describe('the merge body of the changes', () => {
  it("writes each container's changes under its own list, naming the element by its identity", () => {
    const channels: ClientPresentation = {
      stamp: 's',
      consentTypes: [],
      programs: [
        {
          Id: 3,
          Name: 'Everything',
          ProgramType: 'Marketing',
          IsActive: true,
          Locales: [],
          Filters: [
            filter(31),
            filter(32, { ChannelId: 'Text/SMS' }),
            filter(33, { ChannelId: 'Mail' }),
            filter(34, { ChannelId: 'Solicit' }),
          ],
        },
      ],
    };
    const optIn = (FilterId: number, ChannelId: string) => [pref(3, FilterId, { ChannelId })];
    const page = buildCentrePage(
      partialData({
        Emails: [{ EmailAddress: 'pat@example.com', EmailPreferences: optIn(31, 'Email') }],
        PhoneNumbers: [{ PhoneNumber: '555 0101', PhonePreferences: optIn(32, 'Text/SMS') }],
        Addresses: [
          {
            AddressType: 'Home',
            Address1: '2 Main St',
            PostalCode: '1000',
            AddressPreferences: optIn(33, 'Mail'),
          },
        ],
        ProfilePreferences: optIn(34, 'Solicit'),
      }),
      channels,
      NOW,
    );
    const optOut = (FilterId: number, ChannelId: string) => [
      expect.objectContaining({ FilterId: String(FilterId), ChannelId, PreferenceType: 2 }),
    ];
    const changes = changesOfUnsubscribe(page, { kind: 'all' });
    expect(changes.preferences).toBe(4);
    expect(changes.body).toEqual({
      Emails: [{ EmailAddress: 'pat@example.com', EmailPreferences: optOut(31, 'Email') }],
      PhoneNumbers: [{ PhoneNumber: '555 0101', PhonePreferences: optOut(32, 'Text/SMS') }],
      Addresses: [
        {
          AddressType: 'Home',
          Address1: '2 Main St',
          PostalCode: '1000',
          AddressPreferences: optOut(33, 'Mail'),
        },
      ],
      ProfilePreferences: optOut(34, 'Solicit'),
    });
  });
});

describe('consents held for confirmation (double opt-in)', () => {
  const held = (PendingConfirmation?: { Id: string; RequestedDate: string }) =>
    buildCentrePage(
      partialData({
        Emails: [
          {
            EmailAddress: 'pat@example.com',
            Consents: [
              {
                ConsentType: 'News',
                ConsentStatus: 4,
                IsActive: true,
                ...(PendingConfirmation ? { PendingConfirmation } : {}),
              },
            ],
          },
        ],
      }),
      presentation,
      NOW,
    );
  const tick = (page: ReturnType<typeof held>) => {
    const [consent] = page.consents;
    return changesOfForm(page, {
      [FIELD.consentShown]: consent.id,
      [FIELD.consent(consent.id)]: '1',
    });
  };

  it('shows a grant waiting for its confirmation unticked, with the masked address', () => {
    const [consent] = held({ Id: 'c1', RequestedDate: NOW.toISOString() }).consents;
    expect(consent).toMatchObject({
      granted: false,
      awaitingConfirmation: { address: 'p***@example.com' },
    });
    expect(held().consents[0].awaitingConfirmation).toBeUndefined();
  });

  it('grants a ticked consent (and says which), but not again while its confirmation is pending', () => {
    const page = held();
    const granted = tick(page);
    expect(granted.asked).toEqual([page.consents[0].id]);
    expect(granted.body?.Emails?.[0].Consents).toEqual([
      expect.objectContaining({ ConsentType: 'News', ConsentStatus: 1 }),
    ]);
    const pending = tick(held({ Id: 'c1', RequestedDate: NOW.toISOString() }));
    expect(pending).toMatchObject({ body: null, consents: 0 });
    expect(pending.asked).toBeUndefined();
  });
});

describe('opt-ins held for confirmation (double opt-in)', () => {
  const pending = { Id: 'p1', RequestedDate: NOW.toISOString() };
  // The hold keeps what was stored (nothing: no PreferenceType) and adds the mark.
  const held = (PendingConfirmation?: typeof pending) =>
    buildCentrePage(
      partialData({
        Emails: [
          {
            EmailAddress: 'pat@example.com',
            EmailPreferences: PendingConfirmation
              ? [{ ProgramId: '2', ChannelId: 'Email', FilterId: '21', PendingConfirmation }]
              : [],
          },
        ],
      }),
      presentation,
      NOW,
    );
  const news = (page: CentrePage) => page.programs.find((p) => p.programId === 2)!.choices[0];
  const tick = (page: CentrePage) => {
    const choice = news(page);
    return changesOfForm(page, { [FIELD.shown]: choice.id, [FIELD.optIn(choice.id)]: '1' });
  };

  it('shows an opt-in waiting for its confirmation unticked, with the masked address', () => {
    expect(news(held(pending))).toMatchObject({
      optedIn: false,
      awaitingConfirmation: { address: 'p***@example.com' },
    });
    expect(news(held()).awaitingConfirmation).toBeUndefined();
  });

  it('asks for a ticked opt-in (and says which), but not again while its confirmation is pending', () => {
    const page = held();
    const asked = tick(page);
    expect(asked.asked).toEqual([news(page).id]);
    expect(asked.body?.Emails?.[0].EmailPreferences).toEqual([
      expect.objectContaining({ ProgramId: '2', FilterId: '21', PreferenceType: 1 }),
    ]);
    const again = tick(held(pending));
    expect(again).toMatchObject({ body: null, preferences: 0 });
    expect(again.asked).toBeUndefined();
  });
});
