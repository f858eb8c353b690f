import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The contact element an event's item belongs to (a contact's preference or consent). */
export class EventContactDto {
  @ApiProperty({
    enum: ['Email', 'Phone', 'Address'],
    description: 'The kind of contact element: Email, Phone or Address (a mailing address)',
  })
  Type: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The fields naming the element: EmailAddress and EmailAddressType; PhoneNumber and PhoneType; AddressType, Address1 and PostalCode',
  })
  Fields: Record<string, unknown>;
}

/** One event of a profile (docs/events.md, "Payload"). */
export class ProfileEventDto {
  @ApiProperty({
    description:
      'The event\'s id, stable across deliveries and retrievals: "<ProfileId>-<Sequence>-<n>" (n: the event\'s place among those of its write)',
    example: '7-3-1',
  })
  EventId: string;
  @ApiProperty({ example: 'consent.updated' }) EventType: string;
  @ApiProperty({ description: 'When the write that made the change was accepted (ISO 8601)' })
  OccurredAt: string;
  @ApiProperty() ProfileId: number;
  @ApiProperty({
    description:
      "The write's sequence number in the profile: a profile's events are ordered by (Sequence, n)",
  })
  Sequence: number;
  @ApiProperty({ description: 'The user (or system job) whose write made the change' })
  UserId: string;
  @ApiPropertyOptional({ type: EventContactDto }) Contact?: EventContactDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "The changed item as it is after the write; for profile.created, .updated and .replaced the whole profile in the GET shape (as the caller's user group sees it); for profile.deleted only ProfileId",
  })
  Data: object;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'On updates: the item (or profile) as it was before the write',
  })
  PreviousData?: object;
}

/** A page of a profile's events. */
export class ProfileEventsDto {
  @ApiProperty() Count: number;
  @ApiProperty() HasMore: boolean;
  @ApiProperty() Limit: number;
  @ApiProperty({ description: 'The first event of the page, from 1' }) Offset: number;
  @ApiProperty({ description: 'Events of the profile matching the query' }) TotalResults: number;
  @ApiProperty({ type: ProfileEventDto, isArray: true }) Events: ProfileEventDto[];
}
