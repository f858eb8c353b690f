import { parseCommandLine } from './cli';

describe('admin CLI: rebuild-reports', () => {
  it('takes a client id and an optional restart', () => {
    expect(parseCommandLine(['rebuild-reports', '--client-id', 'acme']).values).toEqual({
      'client-id': 'acme',
    });
    expect(
      parseCommandLine(['rebuild-reports', '--client-id', 'acme', '--restart', 'true']).values,
    ).toEqual({ 'client-id': 'acme', restart: 'true' });
    expect(() => parseCommandLine(['rebuild-reports'])).toThrow(/needs --client-id/);
  });
});
