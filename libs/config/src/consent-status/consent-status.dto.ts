import { ApiProperty } from '@nestjs/swagger';

export class ConsentStatusEntryDto {
  @ApiProperty({ example: 'Granted' })
  Name: string;

  @ApiProperty({ example: 1 })
  Value: number;
}

export class ConsentStatusListDto {
  @ApiProperty({ type: [ConsentStatusEntryDto] })
  ConsentStatus: ConsentStatusEntryDto[];
}
