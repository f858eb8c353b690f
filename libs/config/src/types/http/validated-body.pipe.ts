import type { PipeTransform, Type as ClassType } from '@nestjs/common';
import { validateInput } from '../domain/validate-input';

/**
 * Validates a body as `type` when the parameter's class is built at run time (the wrapper
 * of each kind), which the global pipe cannot see from the parameter's declared type.
 */
export class ValidatedBodyPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(private readonly type: ClassType<T>) {}

  transform(body: unknown): T {
    return validateInput(this.type, body, 'The body');
  }
}
