import { Get, Inject } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
} from '@nestjs/swagger';
import { nullableModel } from '../http/api-docs.decorators';
import { OperatorController } from '../http/operator-controller.decorator';
import { Settings } from '../settings/settings';
import { JobRunLog } from './job-run-log.repository';
import {
  intervalOf,
  isScheduled,
  JOB_DEFINITIONS,
  type JobDefinition,
  type ScheduledJobDefinition,
} from './job-definition';

export class JobRunDto {
  @ApiProperty({ format: 'date-time' }) StartedAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) FinishedAt?: string;
  @ApiProperty({
    enum: ['running', 'ok', 'failed', 'skipped'],
    description:
      'running: not finished; ok: finished; failed: ended with an error; skipped: another run of the same job was still in progress',
  })
  Outcome: string;
  @ApiProperty({
    enum: ['schedule', 'trigger'],
    description:
      "schedule: started by the job's interval; trigger: started by an operator's request",
  })
  Trigger: string;
  @ApiPropertyOptional({
    description: 'What the run changed, summed over all clients (e.g. profiles, consents)',
    type: 'object',
    additionalProperties: { type: 'integer' },
  })
  Counts?: Record<string, number>;
}

export class JobStatusDto {
  @ApiProperty() Name: string;
  @ApiProperty({ type: 'integer', description: 'Interval of the schedule in ms; 0: not scheduled' })
  IntervalMs: number;
  @ApiProperty({ ...nullableModel(JobRunDto), description: 'The most recent run; null: none' })
  LastRun: JobRunDto | null;
  @ApiProperty({
    ...nullableModel(JobRunDto),
    description: 'The most recent finished run; null: none',
  })
  LastFinishedRun: JobRunDto | null;
}

export class JobStatusListDto {
  @ApiProperty({ type: [JobStatusDto] }) Jobs: JobStatusDto[];
}

/**
 * The worker's scheduled jobs at a glance, for monitors: outside any client, behind the
 * operator credential (OPERATOR_TOKEN), never a tenant's; it shows nothing of any tenant
 * (names, times, outcomes, totals).
 */
@OperatorController('Jobs', { tag: 'Jobs' })
@ApiExtraModels(JobRunDto)
export class JobStatusController {
  constructor(
    private readonly runs: JobRunLog,
    private readonly settings: Settings,
    @Inject(JOB_DEFINITIONS) private readonly jobs: JobDefinition<unknown>[],
  ) {}

  @Get('Status')
  @ApiOperation({
    summary: 'Last run and outcome of each scheduled job',
    description:
      'Operator credential: Authorization: Bearer <OPERATOR_TOKEN>, or Basic with the token as password (401 without it; 403 while OPERATOR_TOKEN is unset). For each scheduled job ' +
      '(consent-expiry, consent-version-notification): its interval, its most recent run and ' +
      'its most recent finished run with outcome (ok, failed, skipped) and what it changed, ' +
      'counted over all clients. Error texts stay in the worker log and the job_runs collection.',
  })
  @ApiOkResponse({ type: JobStatusListDto })
  async status(): Promise<JobStatusListDto> {
    const Jobs = await Promise.all(
      this.jobs
        .filter((job): job is ScheduledJobDefinition => isScheduled(job))
        .map(async (job) => {
          const { name } = job;
          const recent = await this.runs.recent(name);
          const finished = recent.find((run) => run.outcome !== 'running');
          return {
            Name: name,
            IntervalMs: intervalOf(job, this.settings),
            LastRun: recent[0] ? toJobRunDto(recent[0]) : null,
            LastFinishedRun: finished ? toJobRunDto(finished) : null,
          };
        }),
    );
    return { Jobs };
  }
}

function toJobRunDto(run: {
  startedAt: Date;
  finishedAt?: Date;
  outcome: string;
  trigger: string;
  counts?: Record<string, number>;
}): JobRunDto {
  return {
    StartedAt: run.startedAt.toISOString(),
    ...(run.finishedAt ? { FinishedAt: run.finishedAt.toISOString() } : {}),
    Outcome: run.outcome,
    Trigger: run.trigger,
    ...(run.counts ? { Counts: run.counts } : {}),
  };
}
