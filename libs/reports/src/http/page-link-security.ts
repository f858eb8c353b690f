import { ApiSecurity } from '@nestjs/swagger';

/*
 * The reporting page's link credential as OpenAPI security schemes, as the preference
 * centre declares its own (libs/preference-centre/src/http/link-security.ts): each signed
 * query parameter is an `apiKey` in the query, and the page requires all of them at once
 * (one requirement naming them: AND). The api's OpenAPI document declares the schemes.
 */

export const REPORT_PAGE_LINK_SECURITY_SCHEMES = {
  reportsPageLinkUser: {
    parameter: 'u',
    description:
      "Reporting page link: the user it was made for (u), covered by the link's signature (s)",
  },
  reportsPageLinkExpiry: {
    parameter: 'e',
    description:
      'Reporting page link: when it expires, Unix seconds (e), covered by the signature (s); past it the link is refused (410)',
  },
  reportsPageLinkSignature: {
    parameter: 's',
    description:
      'Reporting page link: HMAC-SHA-256 over the client, user and expiry with a key derived from JWT_SECRET, base64url (s); checked in constant time (403 when it fails)',
  },
} as const;

/** The page: u, e and s together. */
export const ReportPageLinkSecurity = (): MethodDecorator & ClassDecorator =>
  ApiSecurity(
    Object.fromEntries(
      Object.keys(REPORT_PAGE_LINK_SECURITY_SCHEMES).map((name) => [name, [] as string[]]),
    ),
  );
