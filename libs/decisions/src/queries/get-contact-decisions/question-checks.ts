import { canSeeConsentType, canSeeProgram, type ProfileView } from '@app/profiles';
import { InvalidInputError, PermissionDeniedError } from '@app/shared';
import {
  checkQuestion,
  type ContactQuestion,
  type DecisionVocabulary,
  type RawQuestion,
} from '../../domain/contact-question';
import type { QuestionNaming } from './get-contact-decisions.query';

/*
 * The checks of a request's questions before anything is read: each question as sent (400
 * with every problem), then whether the caller's view reaches what it names (403).
 */

/** Problems quoted in one 400 at most (the rest are counted). */
const MAX_PROBLEMS = 20;

/** The query parameter of each question field (the GET). */
const QUERY_NAMES: Record<keyof RawQuestion, string> = {
  ProfileId: 'profileId',
  AlternateIdType: 'alternateIdType',
  AlternateId: 'alternateId',
  EmailAddress: 'emailAddress',
  PhoneNumber: 'phoneNumber',
  ChannelId: 'channelId',
  ProgramId: 'programId',
  FilterId: 'filterId',
  ConsentType: 'consentType',
};

/** The questions as checked; an InvalidInputError quoting the problems of all of them. */
export function checkQuestions(
  raw: RawQuestion[],
  naming: QuestionNaming,
  vocabulary: DecisionVocabulary,
): ContactQuestion[] {
  const problems: string[] = [];
  const questions: ContactQuestion[] = [];
  raw.forEach((entry, index) => {
    const name = (field: keyof RawQuestion) =>
      naming === 'query' ? `Query parameter ${QUERY_NAMES[field]}` : `Questions[${index}].${field}`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push(`Questions[${index}] (value ${JSON.stringify(entry)}) must be an object`);
      return;
    }
    const checked = checkQuestion(entry, name, vocabulary, naming === 'query' ? 'query' : 'json');
    if ('problems' in checked) problems.push(...checked.problems);
    else questions.push(checked.question);
  });
  if (problems.length) {
    const more =
      problems.length > MAX_PROBLEMS ? [`and ${problems.length - MAX_PROBLEMS} more`] : [];
    throw new InvalidInputError([...problems.slice(0, MAX_PROBLEMS), ...more].join('; '));
  }
  return questions;
}

/**
 * A PermissionDeniedError for the first question whose program or consent type is outside
 * the caller's view.
 */
export function checkQuestionsInView(
  questions: ContactQuestion[],
  naming: QuestionNaming,
  view: ProfileView,
): void {
  for (const [index, question] of questions.entries()) {
    const where = naming === 'query' ? '' : `Questions[${index}].`;
    if (!canSeeProgram(view, String(question.programId))) {
      throw new PermissionDeniedError(
        `${where}${naming === 'query' ? 'programId' : 'ProgramId'} ${question.programId} is outside your user group's programs`,
      );
    }
    if (question.consentType !== undefined && !canSeeConsentType(view, question.consentType)) {
      throw new PermissionDeniedError(
        `${where}${naming === 'query' ? 'consentType' : 'ConsentType'} ${JSON.stringify(question.consentType)} is outside your user group's consent types`,
      );
    }
  }
}
