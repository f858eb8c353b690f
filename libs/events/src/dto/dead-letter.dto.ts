import { ApiProperty } from '@nestjs/swagger';

/** A delivery given up after its last attempt (docs/events.md, "Dead letters"). */
export class DeadLetterDto {
  @ApiProperty({ description: 'The event\'s id ("<ProfileId>-<Sequence>-<n>")' }) EventId: string;
  @ApiProperty() EventType: string;
  @ApiProperty() ProfileId: number;
  @ApiProperty({ description: 'Attempts made (the redeliveries asked for included)' })
  Attempts: number;
  @ApiProperty({ description: 'What went wrong the last time' }) LastError: string;
  @ApiProperty({ description: 'When it was given up (ISO 8601)' }) DeadAt: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The body that was sent (a redelivery sends it again, signed anew)',
  })
  Body: Record<string, unknown>;
  @ApiProperty({
    example: 'application/json',
    description:
      'The Content-Type the body was sent with: application/json, or application/cloudevents+json; charset=utf-8 for a CloudEvents subscription (a redelivery sends it with the same)',
  })
  ContentType: string;
}

export class DeadLetterListDto {
  @ApiProperty() Count: number;
  @ApiProperty({ type: DeadLetterDto, isArray: true }) DeadLetters: DeadLetterDto[];
}
