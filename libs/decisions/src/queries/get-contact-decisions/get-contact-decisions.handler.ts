import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { type DncListing, DoNotContactListings } from '@app/consents';
import {
  canSeeConsentType,
  canSeeProgram,
  fieldOf,
  MAX_VALUE_HOLDERS,
  parseHistoryRefs,
  ProfileSnapshots,
  type ProfileSnapshot,
} from '@app/profiles';
import {
  Clock,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
  textKey,
} from '@app/shared';
import {
  chooseElement,
  type DecisionProfile,
  type DecisionReason,
  decideForProfile,
  type ReasonListing,
} from '../../domain/contact-decision';
import {
  checkQuestion,
  type ContactQuestion,
  emailKey,
  phoneKey,
  type RawQuestion,
} from '../../domain/contact-question';
import type { ContactDecisionDto } from '../../dto/contact-decision.dto';
import { type DecisionAnswer, toContactDecisionDto } from '../../mapping/contact-decision.mapper';
import { GetContactDecisionsQuery, type QuestionNaming } from './get-contact-decisions.query';

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

/**
 * The contact decisions' hot path (docs/decisions.md, "Cost"): the client's cached
 * configuration (its stamp from Redis), one read-model read per distinct profile (by id;
 * an alternate id first costs its claim's `_id` read, a bare value its key-index set), and
 * the do-not-contact listings of the values involved from the per-process copy (one Redis
 * read of the lists' stamp per request). All reads of a request are issued together, so a
 * batch of 1,000 questions costs a few pipelined round trips, never a scan.
 */
@QueryHandler(GetContactDecisionsQuery)
export class GetContactDecisionsHandler implements IQueryHandler<GetContactDecisionsQuery> {
  /** Parsed history references by the (frozen, shared) text the read model holds. */
  private readonly refsCache = new Map<string, ReturnType<typeof parseHistoryRefs>>();

  constructor(
    private readonly configuration: ConfigurationReader,
    private readonly profiles: ProfileSnapshots,
    private readonly listings: DoNotContactListings,
    private readonly clock: Clock,
  ) {}

  async execute({
    clientId,
    questions: raw,
    naming,
    view,
    single,
  }: GetContactDecisionsQuery): Promise<ContactDecisionDto[]> {
    const vocabulary = await this.configuration.vocabulary(clientId);
    const questions = this.check(raw, naming, vocabulary);
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

    // Who: every distinct profile once (ids, alternate ids, holders of bare values).
    const byAlternateId = new Map<string, Promise<ProfileSnapshot | null>>();
    const holders = new Map<string, Promise<number[]>>();
    for (const question of questions) {
      if (question.target.kind === 'alternateId') {
        const { pair } = question.target;
        const key = JSON.stringify([textKey(pair.AlternateIdType), textKey(pair.AlternateId)]);
        if (!byAlternateId.has(key))
          byAlternateId.set(key, this.profiles.byAlternateId(clientId, pair));
      } else if (question.target.kind === 'value' && question.value) {
        const key = JSON.stringify([question.value.list, question.value.key]);
        if (!holders.has(key))
          holders.set(
            key,
            this.profiles.holderIds(
              clientId,
              question.value.list === 'Emails' ? 'email' : 'phone',
              question.value.text,
            ),
          );
      }
    }
    const holderIds = await settle(holders);
    const ids = new Set<number>();
    for (const question of questions)
      if (question.target.kind === 'profile') ids.add(question.target.profileId);
    for (const found of holderIds.values()) {
      if (found.length > MAX_VALUE_HOLDERS)
        throw new PermissionDeniedError(
          `More than ${MAX_VALUE_HOLDERS} profiles hold one of the values asked; ask by ProfileId`,
        );
      for (const id of found) ids.add(id);
    }
    const snapshotsById = new Map<number, Promise<ProfileSnapshot | null>>();
    for (const id of ids) snapshotsById.set(id, this.profiles.byId(clientId, id));
    const [byId, alternates] = await Promise.all([settle(snapshotsById), settle(byAlternateId)]);

    // Each question's profiles, and the contact values whose listings are needed.
    const subjects = questions.map((question): ProfileSnapshot[] | null => {
      if (question.target.kind === 'profile') {
        const found = byId.get(question.target.profileId);
        return found ? [found] : null;
      }
      if (question.target.kind === 'alternateId') {
        const { pair } = question.target;
        const found = alternates.get(
          JSON.stringify([textKey(pair.AlternateIdType), textKey(pair.AlternateId)]),
        );
        return found ? [found] : null;
      }
      const value = question.value!;
      return (holderIds.get(JSON.stringify([value.list, value.key])) ?? [])
        .map((id) => byId.get(id))
        .filter((snapshot): snapshot is ProfileSnapshot => holdsActive(snapshot, value));
    });
    if (single && subjects[0] === null) throw new NotFoundError(notFoundMessage(questions[0]));

    const wanted = { Emails: new Set<string>(), PhoneNumbers: new Set<string>() };
    questions.forEach((question, index) => {
      if (question.value) wanted[question.value.list].add(question.value.text);
      for (const snapshot of subjects[index] ?? []) {
        if (!snapshot.data) continue;
        const { element } = chooseElement(question, snapshot.data);
        if (element && (element.list === 'Emails' || element.list === 'PhoneNumbers')) {
          const text = fieldOf(
            element.element,
            element.list === 'Emails' ? 'EmailAddress' : 'PhoneNumber',
          );
          if (typeof text === 'string') wanted[element.list].add(text);
        }
      }
    });
    const [emailListings, phoneListings] = await Promise.all([
      wanted.Emails.size
        ? this.listings.listingsOf(clientId, 'Email', [...wanted.Emails])
        : new Map<string, readonly DncListing[]>(),
      wanted.PhoneNumbers.size
        ? this.listings.listingsOf(clientId, 'Phone', [...wanted.PhoneNumbers])
        : new Map<string, readonly DncListing[]>(),
    ]);
    const listingsOf = (list: 'Emails' | 'PhoneNumbers', key: string): readonly ReasonListing[] =>
      (list === 'Emails' ? emailListings : phoneListings).get(key) ?? [];

    const now = this.clock.now();
    const answers = questions.map((question, index): DecisionAnswer => {
      const found = subjects[index];
      if (found === null) {
        return {
          question,
          profileIds: [],
          allowed: false,
          reasons: [
            {
              code: 'ProfileNotFound',
              effect: 'Deny',
              message: notFoundMessage(question),
              historyEntryId: null,
            },
          ],
        };
      }
      const reasons: DecisionReason[] = [];
      let allowed = true;
      for (const snapshot of found) {
        const decision = this.decide(question, snapshot, vocabulary, listingsOf, now);
        allowed &&= decision.allowed;
        reasons.push(...decision.reasons);
      }
      if (question.target.kind === 'value' && !found.length) {
        // Nobody holds the value: no preference allows it; the lists may still hold it.
        allowed = false;
        const listings = listingsOf(
          question.value!.list as 'Emails' | 'PhoneNumbers',
          question.value!.key,
        );
        reasons.push({
          code: 'NoProfile',
          effect: 'Deny',
          message: `No active profile holds ${JSON.stringify(question.value!.text)} on an active contact element, so no preference allows the contact`,
          historyEntryId: null,
        });
        if (listings.length)
          reasons.push({
            code: 'DoNotContact',
            effect: 'Deny',
            listings: [...listings],
            marked: false,
            message: `${listings.map((l) => `list ${l.ListId}`).join(', ')} ${listings.length > 1 ? 'hold' : 'holds'} this value`,
            historyEntryId: null,
          });
      }
      return { question, profileIds: found.map((s) => s.profileId), allowed, reasons };
    });
    return answers.map((answer) => toContactDecisionDto(answer, view));
  }

  private check(
    raw: RawQuestion[],
    naming: QuestionNaming,
    vocabulary: Awaited<ReturnType<ConfigurationReader['vocabulary']>>,
  ): ContactQuestion[] {
    const problems: string[] = [];
    const questions: ContactQuestion[] = [];
    raw.forEach((entry, index) => {
      const name = (field: keyof RawQuestion) =>
        naming === 'query'
          ? `Query parameter ${QUERY_NAMES[field]}`
          : `Questions[${index}].${field}`;
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

  private decide(
    question: ContactQuestion,
    snapshot: ProfileSnapshot,
    vocabulary: Awaited<ReturnType<ConfigurationReader['vocabulary']>>,
    listingsOf: (list: 'Emails' | 'PhoneNumbers', key: string) => readonly ReasonListing[],
    now: Date,
  ) {
    if (!snapshot.data) {
      // Its create is accepted, not applied: nothing allows the contact yet.
      return {
        allowed: false,
        reasons: [
          {
            code: 'PendingWrite' as const,
            effect: 'Note' as const,
            profileId: snapshot.profileId,
            message: 'The profile is being created (its first write is not applied yet)',
            pending: { appliedSeq: snapshot.appliedSeq, acceptedSeq: snapshot.acceptedSeq },
            historyEntryId: null,
          },
        ],
      };
    }
    const profile: DecisionProfile = {
      profileId: snapshot.profileId,
      data: snapshot.data,
      appliedSeq: snapshot.appliedSeq,
      acceptedSeq: snapshot.acceptedSeq,
      refs: this.refsOf(snapshot.historyRefs),
    };
    return decideForProfile(question, profile, vocabulary, listingsOf, now);
  }

  private refsOf(text: string | undefined): ReturnType<typeof parseHistoryRefs> {
    if (!text) return {};
    let refs = this.refsCache.get(text);
    if (!refs) {
      refs = parseHistoryRefs(text);
      if (this.refsCache.size >= 2000) this.refsCache.clear();
      this.refsCache.set(text, refs);
    }
    return refs;
  }
}

/** Whether a value's holder is an active profile holding it on an active contact element. */
function holdsActive(
  snapshot: ProfileSnapshot | null | undefined,
  value: NonNullable<ContactQuestion['value']>,
): boolean {
  const data = snapshot?.data;
  if (!data || data.IsActive === false) return false;
  if (value.list === 'Emails')
    return (data.Emails ?? []).some(
      (email) => email.IsActive !== false && emailKey(email.EmailAddress ?? '') === value.key,
    );
  return (data.PhoneNumbers ?? []).some(
    (phone) => phone.IsActive !== false && phoneKey(phone.PhoneNumber ?? '') === value.key,
  );
}

function notFoundMessage(question: ContactQuestion): string {
  if (question.target.kind === 'profile')
    return `Profile ${question.target.profileId} was not found`;
  if (question.target.kind === 'alternateId')
    return `No profile has AlternateId "${question.target.pair.AlternateId}" of type "${question.target.pair.AlternateIdType}"`;
  return 'No profile was found';
}

/** The settled values of a map of promises, by the same keys. */
async function settle<K, V>(promises: Map<K, Promise<V>>): Promise<Map<K, V>> {
  const keys = [...promises.keys()];
  const values = await Promise.all(keys.map((key) => promises.get(key)!));
  return new Map(keys.map((key, index) => [key, values[index]]));
}
