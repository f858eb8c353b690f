import { Injectable, PipeTransform } from '@nestjs/common';
import { ApiError } from '@app/shared';

const INT32_MAX = 2147483647;

/** `{profileId}` is a positive int32; anything else is a 400 that shows the value. */
@Injectable()
export class ParseProfileIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1 || id > INT32_MAX) {
      throw ApiError.badRequest(`Invalid profileId (value ${JSON.stringify(value)}): must be an integer from 1 to ${INT32_MAX}`);
    }
    return id;
  }
}
