import type { ProfileEvent } from '@app/profiles';
import type { ProfileEventDto } from './profile-event.dto';

const CONTACT_TYPES: Record<string, string> = {
  Emails: 'Email',
  PhoneNumbers: 'Phone',
  Addresses: 'Address',
};

/** A recorded event in the wire shape (retrieval and, later, delivery). */
export function toProfileEventDto(event: ProfileEvent): ProfileEventDto {
  return {
    EventId: `${event.profileId}-${event.seq}-${event.n}`,
    EventType: event.type,
    OccurredAt: event.at,
    ProfileId: event.profileId,
    Sequence: event.seq,
    UserId: event.userId,
    ...(event.container
      ? {
          Contact: {
            Type: CONTACT_TYPES[event.container.list] ?? event.container.list,
            Fields: event.container.fields,
          },
        }
      : {}),
    Data: event.data ?? {},
    ...(event.previousData ? { PreviousData: event.previousData } : {}),
  };
}
