import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RefusedTargetError, type Resolver, safePost } from './safe-post';

/** A local endpoint whose answer each test sets; it records what it was sent. */
let server: Server;
let port: number;
let answer: (req: IncomingMessage, res: ServerResponse, body: string) => void;
const received: { path: string; type?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', type: req.headers['content-type'], body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
  answer = (_req, res, body) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(body);
});

const LOCAL = { timeoutMs: 2000, maxResponseBytes: 4096, allowPrivateTargets: true };
const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** A resolver that gives every name this one address. */
const resolvingTo =
  (address: string, family = 4): Resolver =>
  (_hostname, _options, callback) =>
    callback(null, [{ address, family }]);

describe('safePost', () => {
  it('POSTs the body with its headers and answers the status and the body', async () => {
    const answerOf = await safePost(
      `http://127.0.0.1:${port}/in?x=1`,
      '{"a":1}',
      JSON_HEADERS,
      LOCAL,
    );
    expect(answerOf).toEqual({ status: 200, body: '{"a":1}', truncated: false });
    expect(received).toEqual([{ path: '/in?x=1', type: 'application/json', body: '{"a":1}' }]);
  });

  it('refuses a name that resolves to a non-public address when connecting', async () => {
    // https and a public-looking name pass the URL check; the address is refused.
    const call = safePost(`https://hooks.example.test:${port}/in`, '{}', JSON_HEADERS, {
      ...LOCAL,
      allowPrivateTargets: false,
      resolve: resolvingTo('127.0.0.1'),
    });
    await expect(call).rejects.toThrow(RefusedTargetError);
    await expect(
      safePost(`https://hooks.example.test:${port}/in`, '{}', JSON_HEADERS, {
        ...LOCAL,
        allowPrivateTargets: false,
        resolve: resolvingTo('10.0.0.7'),
      }),
    ).rejects.toThrow(
      'refused target: hooks.example.test resolves to 10.0.0.7 (private), not a public address',
    );
    expect(received).toEqual([]);
  });

  it('connects through the resolver when private targets are allowed', async () => {
    const answerOf = await safePost(
      `http://hooks.example.test:${port}/by-name`,
      'hello',
      {},
      { ...LOCAL, resolve: resolvingTo('127.0.0.1') },
    );
    expect(answerOf.status).toBe(200);
    expect(received.map((r) => r.path)).toEqual(['/by-name']);
  });

  it('refuses http, localhost and literal private addresses before connecting', async () => {
    const strict = { ...LOCAL, allowPrivateTargets: false };
    await expect(safePost(`http://127.0.0.1:${port}/`, '{}', {}, strict)).rejects.toThrow(
      'refused target: the Url must be an https URL (not http)',
    );
    await expect(safePost(`https://127.0.0.1:${port}/`, '{}', {}, strict)).rejects.toThrow(
      /127\.0\.0\.1 is loopback/,
    );
    await expect(safePost(`https://localhost:${port}/`, '{}', {}, strict)).rejects.toThrow(
      /must not target localhost/,
    );
    expect(received).toEqual([]);
  });

  it('does not follow redirects', async () => {
    answer = (req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { Location: `http://127.0.0.1:${port}/target` }).end();
      } else res.writeHead(200).end('followed');
    };
    const answerOf = await safePost(`http://127.0.0.1:${port}/moved`, '{}', {}, LOCAL);
    expect(answerOf.status).toBe(302);
    expect(received.map((r) => r.path)).toEqual(['/moved']);
  });

  it('reads at most maxResponseBytes of the answer', async () => {
    answer = (_req, res) => res.writeHead(200).end('x'.repeat(100_000));
    const answerOf = await safePost(
      `http://127.0.0.1:${port}/big`,
      '{}',
      {},
      {
        ...LOCAL,
        maxResponseBytes: 4096,
      },
    );
    expect(answerOf.body).toHaveLength(4096);
    expect(answerOf.truncated).toBe(true);
  });

  it('gives up after timeoutMs when the endpoint does not answer', async () => {
    answer = () => undefined; // never answers
    const started = Date.now();
    await expect(
      safePost(`http://127.0.0.1:${port}/slow`, '{}', {}, { ...LOCAL, timeoutMs: 300 }),
    ).rejects.toThrow('timed out after 300 ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('says why when it cannot connect', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const free = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(safePost(`http://127.0.0.1:${free}/`, '{}', {}, LOCAL)).rejects.toThrow(
      /^request failed: .*ECONNREFUSED/,
    );
  });
});
