import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { notAddressedById, recordEngineCommands } from '../harness/engine-commands';
import { NAME_CLAIM_GRACE_MS } from '../../libs/config/src/common/config-bookkeeping.repository';
import { localized, testConsentType } from '../harness/configuration';
import { useTenantApp } from '../harness/session';

/**
 * A configuration create or rename claims the name first (`config_claims`, `_id` per name)
 * and stores the entry after. A process that dies in between leaves the claim without an
 * entry holding the name: such a claim blocks the name only for
 * NAME_CLAIM_GRACE_MS, then the next create or rename of that name takes it over. A claim
 * younger than that (a create in flight) and a claim whose entry holds the name still win.
 * The state a crash leaves is written directly: the claim, without its entry.
 */
describe('Configuration name claims left by a crash', () => {
  const suite = useTenantApp({ workers: 0, env: { MONITOR_ENGINE_COMMANDS: 'true' } });
  let db: Connection;
  const base = () => `/Profiles/v4/${suite.tenant.clientId}`;
  const long = () => new Date(Date.now() - NAME_CLAIM_GRACE_MS - 1000);

  /** The claim a create of `name` left when it died before storing its entry. */
  const leftClaim = (kind: string, name: string, entryId: number, claimedAt: Date | null) =>
    db.collection('config_claims').insertOne({
      _id: `${suite.tenant.clientId}|${kind}|name:${name.toLowerCase()}`,
      clientId: suite.tenant.clientId,
      kind,
      entryId,
      ...(claimedAt ? { claimedAt } : {}),
    } as object);

  const createConsentType = (TypeName: string) =>
    request(suite.app.http)
      .post(`${base()}/ConsentTypes`)
      .set('Authorization', suite.auth)
      .send({ ConsentTypes: [testConsentType(TypeName)] });
  const createTextFields = (names: string[]) =>
    request(suite.app.http)
      .post(`${base()}/CustomFields/Text`)
      .set('Authorization', suite.auth)
      .send({
        TextFields: names.map((Name) => ({ Name, LocalizedDisplayNames: localized(Name) })),
      });
  const renameConsentType = (id: number, TypeName: string) =>
    request(suite.app.http)
      .patch(`${base()}/ConsentTypes/${id}`)
      .set('Authorization', suite.auth)
      .set('Content-Type', 'application/json-patch+json')
      .send(JSON.stringify([{ op: 'replace', path: '/TypeName', value: TypeName }]));

  beforeAll(() => {
    db = suite.app.api.get<Connection>(getConnectionToken());
  });

  it('a create takes the id after the highest claimed, found by `_id` reads of the claims', async () => {
    const first: number = (await createConsentType('Ids-first').expect(201)).body.ConsentTypes[0]
      .TypeId;
    // Ids another api process claimed since (this one never saw them).
    const claimedElsewhere = Array.from({ length: 5 }, (_, n) => first + 1 + n);
    await db.collection('config_claims').insertMany(
      claimedElsewhere.map((id) => ({
        _id: `${suite.tenant.clientId}|consent-type|id:${id}`,
        clientId: suite.tenant.clientId,
        kind: 'consent-type',
        entryId: id,
      })) as object[],
    );
    let next = 0;
    const commands = await recordEngineCommands([suite.app.api], async () => {
      next = (await createConsentType('Ids-next').expect(201)).body.ConsentTypes[0].TypeId;
    });
    expect(next).toBe(first + 6);
    // Any other filter decodes every claim of every client on the embedded engine.
    const claimReads = commands.filter(
      (c) => c.collection === 'config_claims' && c.name === 'find',
    );
    expect(claimReads.length).toBeGreaterThan(0);
    expect(notAddressedById(claimReads)).toEqual([]);
  });

  it('a consent type name whose create died after its claim can be created once the claim is old', async () => {
    await leftClaim('consent-type', 'ghost', 901, long());
    const res = await createConsentType('Ghost').expect(201);
    expect(res.body.ConsentTypes[0].TypeName).toBe('Ghost');
    // A claim stored before claims carried their time counts as old too.
    await leftClaim('consent-type', 'phantom', 902, null);
    await createConsentType('Phantom').expect(201);
  });

  it('a claim younger than the grace period is respected (a create may be in flight)', async () => {
    await leftClaim('consent-type', 'inflight', 903, new Date());
    const res = await createConsentType('InFlight').expect(409);
    expect(res.body.Message).toContain('InFlight');
  });

  it('a name claimed by a rename that died before its save is free again, for a create and for a rename', async () => {
    const first = await createConsentType('Alpha').expect(201);
    const alphaId: number = first.body.ConsentTypes[0].TypeId;
    // Alpha's rename to Beta claimed "beta", then died before it saved the entry.
    await leftClaim('consent-type', 'beta', alphaId, long());
    await createConsentType('Beta').expect(201);

    await leftClaim('consent-type', 'gamma', alphaId, long());
    const other = await createConsentType('Delta').expect(201);
    const renamed = await renameConsentType(other.body.ConsentTypes[0].TypeId, 'Gamma').expect(200);
    expect(renamed.body.ConsentTypes[0].TypeName).toBe('Gamma');
  });

  it('an old claim whose entry holds the name, as its name or a former one, still wins', async () => {
    const held = await createConsentType('Epsilon').expect(201);
    const heldId: number = held.body.ConsentTypes[0].TypeId;
    await db
      .collection('config_claims')
      .updateOne({ _id: `${suite.tenant.clientId}|consent-type|name:epsilon` } as object, {
        $set: { claimedAt: long() },
      });
    const other = await createConsentType('Zeta').expect(201);
    const otherId: number = other.body.ConsentTypes[0].TypeId;
    const res = await renameConsentType(otherId, 'Epsilon').expect(409);
    expect(res.body.Message).toContain('Epsilon');
    // Renamed, Epsilon keeps its former name: an old claim of it still wins.
    await renameConsentType(heldId, 'Eta').expect(200);
    await renameConsentType(otherId, 'Epsilon').expect(409);
    await createConsentType('epsilon').expect(409);
  });

  it('a create of many entries whose one name is taken creates none and leaves the other names free', async () => {
    await leftClaim('custom-field', 'taken', 904, new Date());
    const res = await createTextFields(['One', 'Two', 'Taken', 'Three']).expect(409);
    expect(res.body.Message).toContain('"Taken"');
    const created = await createTextFields(['One', 'Two', 'Three']).expect(201);
    expect(created.body.TextFields.map((field: { Name: string }) => field.Name)).toEqual([
      'One',
      'Two',
      'Three',
    ]);
  });

  it('concurrent creates of many entries get distinct ids, each in the order of its body', async () => {
    const bodies = ['p', 'q', 'r'].map((prefix) =>
      Array.from({ length: 12 }, (_, n) => `${prefix}${n}`),
    );
    const results = await Promise.all(bodies.map((names) => createTextFields(names)));
    const ids: number[] = [];
    for (const [index, res] of results.entries()) {
      expect(res.status).toBe(201);
      const fields = res.body.TextFields as { Id: number; Name: string }[];
      expect(fields.map((field) => field.Name)).toEqual(bodies[index]);
      const own = fields.map((field) => field.Id);
      expect(own).toEqual([...own].sort((a, b) => a - b));
      ids.push(...own);
    }
    expect(new Set(ids).size).toBe(36);
  });
});
