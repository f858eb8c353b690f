import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type ClientVocabulary, ConfigurationReader } from '@app/config';
import {
  MergedProfileError,
  mergedMessage,
  parseHistoryRefs,
  type ProfileData,
  type ProfileSnapshot,
  type ProfileView,
} from '@app/profiles';
import { Clock, NotFoundError } from '@app/shared';
import {
  type DecisionProfile,
  type DecisionReason,
  decideForProfile,
  type ListingsOf,
} from '../../domain/contact-decision';
import type { ContactQuestion } from '../../domain/contact-question';
import type { ContactDecisionDto } from '../../dto/contact-decision.dto';
import { type DecisionAnswer, toContactDecisionDto } from '../../mapping/contact-decision.mapper';
import { GetContactDecisionsQuery } from './get-contact-decisions.query';
import { type DecisionInputs, DecisionRenderings } from './decision-renderings';
import { checkQuestions, checkQuestionsInView } from './question-checks';
import { QuestionListings } from './question-listings.service';
import { QuestionSubjects } from './question-subjects.service';

/**
 * The contact decisions' hot path (docs/decisions.md, "Cost"): the client's cached
 * configuration (its stamp from Redis, reused while no change is announced), one read-model
 * read per distinct profile (by id; an alternate id first costs its claim's `_id` read, a
 * bare value its key-index set), and the do-not-contact listings of the values involved
 * from the per-process copy (the lists' stamp: reused likewise). All reads of a request are issued together, so a
 * batch of 1,000 questions costs a few pipelined round trips, never a scan.
 *
 * The questions are checked by `question-checks.ts`, the profiles read by QuestionSubjects
 * and the listings by QuestionListings (all in this folder); this handler decides.
 */
@QueryHandler(GetContactDecisionsQuery)
export class GetContactDecisionsHandler implements IQueryHandler<GetContactDecisionsQuery> {
  /** Parsed history references by the (frozen, shared) text the read model holds. */
  private readonly refsCache = new Map<string, ReturnType<typeof parseHistoryRefs>>();
  /** The GET's answers, reused while their inputs and time allow (DecisionRenderings). */
  private readonly renderings = new DecisionRenderings();

  constructor(
    private readonly configuration: ConfigurationReader,
    private readonly subjects: QuestionSubjects,
    private readonly listings: QuestionListings,
    private readonly clock: Clock,
  ) {}

  async execute({
    clientId,
    questions: raw,
    naming,
    view,
    single,
  }: GetContactDecisionsQuery): Promise<ContactDecisionDto[]> {
    // The first reads go out together (one pipelined round trip): the configuration's stamp,
    // the lists' stamp and, for the GET's one question, its profile. Both stamps are reused
    // while no change of them was announced (ReusedStamps): warm, the profile's read alone.
    const reading = this.configuration.vocabulary(clientId, { reuseStamp: true });
    const listsStamp = this.listings.readStamp(clientId);
    const readAhead = single ? this.subjects.readAhead(clientId, raw[0]) : undefined;
    const vocabulary = await reading;
    const questions = checkQuestions(raw, naming, vocabulary);
    checkQuestionsInView(questions, naming, view);
    const subjects = await this.subjects.subjectsOf(clientId, questions, readAhead);
    const survivors = await this.subjects.survivorsOf(clientId, questions, subjects);
    if (single && subjects[0] === null) throw notFoundError(questions[0], survivors.get(0));
    const now = this.clock.now();

    // The GET's one question about one profile: its answer as kept, when nothing changed.
    const kept = single
      ? await this.keptInputs(questions[0], subjects[0], view, vocabulary, listsStamp)
      : undefined;
    if (kept) {
      const dto = this.renderings.find(kept.data, kept.inputs, now.getTime());
      if (dto) return [dto];
    }
    const listingsOf = await this.listings.listingsOf(clientId, questions, subjects, listsStamp);

    const answers = questions.map((question, index): DecisionAnswer & { changesAt?: number } => {
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
              message: notFoundMessage(question, survivors.get(index)),
              historyEntryId: null,
            },
          ],
        };
      }
      const reasons: DecisionReason[] = [];
      let allowed = true;
      let changesAt = Infinity;
      for (const snapshot of found) {
        const decision = this.decide(question, snapshot, vocabulary, listingsOf, now);
        allowed &&= decision.allowed;
        reasons.push(...decision.reasons);
        changesAt = Math.min(changesAt, decision.changesAt);
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
      return { question, profileIds: found.map((s) => s.profileId), allowed, reasons, changesAt };
    });
    if (kept) {
      const [{ changesAt, ...answer }] = answers;
      const dto = toContactDecisionDto(answer, view);
      return [this.renderings.keep(kept.data, kept.inputs, dto, changesAt ?? Infinity)];
    }
    return answers.map((answer) => toContactDecisionDto(answer, view));
  }

  /**
   * What the single question's answer is kept under, when it can be: one profile found with
   * its data (a bare value held by several, or a profile being created, is decided afresh),
   * and the lists' stamp known (a failed read of it is left to listingsOf to report).
   */
  private async keptInputs(
    question: ContactQuestion,
    found: ProfileSnapshot[] | null,
    view: ProfileView,
    vocabulary: ClientVocabulary,
    listsStamp: Promise<string | null>,
  ): Promise<{ data: ProfileData; inputs: DecisionInputs } | undefined> {
    if (found?.length !== 1 || !found[0].data) return undefined;
    const stamp = await listsStamp.then(
      (value) => ({ value }),
      () => undefined,
    );
    if (!stamp) return undefined;
    return {
      data: found[0].data,
      inputs: {
        question,
        view,
        acceptedSeq: found[0].acceptedSeq,
        configurationStamp: vocabulary.stamp,
        listsStamp: stamp.value,
      },
    };
  }

  private decide(
    question: ContactQuestion,
    snapshot: ProfileSnapshot,
    vocabulary: Awaited<ReturnType<ConfigurationReader['vocabulary']>>,
    listingsOf: ListingsOf,
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
        changesAt: Infinity,
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

/** A single question's 404: a merged profile's names its survivor (`MergedInto`), as GET's. */
function notFoundError(question: ContactQuestion, survivor?: number): NotFoundError {
  return question.target.kind === 'profile' && survivor !== undefined
    ? new MergedProfileError(question.target.profileId, survivor)
    : new NotFoundError(notFoundMessage(question));
}

function notFoundMessage(question: ContactQuestion, survivor?: number): string {
  if (question.target.kind === 'profile')
    return survivor === undefined
      ? `Profile ${question.target.profileId} was not found`
      : mergedMessage(question.target.profileId, survivor);
  if (question.target.kind === 'alternateId')
    return `No profile has AlternateId "${question.target.pair.AlternateId}" of type "${question.target.pair.AlternateIdType}"`;
  return 'No profile was found';
}
