import { metricsRefusal } from './metrics-access';
import { Metrics } from './metrics.service';
import { dependencyOf, recordDependencyError } from './process-metrics';

function named(name: string, message = 'failed', cause?: unknown): Error {
  const error = new Error(message, cause === undefined ? undefined : { cause });
  error.name = name;
  return error;
}

describe('dependencyOf', () => {
  it("tells the engine's errors from Redis's, and counts nothing else", () => {
    expect(dependencyOf(named('MongoNotConnectedError'))).toBe('engine');
    expect(dependencyOf(named('MongoServerSelectionError'))).toBe('engine');
    expect(dependencyOf(named('MongooseServerSelectionError'))).toBe('engine');
    expect(dependencyOf(new Error('Command timed out'))).toBe('redis');
    expect(dependencyOf(new Error('Connection is closed.'))).toBe('redis');
    expect(dependencyOf(named('ReplyError', 'WRONGTYPE'))).toBe('redis');
    expect(dependencyOf(named('MaxRetriesPerRequestError'))).toBe('redis');
    expect(dependencyOf(new Error('a bug'))).toBeUndefined();
    expect(dependencyOf(named('ValidationError'))).toBeUndefined();
    expect(dependencyOf('text')).toBeUndefined();
    expect(dependencyOf(undefined)).toBeUndefined();
  });

  it('follows causes', () => {
    expect(dependencyOf(new Error('wrapped', { cause: named('MongoNetworkError') }))).toBe(
      'engine',
    );
  });
});

describe('Metrics', () => {
  it('renders its own series and the process figures, engine and Redis errors included', async () => {
    const metrics = new Metrics();
    metrics.httpRequest('GET', '/Profiles/v4/:clientId/Profile/:profileId', 200, 0.012);
    metrics.writeApplied('merge');
    metrics.writeFailed('patch');
    metrics.scheduledRun('consent-expiry', 'ok');
    recordDependencyError(named('MongoNotConnectedError'));
    const { contentType, body } = await metrics.render();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain(
      'http_request_duration_seconds_bucket{le="0.025",method="GET",route="/Profiles/v4/:clientId/Profile/:profileId",status="200"} 1',
    );
    expect(body).toContain('pcp_profile_writes_applied_total{kind="merge"} 1');
    expect(body).toContain('pcp_profile_writes_failed_total{kind="patch"} 1');
    expect(body).toContain('pcp_scheduled_job_runs_total{job="consent-expiry",outcome="ok"} 1');
    expect(body).toMatch(/pcp_dependency_errors_total\{dependency="engine"\} [1-9]/);
    expect(body).toContain('pcp_dependency_errors_total{dependency="redis"} 0');
    expect(body).toContain('# TYPE process_resident_memory_bytes gauge');
    // A second application of the process has its own series and the same process figures.
    const other = await new Metrics().render();
    expect(other.body).not.toContain('pcp_profile_writes_applied_total{kind="merge"}');
    expect(other.body).toContain('# TYPE process_resident_memory_bytes gauge');
  });
});

describe('metricsRefusal', () => {
  const on = { metricsEnabled: true, metricsToken: undefined };
  it('serves anyone while no token is set, and nobody while metrics are off', () => {
    expect(metricsRefusal(on, undefined)).toBeNull();
    expect(metricsRefusal({ ...on, metricsEnabled: false }, 'Bearer x')).toMatchObject({
      status: 404,
    });
  });

  it('asks for the token as a bearer credential when one is set', () => {
    const guarded = { metricsEnabled: true, metricsToken: 's3cret-token' };
    expect(metricsRefusal(guarded, 'Bearer s3cret-token')).toBeNull();
    expect(metricsRefusal(guarded, 'bearer s3cret-token')).toBeNull();
    for (const wrong of [undefined, '', 'Bearer s3cret', 'Bearer s3cret-token2', 's3cret-token'])
      expect(metricsRefusal(guarded, wrong)).toMatchObject({
        status: 401,
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      });
  });
});
