import { defineJob } from '@app/shared';

/** What a rebuild of a client's counts carries. */
export interface RebuildReportsPayload {
  clientId: string;
  /** true: start over even when a rebuild is under way (else it is resumed). */
  restart?: boolean;
}

/**
 * Rebuild a client's current counts from its stored profiles (docs/reports.md, "Rebuild"):
 * a tenant's job (fair), queued by an operator, the admin CLI, or the worker when it finds
 * the counts missing (Redis lost its data, a new client).
 */
export const REBUILD_REPORTS = defineJob<RebuildReportsPayload>({
  name: 'rebuild-reports',
  tenantOf: ({ clientId }) => clientId,
});

/** Every job of the reports, for the apps to hand to QueueModule. */
export const REPORT_JOBS = [REBUILD_REPORTS];
