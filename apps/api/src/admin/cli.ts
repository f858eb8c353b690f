/**
 * Operator commands on tenants, users and credentials:
 *   node dist/apps/api/apps/api/src/admin/cli.js <command> [--option value ...]
 * (`npm run admin -- <command> ...` finds the database and runs this). Each command
 * prints one JSON object on stdout. A bad command line (unknown command or option, a bad
 * value) prints one message on stderr and exits 2 before anything is read or changed; a
 * command that fails (not found, conflict) prints its message and exits 1.
 * Secrets appear only in the JSON of the command that creates or rotates them.
 */
import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import {
  AuthCoreModule,
  CLIENT_SETTING_LIMITS,
  PERMISSION_AREAS,
  parsePermissionList,
  type QuotaSettings,
  TenantAdminService,
} from '@app/auth';
import { REPORT_JOBS, ReportRebuilds, ReportRebuildsModule } from '@app/reports';
import {
  type ClientQuotas,
  DatabaseModule,
  QUOTA_NAMES,
  QUOTA_SPECS,
  quotaValueProblem,
  QueueModule,
  RedisModule,
  Settings,
  SettingsModule,
} from '@app/shared';

type Values = Record<string, string | undefined>;

interface Command {
  usage: string;
  /** Option names (without --); all take a value. */
  options: string[];
  required: string[];
  /** Checks the values before anything is read or changed; throws InvalidValuesError. */
  check?(values: Values): void;
  run(admin: TenantAdminService, values: Values, app: INestApplicationContext): Promise<unknown>;
}

/** A command that takes exactly one of two options, and no other. */
function eitherOptionCommand(
  command: string,
  [one, other]: [string, string],
  usage: string,
  run: Command['run'],
): Command {
  return {
    usage,
    options: [one, other],
    required: [],
    check: (values) => {
      if ((values[one] === undefined) === (values[other] === undefined)) {
        throw new UsageError(`${command} needs exactly one of --${one} and --${other}`);
      }
    },
    run,
  };
}

/** A command on one client, named by its only option --client-id. */
function clientCommand(
  run: (admin: TenantAdminService, clientId: string) => Promise<unknown>,
  usage = '--client-id <id>',
): Command {
  return {
    usage,
    options: ['client-id'],
    required: ['client-id'],
    run: (admin, v) => run(admin, v['client-id']!),
  };
}

const COMMANDS: Record<string, Command> = {
  'create-client': {
    usage: '--client-id <id> --user-id <first user, in group Administrators>',
    options: ['client-id', 'user-id'],
    required: ['client-id', 'user-id'],
    run: async (admin, v) => {
      const created = await admin.createClient({
        clientId: v['client-id']!,
        userId: v['user-id']!,
      });
      return {
        clientId: created.clientId,
        userId: created.userId,
        apiHashKey: created.apiHashKey,
        oauthClientId: created.oauthClientId,
        oauthClientSecret: created.oauthClientSecret,
      };
    },
  },
  'show-client': clientCommand(
    (admin, clientId) => admin.showClient(clientId),
    '--client-id <id>   (its OAuth client ids again; secrets are not kept: rotate-secret)',
  ),
  'add-user': {
    usage: '--client-id <id> --user-id <id> [--group <name, default Administrators>]',
    options: ['client-id', 'user-id', 'group'],
    required: ['client-id', 'user-id'],
    run: (admin, v) =>
      admin.addUser({ clientId: v['client-id']!, userId: v['user-id']!, group: v.group }),
  },
  'set-user': {
    usage: '--client-id <id> --user-id <id> [--group <name>] [--active true|false]',
    options: ['client-id', 'user-id', 'group', 'active'],
    required: ['client-id', 'user-id'],
    check: (v) => {
      if (v.active !== undefined) booleanOf('active', v.active);
    },
    run: async (admin, v) => {
      const clientId = v['client-id']!;
      const userId = v['user-id']!;
      const result: Record<string, unknown> = { clientId, userId };
      if (v.group !== undefined) {
        result.group = (await admin.setUserGroup(clientId, userId, v.group)).group;
      }
      if (v.active !== undefined) {
        result.isActive = (
          await admin.setUserActive(clientId, userId, booleanOf('active', v.active))
        ).isActive;
      }
      return result;
    },
  },
  'add-oauth-client': clientCommand((admin, clientId) => admin.addOAuthClient(clientId)),
  'rotate-secret': eitherOptionCommand(
    'rotate-secret',
    ['oauth-client-id', 'client-id'],
    '--oauth-client-id <48-character id> | --client-id <id, when it has one OAuth client>',
    (admin, v) =>
      v['oauth-client-id'] !== undefined
        ? admin.rotateSecret(v['oauth-client-id'])
        : admin.rotateSecretOfClient(v['client-id']!),
  ),
  'rotate-api-hash-key': clientCommand((admin, clientId) => admin.rotateApiHashKey(clientId)),
  'revoke-token': eitherOptionCommand(
    'revoke-token',
    ['token', 'jti'],
    '--token <jwt, or - to read it from stdin> | --jti <id>',
    async (admin, v) => {
      const token = v.token === '-' ? await readStdin() : v.token;
      return admin.revokeToken({ token, jti: v.jti });
    },
  ),
  'set-client': {
    usage: `--client-id <id> [--token-lifetime-seconds <n>] [--custom-auth-window-seconds <n>] ${QUOTA_NAMES.map((name) => `[--${QUOTA_SPECS[name].flag} <n>|default]`).join(' ')}`,
    options: [
      'client-id',
      'token-lifetime-seconds',
      'custom-auth-window-seconds',
      ...QUOTA_NAMES.map((name) => QUOTA_SPECS[name].flag),
    ],
    required: ['client-id'],
    check: (v) => void clientSettingsOf(v),
    run: async (admin, v) => {
      const settings = await admin.setClientSettings(v['client-id']!, clientSettingsOf(v));
      return { ...settings, quotas: shownQuotas(settings.quotas) };
    },
  },
  'define-group': {
    usage:
      '--client-id <id> --name <group> --permissions <area:read|write,...> [--programs <id,...>] [--consent-types <name,...>] [--custom-fields <name,...>]',
    options: ['client-id', 'name', 'permissions', 'programs', 'consent-types', 'custom-fields'],
    required: ['client-id', 'name', 'permissions'],
    run: (admin, v) =>
      admin.defineUserGroup(v['client-id']!, v.name!, parsePermissionList(v.permissions!), {
        programs: listOf(v.programs),
        consentTypes: listOf(v['consent-types']),
        customFields: listOf(v['custom-fields']),
      }),
  },
  'rebuild-reports': {
    usage: '--client-id <id> [--restart true|false]',
    options: ['client-id', 'restart'],
    required: ['client-id'],
    check: (v) => {
      if (v.restart !== undefined) booleanOf('restart', v.restart);
    },
    // Queued for a worker (docs/reports.md, "Rebuild"): it runs where the counts are kept.
    run: async (_admin, v, app) => {
      const clientId = v['client-id']!;
      const restart = v.restart === undefined ? false : booleanOf('restart', v.restart);
      await app.get(ReportRebuilds).queue(clientId, restart);
      return { ClientId: clientId, Status: 'Queued' };
    },
  },
};

/** A comma-separated list; absent stays absent (unrestricted), "" is the empty list. */
function listOf(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split(',');
}

/** A command line that is not a command: exit 2, nothing read or changed. */
export class UsageError extends Error {}

/** Values of known options that are not valid: one line each, exit 2, no usage text. */
export class InvalidValuesError extends Error {
  constructor(problems: string[]) {
    super(
      problems.length === 1
        ? `Invalid value: ${problems[0]}`
        : `Invalid values:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
    );
  }
}

/** After a usage error: the command's own usage line, or where the list of commands is. */
function usageHint(name: string | undefined): string {
  const command = name ? COMMANDS[name] : undefined;
  return command
    ? `Usage: admin ${name} ${command.usage}`
    : `Commands: ${Object.keys(COMMANDS).join(', ')} (npm run admin -- --help shows each one's options)`;
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name} ${command.usage}`);
  return [
    'Usage: admin <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    `Permission areas (define-group --permissions area:read|write,...): ${PERMISSION_AREAS.join(', ')} (write implies read; merge needs profiles:write too).`,
    'Quotas of set-client (a client\'s own; "default": the process-wide default, its variable):',
    ...QUOTA_NAMES.map(
      (name) =>
        `  --${QUOTA_SPECS[name].flag}: ${QUOTA_SPECS[name].meaning}; default ${QUOTA_SPECS[name].defaultVariable}`,
    ),
    '',
    'Where it works (npm run admin, scripts/admin.js):',
    '  MONGODB_URI unset, `npm start` running in this checkout: the database, Redis and JWT secret',
    '    of that stack, named in .data/runtime.json; its api processes see each change at once.',
    '  MONGODB_URI unset, nothing running: the embedded engine on .data/engine, started for the command.',
    '  MONGODB_URI set: that database, with REDIS_URL (running api processes are told of changes',
    '    through it) and JWT_SECRET (else .data/jwt-secret) from the environment.',
    '',
    'Prints one JSON object on stdout. Exit status: 0 done; 1 the command failed (message on',
    'stderr); 2 a bad command line or value (one line on stderr, nothing changed).',
  ].join('\n');
}

/** set-client's values, every bad one named with its flag, value and bounds in one error. */
function clientSettingsOf(values: Values): {
  tokenLifetimeSeconds?: number;
  customAuthWindowSeconds?: number;
  quotas: QuotaSettings;
} {
  const problems: string[] = [];
  const seconds = (flag: string, limits: { min: number; max: number }): number | undefined => {
    const text = values[flag];
    if (text === undefined) return undefined;
    if (/^\d+$/.test(text) && Number(text) >= limits.min && Number(text) <= limits.max) {
      return Number(text);
    }
    problems.push(
      `--${flag} (value ${JSON.stringify(text)}): must be a whole number of seconds from ${limits.min} to ${limits.max}`,
    );
    return undefined;
  };
  const tokenLifetimeSeconds = seconds(
    'token-lifetime-seconds',
    CLIENT_SETTING_LIMITS.tokenLifetimeSeconds,
  );
  const customAuthWindowSeconds = seconds(
    'custom-auth-window-seconds',
    CLIENT_SETTING_LIMITS.customAuthWindowSeconds,
  );
  const quotas = quotaSettingsOf(values, problems);
  if (problems.length > 0) throw new InvalidValuesError(problems);
  return { tokenLifetimeSeconds, customAuthWindowSeconds, quotas };
}

/**
 * The quota flags given: a whole number, or `default` (back to the process-wide default).
 * Each bad value is added to `problems`, named with its flag, value and bounds.
 */
function quotaSettingsOf(values: Values, problems: string[]): QuotaSettings {
  const quotas: QuotaSettings = {};
  for (const name of QUOTA_NAMES) {
    const { flag } = QUOTA_SPECS[name];
    const text = values[flag];
    if (text === undefined) continue;
    if (text === 'default') {
      quotas[name] = 'default';
      continue;
    }
    const value = Number(text);
    // Digits only: "1e3", " 5", "0x10" and "" are not what an operator means by a number.
    const problem = /^\d+$/.test(text)
      ? quotaValueProblem(name, value)
      : quotaValueProblem(name, Number.NaN);
    if (problem) problems.push(`--${flag} (value ${JSON.stringify(text)}): ${problem}, or default`);
    else quotas[name] = value;
  }
  return quotas;
}

/** Each quota as the operator set it: the client's own value, or "default". */
function shownQuotas(quotas: ClientQuotas): { [name in keyof ClientQuotas]-?: number | 'default' } {
  return {
    readsPerSecond: quotas.readsPerSecond ?? 'default',
    writesPerSecond: quotas.writesPerSecond ?? 'default',
    bulkImportsPerDay: quotas.bulkImportsPerDay ?? 'default',
    maxEventSubscriptions: quotas.maxEventSubscriptions ?? 'default',
  };
}

function booleanOf(name: string, text: string): boolean {
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new InvalidValuesError([
    `--${name} (value ${JSON.stringify(text)}): must be true or false`,
  ]);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/**
 * `--flag value` as `--flag=value` for the command's options: parseArgs would take a value
 * that starts with a dash (`--writes-per-second -1`) for an option of its own, and the
 * operator would be told about an unknown option instead of the bound the value breaks.
 */
function joinOptionValues(args: string[], options: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const option = /^--([^=]+)$/.exec(args[i])?.[1];
    const next = args[i + 1];
    if (option && options.includes(option) && next !== undefined && !next.startsWith('--')) {
      joined.push(`--${option}=${next}`);
      i++;
    } else {
      joined.push(args[i]);
    }
  }
  return joined;
}

/**
 * Reads the command line and checks its values; throws UsageError when it is not a valid
 * command, InvalidValuesError when a value is not valid.
 */
export function parseCommandLine(argv: string[]): {
  name: string;
  command: Command;
  values: Values;
} {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!name || !command)
    throw new UsageError(name ? `Unknown command "${name}"` : 'No command given');
  let values: Values;
  try {
    const parsed = parseArgs({
      args: joinOptionValues(rest, command.options),
      options: Object.fromEntries(
        command.options.map((option) => [option, { type: 'string' as const }]),
      ),
      strict: true,
      allowPositionals: false,
    });
    values = parsed.values as Values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const missing = command.required.filter((option) => !values[option]);
  if (missing.length > 0) {
    throw new UsageError(`${name} needs ${missing.map((option) => `--${option}`).join(', ')}`);
  }
  command.check?.(values);
  return { name, command, values };
}

@Module({})
class AdminCliModule {
  static register(settings: Settings): DynamicModule {
    return {
      module: AdminCliModule,
      imports: [
        SettingsModule.forRoot(settings),
        DatabaseModule,
        RedisModule,
        AuthCoreModule,
        // rebuild-reports queues a worker job.
        QueueModule.forProducer(REPORT_JOBS),
        ReportRebuildsModule,
      ],
    };
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv.length > 0 && ['help', '--help', '-h'].includes(argv[0])) {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  let app: INestApplicationContext | undefined;
  try {
    const { command, values } = parseCommandLine(argv);
    app = await NestFactory.createApplicationContext(AdminCliModule.register(new Settings()), {
      logger: false,
      abortOnError: false,
    });
    const result = await command.run(app.get(TenantAdminService), values, app);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message}\n`);
    if (error instanceof UsageError) {
      process.stderr.write(`${usageHint(argv[0])}\n`);
      return 2;
    }
    return error instanceof InvalidValuesError ? 2 : 1;
  } finally {
    await app?.close().catch(() => undefined);
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    // Exit once stdout is flushed (open driver handles must not keep the process alive).
    process.stdout.write('', () => process.exit(code));
  });
}
