import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { OptionalText } from '@app/shared';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** A `locale` query parameter as the lists read it: a locale code, or empty (absent). */
export const LOCALE_QUERY_SCHEMA = {
  type: 'string',
  pattern: `^(${LOCALE_PATTERN.source.slice(1, -1)})?$`,
  example: 'en-us',
};

/** A required locale code (`en`, `fr-ca`); `message` words a value of another shape. */
export function LocaleCode(
  options: ApiPropertyOptions = {},
  message = 'must be a locale code such as en or fr-ca',
): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: String,
      example: 'en-us',
      pattern: LOCALE_PATTERN.source,
      ...options,
    } as ApiPropertyOptions),
    IsString(),
    Matches(LOCALE_PATTERN, { message }),
  );
}

/** A name and description in one locale; every configuration entry carries a list. */
export class LocalizedFieldDto {
  @LocaleCode({ description: 'Locale code: a language, optionally a region (fr, fr-ca)' })
  Locale: string;

  @ApiProperty({ minLength: 1, maxLength: 256 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  Name: string;

  // null when absent: GET answers every optional field (so a PATCH replace reaches it).
  @OptionalText(1000, { nullable: true })
  Description?: string;
}
