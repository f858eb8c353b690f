import type { ProfileBody } from '@app/profiles';

/**
 * A walk through every allowed consent status transition, as a profile's writes: a create
 * (new → NotSet, Denied, Granted); Terms NotSet → Denied → Granted → Granted → Revoked →
 * Granted, with Marketing NotSet → Granted and the email's consent following Terms; then
 * Mail Denied → Granted → Revoked → Granted, Sms restated (Granted).
 */
export function consentTransitionWalk(email: string): ProfileBody[] {
  return [
    {
      CustomerType: 'Customer',
      Consents: [
        { ConsentType: 'Terms', ConsentStatus: 4 },
        { ConsentType: 'Mail', ConsentStatus: 2 },
        { ConsentType: 'Sms', ConsentStatus: 1 },
        { ConsentType: 'Marketing', ConsentStatus: 4 },
      ],
      Emails: [{ EmailAddress: email, Consents: [{ ConsentType: 'Email', ConsentStatus: 4 }] }],
    },
    ...[[2, 1], [1], [1], [3], [1]].map(([terms, marketing]) => ({
      Consents: [
        { ConsentType: 'Terms', ConsentStatus: terms },
        ...(marketing ? [{ ConsentType: 'Marketing', ConsentStatus: marketing }] : []),
      ],
      Emails: [{ EmailAddress: email, Consents: [{ ConsentType: 'Email', ConsentStatus: terms }] }],
    })),
    ...[1, 3, 1].map((mail) => ({
      Consents: [
        { ConsentType: 'Mail', ConsentStatus: mail },
        { ConsentType: 'Sms', ConsentStatus: 1 },
      ],
    })),
  ];
}
