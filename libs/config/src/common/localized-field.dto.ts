import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { OptionalText } from '@app/shared';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** A required locale code (`en`, `fr-ca`); `message` words a value of another shape. */
export function LocaleCode(
  options: ApiPropertyOptions = {},
  message = 'must be a locale code such as en or fr-ca',
): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: String, example: 'en-us', ...options } as ApiPropertyOptions),
    IsString(),
    Matches(LOCALE_PATTERN, { message }),
  );
}

/** A name and description in one locale; every configuration entry carries a list. */
export class LocalizedFieldDto {
  @LocaleCode({ description: 'Locale code: a language, optionally a region (fr, fr-ca)' })
  Locale: string;

  @ApiProperty({ maxLength: 256 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  Name: string;

  @OptionalText(1000)
  Description?: string;
}
