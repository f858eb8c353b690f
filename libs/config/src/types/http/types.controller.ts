import { Body, Get, Patch, Post, type Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { type CheckedPatchOperation, linkTo, PatchOperationsPipe } from '@app/shared';
import { type Caller, CurrentCaller } from '@app/auth';
import {
  ConfigController,
  ConfigCreate,
  ConfigPatch,
  ConfigRead,
} from '../../common/config-route.decorators';
import {
  EntryIdParam,
  type ListQuery,
  ListQueryParam,
  ValidatedBodyPipe,
} from '../../common/entry-request';
import { CreateTypesCommand } from '../commands/create-types/create-types.command';
import { PatchTypeCommand } from '../commands/patch-type/patch-type.command';
import { typeListDtoOf, type TypeListDto } from '../dto/type-entry.dto';
import { ListTypesQuery } from '../queries/list-types/list-types.query';
import { TYPE_KIND_INFO, TYPE_KINDS, type TypeKind } from '../domain/type-kind';
import { ApiTypeListQuery, TYPE_ID } from './type-params';
import { typeCreateExamples, typePatchExamples } from '../../common/configuration.examples';

const ENTRY_RULES =
  'Entry fields: TypeId (read-only), TypeName (required, 1-100 characters, unique per client and kind ' +
  'compared case-insensitively), LocalizedFields (required, at least one, one per locale), IsDefault ' +
  '(default false), IsActive (default true), Edited (read-only). At most one entry of a kind is the ' +
  "default: making an entry the default clears the flag on the entry that had it (that entry's Edited " +
  'stamps do not change), and an inactive entry cannot be the default (400).';

/**
 * The routes of one kind, all on the same handlers: GET and POST `/{clientId}/<Kind>`,
 * PATCH `/{clientId}/<Kind>/{typeId}` and its older singular alias `/{clientId}/<Type>/{typeId}`.
 */
function createTypesController(kind: TypeKind): Type<unknown> {
  const { singular, label, classifies } = TYPE_KIND_INFO[kind];
  const ListDto = typeListDtoOf(kind);
  const plural = `${label.toLowerCase()}s`;

  @ConfigController(':clientId')
  class TypesController {
    constructor(
      private readonly commands: CommandBus,
      private readonly queries: QueryBus,
    ) {}

    @Get(kind)
    @ConfigRead({
      summary: `Retrieve ${plural}`,
      description:
        `${label}s classify ${classifies}. Answers { "${kind}": [...] } in TypeId order, active and ` +
        'inactive entries alike (IsActive tells them apart). With locale, each entry carries only the ' +
        'LocalizedFields selected for it (an entry without any keeps an empty list); 404 when no ' +
        `returned entry has localised fields for the locale. ${ENTRY_RULES}`,
      ok: ListDto,
      notFound: 'Unknown client, unknown Id, or no localised fields for the locale',
    })
    @ApiTypeListQuery()
    list(
      @CurrentCaller() caller: Caller,
      @ListQueryParam() query: ListQuery,
    ): Promise<TypeListDto> {
      return this.queries.execute(
        new ListTypesQuery(caller.clientId, kind, query.id, query.locale),
      );
    }

    @Post(kind)
    @ConfigCreate({
      summary: `Create ${plural}`,
      description:
        `Body { "${kind}": [entries] } (1 to 100 entries). All or nothing: every entry is checked ` +
        'first, and on any error none is created. 409 when a TypeName already exists for this kind ' +
        '(case-insensitive) or repeats within the body; 400 when more than one entry of the body has ' +
        `IsDefault true. Answers 201 with the created entries. ${ENTRY_RULES}`,
      body: ListDto,
      examples: typeCreateExamples(kind),
      created: ListDto,
      conflict: 'A TypeName exists already or repeats in the body',
      notFound: 'Unknown client',
      links: {
        [`Get${singular}`]: linkTo(`${kind}Controller_list`, {
          Id: `$response.body#/${kind}/0/TypeId`,
        }),
        [`Update${singular}`]: linkTo(`${kind}Controller_patch[0]`, {
          typeId: `$response.body#/${kind}/0/TypeId`,
        }),
      },
    })
    create(
      @CurrentCaller() caller: Caller,
      @Body(new ValidatedBodyPipe(ListDto, { firstErrorOnly: true })) body: TypeListDto,
    ): Promise<TypeListDto> {
      return this.commands.execute(
        new CreateTypesCommand(caller.clientId, caller.userId, kind, body[kind] ?? []),
      );
    }

    @Patch([`${kind}/:typeId`, `${singular}/:typeId`])
    @ConfigPatch({
      summary: `Update ${label.toLowerCase()}`,
      description:
        'Body: a JSON array of PATCH operations (add, remove, replace, test) applied in order to the ' +
        `entry as GET returns it (all its LocalizedFields). Also served as PATCH /{clientId}/${singular}/{typeId}, ` +
        'the older route. move and copy are refused (400); a failed test, or any refused operation, ' +
        'changes nothing (400); TypeId and Edited are read-only (400); the result must be a valid entry ' +
        '(400 naming the field); remove operations on several array elements are sent in descending ' +
        'index order. A rename to a TypeName another entry of the kind has is a 409. Answers 200 with ' +
        `{ "${kind}": [the updated entry] }. ${ENTRY_RULES}`,
      id: TYPE_ID,
      ok: ListDto,
      conflict: 'The new TypeName belongs to another entry',
      examples: typePatchExamples(kind),
      notFound: 'Unknown client or typeId',
    })
    patch(
      @CurrentCaller() caller: Caller,
      @EntryIdParam('typeId') typeId: number,
      @Body(PatchOperationsPipe) operations: CheckedPatchOperation[],
    ): Promise<TypeListDto> {
      return this.commands.execute(
        new PatchTypeCommand(caller.clientId, caller.userId, kind, typeId, operations),
      );
    }
  }
  // A distinct name per kind keeps the OpenAPI operation ids unique (AddressTypesController_list).
  Object.defineProperty(TypesController, 'name', { value: `${kind}Controller` });
  return TypesController;
}

/** One controller per kind. */
export const TYPES_CONTROLLERS: Type<unknown>[] = TYPE_KINDS.map(createTypesController);
