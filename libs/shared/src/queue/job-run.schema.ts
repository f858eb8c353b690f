import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

export type JobRunOutcome = 'running' | 'ok' | 'failed' | 'skipped';

/**
 * One run of a scheduled job (collection `job_runs`): written when the run starts and
 * completed when it ends, so a run that never finished (its worker died) stays
 * `running`. Holds no tenant data: names, times, outcome and counts only.
 */
@Schema({ collection: 'job_runs', versionKey: false })
export class JobRun {
  @Prop({ type: String }) _id: string;
  @Prop({ required: true }) name: string;
  /** Bull's job id: a scheduled slot (`repeat:...:<ms>`) or a triggered run. */
  @Prop({ required: true }) jobId: string;
  /** `schedule` (a repeatable slot) or `trigger` (enqueued directly, e.g. by a test). */
  @Prop({ required: true }) trigger: string;
  /** Real (system) times of the run; the time the job acted on is its Clock's. */
  @Prop({ required: true }) startedAt: Date;
  @Prop() finishedAt?: Date;
  @Prop({ required: true }) outcome: JobRunOutcome;
  @Prop() error?: string;
  @Prop({ type: Object }) counts?: Record<string, number>;
}

export const JobRunSchema = SchemaFactory.createForClass(JobRun);
// Serves: the last runs of a job, newest first (status endpoint, pruning).
JobRunSchema.index({ name: 1, startedAt: -1 });
