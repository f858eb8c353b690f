import { Command } from '@nestjs/cqrs';

/**
 * Looks whether Redis lost its data (RedisEpoch) and, in the one worker that noticed it
 * first, re-enqueues every profile with a write waiting; answers how many (null: no loss).
 */
export class RecoverLostRedisCommand extends Command<number | null> {}
