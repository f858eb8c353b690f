import type { JobDefinition } from '@app/shared';

/** The jobs of the events module (none queued yet: delivery comes with its slice). */
export const EVENT_JOBS: JobDefinition[] = [];
