import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalInt, OptionalText } from '@app/shared';

/** POST .../PreferenceCentreLinks: how long the links last and what one click unsubscribes from. */
export class CreateCentreLinkDto {
  @OptionalInt(1, {
    maximum: 3650,
    description:
      'Days the links stay valid (default PREFERENCE_CENTRE_LINK_DAYS, 30; at most PREFERENCE_CENTRE_MAX_LINK_DAYS, 400)',
    example: 30,
  })
  ExpiresInDays?: number;

  @OptionalText(10, {
    description:
      'The program the one-click unsubscribe link opts out of (its Id, as preferences name it: "3"); absent: every program the page shows',
    example: '3',
  })
  ProgramId?: string;

  @OptionalText(20, {
    description:
      'With ProgramId: only this channel of the program (Email, Phone, Text/SMS, Mail or Solicit; SMS and Text name Text/SMS)',
    example: 'Email',
  })
  ChannelId?: string;
}

export class CentreLinkDto {
  @ApiProperty({
    description: 'The preference centre page of the profile, to send to the person',
    example:
      'https://prefs.example.com/Profiles/v4/acme/PreferenceCentre?p=1042&e=1767225600&s=3q2-7w...',
  })
  Url: string;

  @ApiProperty({
    description:
      'The one-click unsubscribe URL (RFC 8058): the List-Unsubscribe header value of an email, between angle brackets',
    example:
      'https://prefs.example.com/Profiles/v4/acme/PreferenceCentre/Unsubscribe?p=1042&e=1767225600&u=all&s=Xk1...',
  })
  UnsubscribeUrl: string;

  @ApiProperty({
    description: 'The List-Unsubscribe header to put in an email as is',
    example:
      '<https://prefs.example.com/Profiles/v4/acme/PreferenceCentre/Unsubscribe?p=1042&e=1767225600&u=all&s=Xk1...>',
  })
  ListUnsubscribe: string;

  @ApiProperty({
    description: 'The List-Unsubscribe-Post header to put in the same email (RFC 8058)',
    example: 'List-Unsubscribe=One-Click',
  })
  ListUnsubscribePost: string;

  @ApiProperty({
    description: 'When both links stop working (ISO 8601, UTC)',
    example: '2026-12-31T00:00:00.000Z',
  })
  ExpiresAt: string;

  @ApiPropertyOptional({
    description:
      'What the one-click link unsubscribes from: "all", "<ProgramId>" or "<ProgramId>:<ChannelId>"',
    example: 'all',
  })
  UnsubscribeScope: string;
}
