import { InvalidValuesError, parseCommandLine, UsageError } from './cli';

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

describe('admin CLI: bad values are named with their flag, value and bounds', () => {
  const errorOf = (argv: string[]): Error => {
    try {
      parseCommandLine(argv);
    } catch (error) {
      return error as Error;
    }
    throw new Error(`accepted: ${argv.join(' ')}`);
  };

  it.each([
    [
      '-1',
      '--writes-per-second (value "-1"): must be a whole number from 0 to 2147483647 (0: unlimited), or default',
    ],
    [
      'abc',
      '--writes-per-second (value "abc"): must be a whole number from 0 to 2147483647 (0: unlimited), or default',
    ],
  ])('set-client --writes-per-second %s: one line, not a parser error', (value, problem) => {
    const error = errorOf(['set-client', '--client-id', 'demo', '--writes-per-second', value]);
    expect(error).toBeInstanceOf(InvalidValuesError);
    expect(error.message).toBe(`Invalid value: ${problem}`);
  });

  it('names every bad value of one command line, the seconds with their bounds', () => {
    const error = errorOf([
      'set-client',
      '--client-id',
      'demo',
      '--token-lifetime-seconds',
      '-5',
      '--max-event-subscriptions',
      '0',
    ]);
    expect(error).toBeInstanceOf(InvalidValuesError);
    expect(error.message.split('\n')).toEqual([
      'Invalid values:',
      '  --token-lifetime-seconds (value "-5"): must be a whole number of seconds from 1 to 86400',
      '  --max-event-subscriptions (value "0"): must be a whole number from 1 to 2147483647, or default',
    ]);
  });

  it('accepts good values, `default`, and the --flag=value form', () => {
    expect(
      parseCommandLine([
        'set-client',
        '--client-id',
        'demo',
        '--writes-per-second=50',
        '--reads-per-second',
        'default',
      ]).values,
    ).toEqual({ 'client-id': 'demo', 'writes-per-second': '50', 'reads-per-second': 'default' });
  });

  it('checks set-user --active and rebuild-reports --restart before running', () => {
    expect(
      errorOf(['set-user', '--client-id', 'demo', '--user-id', 'bob', '--active', 'yes']).message,
    ).toBe('Invalid value: --active (value "yes"): must be true or false');
    expect(errorOf(['rebuild-reports', '--client-id', 'demo', '--restart', '1']).message).toBe(
      'Invalid value: --restart (value "1"): must be true or false',
    );
  });

  it('refuses an unknown option or command as a usage error', () => {
    expect(errorOf(['set-client', '--client-id', 'demo', '--speed', '5'])).toBeInstanceOf(
      UsageError,
    );
    expect(errorOf(['make-client'])).toBeInstanceOf(UsageError);
  });
});

describe('admin CLI: show-client and rotate-secret by client id', () => {
  it('show-client needs the client id', () => {
    expect(parseCommandLine(['show-client', '--client-id', 'demo']).values).toEqual({
      'client-id': 'demo',
    });
    expect(() => parseCommandLine(['show-client'])).toThrow(/show-client needs --client-id/);
  });

  it('rotate-secret takes exactly one of --oauth-client-id and --client-id', () => {
    expect(parseCommandLine(['rotate-secret', '--client-id', 'demo']).values).toEqual({
      'client-id': 'demo',
    });
    expect(parseCommandLine(['rotate-secret', '--oauth-client-id', 'x'.repeat(48)]).values).toEqual(
      { 'oauth-client-id': 'x'.repeat(48) },
    );
    expect(() => parseCommandLine(['rotate-secret'])).toThrow(UsageError);
    expect(() =>
      parseCommandLine(['rotate-secret', '--client-id', 'demo', '--oauth-client-id', 'x']),
    ).toThrow(/exactly one of --oauth-client-id and --client-id/);
  });
});
