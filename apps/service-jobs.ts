import { BULK_JOBS } from '@app/bulk';
import { CONSENT_JOBS } from '@app/consents';
import { EVENT_JOBS } from '@app/events';
import { PROFILE_JOBS } from '@app/profiles';
import { REPORT_JOBS } from '@app/reports';

/**
 * Every job of the service, by the lib that declares it: what the api queues and the worker
 * runs (the lifted apps take a part of them), their schedules declared as settings by both.
 */
export const SERVICE_JOBS = [
  ...PROFILE_JOBS,
  ...CONSENT_JOBS,
  ...BULK_JOBS,
  ...EVENT_JOBS,
  ...REPORT_JOBS,
];
