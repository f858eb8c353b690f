import type { DeadLetter } from '../domain/event-delivery.schema';
import type { DeadLetterDto } from '../dto/dead-letter.dto';

export function toDeadLetterDto(letter: DeadLetter): DeadLetterDto {
  return {
    EventId: letter.eventId,
    EventType: letter.eventType,
    ProfileId: letter.profileId,
    Attempts: letter.attempts,
    LastError: letter.lastError,
    DeadAt: letter.deadAt,
    Body: JSON.parse(letter.body) as Record<string, unknown>,
    ContentType: letter.contentType ?? 'application/json',
  };
}
