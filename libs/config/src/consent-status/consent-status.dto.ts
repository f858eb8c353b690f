import { ApiProperty } from '@nestjs/swagger';
import { CONSENT_STATUS_DESCRIPTION } from './consent-status';

export class ConsentStatusEntryDto {
  @ApiProperty({ example: 'Granted' })
  Name: string;

  @ApiProperty({
    example: 1,
    description: `The ConsentStatus of consents: ${CONSENT_STATUS_DESCRIPTION}`,
  })
  Value: number;
}

export class ConsentStatusListDto {
  @ApiProperty({ type: [ConsentStatusEntryDto] })
  ConsentStatus: ConsentStatusEntryDto[];
}
