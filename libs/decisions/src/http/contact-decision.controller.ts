import { applyDecorators, Body, Get, HttpCode, Post, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
} from '@nestjs/swagger';
import { CONTACT_DECISIONS_EXAMPLES } from '../dto/contact-decision.examples';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { viewOf } from '@app/profiles';
import { ApiTextQuery, InvalidInputError, singleQueryValue, type RawQuery } from '@app/shared';
import { QUESTION_FIELDS, type RawQuestion } from '../domain/contact-question';
import {
  type ContactDecisionDto,
  ContactDecisionDto as ContactDecisionModel,
  ContactDecisionsDto,
  ContactDecisionsRequestDto,
  MAX_QUESTIONS,
} from '../dto/contact-decision.dto';
import { GetContactDecisionsQuery } from '../queries/get-contact-decisions/get-contact-decisions.query';

const RULES =
  "The rules are the write path's own (docs/decisions.md has the table of cases): allowed when the profile and the contact element are active, no do-not-contact list or mark holds the element, the program (and filter) are active, and an active opt-in preference of the program on the channel, not expired, has every consent it requires (its filter's RequiredPreferenceConsents, its ConsentAssociations, the ConsentType asked) Granted and not expired; without FilterId one allowing filter suffices. Each reason names the history entry that proves it (HistoryEntryId). Served from the read model, the cached configuration and `_id` lookups: never a scan. A program or consent type outside the caller's user group is a 403; a required consent of a type the group may not see shows its effect only.";

/** The query parameters of the GET, documented and read as sent. */
const QUERY_PARAMETERS: [keyof RawQuestion, string, string, boolean][] = [
  [
    'ProfileId',
    'profileId',
    'The profile (int32), or alternateIdType + alternateId, or a bare emailAddress / phoneNumber',
    false,
  ],
  [
    'AlternateIdType',
    'alternateIdType',
    'With alternateId: the profile holding the pair (case-insensitive)',
    false,
  ],
  ['AlternateId', 'alternateId', 'With alternateIdType', false],
  [
    'EmailAddress',
    'emailAddress',
    'Channel Email: the bare address (its holders and the lists), or which email of the profile (default: its default active email)',
    false,
  ],
  [
    'PhoneNumber',
    'phoneNumber',
    'Channels Phone, Text/SMS: the bare number, or which phone of the profile',
    false,
  ],
  ['ChannelId', 'channelId', 'Email, Phone, Text/SMS (Text, SMS), Mail or Solicit', true],
  ['ProgramId', 'programId', "The program's Id", true],
  [
    'FilterId',
    'filterId',
    'A filter of the program on the channel (absent: any filter of it)',
    false,
  ],
  ['ConsentType', 'consentType', 'A consent type that must also be Granted', false],
];

/** The GET's query parameter names (any other is refused). */
const KNOWN_PARAMETERS = new Set(QUERY_PARAMETERS.map(([, name]) => name));

/** The GET's query parameters in the OpenAPI document. */
const ApiQuestionQuery = (): MethodDecorator =>
  applyDecorators(
    ...QUERY_PARAMETERS.map(([, name, description, required]) =>
      ApiTextQuery(name, { required, description }),
    ),
  );

@TenantController(':clientId', {
  tag: 'Contact decisions',
  badRequest: 'Malformed question; the Message names the field and value',
  notFound:
    "Unknown client (the GET: unknown profile or alternate id; a merged profile's 404 names its survivor in Message and MergedInto, as GET Profile's)",
})
@ApiServiceUnavailableResponse({
  description: 'The search key index is being rebuilt (bare values only); retry',
})
export class ContactDecisionController {
  constructor(private readonly queries: QueryBus) {}

  @Get('ContactDecision')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'May we contact this person, here, for this, now?',
    description: `One question in the query: who (profileId, alternateIdType + alternateId, or a bare emailAddress or phoneNumber), the channel, the program, optionally a filter and a consent type. Answers Allowed and the Reasons. An unknown profile is a 404; a bare value nobody holds is answered (Allowed false, NoProfile, and any listing). ${RULES}`,
  })
  @ApiQuestionQuery()
  @ApiOkResponse({ type: ContactDecisionModel })
  async decide(
    @CurrentCaller() caller: Caller,
    @Req() request: { query?: RawQuery },
  ): Promise<ContactDecisionDto> {
    const query = request.query ?? {};
    const unknown = Object.keys(query).filter((name) => !KNOWN_PARAMETERS.has(name));
    if (unknown.length)
      throw new InvalidInputError(
        `Unknown query parameter ${unknown.map((name) => JSON.stringify(name)).join(', ')}: expected ${[...KNOWN_PARAMETERS].join(', ')}`,
      );
    const question: RawQuestion = {};
    for (const [field, name] of QUERY_PARAMETERS) {
      const value = singleQueryValue(query, name);
      if (value !== undefined) question[field] = value;
    }
    const [answer] = await this.queries.execute(
      new GetContactDecisionsQuery(caller.clientId, [question], 'query', viewOf(caller), true),
    );
    return answer;
  }

  @Post('ContactDecisions')
  @HttpCode(200)
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: `Answer up to ${MAX_QUESTIONS} contact questions at once`,
    description: `The body's Questions (the GET's parameters as PascalCase fields) are answered in order, one Decision each; reads nothing twice (one read-model read per distinct profile). A question about an unknown profile is answered (Allowed false, ProfileNotFound; for a merged profile the reason's Message names its survivor), not a 404. More than ${MAX_QUESTIONS} questions, or any malformed one, is a 400 naming it; nothing is answered. ${RULES}`,
  })
  @ApiBody({ type: ContactDecisionsRequestDto, examples: CONTACT_DECISIONS_EXAMPLES })
  @ApiOkResponse({ type: ContactDecisionsDto })
  async decideMany(
    @CurrentCaller() caller: Caller,
    @Body() body: unknown,
  ): Promise<ContactDecisionsDto> {
    const questions = questionsOf(body);
    const Decisions = await this.queries.execute(
      new GetContactDecisionsQuery(caller.clientId, questions, 'body', viewOf(caller), false),
    );
    return { Decisions };
  }
}

/** The batch body's questions, or a 400 naming what is wrong. */
function questionsOf(body: unknown): RawQuestion[] {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new InvalidInputError(
      `The body (value ${JSON.stringify(body ?? null)}) must be {"Questions": [...]}`,
    );
  const { Questions, ...rest } = body as { Questions?: unknown };
  const extra = Object.keys(rest);
  if (extra.length)
    throw new InvalidInputError(
      `Unknown field ${extra.map((f) => JSON.stringify(f)).join(', ')} in the body: expected Questions`,
    );
  if (!Array.isArray(Questions))
    throw new InvalidInputError(
      `Questions (value ${JSON.stringify(Questions ?? null)}) must be an array of 1 to ${MAX_QUESTIONS} questions`,
    );
  if (Questions.length === 0)
    throw new InvalidInputError('Questions (value []) must hold at least 1 question');
  if (Questions.length > MAX_QUESTIONS)
    throw new InvalidInputError(
      `Questions has ${Questions.length} entries: at most ${MAX_QUESTIONS} per request`,
    );
  const allowed = new Set<string>(QUESTION_FIELDS);
  Questions.forEach((entry, index) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return;
    const unknown = Object.keys(entry as object).filter((field) => !allowed.has(field));
    if (unknown.length)
      throw new InvalidInputError(
        `Questions[${index}] has unknown field ${unknown.map((f) => JSON.stringify(f)).join(', ')}: expected ${QUESTION_FIELDS.join(', ')}`,
      );
  });
  return Questions as RawQuestion[];
}
