'use strict';
// The bare baselines of `npm run bench`, one process (its CPU is measured like the
// service's): what each measured path would cost with nothing but the unavoidable work.
//   GET  /get/:key   verifies the same HS256 bearer token, returns the JSON stored at :key
//                    in Redis (one GET): the physical limit of a profile read.
//   POST /accept     a Bull `add` of the body, then 202: the limit of an in-memory acceptance.
//   POST /accept-durable  the limit of a durable acceptance: the body validated against the
//                    profile body's schema from openapi.json (ProfileDto, compiled once with
//                    Ajv, as Fastify compiles its route schemas), inserted into the same engine
//                    (group commit: the inserts arriving in one turn of the event loop go in
//                    one unordered insertMany), then a Bull `add` on the same Redis, then 202.
//   GET  /get-signed/:client/:key  checks a CUSTOMAUTH3 header as the service's clients sign
//                    it (one HMAC-SHA256 with the tenant's APIHashKey, read once from Redis
//                    at `baseline:hmac-key`), returns the JSON at :key: the limit of a signed
//                    read.
//   POST /token      parses the same form body (client credentials), then signs the same HS256
//                    token: the limit of the token endpoint (a request's body is read by any
//                    server that answers it).
// Env: PORT, REDIS_URL, JWT_SECRET, QUEUE_PREFIX, MONGODB_URI (the engine, for /accept-durable),
// REDIS_CLUSTER_NODES (a Redis Cluster, as the service takes it: cluster clients, and Bull's
// queue under a hash-tagged prefix, its documented way on a cluster).
const Fastify = require('fastify');
const Queue = require('bull');
const Redis = require('ioredis');
const jwt = require('jsonwebtoken');
const { createSecretKey, randomUUID } = require('node:crypto');
const { bearerClaims, signedUserId } = require('./baseline-checks');
const querystring = require('node:querystring');
const path = require('node:path');
const Ajv = require('ajv');
const addFormats = require('ajv-formats');
const { MongoClient } = require('mongodb');

const {
  PORT,
  REDIS_URL,
  QUEUE_PREFIX = 'baseline',
  MONGODB_URI,
  REDIS_CLUSTER_NODES,
} = process.env;
const CLUSTER_NODES = REDIS_CLUSTER_NODES ? REDIS_CLUSTER_NODES.split(',') : null;

/** A connection to the Redis the service uses: one server, or a cluster client. */
function connect(options = {}) {
  return CLUSTER_NODES
    ? new Redis.Cluster(CLUSTER_NODES, { enableAutoPipelining: true, ...options })
    : new Redis(REDIS_URL, options);
}

/** Bull's queue: from the URL on one Redis; on a cluster, cluster connections and a tag. */
function makeQueue() {
  if (!CLUSTER_NODES) return new Queue('baseline', REDIS_URL, { prefix: QUEUE_PREFIX });
  return new Queue('baseline', {
    prefix: `{${QUEUE_PREFIX}}`,
    createClient: (type) =>
      connect({
        enableReadyCheck: false,
        ...(type === 'client' ? {} : { maxRetriesPerRequest: null }),
      }),
  });
}
// A KeyObject, as the service uses: a string key costs a failed PEM parse per call.
const JWT_SECRET = createSecretKey(Buffer.from(process.env.JWT_SECRET, 'utf8'));

async function main() {
  const redis = connect();
  const queue = makeQueue();
  const app = Fastify({ logger: false });

  app.get('/get/:key', async (request, reply) => {
    if (!bearerClaims(request.headers.authorization, JWT_SECRET)) {
      return reply.code(401).send({ Message: 'invalid token' });
    }
    const body = await redis.get(request.params.key);
    if (body === null) return reply.code(404).send({ Message: 'not found' });
    return reply.type('application/json').send(body);
  });

  let hmacKey = null;
  app.get('/get-signed/:client/:key', async (request, reply) => {
    hmacKey ??= await redis.get('baseline:hmac-key');
    if (!signedUserId(request.headers.authorization, request.params.client, hmacKey)) {
      return reply.code(401).send({ Message: 'invalid signature' });
    }
    const body = await redis.get(request.params.key);
    if (body === null) return reply.code(404).send({ Message: 'not found' });
    return reply.type('application/json').send(body);
  });

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, querystring.parse(body)),
  );

  app.post('/accept', async (request, reply) => {
    await queue.add('apply', { body: request.body }, { removeOnComplete: true });
    return reply.code(202).send({ UpdateStatus: 'Pending Update' });
  });

  if (MONGODB_URI) {
    const validate = compileProfileBodySchema();
    const mongo = await MongoClient.connect(MONGODB_URI);
    const writes = mongo.db().collection('baseline_writes');
    const insert = groupCommit(writes);
    let seq = 0;
    app.post('/accept-durable', async (request, reply) => {
      if (!validate(request.body)) {
        const message = validate.errors
          .map((e) => `Invalid ${e.instancePath || 'body'}: ${e.message}`)
          .join('; ');
        return reply.code(400).send({ Message: message });
      }
      const id = `${process.pid}|${++seq}`;
      await insert({ _id: id, body: request.body, at: new Date() });
      await queue.add('apply', { id }, { removeOnComplete: true });
      return reply.code(202).send({ UpdateStatus: 'Pending Update' });
    });
  }

  app.post('/token', async (request, reply) => {
    if (request.body?.grant_type !== 'client_credentials') {
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    }
    const now = Math.floor(Date.now() / 1000);
    const access_token = jwt.sign(
      {
        sub: 'bench',
        cid: 'bench',
        jti: randomUUID(),
        scope: 'bench/bench',
        iat: now,
        exp: now + 3600,
      },
      JWT_SECRET,
      { algorithm: 'HS256' },
    );
    return { access_token, token_type: 'Bearer', expires_in: 3600, scope: 'bench/bench' };
  });

  // Exits normally on a signal, so `--cpu-prof` (BENCH_NODE_ARGS) writes its profile.
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
  await app.listen({ port: Number(PORT), host: '127.0.0.1' });
  process.stdout.write('baseline ready\n');
}

/** The profile body's schema of the API document (ProfileDto), compiled once. */
function compileProfileBodySchema() {
  const document = require(path.join(__dirname, '..', '..', 'openapi.json'));
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (value) => Number.isInteger(value) && Math.abs(value) <= 2 ** 31,
  });
  ajv.addSchema({ components: document.components }, 'openapi.json');
  return ajv.compile({ $ref: 'openapi.json#/components/schemas/ProfileDto' });
}

/** insert(doc): the documents of one turn of the event loop go in one unordered insertMany. */
function groupCommit(collection) {
  let batch = null;
  return (doc) =>
    new Promise((resolve, reject) => {
      if (!batch) {
        const current = (batch = []);
        setImmediate(() => {
          batch = null;
          collection
            .insertMany(
              current.map((entry) => entry.doc),
              { ordered: false },
            )
            .then(
              () => current.forEach((entry) => entry.resolve()),
              (error) => current.forEach((entry) => entry.reject(error)),
            );
        });
      }
      batch.push({ doc, resolve, reject });
    });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
