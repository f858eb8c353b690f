import type { BodyExamples } from '@app/shared';
import type { CreateCentreLinkDto } from './centre-link.dto';

/*
 * Request-body examples of POST .../Profile/{profileId}/PreferenceCentreLinks (the OpenAPI
 * document's `examples`; test/openapi-examples.e2e-spec.ts sends each).
 */
export const CENTRE_LINK_EXAMPLES: BodyExamples<CreateCentreLinkDto> = {
  newsletterByEmail: {
    summary:
      'Links valid for 30 days; the one-click link unsubscribes from program 1 (Newsletter) by email only',
    value: { ExpiresInDays: 30, ProgramId: '1', ChannelId: 'Email' },
  },
  defaults: {
    summary: 'The default expiry; the one-click link unsubscribes from every program',
    value: {},
  },
};
