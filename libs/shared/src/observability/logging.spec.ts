import { Logger } from '@nestjs/common';
import Fastify from 'fastify';
import { type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import {
  createNestLogger,
  createRootLogger,
  installRequestLogging,
  loggedUrl,
  redirectLogs,
  requestIdOf,
} from './logging';

/** A root logger writing into `lines` (one parsed JSON object per line). */
function captured(level: 'log' | 'verbose' = 'verbose') {
  const lines: Record<string, unknown>[] = [];
  redirectLogs(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  try {
    return { root: createRootLogger({ logLevels: [level] }, 'test'), lines };
  } finally {
    redirectLogs(undefined);
  }
}

/** Polls `check` (the answer is sent before its log line is written). */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('request ids', () => {
  it('takes a sane X-Request-Id and replaces anything else', () => {
    expect(requestIdOf('abc-DEF_1.2')).toBe('abc-DEF_1.2');
    expect(requestIdOf('x'.repeat(128))).toBe('x'.repeat(128));
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const bad of ['x'.repeat(129), 'a b', 'a\nb', '', 'ü', 'a,b', undefined])
      expect(requestIdOf(bad)).toMatch(uuid);
    expect(requestIdOf(['a', 'b'])).toMatch(uuid);
  });
});

describe('logged URLs', () => {
  it('masks the values of parameters that may carry a secret', () => {
    expect(loggedUrl('/oauth2/v1/token?client_secret=s3&client_id=c&grant_type=x')).toBe(
      '/oauth2/v1/token?client_secret=[Redacted]&client_id=c&grant_type=x',
    );
    expect(loggedUrl('/p?access_token=t&Signature=x&apiKey=k&password=p&page=2')).toBe(
      '/p?access_token=[Redacted]&Signature=[Redacted]&apiKey=[Redacted]&password=[Redacted]&page=2',
    );
    expect(loggedUrl('/Profiles/v4/c/Profile/1')).toBe('/Profiles/v4/c/Profile/1');
    expect(loggedUrl('/p?%74oken=t')).toBe('/p?%74oken=[Redacted]');
  });
});

describe('redaction', () => {
  it('never writes credentials, token fields or the JWT key', () => {
    const { root, lines } = captured();
    root.info({
      req: { headers: { authorization: 'Bearer abc', cookie: 'c=1' } },
      client_secret: 'cs',
      body: { password: 'pw', access_token: 'at' },
      env: { JWT_SECRET: 'jwt' },
    });
    const text = JSON.stringify(lines);
    for (const secret of ['Bearer abc', 'c=1', '"cs"', '"pw"', '"at"', '"jwt"'])
      expect(text).not.toContain(secret);
    expect(text).toContain('[Redacted]');
  });

  it('maps LOG_LEVEL names to pino levels', () => {
    const { root } = captured('log');
    expect(root.level).toBe('info');
    expect(captured('verbose').root.level).toBe('trace');
  });
});

describe('request logging', () => {
  it('binds the request id to every line of the request, a POST with a body included', async () => {
    const { root, lines } = captured();
    const nest = createNestLogger(root);
    Logger.overrideLogger(nest);
    const fastify = Fastify();
    installRequestLogging(fastify, root);
    const logger = new Logger('Probe');
    fastify.post('/things', async (request) => {
      // After the body was read in stream callbacks (which lose the async context).
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.log(`handling ${JSON.stringify(request.body)}`);
      return { ok: true };
    });
    fastify.get('/health/live', async () => ({ status: 'ok' }));
    // A real socket: Fastify reads a body in socket callbacks, outside the request's context.
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as AddressInfo;
    // The body is sent 50 ms after the headers, as a slow client's (or a large body's) would
    // arrive: the handler then runs from the socket's callback, not from the request's.
    const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const text = body === undefined ? undefined : JSON.stringify(body);
        const sent = request(
          {
            host: '127.0.0.1',
            port,
            method,
            path,
            headers: text
              ? {
                  ...headers,
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(text),
                }
              : headers,
          },
          (response) => {
            response.resume();
            resolve(response);
          },
        );
        sent.on('error', reject);
        sent.flushHeaders();
        setTimeout(() => sent.end(text), text ? 50 : 0);
      });
    try {
      const given = await send(
        'POST',
        '/things?client_secret=hidden',
        { 'x-request-id': 'req-42', authorization: 'Bearer secret-token' },
        { name: 'a', password: 'never-logged' },
      );
      expect(given.headers['x-request-id']).toBe('req-42');
      const generated = await send('POST', '/things', {}, {});
      const generatedId = generated.headers['x-request-id'];
      expect(generatedId).toMatch(/^[0-9a-f-]{36}$/);
      await send('GET', '/health/live', {});
      await eventually(() => lines.filter((line) => line.res).length === 2);

      const handling = lines.filter((line) => line.context === 'Probe');
      expect(handling.map((line) => line.reqId)).toEqual(['req-42', generatedId]);
      const completed = lines.filter((line) => line.res);
      expect(completed).toHaveLength(2); // the probe is not logged
      expect(completed[0]).toMatchObject({
        level: 'info',
        reqId: 'req-42',
        req: { method: 'POST', url: '/things?client_secret=[Redacted]' },
        res: { statusCode: 200 },
      });
      const text = JSON.stringify(lines.filter((line) => line.reqId === 'req-42'));
      expect(text).not.toMatch(/secret-token|hidden/);
      // Bodies are never logged by the request logging (the handler above chose to).
      expect(JSON.stringify(completed)).not.toContain('never-logged');
    } finally {
      await fastify.close();
      Logger.overrideLogger(['error']);
    }
  });

  it('at LOG_LEVEL log, binds no line to the request but its completion and its error line', async () => {
    const { root, lines } = captured('log');
    Logger.overrideLogger(createNestLogger(root));
    const fastify = Fastify();
    installRequestLogging(fastify, root);
    const filter = new ApiExceptionFilter();
    const logger = new Logger('Probe');
    fastify.get('/fails', async (_request, reply) => {
      logger.log('about to fail');
      // As Nest hands an unexpected error to the api's filter.
      filter.catch(new Error('engine gone'), {
        switchToHttp: () => ({ getResponse: () => reply }),
      } as never);
      return reply;
    });
    try {
      const answer = await fastify.inject({
        method: 'GET',
        url: '/fails',
        headers: { 'x-request-id': 'req-err' },
      });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['x-request-id']).toBe('req-err');
      await eventually(() => lines.some((line) => line.res));
      expect(lines.find((line) => line.context === 'Probe')).not.toHaveProperty('reqId');
      expect(lines.find((line) => line.context === 'ApiExceptionFilter')).toMatchObject({
        level: 'error',
        reqId: 'req-err',
        msg: expect.stringContaining('Error: engine gone'),
      });
      expect(lines.find((line) => line.res)).toMatchObject({
        level: 'warn',
        reqId: 'req-err',
        res: { statusCode: 503 },
      });
    } finally {
      await fastify.close();
      Logger.overrideLogger(['error']);
    }
  });
});
