import type { INestApplicationContext } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { CommandStartedEvent } from 'mongodb';

/** One engine command as the driver sent it. */
export interface EngineCommand {
  name: string;
  collection: string;
  /** The filters it carries: find's filter, each update's and delete's `q`. */
  filters: unknown[];
  command: Record<string, unknown>;
}

// Commands that read or write documents; anything else (hello, ping, endSessions,
// createIndexes at start) does not touch data.
const DATA_COMMANDS = new Set([
  'find',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'aggregate',
  'count',
  'distinct',
  'getMore',
]);

/**
 * Records every data command that the given apps' database connections send while
 * `run` runs. The apps must be started with MONITOR_ENGINE_COMMANDS=true.
 */
export async function recordEngineCommands(
  apps: INestApplicationContext[],
  run: () => Promise<void>,
): Promise<EngineCommand[]> {
  const recorded: EngineCommand[] = [];
  const listener = (event: CommandStartedEvent) => {
    if (!DATA_COMMANDS.has(event.commandName)) return;
    const command = event.command as Record<string, unknown>;
    recorded.push({
      name: event.commandName,
      collection: String(command[event.commandName]),
      filters: filtersOf(event.commandName, command),
      command,
    });
  };
  const clients = apps.map((app) => app.get<Connection>(getConnectionToken()).getClient());
  for (const client of clients) client.on('commandStarted', listener);
  try {
    await run();
  } finally {
    for (const client of clients) client.off('commandStarted', listener);
  }
  return recorded;
}

function filtersOf(name: string, command: Record<string, unknown>): unknown[] {
  switch (name) {
    case 'find':
      return [command.filter ?? {}];
    case 'update':
      return ((command.updates as { q: unknown }[]) ?? []).map((u) => u.q);
    case 'delete':
      return ((command.deletes as { q: unknown }[]) ?? []).map((d) => d.q);
    case 'findAndModify':
      return [command.query ?? {}];
    case 'insert':
      return [];
    default:
      // aggregate, count, distinct, getMore: never addressed by `_id` alone.
      return [command.query ?? command.pipeline ?? {}];
  }
}

/** `{_id: <scalar>}` and nothing else: the only filter the embedded engine serves by index. */
export function isExactIdFilter(filter: unknown): boolean {
  if (!filter || typeof filter !== 'object') return false;
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id') return false;
  const id = (filter as { _id: unknown })._id;
  return typeof id === 'string' || typeof id === 'number';
}

/** The commands that are not addressed by `_id` (inserts are; aggregates never are). */
export function notAddressedById(commands: EngineCommand[]): EngineCommand[] {
  return commands.filter(
    (command) =>
      (command.name !== 'insert' && command.filters.length === 0) ||
      !command.filters.every(isExactIdFilter) ||
      ['aggregate', 'count', 'distinct', 'getMore'].includes(command.name),
  );
}

/** A one-line description for failure messages. */
export function describeCommand(command: EngineCommand): string {
  return `${command.name} ${command.collection} ${JSON.stringify(command.filters)}`;
}
