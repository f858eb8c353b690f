import { Injectable } from '@nestjs/common';
import { MAX_VALUE_HOLDERS, ProfileSnapshots, type ProfileSnapshot } from '@app/profiles';
import { INT32_MAX, PermissionDeniedError, textKey } from '@app/shared';
import {
  type ContactQuestion,
  emailKey,
  phoneKey,
  type RawQuestion,
} from '../../domain/contact-question';

/** Profile reads started before the questions were checked, by profile id. */
export type ReadAhead = ReadonlyMap<number, Promise<ProfileSnapshot | null>>;

/**
 * Who a request's questions are about, from the read model (through Profiles'
 * ProfileSnapshots port): every distinct profile read once, by id (an alternate id first
 * costs its claim's `_id` read, a bare value its key-index set), the reads issued together.
 */
@Injectable()
export class QuestionSubjects {
  constructor(private readonly profiles: ProfileSnapshots) {}

  /**
   * Each question's profiles: null when the profile it names is not found; for a bare value,
   * the active profiles holding it on an active contact element (maybe none).
   */
  async subjectsOf(
    clientId: string,
    questions: ContactQuestion[],
    /** Reads started before the questions were checked (`readAhead`), by profile id. */
    readAhead: ReadAhead = new Map(),
  ): Promise<(ProfileSnapshot[] | null)[]> {
    // The GET's one question by id, read ahead: its profile alone (the hot path).
    const [first] = questions;
    if (questions.length === 1 && first.target.kind === 'profile') {
      const read = readAhead.get(first.target.profileId);
      if (read) {
        const found = await read;
        return [found ? [found] : null];
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
    for (const id of ids)
      snapshotsById.set(id, readAhead.get(id) ?? this.profiles.byId(clientId, id));
    const [byId, alternates] = await Promise.all([settle(snapshotsById), settle(byAlternateId)]);

    // Each question's profiles.
    return questions.map((question): ProfileSnapshot[] | null => {
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
  }

  /**
   * Starts reading the profile one question names by id before it is checked, so that the
   * read shares a round trip with the configuration's and the lists' stamps (the GET's one
   * question). subjectsOf uses it once the question checked out; a question refused (400)
   * has cost one read-model read.
   */
  readAhead(clientId: string, question: RawQuestion): ReadAhead {
    const raw = question.ProfileId;
    const id = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
    if (!Number.isInteger(id) || id < 1 || id > INT32_MAX) return new Map();
    const read = this.profiles.byId(clientId, id);
    // Awaited by subjectsOf only if the question checks out: never an unhandled rejection.
    read.catch(() => undefined);
    return new Map([[id, read]]);
  }

  /**
   * For the questions by ProfileId that found no profile: the survivor each id was merged
   * into, by question index (a not-found answer names it, as GET's 404 does).
   */
  async survivorsOf(
    clientId: string,
    questions: ContactQuestion[],
    subjects: (ProfileSnapshot[] | null)[],
  ): Promise<Map<number, number>> {
    const survivors = new Map<number, number>();
    if (!subjects.includes(null)) return survivors;
    await Promise.all(
      questions.map(async (question, index) => {
        if (question.target.kind !== 'profile' || subjects[index] !== null) return;
        const survivor = await this.profiles.survivorOf(clientId, question.target.profileId);
        if (survivor !== null) survivors.set(index, survivor);
      }),
    );
    return survivors;
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

/** The settled values of a map of promises, by the same keys. */
async function settle<K, V>(promises: Map<K, Promise<V>>): Promise<Map<K, V>> {
  const keys = [...promises.keys()];
  const values = await Promise.all(keys.map((key) => promises.get(key)!));
  return new Map(keys.map((key, index) => [key, values[index]]));
}
