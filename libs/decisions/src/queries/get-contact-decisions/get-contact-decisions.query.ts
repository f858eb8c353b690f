import { Query } from '@nestjs/cqrs';
import type { ProfileView } from '@app/profiles';
import type { RawQuestion } from '../../domain/contact-question';
import type { ContactDecisionDto } from '../../dto/contact-decision.dto';

/** How the messages of a request name a question's fields. */
export type QuestionNaming = 'query' | 'body';

/**
 * Answers contact questions (one for the GET, up to MAX_QUESTIONS for the batch) in the
 * caller's view. `single`: an unknown profile is a 404 (the GET) rather than an answer.
 */
export class GetContactDecisionsQuery extends Query<ContactDecisionDto[]> {
  constructor(
    readonly clientId: string,
    readonly questions: RawQuestion[],
    readonly naming: QuestionNaming,
    readonly view: ProfileView,
    readonly single: boolean,
  ) {
    super();
  }
}
