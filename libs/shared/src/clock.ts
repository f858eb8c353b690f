import { Global, Injectable, Module } from '@nestjs/common';

/**
 * The time scheduled jobs act on: every job asks `now()` instead of `new Date()`, so
 * tests move time forward (expiry, versions) instead of sleeping. It runs with the system
 * clock plus an offset that only tests set (`set`, `advance`, `reset`); production code
 * never changes it.
 */
@Injectable()
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Test control: from now on `now()` reads `at` plus the time passed since. */
  set(at: Date): void {
    this.offsetMs = at.getTime() - Date.now();
  }

  /** Test control: moves `now()` forward (or back, with a negative value). */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Test control: back to the system clock. */
  reset(): void {
    this.offsetMs = 0;
  }

  /** How far `now()` is from the system clock (the test app copies it to new workers). */
  get offset(): number {
    return this.offsetMs;
  }
}

/** One Clock per process, injectable everywhere (QueueModule brings it into both apps). */
@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
