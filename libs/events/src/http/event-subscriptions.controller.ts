import { Body, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { linkTo, LocationHeader } from '@app/shared';
import { CreateEventSubscriptionCommand } from '../commands/create-event-subscription/create-event-subscription.command';
import { DeleteEventSubscriptionCommand } from '../commands/delete-event-subscription/delete-event-subscription.command';
import { RotateEventSubscriptionSecretCommand } from '../commands/rotate-event-subscription-secret/rotate-event-subscription-secret.command';
import { UpdateEventSubscriptionCommand } from '../commands/update-event-subscription/update-event-subscription.command';
import { ValidateEventSubscriptionCommand } from '../commands/validate-event-subscription/validate-event-subscription.command';
import {
  EventSubscriptionBodyDto,
  EventSubscriptionDto,
  EventSubscriptionListDto,
} from '../dto/event-subscription.dto';
import {
  EVENT_SUBSCRIPTION_CREATE_EXAMPLES,
  EVENT_SUBSCRIPTION_UPDATE_EXAMPLES,
} from '../dto/event-subscription.examples';
import { GetEventSubscriptionQuery } from '../queries/get-event-subscription/get-event-subscription.query';
import { ListEventSubscriptionsQuery } from '../queries/list-event-subscriptions/list-event-subscriptions.query';
import { ListDeadLettersQuery } from '../queries/list-dead-letters/list-dead-letters.query';
import { RequestRedeliveryCommand } from '../commands/request-redelivery/request-redelivery.command';
import { DeadLetterDto, DeadLetterListDto } from '../dto/dead-letter.dto';

const NOT_FOUND = {
  description:
    "Unknown client, or the client has no subscription of this id (another client's ids alike)",
};
const SUBSCRIPTION_LINK = { subscriptionId: '$response.body#/SubscriptionId' };

/** `Location` of a created or (re)validated subscription: the subscription. */
const subscriptionLocation = (result: unknown) => ({
  location: `Events/Subscriptions/${encodeURIComponent((result as EventSubscriptionDto).SubscriptionId)}`,
});

const ApiSubscriptionIdParam = () =>
  ApiParam({
    name: 'subscriptionId',
    description: "The subscription's SubscriptionId (from create or the list)",
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      example: '0b6f4d1e-7c2a-4e59-9a43-5d8e2f61c0a7',
    },
  });

/** Event subscriptions (docs/events.md, "Subscriptions"): thin, each route one command or query. */
@TenantController(':clientId/Events/Subscriptions', { tag: 'Events' })
export class EventSubscriptionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiAuth('events', 'write')
  @LocationHeader(subscriptionLocation)
  @ApiOperation({
    summary: 'Subscribe an endpoint to events',
    description:
      'Creates a subscription (State Paused unless given) and starts the validation handshake of its Url: the worker POSTs {"Type": "SubscriptionValidation", "SubscriptionId", "Challenge"} and the endpoint must answer 2xx with the challenge (as text, or JSON {"Challenge": ...}); ValidationStatus goes from Pending to Validated or Failed. Events are delivered only while State is Active and ValidationStatus Validated. The answer carries the signing Secret, once. 409 when the client already holds as many subscriptions as it may (its own quota, set by the operator, else EVENTS_MAX_SUBSCRIPTIONS, 25 by default), or another of its subscriptions has the same Url for an overlapping Entity and EventType.',
  })
  @ApiCreatedResponse({
    type: EventSubscriptionDto,
    description: 'Created (ValidationStatus Pending), with its Secret; Location: the subscription',
    links: {
      GetSubscription: linkTo('EventSubscriptionsController_get', SUBSCRIPTION_LINK),
      UpdateSubscription: linkTo('EventSubscriptionsController_update', SUBSCRIPTION_LINK),
    },
  })
  @ApiConflictResponse({
    description: 'The Url already receives one of the events, or the client is at its limit',
  })
  @ApiBody({ type: EventSubscriptionBodyDto, examples: EVENT_SUBSCRIPTION_CREATE_EXAMPLES })
  create(
    @CurrentCaller() caller: Caller,
    @Body() body: EventSubscriptionBodyDto,
  ): Promise<EventSubscriptionDto> {
    return this.commands.execute(
      new CreateEventSubscriptionCommand(caller.clientId, caller.userId, body, caller.quotas),
    );
  }

  @Get()
  @ApiAuth('events', 'read')
  @ApiOperation({
    summary: "The client's event subscriptions",
    description: 'Every subscription of the client, in creation order, without secrets.',
  })
  @ApiOkResponse({ type: EventSubscriptionListDto })
  list(@CurrentCaller() caller: Caller): Promise<EventSubscriptionListDto> {
    return this.queries.execute(new ListEventSubscriptionsQuery(caller.clientId));
  }

  @Get(':subscriptionId')
  @ApiAuth('events', 'read')
  @ApiSubscriptionIdParam()
  @ApiOperation({
    summary: 'An event subscription',
    description: 'The subscription with its handshake status, without its secret.',
  })
  @ApiOkResponse({ type: EventSubscriptionDto })
  @ApiNotFoundResponse(NOT_FOUND)
  get(
    @CurrentCaller() caller: Caller,
    @Param('subscriptionId') subscriptionId: string,
  ): Promise<EventSubscriptionDto> {
    return this.queries.execute(new GetEventSubscriptionQuery(caller.clientId, subscriptionId));
  }

  @Put(':subscriptionId')
  @ApiAuth('events', 'write')
  @ApiSubscriptionIdParam()
  @ApiOperation({
    summary: 'Replace an event subscription, or delete it (IsActive false)',
    description:
      'The body is the whole subscription, as on create: absent optional fields take their defaults (State Paused among them). A new Url is validated again (ValidationStatus Pending). IsActive false deletes the subscription: the answer shows it with IsActive false, and it is unknown (404) from then on. The secret does not change (see .../Secret).',
  })
  @ApiOkResponse({
    type: EventSubscriptionDto,
    description: 'Updated, or deleted (IsActive false)',
  })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({
    description: 'Another subscription of the client has the same Url for one of the events',
  })
  @ApiBody({ type: EventSubscriptionBodyDto, examples: EVENT_SUBSCRIPTION_UPDATE_EXAMPLES })
  update(
    @CurrentCaller() caller: Caller,
    @Param('subscriptionId') subscriptionId: string,
    @Body() body: EventSubscriptionBodyDto,
  ): Promise<EventSubscriptionDto> {
    return this.commands.execute(
      new UpdateEventSubscriptionCommand(caller.clientId, caller.userId, subscriptionId, body),
    );
  }

  @Delete(':subscriptionId')
  @HttpCode(204)
  @ApiAuth('events', 'write')
  @ApiSubscriptionIdParam()
  @ApiOperation({
    summary: 'Delete an event subscription',
    description: 'The subscription is gone: nothing more is delivered to it.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse(NOT_FOUND)
  async delete(
    @CurrentCaller() caller: Caller,
    @Param('subscriptionId') subscriptionId: string,
  ): Promise<void> {
    await this.commands.execute(
      new DeleteEventSubscriptionCommand(caller.clientId, subscriptionId),
    );
  }

  @Post(':subscriptionId/Secret')
  @HttpCode(200)
  @ApiAuth('events', 'write')
  @ApiSubscriptionIdParam()
  @ApiOperation({
    summary: "Rotate an event subscription's signing secret",
    description:
      'A new Secret, answered this once. The previous secret stays valid for 24 hours: deliveries meanwhile carry a signature by each (Standard Webhooks), so the endpoint can switch over without losing one.',
  })
  @ApiOkResponse({ type: EventSubscriptionDto, description: 'Rotated, with the new Secret' })
  @ApiNotFoundResponse(NOT_FOUND)
  rotateSecret(
    @CurrentCaller() caller: Caller,
    @Param('subscriptionId') subscriptionId: string,
  ): Promise<EventSubscriptionDto> {
    return this.commands.execute(
      new RotateEventSubscriptionSecretCommand(caller.clientId, caller.userId, subscriptionId),
    );
  }

  @Post(':subscriptionId/Validate')
  @HttpCode(202)
  @ApiAuth('events', 'write')
  @LocationHeader(subscriptionLocation)
  @ApiSubscriptionIdParam()
  @ApiOperation({
    summary: "Run an event subscription's validation handshake again",
    description:
      'ValidationStatus becomes Pending and the handshake of the Url is queued (as on create); an answer to an earlier handshake no longer counts. Read the subscription for its outcome.',
  })
  @ApiAcceptedResponse({
    type: EventSubscriptionDto,
    description: 'Queued (ValidationStatus Pending); Location: the subscription',
  })
  @ApiNotFoundResponse(NOT_FOUND)
  validate(
    @CurrentCaller() caller: Caller,
    @Param('subscriptionId') subscriptionId: string,
  ): Promise<EventSubscriptionDto> {
    return this.commands.execute(
      new ValidateEventSubscriptionCommand(caller.clientId, caller.userId, subscriptionId),
    );
  }

  @Get(':subscriptionId/DeadLetters')
  @ApiAuth('events', 'read')
  @ApiSubscriptionIdParam()
  @ApiOperation({
    summary: "An event subscription's dead letters",
    description:
      'The deliveries given up after their last attempt (EVENTS_DELIVERY_RETRY_DELAYS_MS), oldest first, the last 1000: each with the body that was sent and the last error. EVENTS_PAUSE_AFTER_DEAD_LETTERS in a row pause the subscription (PausedReason says why).',
  })
  @ApiOkResponse({ type: DeadLetterListDto })
  @ApiNotFoundResponse(NOT_FOUND)
  deadLetters(
    @CurrentCaller() caller: Caller,
    @Param('subscriptionId') subscriptionId: string,
  ): Promise<DeadLetterListDto> {
    return this.queries.execute(new ListDeadLettersQuery(caller.clientId, subscriptionId));
  }

  @Post(':subscriptionId/DeadLetters/:eventId/Redeliver')
  @HttpCode(202)
  @ApiAuth('events', 'write')
  @ApiSubscriptionIdParam()
  @ApiParam({ name: 'eventId', description: "The dead letter's EventId", type: String })
  @ApiOperation({
    summary: 'Send a dead letter again',
    description:
      "Queues one attempt at sending the dead letter's body again, signed anew: a 2xx answer takes it out of the dead letters; otherwise it stays, with the new error. It arrives after the profile's later events.",
  })
  @ApiAcceptedResponse({ type: DeadLetterDto, description: 'Queued; the dead letter' })
  @ApiNotFoundResponse({
    description: 'Unknown client, subscription, or no dead letter of that event',
  })
  redeliver(
    @CurrentCaller() caller: Caller,
    @Param('subscriptionId') subscriptionId: string,
    @Param('eventId') eventId: string,
  ): Promise<DeadLetterDto> {
    return this.commands.execute(
      new RequestRedeliveryCommand(caller.clientId, subscriptionId, eventId),
    );
  }
}
