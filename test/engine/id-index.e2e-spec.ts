import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { createTestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engines = require('../../scripts/lib/engines.js');

/** "<db> <collection> <table>: <plan>" per collection table (tools/ferretdb explain-id). */
function plans(dataDir: string): Map<string, string> {
  // A line per collection of every test database the shared engine holds: past the default
  // 1 MB of output late in a full run (ENOBUFS).
  const out = execFileSync(
    engines.FERRETDB_BIN,
    ['explain-id', '--sqlite-url', `file:${dataDir}/`],
    {
      maxBuffer: 256 * 1024 * 1024,
    },
  )
    .toString()
    .trim();
  const byCollection = new Map<string, string>();
  for (const line of out ? out.split('\n') : []) {
    const [db, collection] = line.split(' ');
    byCollection.set(`${db}.${collection}`, line.slice(line.indexOf(': ') + 2));
  }
  return byCollection;
}

const usesIdIndex = (plan: string | undefined) =>
  /USING INDEX \S+_pcp_id \(<expr>=\?\)/.test(plan ?? '');

/**
 * On the embedded engine an `_id` lookup is O(1) only with an index on the
 * exact expression FerretDB's `_id` filter uses; our engine wrapper (tools/ferretdb/idindex.go)
 * adds one to every collection table. SQLite's query plan tells whether a lookup uses it.
 */
const onEmbeddedEngine = !process.env.MONGODB_URI;
(onEmbeddedEngine ? describe : describe.skip)(
  'The embedded engine: _id lookups use an index',
  () => {
    const dataDir = process.env.TEST_ENGINE_DATA_DIR!;
    let app: TestApp;
    let dbName: string;

    beforeAll(async () => {
      app = await startTestApp();
      dbName = new URL(app.settings.mongodbUri).pathname.slice(1);
    });
    afterAll(() => app?.close());

    it('indexes every collection the service writes, as it creates them', async () => {
      const tenant = await createTestTenant(app);
      await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/ConsentStatus`)
        .set('Authorization', await tenant.bearer())
        .expect(200);
      const ours = await eventually(async () => {
        const mine = [...plans(dataDir)].filter(([name]) => name.startsWith(`${dbName}.`));
        return mine.length && mine.every(([, plan]) => usesIdIndex(plan)) ? mine : undefined;
      });
      expect(ours.map(([name]) => name)).toEqual(
        expect.arrayContaining([`${dbName}.clients`, `${dbName}.users`, `${dbName}.oauth_clients`]),
      );
    });

    it('indexes a collection created while the engine runs', async () => {
      const connection = app.api.get<Connection>(getConnectionToken());
      const name = `late_${Date.now()}`;
      await connection.db!.collection<{ _id: string }>(name).insertOne({ _id: 'k|1' });
      const plan = await eventually(async () => {
        const found = plans(dataDir).get(`${dbName}.${name}`);
        return usesIdIndex(found) ? found : undefined;
      });
      expect(plan).toMatch(/SEARCH/);
    });

    it('indexes, at start, tables an engine without the index step created', async () => {
      const dir = join(mkdtempSync(join(tmpdir(), 'pcp-idx-')), 'engine');
      const bare = await engines.startFerretdb({ dataDir: dir, extraArgs: ['--no-id-index'] });
      const client = await MongoClient.connect(bare.uri);
      await client.db('old').collection<{ _id: string }>('profiles').insertOne({ _id: 'c|1' });
      await client.close();
      expect(usesIdIndex(plans(dir).get('old.profiles'))).toBe(false);
      await engines.stop(bare.child);

      const restarted = await engines.startFerretdb({ dataDir: dir });
      try {
        // Indexed before the engine opened its port: no waiting.
        expect(usesIdIndex(plans(dir).get('old.profiles'))).toBe(true);
      } finally {
        await engines.stop(restarted.child);
      }
    });
  },
);
