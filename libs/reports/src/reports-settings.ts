import { type DeclaredFields, defineSettings, type EnvReader } from '@app/shared';

/** The reports' variables (the settings schema: README, configuration table). */
export const REPORTS_SETTINGS = defineSettings('reports', [
  {
    name: 'REPORTS_ENABLED',
    field: 'enabled',
    type: 'bool',
    default: true,
    meaning:
      "keep each client's counts in the worker's apply step (false: not kept; rebuild them after turning it back on)",
  },
  {
    name: 'REPORTS_PAGE_LINK_MINUTES',
    field: 'pageLinkMinutes',
    type: 'int',
    default: 15,
    atLeast: 1,
    max: 1440,
    meaning: 'minutes a reporting page link stays valid',
  },
  {
    name: 'REPORTS_REBUILD_BATCH_SIZE',
    field: 'rebuildBatchSize',
    type: 'int',
    default: 200,
    atLeast: 1,
    max: 5000,
    meaning: 'profiles a counts rebuild reads (each by _id) per page',
  },
] as const);

/** The reports' settings (docs/reports.md). */
export class ReportsSettings implements DeclaredFields<typeof REPORTS_SETTINGS, ReportsSettings> {
  /** Whether the worker keeps the counts (REPORTS_ENABLED; the bench compares both). */
  declare readonly enabled: boolean;
  /** How long a reporting page link is valid (REPORTS_PAGE_LINK_MINUTES). */
  declare readonly pageLinkMinutes: number;
  /** Profiles a rebuild reads per page (REPORTS_REBUILD_BATCH_SIZE). */
  declare readonly rebuildBatchSize: number;

  constructor(env: EnvReader) {
    Object.assign(this, env.fields(REPORTS_SETTINGS));
  }
}
