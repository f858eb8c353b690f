import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The preference an opt-in's confirmation is about (its key, as stored). */
export class ConfirmationPreferenceDto {
  @ApiProperty({ example: '7' }) ProgramId: string;
  @ApiProperty({ example: 'Email' }) ChannelId: string;
  @ApiProperty({ example: '12' }) FilterId: string;
}

/**
 * One double opt-in confirmation of a profile (docs/double-opt-in.md): of a consent's grant
 * (ConsentType) or of a program's opt-in (Preference).
 */
export class ConfirmationDto {
  @ApiProperty({ description: 'The confirmation id (the link id recorded as evidence)' })
  Id: string;

  @ApiProperty({
    enum: ['Pending', 'Confirmed', 'Expired', 'Cancelled'],
    description:
      'Pending: waits for the person (the link works); Confirmed: the person confirmed, the consent is Granted (the opt-in applied); Expired: ExpiresDate passed unconfirmed; Cancelled: a later write denied, revoked or deactivated the consent (opted out of or archived the preference), or removed the address',
  })
  State: string;

  @ApiProperty() EmailAddress: string;
  @ApiPropertyOptional({ description: "A grant's confirmation: the consent type" })
  ConsentType?: string;

  @ApiPropertyOptional({
    type: () => ConfirmationPreferenceDto,
    description:
      "An opt-in's confirmation: the preference (a program's filter requiring confirmation)",
  })
  Preference?: ConfirmationPreferenceDto;

  @ApiPropertyOptional() ConsentVersion?: string;
  @ApiPropertyOptional() Locale?: string;

  @ApiProperty({ format: 'date-time', description: 'When the grant was accepted' })
  RequestedDate: string;

  @ApiProperty({ format: 'date-time', description: 'When the link stops working' })
  ExpiresDate: string;

  @ApiPropertyOptional({ format: 'date-time' })
  ConfirmedDate?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'When it was confirmed or cancelled' })
  ClosedDate?: string;

  @ApiPropertyOptional({
    description:
      'Why it was cancelled, when a profile merge cancelled it (the survivor kept its own consent)',
  })
  ClosedReason?: string;

  @ApiPropertyOptional({
    description:
      'Taken over from this absorbed profile by a profile merge: its link (sent for that profile) confirms here',
  })
  MergedFrom?: number;

  @ApiProperty({
    enum: ['Queued', 'Sent', 'Failed'],
    description: 'The message: Queued (owed, retried with backoff), Sent, Failed (given up)',
  })
  MailState: string;

  @ApiProperty({ description: 'SMTP attempts so far' })
  MailAttempts: number;

  @ApiPropertyOptional({ format: 'date-time' })
  MailSentDate?: string;

  @ApiPropertyOptional({ description: "The SMTP server's last refusal or error" })
  MailLastError?: string;

  @ApiPropertyOptional({
    description: 'How many times the message was sent again (POST .../Resend)',
  })
  MailResends?: number;
}

export class ConfirmationListDto {
  @ApiProperty({ type: [ConfirmationDto], description: 'Newest first; the last 20 at most' })
  Confirmations: ConfirmationDto[];
}
