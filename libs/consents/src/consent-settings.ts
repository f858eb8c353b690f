import type { EnvReader } from '@app/shared';

/** The consents module's settings (README, configuration table). */
export class ConsentSettings {
  /** Profiles the version and do-not-contact jobs read per page (their cursor is saved per page). */
  readonly scheduledJobBatchSize: number;

  constructor(env: EnvReader) {
    this.scheduledJobBatchSize = env.int('SCHEDULED_JOB_BATCH_SIZE', 200, 1);
  }
}
