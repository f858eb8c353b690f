import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { JobRun, JobRunOutcome } from './job-run.schema';
import { JOB_RUNS_KEPT, JobCounts } from './queue.constants';

/** The `job_runs` collection: what each scheduled run did, the last JOB_RUNS_KEPT per job. */
@Injectable()
export class JobRunLog {
  constructor(@InjectModel(JobRun.name) private readonly runs: Model<JobRun>) {}

  async start(name: string, jobId: string, trigger: string, at: Date): Promise<string> {
    const _id = randomUUID();
    await this.runs.create({ _id, name, jobId, trigger, startedAt: at, outcome: 'running' });
    return _id;
  }

  async finish(
    id: string,
    outcome: Exclude<JobRunOutcome, 'running'>,
    at: Date,
    details: { counts?: JobCounts; error?: string } = {},
  ): Promise<void> {
    await this.runs.updateOne({ _id: id }, { $set: { outcome, finishedAt: at, ...details } });
  }

  /** Drops the runs of `name` beyond the newest JOB_RUNS_KEPT. */
  async prune(name: string): Promise<void> {
    const oldest = await this.runs
      .find({ name }, { startedAt: 1 })
      .sort({ startedAt: -1 })
      .skip(JOB_RUNS_KEPT - 1)
      .limit(1)
      .lean<JobRun[]>()
      .exec();
    if (oldest[0]) await this.runs.deleteMany({ name, startedAt: { $lt: oldest[0].startedAt } });
  }

  /** The runs of a job, newest first. */
  recent(name: string, limit = JOB_RUNS_KEPT): Promise<JobRun[]> {
    return this.runs
      .find({ name })
      .sort({ startedAt: -1, _id: 1 })
      .limit(limit)
      .lean<JobRun[]>()
      .exec();
  }
}
