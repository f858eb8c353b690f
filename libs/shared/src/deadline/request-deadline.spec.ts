import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { Settings } from '../settings/settings';
import { enforceRequestDeadlines } from './request-deadline';

/**
 * The deadline against an answer whose sending is under way: an onSend hook registered after it
 * (the idempotency hook keeping the answer in Redis) may take past the deadline. The answer the
 * route gave goes out; the deadline sends no 503 over it (that second send made Node throw
 * ERR_HTTP_HEADERS_SENT when the first one wrote its headers, and the api process died).
 */
describe('enforceRequestDeadlines', () => {
  let fastify: FastifyInstance;
  let origin: string;

  beforeAll(async () => {
    fastify = Fastify();
    const settings = new Settings({
      MONGODB_URI: 'mongodb://127.0.0.1/unused',
      REDIS_URL: 'redis://127.0.0.1',
      REQUEST_DEADLINE_MS: '100',
    });
    enforceRequestDeadlines(fastify, settings);
    fastify.addHook('onSend', async (request, _reply, payload) => {
      if (request.headers['x-slow-send']) await sleep(600);
      return payload;
    });
    fastify.get('/quick', async () => ({ answered: 'by the route' }));
    fastify.get('/slow', async () => {
      await sleep(600);
      return { answered: 'by the route' };
    });
    origin = await fastify.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(() => fastify.close());

  it('lets an answer whose sending began go out, past the deadline', async () => {
    const response = await fetch(`${origin}/quick`, { headers: { 'x-slow-send': '1' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ answered: 'by the route' });
    // The process is still serving (no exception from a second send).
    expect((await fetch(`${origin}/quick`)).status).toBe(200);
  });

  it('still answers 503 to a route that has not answered by its deadline', async () => {
    const response = await fetch(`${origin}/slow`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).not.toBeNull();
  });
});
