import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { EnvReader } from './env-reader';
import { checkSettings, defineSettings, readSettings, SettingsError } from './setting-spec';
import { Settings } from './settings';
import { loadSettings, settingsConfigModule } from './settings-config';

const SAMPLE = defineSettings(
  'sample',
  [
    { name: 'SAMPLE_COUNT', type: 'int', default: 5, atLeast: 2, max: 50, meaning: 'a count' },
    { name: 'SAMPLE_ON', type: 'bool', default: true, meaning: 'a switch' },
    { name: 'SAMPLE_KEY', type: 'text', required: true, secret: true, meaning: 'a secret' },
    { name: 'SAMPLE_MODE', type: 'text', default: 'a', values: ['a', 'b'], meaning: 'a mode' },
    { name: 'SAMPLE_NOTE', type: 'text', trim: true, meaning: 'optional text' },
    { name: 'SAMPLE_TAGS', type: 'list', meaning: 'a list' },
    { name: 'SAMPLE_DELAYS', type: 'intList', default: [1, 2], meaning: 'delays' },
  ] as const,
  (values) =>
    values.SAMPLE_MODE === 'b' && values.SAMPLE_COUNT < 10
      ? [{ name: 'SAMPLE_COUNT', value: String(values.SAMPLE_COUNT), message: 'at least 10 in b' }]
      : [],
);

/** What the processes need set (the engine, Redis, the token key). */
const BASE = { MONGODB_URI: 'mongodb://x/db', REDIS_URL: 'redis://x', JWT_SECRET: 'j' };

describe('settings schema', () => {
  it('reads typed values, the declared defaults when unset', () => {
    expect(readSettings(SAMPLE, { SAMPLE_KEY: 'k' })).toEqual({
      SAMPLE_COUNT: 5,
      SAMPLE_ON: true,
      SAMPLE_KEY: 'k',
      SAMPLE_MODE: 'a',
      SAMPLE_NOTE: undefined,
      SAMPLE_TAGS: [],
      SAMPLE_DELAYS: [1, 2],
    });
    expect(
      readSettings(SAMPLE, {
        SAMPLE_COUNT: '12',
        SAMPLE_ON: '0',
        SAMPLE_KEY: 'k',
        SAMPLE_MODE: 'b',
        SAMPLE_NOTE: '  note ',
        SAMPLE_TAGS: ' x, ,y ',
        SAMPLE_DELAYS: '3,4',
      }),
    ).toEqual({
      SAMPLE_COUNT: 12,
      SAMPLE_ON: false,
      SAMPLE_KEY: 'k',
      SAMPLE_MODE: 'b',
      SAMPLE_NOTE: 'note',
      SAMPLE_TAGS: ['x', 'y'],
      SAMPLE_DELAYS: [3, 4],
    });
  });

  it('raises a value below atLeast, as the settings always did', () => {
    expect(readSettings(SAMPLE, { SAMPLE_KEY: 'k', SAMPLE_COUNT: '1' }).SAMPLE_COUNT).toBe(2);
    expect(readSettings(SAMPLE, { SAMPLE_KEY: 'k', SAMPLE_COUNT: '' }).SAMPLE_COUNT).toBe(5);
  });

  it('one error naming every bad variable and its value, secrets masked', () => {
    const env = {
      SAMPLE_COUNT: 'many',
      SAMPLE_ON: 'yes',
      SAMPLE_MODE: 'c',
      SAMPLE_DELAYS: '1,x',
      SAMPLE_TAGS: 'fine',
    };
    let error: unknown;
    try {
      readSettings(SAMPLE, env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as Error).message.split('\n')).toEqual([
      'Invalid settings (5 bad environment variables):',
      '  SAMPLE_COUNT (value "many"): must be a non-negative integer',
      '  SAMPLE_ON (value "yes"): must be true or false (or 1 or 0)',
      '  SAMPLE_KEY (value unset): is required',
      '  SAMPLE_MODE (value "c"): must be one of a, b',
      '  SAMPLE_DELAYS (value "1,x"): must be a comma-separated list of non-negative integers',
    ]);
    expect(() => readSettings(SAMPLE, { SAMPLE_KEY: 'k', SAMPLE_COUNT: '51' })).toThrow(
      'SAMPLE_COUNT (value "51"): must be at most 50',
    );
    expect(() => readSettings(SAMPLE, { SAMPLE_KEY: 'k', SAMPLE_COUNT: '-1' })).toThrow(
      'SAMPLE_COUNT (value "-1"): must be a non-negative integer',
    );
  });

  it('a secret that is set but bad is shown as ***', () => {
    const secret = defineSettings('s', [
      { name: 'S_KEY', type: 'text', secret: true, values: ['ok'], meaning: 'x' },
    ] as const);
    expect(() => readSettings(secret, { S_KEY: 'hunter2' })).toThrow(
      'S_KEY (value ***): must be one of ok',
    );
    expect(() => readSettings(secret, { S_KEY: 'hunter2' })).not.toThrow(/hunter2/);
    // Nor in what a logger would print of the error.
    try {
      readSettings(secret, { S_KEY: 'hunter2' });
    } catch (error) {
      expect(JSON.stringify({ ...(error as SettingsError) })).not.toContain('hunter2');
      expect((error as SettingsError).problems).toEqual([
        { name: 'S_KEY', value: '***', message: 'must be one of ok' },
      ]);
    }
    expect.assertions(4);
  });

  it("runs the declaration's own check once every value is good on its own", () => {
    expect(() => readSettings(SAMPLE, { SAMPLE_KEY: 'k', SAMPLE_MODE: 'b' })).toThrow(
      'SAMPLE_COUNT (value "5"): at least 10 in b',
    );
  });

  it('checkSettings: every declaration at once, values by owner, each bad variable once', () => {
    const other = defineSettings('other', [
      { name: 'SAMPLE_COUNT', type: 'int', default: 5, meaning: 'the same variable' },
      { name: 'OTHER_PORT', type: 'int', default: 1, meaning: 'a port' },
    ] as const);
    expect(checkSettings([SAMPLE, other], { SAMPLE_KEY: 'k' })).toMatchObject({
      sample: { SAMPLE_COUNT: 5 },
      other: { OTHER_PORT: 1 },
    });
    expect(() => checkSettings([SAMPLE, other], { SAMPLE_COUNT: 'x', OTHER_PORT: 'y' })).toThrow(
      [
        'Invalid settings (3 bad environment variables):',
        '  SAMPLE_COUNT (value "x"): must be a non-negative integer',
        '  SAMPLE_KEY (value unset): is required',
        '  OTHER_PORT (value "y"): must be a non-negative integer',
      ].join('\n'),
    );
  });

  it('EnvReader.read reads a declaration (how the settings classes read)', () => {
    expect(new EnvReader({ SAMPLE_KEY: 'k', SAMPLE_ON: 'false' }).read(SAMPLE).SAMPLE_ON).toBe(
      false,
    );
  });

  it('EnvReader.fields: the values of the specs that name a field, by that field', () => {
    const declaration = defineSettings('fields', [
      { name: 'FIELD_COUNT', field: 'count', type: 'int', default: 5, meaning: 'a count' },
      { name: 'FIELD_NOTE', field: 'note', type: 'text', meaning: 'optional text' },
      { name: 'FIELD_RAW', type: 'text', default: 'r', meaning: 'what its class derives from' },
    ] as const);
    expect(new EnvReader({ FIELD_COUNT: '7' }).fields(declaration)).toStrictEqual({
      count: 7,
      note: undefined,
    });
  });

  it('Settings: every bad process variable in one error, the values read as before', () => {
    expect(() => new Settings({ PORT: 'eighty', LOG_LEVEL: 'loud', REDIS_URL: 'r' })).toThrow(
      [
        'Invalid settings (3 bad environment variables):',
        '  PORT (value "eighty"): must be a non-negative integer',
        '  MONGODB_URI (value unset): is required',
        '  LOG_LEVEL (value "loud"): must be one of error, warn, log, debug, verbose',
      ].join('\n'),
    );
    const settings = new Settings({ ...BASE, LOG_LEVEL: 'warn', STALLED_JOB_CHECK_MS: '5' });
    expect(settings.logLevels).toEqual(['error', 'warn']);
    expect(settings.stalledJobCheckMs).toBe(100);
    expect(new Settings(BASE)).toMatchObject({ port: 3000, host: '127.0.0.1', corsOrigins: [] });
  });

  it('REDIS_CLUSTER_NODES: host:port entries, a bad one named; QUEUE_PREFIX without braces', () => {
    expect(new Settings(BASE).redisClusterNodes).toEqual([]);
    expect(
      new Settings({ ...BASE, REDIS_CLUSTER_NODES: ' 10.0.0.1:7000, redis-b:7001 ' })
        .redisClusterNodes,
    ).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-b', port: 7001 },
    ]);
    expect(() => new Settings({ ...BASE, REDIS_CLUSTER_NODES: 'a:7000,b' })).toThrow(
      '  REDIS_CLUSTER_NODES (value "a:7000,b"): "b" is not host:port',
    );
    expect(() => new Settings({ ...BASE, REDIS_CLUSTER_NODES: 'a:70000' })).toThrow(
      '"a:70000" is not host:port',
    );
    expect(() => new Settings({ ...BASE, QUEUE_PREFIX: '{pcp}' })).toThrow(
      '  QUEUE_PREFIX (value "{pcp}"): must not contain { or }',
    );
  });

  it('loadSettings: the whole process checked before the process settings are read', () => {
    expect(() => loadSettings([SAMPLE], { ...BASE, PORT: 'x', SAMPLE_COUNT: 'y' })).toThrow(
      [
        'Invalid settings (3 bad environment variables):',
        '  PORT (value "x"): must be a non-negative integer',
        '  SAMPLE_COUNT (value "y"): must be a non-negative integer',
        '  SAMPLE_KEY (value unset): is required',
      ].join('\n'),
    );
    expect(loadSettings([SAMPLE], { ...BASE, SAMPLE_KEY: 'k' }).port).toBe(3000);
  });

  describe('settingsConfigModule (@nestjs/config)', () => {
    const saved = { ...process.env };
    afterEach(() => {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    });

    it("validate stops the start with every bad variable of the app's environment", async () => {
      // Settings of a test: the process settings are good, a lib's variables are not.
      const settings = new Settings({ ...BASE, SAMPLE_COUNT: '500', SAMPLE_KEY: 'secret!' });
      await expect(settingsConfigModule([SAMPLE], settings)).rejects.toThrow(
        'Invalid settings (1 bad environment variable):\n  SAMPLE_COUNT (value "500"): must be at most 50',
      );
      const bad = new Settings({ ...BASE, SAMPLE_MODE: 'z' });
      await expect(settingsConfigModule([SAMPLE], bad)).rejects.toThrow(
        /SAMPLE_KEY \(value unset\): is required\n {2}SAMPLE_MODE \(value "z"\): must be one of a, b/,
      );
    });

    it('serves the checked values by owner, and leaves process.env alone', async () => {
      const settings = new Settings({ ...BASE, SAMPLE_KEY: 'k', SAMPLE_COUNT: '7' });
      const module = await Test.createTestingModule({
        imports: [settingsConfigModule([SAMPLE], settings)],
      }).compile();
      const config = module.get(ConfigService);
      expect(config.get('sample.SAMPLE_COUNT')).toBe(7);
      expect(config.get('shared.PORT')).toBe(3000);
      expect(config.get('sample')).toMatchObject({ SAMPLE_KEY: 'k' });
      expect(process.env.SAMPLE_KEY).toBeUndefined();
      expect(process.env.MONGODB_URI).toBe(saved.MONGODB_URI);
      await module.close();
    });
  });
});
