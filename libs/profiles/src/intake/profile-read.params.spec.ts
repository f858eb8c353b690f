import 'reflect-metadata';
import type { ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ProfileRead, type ProfileReadParams } from './profile-read.params';

type Factory = (data: unknown, ctx: ExecutionContext) => ProfileReadParams;

/** The function `@ProfileRead()` runs, as Nest calls it for a request. */
function factoryOfProfileRead(): Factory {
  class Route {
    get(@ProfileRead() _read: ProfileReadParams): void {}
  }
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, Route, 'get') as {
    [key: string]: { factory: Factory };
  };
  return Object.values(args)[0].factory;
}

function read(profileId: string, query: { [name: string]: string | string[] }) {
  const request = { params: { profileId }, query };
  const ctx = { switchToHttp: () => ({ getRequest: () => request }) } as ExecutionContext;
  return factoryOfProfileRead()(undefined, ctx);
}

describe('@ProfileRead', () => {
  it('parses the id, implied and asOf', () => {
    expect(read('7', {})).toEqual({ profileId: 7, implied: false, asOf: undefined });
    expect(read('7', { implied: 'TRUE', asOf: '2026-01-31T23:59:59.5Z' })).toEqual({
      profileId: 7,
      implied: true,
      asOf: new Date('2026-01-31T23:59:59.500Z'),
    });
  });

  it('answers the first bad value as the three decorators did: id, then implied, then asOf', () => {
    expect(() => read('abc', { implied: 'maybe', asOf: 'x' })).toThrow(/^Invalid profileId/);
    expect(() => read('7', { implied: 'maybe', asOf: 'x' })).toThrow(/^Invalid implied/);
    expect(() => read('7', { asOf: 'x' })).toThrow(/^Invalid asOf \(value "x"\)/);
    expect(() => read('7', { asOf: ['a', 'b'] })).toThrow(/^Invalid asOf .*give it once/);
  });
});
