import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/*
 * Errors Fastify answers before any route or filter runs, in the service's error shape
 * (`{"Message"}`) instead of Fastify's `{"error","message","statusCode"}`.
 */

/** A request Fastify's router refuses (a path that is not valid URL encoding). */
export function frameworkError(
  error: Error & { code?: string },
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply.status(400).send({
      Message: `The path is not valid URL encoding (value ${JSON.stringify(request.raw.url)})`,
    });
    return;
  }
  void reply.status(400).send({ Message: error.message });
}

/**
 * A request Node's HTTP parser refuses (headers too large: 431; a malformed request line or
 * header: 400; too slow: 408), answered on the socket and closed.
 */
export function clientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : 400;
  const message =
    status === 431
      ? 'The request headers are too large'
      : status === 408
        ? 'The request took too long to arrive'
        : 'The request is not valid HTTP (a malformed request line or header)';
  const body = JSON.stringify({ Message: message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
