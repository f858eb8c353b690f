import { Command } from '@nestjs/cqrs';

/**
 * Re-enqueue profiles whose accepted writes have waited too long (lost job or Redis).
 * `everyMarker`: every profile with a write waiting, however young (Redis was just found
 * empty: every queued job is gone, there is nothing to wait for).
 */
export class SweepPendingWritesCommand extends Command<number> {
  constructor(readonly everyMarker = false) {
    super();
  }
}
