import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { INT32_MAX } from '../../common/entry-request';
import { LOCALE_QUERY_SCHEMA } from '../../common/localized-field.dto';

/** The path id of a PATCH (ConfigPatch `id`). */
export const TYPE_ID = { name: 'typeId', description: 'TypeId of the entry (1 to 2147483647)' };

export const ApiTypeListQuery = (): MethodDecorator =>
  applyDecorators(
    ApiQuery({
      name: 'Id',
      required: false,
      description: 'TypeId of one entry; 0 or absent returns every entry. An unknown Id is a 404.',
      schema: { type: 'integer', format: 'int32', default: 0, minimum: 0, maximum: INT32_MAX },
    }),
    ApiQuery({
      name: 'locale',
      required: false,
      schema: LOCALE_QUERY_SCHEMA,
      description:
        'Return only the LocalizedFields of this locale (exact, else fr-ca falls back to fr and fr ' +
        'to any fr-*). 404 when no returned entry has localised fields for it.',
      example: 'fr-ca',
    }),
  );
