import { Command } from '@nestjs/cqrs';

/** Rebuilds the search key index when its `built` marker is missing (Redis lost it). */
export class RebuildSearchKeyIndexCommand extends Command<void> {}
