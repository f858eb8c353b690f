import { createHash, timingSafeEqual } from 'node:crypto';
import type { Settings } from '../settings/settings';

/** Why a scrape of /metrics is refused, or null. The same rules on the api and the worker. */
export interface MetricsRefusal {
  status: 401 | 404;
  message: string;
  headers: Record<string, string>;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * /metrics is served while METRICS_ENABLED (default true; off: 404 as if absent) and, when
 * METRICS_TOKEN is set, only to `Authorization: Bearer <METRICS_TOKEN>` (compared in constant
 * time; otherwise 401). The figures name no tenant, but queue depths and error rates are
 * still an operator's business: set METRICS_TOKEN where the port is reachable by others.
 */
export function metricsRefusal(
  settings: Pick<Settings, 'metricsEnabled' | 'metricsToken'>,
  authorization: string | undefined,
): MetricsRefusal | null {
  if (!settings.metricsEnabled) {
    return { status: 404, message: 'Metrics are off (METRICS_ENABLED=false)', headers: {} };
  }
  const token = settings.metricsToken;
  if (!token) return null;
  const match = /^bearer +(\S+)\s*$/i.exec(authorization ?? '');
  if (match && timingSafeEqual(digest(match[1]), digest(token))) return null;
  return {
    status: 401,
    message: 'The metrics token is missing or wrong: send Authorization: Bearer <METRICS_TOKEN>',
    headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
  };
}
