import { ApiSecurity } from '@nestjs/swagger';

/*
 * The link credential of the public preference-centre routes, as OpenAPI security schemes
 * (docs/preference-centre.md, "Links"): a link is authorised by its signed query parameters
 * together, so each is an `apiKey` in the query and each operation requires all of its
 * link's at once (one security requirement naming them: AND). The api's OpenAPI document
 * declares the schemes (apps/api/src/openapi/openapi-document.ts).
 */

/** The schemes, by name: the query parameter each names, and what it is. */
export const CENTRE_LINK_SECURITY_SCHEMES = {
  preferenceCentreLinkProfile: {
    parameter: 'p',
    description: "Preference centre link: the profile id (p), covered by the link's signature (s)",
  },
  preferenceCentreLinkExpiry: {
    parameter: 'e',
    description:
      "Preference centre link: when it expires, Unix seconds (e), covered by the link's signature (s); past it the link is refused (410)",
  },
  preferenceCentreLinkScope: {
    parameter: 'u',
    description:
      "One-click unsubscribe link: what it unsubscribes from (u: all, <ProgramId> or <ProgramId>:<ChannelId>), covered by the link's signature (s)",
  },
  preferenceCentreLinkSignature: {
    parameter: 's',
    description:
      "Preference centre link: HMAC-SHA-256 with the client's link key over the client, profile, expiry and purpose (the page, or the one-click scope), base64url (s); checked in constant time (403 when it fails)",
  },
} as const;

type SchemeName = keyof typeof CENTRE_LINK_SECURITY_SCHEMES;

const requirement = (names: SchemeName[]): Record<string, string[]> =>
  Object.fromEntries(names.map((name) => [name, [] as string[]]));

/** The page and its form: p, e and s together. */
export const PageLinkSecurity = (): MethodDecorator & ClassDecorator =>
  ApiSecurity(
    requirement([
      'preferenceCentreLinkProfile',
      'preferenceCentreLinkExpiry',
      'preferenceCentreLinkSignature',
    ]),
  );

/** A one-click unsubscribe link: p, e, u and s together. */
export const UnsubscribeLinkSecurity = (): MethodDecorator & ClassDecorator =>
  ApiSecurity(
    requirement([
      'preferenceCentreLinkProfile',
      'preferenceCentreLinkExpiry',
      'preferenceCentreLinkScope',
      'preferenceCentreLinkSignature',
    ]),
  );
