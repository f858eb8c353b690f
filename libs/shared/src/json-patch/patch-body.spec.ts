import { InvalidInputError } from '../errors/domain-errors';
import {
  checkPatchOperations,
  MAX_PATCH_OPERATIONS,
  PatchOperationsPipe,
  PatchRequestPipe,
} from './patch-body';

describe('the PATCH body', () => {
  it('refuses move, copy, unknown ops, bad pointers and missing values, naming each', () => {
    const { operations, problems } = checkPatchOperations([
      { op: 'move', from: '/A', path: '/B' },
      { op: 'copy', from: '/A', path: '/B' },
      { op: 'nope', path: '/A' },
      { op: 'add', path: 'A', value: 1 },
      { op: 'add', path: '/A~2', value: 1 },
      { op: 'replace', path: '/A' },
      { op: 'remove', path: '/A', extra: 1 },
      'x',
      { op: 'replace', value: 1 },
    ]);
    expect(operations).toEqual([]);
    expect(problems).toEqual([
      'Invalid Operations[0].op (value "move"): move and copy are not supported (use add, remove, replace or test)',
      'Invalid Operations[1].op (value "copy"): move and copy are not supported (use add, remove, replace or test)',
      'Invalid Operations[2].op (value "nope"): must be one of add, remove, replace, test',
      'Invalid Operations[3].path (value "A"): must be a JSON pointer to a field ("/Name", "/Emails/0/EmailAddress")',
      'Invalid Operations[4].path (value "/A~2"): must be a JSON pointer to a field ("/Name", "/Emails/0/EmailAddress")',
      'Invalid Operations[5].value (value missing): replace needs a value',
      'Unknown field Operations[6].extra',
      'Invalid Operations[7] (value "x"): must be an object',
      'Invalid Operations[8].path (value missing): must be a JSON pointer to a field ("/Name", "/Emails/0/EmailAddress")',
    ]);
  });

  it('keeps valid operations in request order, without fields they do not use', () => {
    const { operations, problems } = checkPatchOperations([
      { op: 'remove', path: '/A' },
      { op: 'replace', path: '/B~1C', value: null },
      { op: 'test', path: '/D', value: 0 },
    ]);
    expect(problems).toEqual([]);
    expect(operations).toEqual([
      { op: 'remove', path: '/A' },
      { op: 'replace', path: '/B~1C', value: null },
      { op: 'test', path: '/D', value: 0 },
    ]);
  });

  it('refuses a body that is no non-empty array, or too long', () => {
    const refusal = 'must be a non-empty array of PATCH operations ({"op", "path", "value"})';
    expect(checkPatchOperations([]).problems).toEqual([`The body ${refusal}`]);
    expect(checkPatchOperations({ op: 'add' }).problems).toEqual([`The body ${refusal}`]);
    const many = Array.from({ length: MAX_PATCH_OPERATIONS + 1 }, () => ({
      op: 'remove',
      path: '/A',
    }));
    expect(checkPatchOperations(many).problems).toEqual([
      `The body has ${MAX_PATCH_OPERATIONS + 1} operations; at most ${MAX_PATCH_OPERATIONS}`,
    ]);
  });

  it('reads an array body (PATCH by id) and an {"Operations"} body (PATCH by alternate id)', () => {
    const ops = [{ op: 'replace', path: '/A', value: 1 }];
    expect(new PatchOperationsPipe().transform(ops)).toEqual(ops);
    expect(new PatchRequestPipe().transform({ Operations: ops })).toEqual(ops);
    expect(() => new PatchRequestPipe().transform(ops)).toThrow(InvalidInputError);
    expect(() => new PatchRequestPipe().transform({ Operations: ops, Extra: 1 })).toThrow(
      'Unknown field Extra',
    );
    expect(() => new PatchRequestPipe().transform({ Operations: [] })).toThrow(
      'Operations must be a non-empty array of PATCH operations',
    );
  });
});
