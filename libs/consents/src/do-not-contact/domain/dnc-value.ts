import type { DncListType } from './dnc-list.schema';

/**
 * The key a list value is stored and matched under: emails trimmed and lower-cased (as
 * profile emails match), phones by their digits (as PhoneNumberNumeric). Null when the
 * value is not one of the list's kind.
 */
export function dncKey(listType: DncListType, value: string): string | null {
  if (listType === 'Email') {
    const email = value.trim().toLowerCase();
    return /^[^\s@]+@[^\s@]+$/.test(email) && email.length <= 254 ? email : null;
  }
  const digits = value.replace(/\D/g, '');
  return /^\d{1,15}$/.test(digits) && /^[\d\s()+.\-/]+$/.test(value.trim()) ? digits : null;
}
