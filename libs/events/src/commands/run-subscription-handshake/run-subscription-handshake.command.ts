import { Command } from '@nestjs/cqrs';

/** One attempt of a subscription's handshake (the worker's event-subscription-validate job). */
export class RunSubscriptionHandshakeCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly subscriptionId: string,
    /** From 1. */
    readonly attempt: number,
    /** The handshake this attempt belongs to (the subscription's validationNonce then). */
    readonly nonce: string,
  ) {
    super();
  }
}
