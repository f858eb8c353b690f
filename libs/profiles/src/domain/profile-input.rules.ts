import { profileBoundViolations } from './profile-bounds';
import { findRepeatedElement } from './apply-profile-write';
import type { ProfileBody } from './profile-shape';

/**
 * Checks on a profile body that the DTOs cannot express, made before anything is
 * queued. Returns the messages of every problem found (empty when the body is fine).
 */
export function checkProfileInput(
  body: ProfileBody,
  kind: 'create' | 'merge' | 'overwrite',
): string[] {
  const problems: string[] = profileBoundViolations(body);
  if (problems.length) return problems; // before any per-element work on huge lists
  if (kind !== 'merge' && (typeof body.CustomerType !== 'string' || !body.CustomerType.trim())) {
    problems.push(
      `CustomerType is required on ${kind === 'create' ? 'create' : 'overwrite'} (value ${JSON.stringify(body.CustomerType ?? null)})`,
    );
  }
  const repeated = findRepeatedElement(body);
  if (repeated) problems.push(repeated);
  return problems;
}
