import { Command } from '@nestjs/cqrs';

/** Re-enqueue profiles whose accepted writes have waited too long (lost job or Redis). */
export class SweepPendingWritesCommand extends Command<number> {}
