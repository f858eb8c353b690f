import { Global, Module } from '@nestjs/common';
import { RedisService } from './redis.service';
import { ReusedStamps } from './reused-stamps.service';

/** One Redis connection per process for derived data (see RedisService), and the stamps read paths reuse. */
@Global()
@Module({ providers: [RedisService, ReusedStamps], exports: [RedisService, ReusedStamps] })
export class RedisModule {}
