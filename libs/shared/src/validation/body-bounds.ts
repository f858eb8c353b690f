/**
 * Bounds every request body must keep, whatever the endpoint: checked right after parsing,
 * before authentication, validation or any other work, so a pathological body (nested ten
 * thousand levels deep, a million-element array) is a 400 naming the limit instead of a
 * stack overflow deep in validation. Endpoints set tighter bounds of their own (DTOs, and
 * the per-collection bounds of profile writes).
 */
export const BODY_BOUNDS = {
  /** Levels of objects and arrays (a profile body needs 7). */
  depth: 32,
  /** Elements of any one array. */
  arrayLength: 1000,
  /** Characters of any one string (the longest field the API defines has 10,000). */
  stringLength: 10000,
} as const;

/** The first bound the value breaks, worded for a 400; null when it keeps them all. */
export function bodyBoundViolation(body: unknown): string | null {
  // Iterative walk: a recursive one would itself overflow on the bodies it guards against.
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value: body, path: '$', depth: 0 },
  ];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.length > BODY_BOUNDS.stringLength) {
        return `${shorten(path)} is ${value.length} characters long; at most ${BODY_BOUNDS.stringLength} are accepted`;
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= BODY_BOUNDS.depth) {
      return `The request body is nested deeper than ${BODY_BOUNDS.depth} levels (at ${shorten(path)})`;
    }
    if (Array.isArray(value)) {
      if (value.length > BODY_BOUNDS.arrayLength) {
        return `${shorten(path)} has ${value.length} elements; at most ${BODY_BOUNDS.arrayLength} are accepted`;
      }
      value.forEach((item, index) =>
        stack.push({ value: item, path: `${path}[${index}]`, depth: depth + 1 }),
      );
    } else {
      for (const [key, item] of Object.entries(value)) {
        stack.push({ value: item, path: `${path}.${key}`, depth: depth + 1 });
      }
    }
  }
  return null;
}

/** A path short enough for a message: its start and its end. */
function shorten(path: string): string {
  return path.length <= 120 ? path : `${path.slice(0, 60)}...${path.slice(-40)}`;
}
