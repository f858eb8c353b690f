/**
 * Text as every name and key of the service compares it: trimmed, runs of white space folded
 * to one space, lower-cased ('' for anything that is not text). The one normaliser: type,
 * consent-type, custom-field, program and group names, element keys and search keys all go
 * through it, so two modules never disagree on whether two names are the same.
 */
export function textKey(value: unknown): string {
  return typeof value === 'string' ? value.trim().replace(/\s+/g, ' ').toLowerCase() : '';
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A MongoDB condition equivalent to textKey equality with `value` (or to containing it,
 * when partial): a case-insensitive regex, for the broad queries that find candidates.
 */
export function textKeyCondition(value: string, partial = false): Record<string, unknown> {
  const words = textKey(value).split(' ').map(escapeRegex).join('\\s+');
  return { $regex: partial ? words : `^\\s*${words}\\s*$`, $options: 'i' };
}
