import { Injectable } from '@nestjs/common';
import { type DncListing, DoNotContactListings } from '@app/consents';
import { fieldOf, type ProfileSnapshot } from '@app/profiles';
import { chooseElement, type ListingsOf } from '../../domain/contact-decision';
import type { ContactQuestion } from '../../domain/contact-question';

/**
 * The do-not-contact listings of the contact values a request's questions involve, from
 * the per-process copy (through Consents' DoNotContactListings: one Redis read of the
 * lists' stamp per request), one lookup per list type for all of them.
 */
@Injectable()
export class QuestionListings {
  constructor(private readonly listings: DoNotContactListings) {}

  /**
   * The listings of each question's value and of the element each of its profiles
   * (`subjects`, by question) would be contacted at.
   */
  async listingsOf(
    clientId: string,
    questions: ContactQuestion[],
    subjects: (ProfileSnapshot[] | null)[],
    /** The lists' stamp, read with the request's other reads (`readStamp`). */
    stamp: Promise<string | null>,
  ): Promise<ListingsOf> {
    // The contact values whose listings are needed.
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
        ? this.listings.listingsOf(clientId, 'Email', [...wanted.Emails], stamp)
        : new Map<string, readonly DncListing[]>(),
      wanted.PhoneNumbers.size
        ? this.listings.listingsOf(clientId, 'Phone', [...wanted.PhoneNumbers], stamp)
        : new Map<string, readonly DncListing[]>(),
    ]);
    return (list, key) => (list === 'Emails' ? emailListings : phoneListings).get(key) ?? [];
  }

  /**
   * Starts reading the client's do-not-contact stamp (see DoNotContactListings.readStamp):
   * the one this process read while no change was announced, or one Redis read.
   */
  readStamp(clientId: string): Promise<string | null> {
    const stamp = this.listings.readStamp(clientId, true);
    // Awaited by listingsOf only when a value is looked up: never an unhandled rejection.
    stamp.catch(() => undefined);
    return stamp;
  }
}
