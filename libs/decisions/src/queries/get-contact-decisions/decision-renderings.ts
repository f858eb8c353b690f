import { type ProfileData, type ProfileView, viewKey } from '@app/profiles';
import { deepFreeze, withKnownJson } from '@app/shared';
import type { ContactQuestion } from '../../domain/contact-question';
import type { ContactDecisionDto } from '../../dto/contact-decision.dto';

/** What an answer was made from, besides the profile's data object and the time. */
export interface DecisionInputs {
  question: ContactQuestion;
  view: ProfileView;
  /** The profile's highest accepted sequence number (a pending write is a reason). */
  acceptedSeq: number;
  /** The client's configuration stamp (programs, filters, consent types). */
  configurationStamp: string;
  /** The do-not-contact lists' stamp (null: the client has none). */
  listsStamp: string | null;
}

interface Rendering {
  dto: ContactDecisionDto;
  /** When the answer may change with time alone (ProfileDecision.changesAt). */
  changesAt: number;
}

/** Renderings kept per data object: a profile asked about many ways keeps the last ones. */
const MAX_RENDERINGS_PER_PROFILE = 32;

/**
 * The single question's answers (the GET), kept with the read model's parsed data object
 * they were decided on, as GET Profile keeps its renderings: an answer is a pure function of
 * that object (fixed by its appliedSeq), the question, the caller's view, the accepted
 * sequence number, the configuration and lists stamps and the time, so a kept answer is
 * reused while all of these are the same and its first expiry has not come. It goes with the
 * data object (the read model's parsed-entry LRU bounds them); frozen, sent as its known
 * JSON text. A repeated question then costs what GET Profile costs (docs/decisions.md, "Cost").
 */
export class DecisionRenderings {
  private readonly byData = new WeakMap<ProfileData, Map<string, Rendering>>();

  find(data: ProfileData, inputs: DecisionInputs, now: number): ContactDecisionDto | undefined {
    const kept = this.byData.get(data)?.get(keyOf(inputs));
    return kept && now < kept.changesAt ? kept.dto : undefined;
  }

  keep(
    data: ProfileData,
    inputs: DecisionInputs,
    dto: ContactDecisionDto,
    changesAt: number,
  ): ContactDecisionDto {
    let renderings = this.byData.get(data);
    if (!renderings) this.byData.set(data, (renderings = new Map()));
    else if (renderings.size >= MAX_RENDERINGS_PER_PROFILE) renderings.clear();
    const frozen = withKnownJson(deepFreeze(dto), JSON.stringify(dto));
    renderings.set(keyOf(inputs), { dto: frozen, changesAt });
    return frozen;
  }
}

/** Equal for two inputs exactly when they give the same answer on the same data object. */
function keyOf({ question, view, acceptedSeq, configurationStamp, listsStamp }: DecisionInputs) {
  const target =
    question.target.kind === 'profile'
      ? `p${question.target.profileId}`
      : question.target.kind === 'alternateId'
        ? `a${JSON.stringify(question.target.pair)}`
        : 'v';
  // The free texts (consent type, value) as JSON, so that no separator inside them can clash.
  const texts =
    question.consentType === undefined && !question.value
      ? ''
      : JSON.stringify([question.consentType, question.value?.list, question.value?.text]);
  return `${target}|${question.channel}|${question.programId}|${question.filterId ?? ''}|${texts}|${acceptedSeq}|${configurationStamp}|${listsStamp ?? ''}|${viewKey(view)}`;
}
