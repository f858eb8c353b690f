import type { Type as ClassType } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsNotEmpty,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { EditedDto, OptionalBoolean, ReadOnlyField, requestOnly } from '@app/shared';
import { LocalizedFieldDto } from '../../common/localized-field.dto';
import type { TypeKind } from '../domain/type-kind';

export const TYPE_NAME_MAX = 100;
export const LOCALIZED_FIELDS_MAX = 100;
export const ENTRIES_PER_BODY_MAX = 100;

/** One type-configuration entry; every kind (AddressTypes, PhoneTypes, ...) has this shape. */
export class TypeEntryDto {
  @ReadOnlyField({
    type: 'integer',
    minimum: 1,
    format: 'int32',
    description: 'Assigned by the service (1, 2, ... per client and kind); ignored on input',
  })
  TypeId?: number;

  @ApiProperty({
    minLength: 1,
    maxLength: TYPE_NAME_MAX,
    pattern: '\\S',
    example: 'Home',
    description:
      'Unique per client and kind, compared case-insensitively (surrounding spaces are trimmed)',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(TYPE_NAME_MAX)
  @Matches(/\S/, { message: 'must not be blank' })
  TypeName: string;

  @ApiProperty({
    type: () => LocalizedFieldDto,
    isArray: true,
    // minItems in requests only: a GET with locale answers an empty list for an entry
    // without that locale.
    ...requestOnly({ minItems: 1 }),
    maxItems: LOCALIZED_FIELDS_MAX,
    description:
      'Name and Description per locale; at least one in a request, each locale at most once',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LOCALIZED_FIELDS_MAX)
  @ValidateNested({ each: true })
  @Type(() => LocalizedFieldDto)
  LocalizedFields: LocalizedFieldDto[];

  @OptionalBoolean({
    default: false,
    description:
      'At most one entry of a kind is the default: setting it on one entry clears it on the ' +
      'others. An inactive entry cannot be the default.',
  })
  IsDefault?: boolean;

  @OptionalBoolean({ default: true })
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}

/** `{ "<Kind>": [entries] }`: the body of a create and every answer. */
export type TypeListDto = Partial<Record<TypeKind, TypeEntryDto[]>>;

const listDtoClasses = new Map<TypeKind, ClassType<TypeListDto>>();

/**
 * The wrapper class of a kind (`AddressTypesListDto` with one property `AddressTypes`),
 * validated and documented like any DTO. Built once per kind.
 */
export function typeListDtoOf(kind: TypeKind): ClassType<TypeListDto> {
  const known = listDtoClasses.get(kind);
  if (known) return known;
  class TypeList {}
  const decorators: PropertyDecorator[] = [
    // minItems and maxItems in requests only: GET answers the same wrapper with every entry
    // (maybe none).
    ApiProperty({
      type: () => TypeEntryDto,
      isArray: true,
      ...requestOnly({ minItems: 1, maxItems: ENTRIES_PER_BODY_MAX }),
      description: `1 to ${ENTRIES_PER_BODY_MAX} entries in a request`,
    } as ApiPropertyOptions),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(ENTRIES_PER_BODY_MAX),
    ValidateNested({ each: true }),
    Type(() => TypeEntryDto),
  ];
  for (const decorate of decorators) decorate(TypeList.prototype, kind);
  Object.defineProperty(TypeList, 'name', { value: `${kind}ListDto` });
  listDtoClasses.set(kind, TypeList);
  return TypeList;
}
