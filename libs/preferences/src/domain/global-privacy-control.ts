/*
 * How a preference records a Global Privacy Control signal (docs/preference-centre.md,
 * "Global Privacy Control"): the preference centre writes them, the contact decisions read
 * them. A preference the signal opted out carries the reserved attribute GPC_ATTRIBUTE with
 * the value OptOut and the SourceId GPC_SOURCE; one the person opted back into while the
 * signal was present, after confirming it, carries the attribute with OptInConfirmed.
 */

/** The reserved preference attribute that records a preference's relation to the signal. */
export const GPC_ATTRIBUTE = '$GlobalPrivacyControl';

/** The values of GPC_ATTRIBUTE. */
export const GPC_VALUES = {
  /** The opt-out was written because the person's browser sent the signal. */
  optOut: 'OptOut',
  /** The person opted in while the signal was present, after an explicit confirmation. */
  optInConfirmed: 'OptInConfirmed',
} as const;

export type GpcValue = (typeof GPC_VALUES)[keyof typeof GPC_VALUES];

/** The SourceId of a preference the signal opted out. */
export const GPC_SOURCE = 'GlobalPrivacyControl';

/** The GPC_ATTRIBUTE value among a preference's attributes, when it is one of GPC_VALUES. */
export function gpcValueOf(attributes: unknown): GpcValue | undefined {
  if (!Array.isArray(attributes)) return undefined;
  const value = (attributes as { Key?: unknown; Value?: unknown }[]).find(
    (attribute) =>
      typeof attribute?.Key === 'string' &&
      attribute.Key.trim().toLowerCase() === GPC_ATTRIBUTE.toLowerCase(),
  )?.Value;
  return Object.values(GPC_VALUES).find((known) => known === value);
}
