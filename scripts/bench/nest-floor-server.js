'use strict';
// The floor of the fixed stack for the two GET baselines of baseline-server.js: the same
// work (verify the HS256 bearer token, or check the CUSTOMAUTH3 header with one HMAC; then
// one Redis GET, the stored JSON sent), done the way the stack makes the service do it:
// NestJS on Fastify, a controller route, an `AuthGuard` of @nestjs/passport over a
// passport-custom strategy. Nothing else (no global pipe, filter, hook, logging or metrics).
// What this costs over the bare baseline is what the stack itself costs a GET; the service's
// own features can only add to it. Plain JS (decorators applied with Reflect.decorate), so it
// runs without a build. Env: PORT, REDIS_URL, JWT_SECRET.
require('reflect-metadata');
const { Controller, Get, Header, Injectable, Module, Param, UseGuards } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { AuthGuard, PassportModule, PassportStrategy } = require('@nestjs/passport');
const { Strategy } = require('passport-custom');
const Redis = require('ioredis');
const { createSecretKey } = require('node:crypto');
const { bearerClaims, signedUserId } = require('./baseline-checks');

const redis = new Redis(process.env.REDIS_URL);
const JWT_SECRET = createSecretKey(Buffer.from(process.env.JWT_SECRET, 'utf8'));
let hmacKey = null;

/** The bearer check of baseline-server.js's GET /get/:key, as a passport-custom strategy. */
class BearerFloorStrategy extends PassportStrategy(Strategy, 'floor-bearer') {
  validate(request) {
    return bearerClaims(request.headers.authorization, JWT_SECRET) ?? false;
  }
}

/** The CUSTOMAUTH3 check of baseline-server.js's GET /get-signed, as a strategy. */
class SignedFloorStrategy extends PassportStrategy(Strategy, 'floor-signed') {
  async validate(request) {
    hmacKey ??= await redis.get('baseline:hmac-key');
    const userId = signedUserId(request.headers.authorization, request.params.client, hmacKey);
    return userId === null ? false : { userId };
  }
}
for (const strategy of [BearerFloorStrategy, SignedFloorStrategy]) {
  Reflect.decorate([Injectable()], strategy);
}

class FloorController {
  get(key) {
    return redis.get(key);
  }
  getSigned(key) {
    return redis.get(key);
  }
}
/** Applies method decorators as TypeScript would. */
function decorate(target, method, decorators) {
  const descriptor = Object.getOwnPropertyDescriptor(target.prototype, method);
  Reflect.decorate(decorators, target.prototype, method, descriptor);
}
const json = Header('content-type', 'application/json');
decorate(FloorController, 'get', [Get('get/:key'), UseGuards(AuthGuard('floor-bearer')), json]);
decorate(FloorController, 'getSigned', [
  Get('get-signed/:client/:key'),
  UseGuards(AuthGuard('floor-signed')),
  json,
]);
Param('key')(FloorController.prototype, 'get', 0);
Param('key')(FloorController.prototype, 'getSigned', 0);
Reflect.decorate([Controller()], FloorController);

class FloorModule {}
Reflect.decorate(
  [
    Module({
      imports: [PassportModule],
      controllers: [FloorController],
      providers: [BearerFloorStrategy, SignedFloorStrategy],
    }),
  ],
  FloorModule,
);

async function main() {
  const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
  await app.listen(Number(process.env.PORT), '127.0.0.1');
  process.stdout.write('floor ready\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
