import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** A name and description in one locale; every configuration entry carries a list. */
export class LocalizedFieldDto {
  @ApiProperty({
    example: 'en-us',
    description: 'Locale code: a language, optionally a region (fr, fr-ca)',
  })
  @IsString()
  @Matches(LOCALE_PATTERN, { message: 'must be a locale code such as en or fr-ca' })
  Locale: string;

  @ApiProperty({ maxLength: 256 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  Name: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  Description?: string;
}
