/** Text as keys compare it: trimmed, runs of spaces folded, lower-cased ('' for non-text). */
export function normText(value: unknown): string {
  return typeof value === 'string' ? value.trim().replace(/\s+/g, ' ').toLowerCase() : '';
}

/** The digits of a phone number, as phones match and PhoneNumberNumeric is derived. */
export function phoneDigits(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\D/g, '') : '';
}
