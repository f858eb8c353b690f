import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { tenantKey } from '@app/shared';
import { eventually } from '../harness/test-app';
import type { HistoryEntry } from '../../libs/profiles/src/domain/profile-history';
import type { Profile } from '../../libs/profiles/src/domain/profile.schema';
import { trustedTail } from '../../libs/profiles/src/apply/apply-profile-writes/pipeline/record.stage';
import { ProfileHistoryRepository } from '../../libs/profiles/src/persistence/profile-history.repository';
import { useHistorySuite } from './history-helpers';

/**
 * Historical retrieval (see profile-history.e2e-spec.ts) and the writes that leave no
 * history: a deleted profile's, a write the worker refused, a tag removal, a write refused
 * when applied after an earlier attempt recorded it, and a write not applied yet.
 */
describe('Profile history: what a write leaves', () => {
  const suite = useHistorySuite();
  const { base, get, complete, history, entries, create } = suite;

  it('answers 404 once the profile is deleted, and keeps none of its history', async () => {
    const alternateId = `D-${randomBytes(4).toString('hex')}`;
    const doomed = await create({
      CustomFields: [{ Name: 'Tier', Value: 'Gold' }],
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: alternateId }],
    });
    expect(await entries(`${doomed}/History/CustomFields`)).toHaveLength(1);
    await request(suite.app.http)
      .delete(`${base()}/${doomed}`)
      .set('Authorization', suite.auth)
      .expect(204);
    for (const category of [
      'StandardFields',
      'CustomFields',
      'ContactElements',
      'Preferences',
      'Consents',
    ]) {
      await history(`${doomed}/History/${category}`).expect(404);
      await history(
        `AlternateId/History/${category}?alternateIdType=CRM&alternateId=${alternateId}`,
      ).expect(404);
    }
    // The pages go in the stage after the save (the 204 waits for the save, not for it).
    const db = suite.app.api.get<Connection>(getConnectionToken());
    const left = () =>
      db
        .collection('profile_history')
        .countDocuments({ _id: { $regex: `^${suite.tenant.clientId}\\|${doomed}\\|` } } as object);
    await eventually(async () => ((await left()) === 0 ? true : undefined));
    expect(await left()).toBe(0);
  });

  it('records nothing for a write the worker refused, nor for a tag removal', async () => {
    const tag = `t${randomBytes(4).toString('hex')}`;
    const profileId = await create({
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
      ProfileTags: [{ Name: tag }],
    });
    const before = await entries(`${profileId}/History/StandardFields`);
    expect(before).toHaveLength(1);
    // A patch whose test fails: the worker refuses the whole write (400, nothing changes).
    await request(suite.app.http)
      .patch(`${base()}/${profileId}`)
      .set('Authorization', suite.auth)
      .set('Content-Type', 'application/json-patch+json')
      .send(
        JSON.stringify([
          { op: 'replace', path: '/CustomerName/FirstName', value: 'Zed' },
          { op: 'test', path: '/CustomerName/LastName', value: 'Nope' },
        ]),
      )
      .expect(400);
    const updates = await request(suite.app.http)
      .get(`${base()}/${profileId}/Updates`)
      .set('Authorization', suite.auth)
      .expect(200);
    expect(updates.body.Updates[0]).toMatchObject({ Operation: 'patch', Status: 'Failed' });
    expect(await entries(`${profileId}/History/StandardFields`)).toEqual(before);
    // A tag removal (a queued system write) is no history either.
    await request(suite.app.http)
      .delete(`/Profiles/v4/${suite.tenant.clientId}/Tags/${tag}`)
      .set('Authorization', suite.auth)
      .expect(204);
    await eventually(async () => {
      const res = await get(profileId);
      return res.body.UpdateStatus === 'Complete' && !res.body.ProfileTags?.length
        ? true
        : undefined;
    });
    expect(await entries(`${profileId}/History/StandardFields`)).toEqual(before);
  });

  /**
   * Records a standard-field entry for write `seq` as a worker's attempt would before its
   * save (on the pages the profile counts), without the save: what a crash leaves.
   */
  async function orphanEntry(profileId: number, seq: number, firstName: string): Promise<void> {
    const db = suite.app.api.get<Connection>(getConnectionToken());
    const stored = await db
      .collection<Pick<Profile, 'historyPages' | 'historyTail' | 'appliedSeq'> & { _id: string }>(
        'profiles',
      )
      .findOne({ _id: `${suite.tenant.clientId}|${profileId}` });
    const entries: HistoryEntry[] = [
      {
        _id: tenantKey(suite.tenant.clientId, profileId, seq, 0),
        clientId: suite.tenant.clientId,
        profileId,
        seq,
        n: 0,
        category: 'standard',
        modifiedAt: new Date().toISOString(),
        snapshot: {
          IsActive: true,
          CustomerType: 'Customer',
          CustomerName: { FirstName: firstName },
        },
      },
    ];
    await suite.app.api.get(ProfileHistoryRepository).recordPass(
      suite.tenant.clientId,
      profileId,
      {
        pages: stored?.historyPages ?? 0,
        tail: stored ? trustedTail(stored as Profile) : undefined,
      },
      { fromSeq: seq, toSeq: seq, entries, erases: false },
    );
  }

  it('records nothing for a write refused when applied, even after an earlier attempt recorded it', async () => {
    await request(suite.app.http)
      .post(`/Profiles/v4/${suite.tenant.clientId}/CustomFields/Text`)
      .set('Authorization', suite.auth)
      .send({
        TextFields: [
          {
            Name: 'FirstSeen',
            LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'FirstSeen' }],
            UpdateRuleId: 2,
          },
        ],
      })
      .expect(201);
    const profileId = await create({ CustomerName: { FirstName: 'Ann' } });
    await suite.app.stopWorker(suite.app.workers[0]);
    try {
      // FirstSeen may only be set while blank: both merges pass acceptance (blank now) ...
      for (const [value, firstName] of [
        ['2026-01-01', 'Bea'],
        ['2026-02-02', 'Cy'],
      ]) {
        await request(suite.app.http)
          .post(`${base()}/${profileId}`)
          .set('Authorization', suite.auth)
          .send({
            CustomerName: { FirstName: firstName },
            CustomFields: [{ Name: 'FirstSeen', Value: value }],
          })
          .expect(202);
      }
      // ... an attempt at seq 3 recorded its entry and crashed before saving ...
      await orphanEntry(profileId, 3, 'Cy');
    } finally {
      await suite.app.startWorker();
    }
    // ... and the worker applies seq 2 and refuses seq 3: its entry must not appear.
    await complete(profileId);
    const updates = await request(suite.app.http)
      .get(`${base()}/${profileId}/Updates`)
      .set('Authorization', suite.auth)
      .expect(200);
    expect(updates.body.Updates[0]).toMatchObject({ Sequence: 3, Status: 'Failed' });
    const standard = await entries(`${profileId}/History/StandardFields`);
    expect(standard.map((entry) => entry.CustomerName.FirstName)).toEqual(['Ann', 'Bea']);
    const fields = await entries(`${profileId}/History/CustomFields`);
    expect(fields.map((entry) => entry.CustomFields[0].Value)).toEqual(['2026-01-01']);
  });

  it('never shows a write that is not applied yet, and agrees with GET once it is', async () => {
    const profileId = await create({ CustomerName: { FirstName: 'Ann', LastName: 'Lee' } });
    const worker = suite.app.workers[0];
    await suite.app.stopWorker(worker);
    try {
      await request(suite.app.http)
        .post(`${base()}/${profileId}`)
        .set('Authorization', suite.auth)
        .send({
          CustomerName: { FirstName: 'Zoe' },
          CustomFields: [{ Name: 'Tier', Value: 'New' }],
        })
        .expect(202);
      // What a worker that crashed (or lost the race) between recording and saving seq 2
      // leaves behind: an entry above the profile's appliedSeq.
      await orphanEntry(profileId, 2, 'Ghost');
      const pending = await get(profileId).expect(200);
      expect(pending.body.UpdateStatus).toBe('Pending Update');
      const standard = await entries(`${profileId}/History/StandardFields`);
      expect(standard.map((entry) => entry.CustomerName.FirstName)).toEqual(['Ann']);
      expect(await entries(`${profileId}/History/CustomFields`)).toEqual([]);
    } finally {
      await suite.app.startWorker();
    }
    const profile = await complete(profileId);
    // The applied write's entry replaced the orphan of the same _id.
    const standard = await entries(`${profileId}/History/StandardFields`);
    expect(standard.map((entry) => entry.CustomerName.FirstName)).toEqual(['Ann', 'Zoe']);
    const last = standard[standard.length - 1];
    for (const field of [
      'ProfileId',
      'IsActive',
      'RegistrationConfirmed',
      'CustomerType',
      'PreserveConsents',
      'PreservePreferences',
      'CustomerName',
      'DefaultLocale',
      'ReasonCode',
      'Edited',
    ]) {
      expect({ [field]: last[field] }).toEqual({ [field]: profile[field] });
    }
    expect((await entries(`${profileId}/History/CustomFields`))[0].CustomFields).toEqual(
      profile.CustomFields,
    );
  });
});
