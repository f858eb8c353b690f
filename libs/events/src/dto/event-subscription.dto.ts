import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { OptionalBoolean, OptionalText, RequiredText } from '@app/shared';
import {
  DELIVERY_FORMATS,
  type DeliveryFormat,
  MAX_FILTER_VALUES,
  MAX_SELECTIONS,
  SUBSCRIPTION_STATES,
  type SubscriptionState,
  VALIDATION_STATUSES,
  type ValidationStatus,
} from '../domain/event-subscription';
import {
  CONTACT_TYPES,
  EVENT_ENTITIES,
  type EventEntity,
  FILTER_KINDS,
  type SubscribedEventType,
  SUBSCRIBED_EVENT_TYPES,
} from '../domain/event-types';
import { TARGET_URL_MAX_LENGTH } from '../domain/target-url';

/** The longest value of a narrowing list (a name or a FilterId). */
const FILTER_VALUE_MAX_LENGTH = 100;

/**
 * An optional narrowing list: 1 to MAX_FILTER_VALUES strings, or its wildcard alone.
 * `values`: the strings it may hold, when they are a fixed set.
 */
function FilterList(description: string, values?: readonly string[]): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      isArray: true,
      minItems: 1,
      maxItems: MAX_FILTER_VALUES,
      description: `${description}. Absent: all (as the wildcard). The wildcard must stand alone`,
      ...(values ? { enum: values } : {}),
    }),
    IsOptional(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_FILTER_VALUES),
    IsString({ each: true }),
    MaxLength(FILTER_VALUE_MAX_LENGTH, { each: true }),
    Matches(/\S/, { each: true, message: 'each value must not be blank' }),
    ...(values ? [IsIn(values, { each: true })] : []),
  );
}

/** One (Entity, EventType) a subscription receives, and the lists narrowing it. */
export class EventSelectionDto {
  @ApiProperty({
    enum: EVENT_ENTITIES,
    description:
      'The entity whose events are received: Profile (profile.* events), Preference (preference.*), Consent (consent.*), ' +
      'Contacts (contacts.*: alternate ids, phones, emails, addresses, customer type), StandardField (standardfield.*: locale and names) ' +
      'or CustomField (customfield.*)',
  })
  @IsIn(EVENT_ENTITIES)
  Entity: EventEntity;

  @ApiProperty({
    enum: SUBSCRIBED_EVENT_TYPES,
    description:
      'An event type of the Entity (profile.* for Profile, preference.* for Preference, consent.* for Consent, contacts.* for Contacts, standardfield.* for StandardField, customfield.updated for CustomField), or * for every event type of the Entity',
  })
  @IsIn(SUBSCRIBED_EVENT_TYPES)
  EventType: SubscribedEventType;

  @FilterList(
    `Preference and Consent only: FilterIds of the configuration (as strings, e.g. "12"), or ["${FILTER_KINDS.Filters}"]`,
  )
  Filters?: string[];

  @FilterList(
    `Consent only: consent type names of the configuration, or ["${FILTER_KINDS.ConsentTypes}"]`,
  )
  ConsentTypes?: string[];

  @FilterList(`Contacts only: Email, Phone, Address, or ["${FILTER_KINDS.ContactTypes}"]`, [
    ...CONTACT_TYPES,
    FILTER_KINDS.ContactTypes,
  ])
  ContactTypes?: string[];

  @FilterList(
    `Any entity: names of profile groups (free values of profiles, kept as given), or ["${FILTER_KINDS.Groups}"]`,
  )
  Groups?: string[];

  @FilterList(
    `CustomField only: custom field names of the configuration, or ["${FILTER_KINDS.CustomFields}"]`,
  )
  CustomFields?: string[];
}

const URL_RULES =
  'The endpoint that receives the events (POST, JSON): an absolute https URL (http only where the operator set EVENTS_ALLOW_PRIVATE_TARGETS), without credentials, not localhost nor a loopback, private, link-local or other non-public address (names resolving to one are refused when connecting). A new Url is validated again (handshake)';

/** The body of create and update (PUT takes the whole subscription: absent fields take their defaults). */
export class EventSubscriptionBodyDto {
  @RequiredText(100, { description: 'A name for the subscription' })
  Name: string;

  @OptionalText(1000, { description: 'What the subscription is for' })
  Description?: string;

  @OptionalText(20, { description: 'A locale (e.g. en-us) for the localised parts of payloads' })
  LocaleID?: string;

  @RequiredText(TARGET_URL_MAX_LENGTH, { format: 'uri', description: URL_RULES })
  Url: string;

  @ApiProperty({
    type: () => EventSelectionDto,
    isArray: true,
    minItems: 1,
    maxItems: MAX_SELECTIONS,
    description: `What the subscription receives: 1 to ${MAX_SELECTIONS} (Entity, EventType) pairs, none covering another's events (* covers every type of its entity). Another subscription of the client with the same Url may not cover the same events (409)`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SELECTIONS)
  @ValidateNested({ each: true })
  @Type(() => EventSelectionDto)
  Subscriptions: EventSelectionDto[];

  @ApiPropertyOptional({
    enum: SUBSCRIPTION_STATES,
    default: 'Paused',
    description:
      'Active: events are delivered (once the handshake Validated the Url); Paused (default): none are',
  })
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATES)
  State?: SubscriptionState;

  @OptionalBoolean({
    default: true,
    description:
      'false on update deletes the subscription (the answer shows it with IsActive false; it is gone then); false on create is refused',
  })
  IsActive?: boolean;

  @OptionalBoolean({
    default: false,
    description: 'true: payloads carry no Data nor PreviousData, only what changed where',
  })
  ExcludeData?: boolean;

  @OptionalBoolean({
    default: false,
    description:
      'true: when the subscription is set Active again, the events of the paused period (up to 15 days) are delivered',
  })
  DeliverPausedEvents?: boolean;

  @OptionalText(100, {
    minLength: 1,
    description:
      'An active alternate id type of the configuration: payloads name the profile by its alternate id of that type instead of ProfileId',
  })
  AlternateIdType?: string;

  @ApiPropertyOptional({
    enum: DELIVERY_FORMATS,
    default: 'Standard',
    description:
      'The body of deliveries: Standard (default), the event as JSON (Content-Type application/json); CloudEvents, a CloudEvents 1.0 event in structured mode (Content-Type application/cloudevents+json: specversion, id the EventId, source urn:pcp:client:<clientId>, type com.pcp.<EventType>, subject the ProfileId (or the alternate id of AlternateIdType), time, datacontenttype application/json, data the Standard body). Both signed as Standard Webhooks over the exact body',
  })
  @IsOptional()
  @IsIn(DELIVERY_FORMATS)
  DeliveryFormat?: DeliveryFormat;
}

const DATE_TIME = { type: String, format: 'date-time' } as const;

/** A subscription as the routes answer it. */
export class EventSubscriptionDto {
  @ApiProperty({ format: 'uuid', description: "The subscription's id" })
  SubscriptionId: string;

  @ApiProperty({ description: 'The name given to the subscription' }) Name: string;
  @ApiProperty({ type: String, nullable: true, description: 'What it is for (null: not given)' })
  Description: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The locale of payloads (null: not given)',
  })
  LocaleID: string | null;
  @ApiProperty({ format: 'uri', description: 'The endpoint events are POSTed to' }) Url: string;

  @ApiProperty({ type: () => EventSelectionDto, isArray: true, description: 'What it receives' })
  Subscriptions: EventSelectionDto[];

  @ApiProperty({
    enum: SUBSCRIPTION_STATES,
    description:
      'Active: events are delivered while ValidationStatus is Validated; Paused: none are',
  })
  State: SubscriptionState;

  @ApiProperty({
    description: 'true; false only in the answer of the update that deleted it',
  })
  IsActive: boolean;

  @ApiProperty({ description: 'true: payloads carry no Data nor PreviousData' })
  ExcludeData: boolean;
  @ApiProperty({
    description:
      'true: set Active again, it receives the events of the paused period (up to 15 days)',
  })
  DeliverPausedEvents: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The alternate id type naming profiles in payloads (null: ProfileId)',
  })
  AlternateIdType: string | null;

  @ApiProperty({
    enum: DELIVERY_FORMATS,
    description:
      'The body of deliveries: Standard (the event as JSON) or CloudEvents (a CloudEvents 1.0 event, structured mode)',
  })
  DeliveryFormat: DeliveryFormat;

  @ApiProperty({
    enum: VALIDATION_STATUSES,
    description:
      'The handshake of the Url: Pending (running or to be retried), Validated (the endpoint answered the challenge: events may be delivered), Failed (every attempt failed; see ValidationFailure; POST .../Validate runs it again)',
  })
  ValidationStatus: ValidationStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the handshake Failed (status code, timeout, refused target, wrong challenge)',
  })
  ValidationFailure: string | null;

  @ApiProperty({ ...DATE_TIME, nullable: true, description: 'When the handshake passed' })
  ValidatedAt: string | null;

  @ApiProperty({ ...DATE_TIME, description: 'When it was created' }) Created: string;
  @ApiProperty({
    ...DATE_TIME,
    description: 'When a user last changed it (update, secret rotation, Validate)',
  })
  Modified: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the service paused the subscription by itself; null otherwise',
  })
  PausedReason: string | null;

  @ApiPropertyOptional({
    description:
      'Only in the answers of create and of secret rotation, never again: the signing secret (whsec_ and base64 of 32 bytes, Standard Webhooks)',
  })
  Secret?: string;
}

/** Every subscription of the client. */
export class EventSubscriptionListDto {
  @ApiProperty({
    type: () => EventSubscriptionDto,
    isArray: true,
    description: 'In creation order, without secrets',
  })
  Subscriptions: EventSubscriptionDto[];
}
