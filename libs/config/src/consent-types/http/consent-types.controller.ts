import { Body, Get, Patch, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { type CheckedPatchOperation, linkTo, PatchOperationsPipe } from '@app/shared';
import {
  CONSENT_TYPE_CREATE_EXAMPLES,
  CONSENT_TYPE_PATCH_EXAMPLES,
  CONSENT_VERSION_EXAMPLES,
} from '../../common/configuration.examples';
import {
  ConfigController,
  ConfigCreate,
  ConfigList,
  ConfigPatch,
  ConfigRead,
} from '../../common/config-route.decorators';
import { type Caller, CurrentCaller } from '@app/auth';
import {
  booleanQueryFlag,
  EntryIdParam,
  type ListQuery,
  ListQueryParam,
} from '../../common/entry-request';
import { CreateConsentTypesCommand } from '../commands/create-consent-types/create-consent-types.command';
import { PublishConsentVersionCommand } from '../commands/publish-consent-version/publish-consent-version.command';
import { UpdateConsentTypeCommand } from '../commands/update-consent-type/update-consent-type.command';
import {
  ConsentTypeHistoryDto,
  ConsentTypeListDto,
  ConsentVersionDto,
} from '../dto/consent-type.dto';
import { GetConsentTypeHistoryQuery } from '../queries/get-consent-type-history/get-consent-type-history.query';
import { GetConsentTypesQuery } from '../queries/get-consent-types/get-consent-types.query';

const FIELDS =
  'Consent type fields: TypeId (read-only), TypeName (1-100, unique per client, ' +
  'case-insensitive), LocalizedFields, IsActive (default true), IsDefault (default false), ' +
  'ChannelId and Attributes, Versions, Edited (read-only). The public reference does not ' +
  'name the channel and attribute fields; ours are ChannelId (Email, Phone, SMS or Mail, any ' +
  'case, "Text" and "Text/SMS" stored as SMS; null or absent for a profile-only type) and Attributes ([{Key, Value}], keys unique ' +
  'within the type). A version has ConsentVersion (1-50, unique within the type, ' +
  'case-insensitive), LocalizedFields ([{ConsentLanguage, Locale, Name, Description}], at ' +
  'least one), ExpirationInDays (int >= 0; absent: no expiry), IsActive (default true), ' +
  'IsAssociatedWithProfiles (default false, stored as given), and the read-only Edited and ' +
  'PublishedDate (when the version was added). A published version is never removed or ' +
  'renamed: deactivate it with IsActive false.';

/** The TypeId of the first consent type of an answer (OpenAPI links). */
const FIRST_TYPE_ID = '$response.body#/ConsentTypes/0/TypeId';

const PUBLISHING =
  'Adding a version publishes it: it gets its PublishedDate and one event ' +
  '"consent-version-published" is recorded for the worker.';

@ConfigController(':clientId', {
  notFound: 'Unknown client or consent type, or no fields for the locale',
})
export class ConsentTypesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('ConsentTypes')
  @ConfigList({
    summary: 'Retrieve consent types with their versions',
    description:
      `${FIELDS} latestVersionOnly=true returns only the most recent version of each type: ` +
      'the last published one (greatest PublishedDate; of versions published together, the ' +
      'later in the list), whether active or not. With locale, the type and each version ' +
      'carry only the localised fields selected for it (a region falls back to its language ' +
      'and back); 404 when no type of the answer has any, its own or a version’s. Query ' +
      'names match case-insensitively.',
    ok: ConsentTypeListDto,
  })
  @ApiQuery({ name: 'latestVersionOnly', required: false, type: Boolean })
  list(
    @CurrentCaller() caller: Caller,
    @ListQueryParam() query: ListQuery,
  ): Promise<ConsentTypeListDto> {
    return this.queries.execute(
      new GetConsentTypesQuery(
        caller.clientId,
        query.id,
        query.locale,
        booleanQueryFlag(query, 'latestVersionOnly'),
      ),
    );
  }

  @Get(['ConsentTypes/:typeId/History', 'ConsentType/:typeId/History'])
  @ConfigRead({
    summary: 'Retrieve every revision of a consent type (extension)',
    description:
      'Each change of a consent type (create, PATCH, a published version) is stored as its next ' +
      'revision and never changed: this answers them newest first, each with who made it and ' +
      'when (Edited), its TypeName and FormerNames (a rename shows as a new TypeName with the ' +
      'old one added to FormerNames), IsActive, ChannelId and the ConsentVersion of each version.',
    id: 'typeId',
    ok: ConsentTypeHistoryDto,
  })
  history(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('typeId') typeId: number,
  ): Promise<ConsentTypeHistoryDto> {
    return this.queries.execute(new GetConsentTypeHistoryQuery(caller.clientId, typeId));
  }

  @Post('ConsentTypes')
  @ConfigCreate({
    summary: 'Create consent types',
    description:
      `${FIELDS} All entries of the body are created, or none; 409 when a TypeName exists or ` +
      `repeats in the body, or a type names a version twice. ${PUBLISHING}`,
    body: ConsentTypeListDto,
    examples: CONSENT_TYPE_CREATE_EXAMPLES,
    created: ConsentTypeListDto,
    links: {
      GetConsentType: linkTo('ConsentTypesController_list', { Id: FIRST_TYPE_ID }),
      UpdateConsentType: linkTo('ConsentTypesController_update[0]', { typeId: FIRST_TYPE_ID }),
      ConsentTypeHistory: linkTo('ConsentTypesController_history[0]', { typeId: FIRST_TYPE_ID }),
      PublishConsentVersion: linkTo('ConsentTypesController_publish[0]', { typeId: FIRST_TYPE_ID }),
    },
  })
  create(
    @CurrentCaller() caller: Caller,
    @Body() body: ConsentTypeListDto,
  ): Promise<ConsentTypeListDto> {
    return this.commands.execute(
      new CreateConsentTypesCommand(caller.clientId, caller.userId, body.ConsentTypes),
    );
  }

  @Patch(['ConsentTypes/:typeId', 'ConsentType/:typeId'])
  @ConfigPatch({
    summary: 'Update a consent type with PATCH operations',
    description:
      `${FIELDS} The operations (add, remove, replace, test) apply to the type as GET returns ` +
      'it (without locale or latestVersionOnly); the result is validated like a create. ' +
      'TypeId and Edited are read-only; so are a version’s Edited and PublishedDate (a ' +
      `change is ignored). ${PUBLISHING} New versions are added with add /Versions/-; 409 ` +
      'when the version exists. A new TypeName renames the type: its former names stay its own ' +
      '(no other consent type can take them; consents stored or sent under one are the type’s ' +
      'and take its current name; see docs/api.md, Renames). Deactivating the type (IsActive true to false) removes it ' +
      'from the RequiredPreferenceConsents of every filter (reactivating does not restore ' +
      'them). ChannelId cannot change while a filter requires the type (400). Served at ' +
      '/{clientId}/ConsentTypes/{typeId} and the older /{clientId}/ConsentType/{typeId}.',
    id: 'typeId',
    ok: ConsentTypeListDto,
    conflict: 'The new name or version exists already',
    examples: CONSENT_TYPE_PATCH_EXAMPLES,
  })
  update(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('typeId') typeId: number,
    @Body(PatchOperationsPipe) operations: CheckedPatchOperation[],
  ): Promise<ConsentTypeListDto> {
    return this.commands.execute(
      new UpdateConsentTypeCommand(caller.clientId, caller.userId, typeId, operations),
    );
  }

  @Post(['ConsentTypes/:typeId/Versions', 'ConsentType/:typeId/Versions'])
  @ConfigCreate({
    summary: 'Publish a new version of a consent type (extension)',
    description:
      'A convenience equal to PATCH add /Versions/- with the body as the value: the body is ' +
      `one version. ${PUBLISHING} Answers 201 with { ConsentTypes: [the type with all its ` +
      'versions] }; 409 when the type already has this ConsentVersion.',
    id: 'typeId',
    body: ConsentVersionDto,
    examples: CONSENT_VERSION_EXAMPLES,
    created: ConsentTypeListDto,
    conflict: 'The version exists already',
  })
  publish(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('typeId') typeId: number,
    @Body() body: ConsentVersionDto,
  ): Promise<ConsentTypeListDto> {
    return this.commands.execute(
      new PublishConsentVersionCommand(caller.clientId, caller.userId, typeId, body),
    );
  }
}
