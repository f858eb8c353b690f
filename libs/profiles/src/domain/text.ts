/** The digits of a phone number, as phones match and PhoneNumberNumeric is derived. */
export function phoneDigits(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\D/g, '') : '';
}
