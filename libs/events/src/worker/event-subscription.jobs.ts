import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JobHandler } from '@app/shared';
import { RunSubscriptionHandshakeCommand } from '../commands/run-subscription-handshake/run-subscription-handshake.command';
import {
  VALIDATE_EVENT_SUBSCRIPTION,
  type ValidateEventSubscriptionPayload,
} from './event.job-definitions';

/* Job handlers only hand off to commands; the use cases live in the command handlers. */

@Injectable()
@HandlesJob(VALIDATE_EVENT_SUBSCRIPTION)
export class ValidateEventSubscriptionJob implements JobHandler<ValidateEventSubscriptionPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle({
    clientId,
    subscriptionId,
    attempt,
    nonce,
  }: ValidateEventSubscriptionPayload): Promise<void> {
    await this.commands.execute(
      new RunSubscriptionHandshakeCommand(clientId, subscriptionId, attempt, nonce),
    );
  }
}
