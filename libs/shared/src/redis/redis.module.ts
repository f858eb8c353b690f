import { Global, Module } from '@nestjs/common';
import { RedisService } from './redis.service';

/** One Redis connection per process for derived data (see RedisService). */
@Global()
@Module({ providers: [RedisService], exports: [RedisService] })
export class RedisModule {}
