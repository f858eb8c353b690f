'use strict';
// The bare baselines of `npm run bench`, one process (its CPU is measured like the
// service's): what each measured path would cost with nothing but the unavoidable work.
//   GET  /get/:key   verifies the same HS256 bearer token, returns the JSON stored at :key
//                    in Redis (one GET): the physical limit of a profile read.
//   POST /accept     a Bull `add` of the body, then 202: the limit of write acceptance.
//   POST /token      signs the same HS256 token: the limit of the token endpoint.
// Env: PORT, REDIS_URL, JWT_SECRET, QUEUE_PREFIX.
const Fastify = require('fastify');
const Queue = require('bull');
const Redis = require('ioredis');
const jwt = require('jsonwebtoken');
const { createSecretKey, randomUUID } = require('node:crypto');

const { PORT, REDIS_URL, QUEUE_PREFIX = 'baseline' } = process.env;
// A KeyObject, as the service uses: a string key costs a failed PEM parse per call.
const JWT_SECRET = createSecretKey(Buffer.from(process.env.JWT_SECRET, 'utf8'));

async function main() {
  const redis = new Redis(REDIS_URL);
  const queue = new Queue('baseline', REDIS_URL, { prefix: QUEUE_PREFIX });
  const app = Fastify({ logger: false });

  app.get('/get/:key', async (request, reply) => {
    const token = (request.headers.authorization || '').replace(/^Bearer /, '');
    try {
      jwt.verify(token, JWT_SECRET, { algorithms: ['HS256'] });
    } catch {
      return reply.code(401).send({ Message: 'invalid token' });
    }
    const body = await redis.get(request.params.key);
    if (body === null) return reply.code(404).send({ Message: 'not found' });
    return reply.type('application/json').send(body);
  });

  app.post('/accept', async (request, reply) => {
    await queue.add('apply', { body: request.body }, { removeOnComplete: true });
    return reply.code(202).send({ UpdateStatus: 'Pending Update' });
  });

  app.post('/token', async () => {
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

  await app.listen({ port: Number(PORT), host: '127.0.0.1' });
  process.stdout.write('baseline ready\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
