import { Body, Get, Param, Patch, Post, type Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiParam } from '@nestjs/swagger';
import {
  ConfigController,
  ConfigCreate,
  ConfigList,
  ConfigPatch,
  ConfigRead,
} from '../../common/config-route.decorators';
import { type Caller, CurrentCaller } from '@app/auth';
import {
  type BodyExamples,
  type CheckedPatchOperation,
  linkTo,
  NotFoundError,
  PatchOperationsPipe,
} from '@app/shared';
import {
  CUSTOM_FIELD_PATCH_EXAMPLES,
  CUSTOM_FIELDS_EXAMPLES,
  DATE_TIME_FIELDS_EXAMPLES,
  NUMERIC_FIELDS_EXAMPLES,
  SELECT_LIST_FIELDS_EXAMPLES,
  TEXT_FIELDS_EXAMPLES,
} from '../../common/configuration.examples';
import { EntryIdParam, type ListQuery, ListQueryParam } from '../../common/entry-request';
import { CreateCustomFieldsCommand } from '../commands/create-custom-fields/create-custom-fields.command';
import { UpdateCustomFieldCommand } from '../commands/update-custom-field/update-custom-field.command';
import type { CustomFieldInput } from '../services/custom-field-checks.service';
import { LIST_KEY } from '../mapping/custom-field.mapper';
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from '../domain/custom-field-value';
import {
  CreateCustomFieldsDto,
  CreateDateTimeFieldsDto,
  CreateNumericFieldsDto,
  CreateSelectListFieldsDto,
  CreateTextFieldsDto,
  CustomFieldListDto,
  UpdateRuleListDto,
} from '../dto/custom-field.dto';
import { GetCustomFieldsQuery } from '../queries/get-custom-fields/get-custom-fields.query';
import { GetUpdateRulesQuery } from '../queries/get-update-rules/get-update-rules.query';

const FIELDS =
  'Common fields: Id (read-only, one id space for the four types), Edited (read-only), Name ' +
  '(1-94, unique per client across the four types, case-insensitive), LocalizedDisplayNames ' +
  '(required, at least one, [{Locale, Name, Description}] like the LocalizedFields of types), ' +
  'Description (<=256), UpdateRuleId (1, 2, 4 or 5; default 1 Always), DisplayOrder, IsReadOnly ' +
  '(stored, not enforced), IsRequired (default false), IsActive (default true). Text adds ' +
  'MinLength, MaxLength (<=4000), DefaultValue, ValidationRegex (a JavaScript regular ' +
  'expression without flags that must compile; a value passes when it matches somewhere, so ' +
  'anchor it with ^...$ for the whole value) and FieldMask. Numeric adds MinValue, MaxValue, ' +
  'DecimalPlaces (0-15), DefaultValue (a number) and FieldMask (<=4000). DateTime adds ' +
  'MinDate, MaxDate and DefaultValue (ISO 8601; no offset means UTC). SelectList adds ' +
  'PicklistId (required, a picklist of the client), DisplayType (SingleSelect or MultiSelect: ' +
  'several values joined with "::") and DefaultState (Unchecked, Checked or Indeterminate; ' +
  'stored for user interfaces). Minimums may not exceed maximums and a DefaultValue must pass ' +
  "the field's own checks.";

const CREATE =
  'The body holds the definitions in the list named after their type, the same wrapper GET ' +
  'answers (no public fact shows the create body; this is our design). All definitions are ' +
  'created or none; 409 when a name exists (in any type) or repeats in the body. The answer ' +
  'is 201 with the four lists holding the created definitions.';

/** The body of POST /{clientId}/CustomFields/<type> and its examples. */
const CREATE_OF_TYPE: Record<
  CustomFieldType,
  { body: Type<unknown>; examples: BodyExamples<unknown> }
> = {
  Text: { body: CreateTextFieldsDto, examples: TEXT_FIELDS_EXAMPLES },
  Numeric: { body: CreateNumericFieldsDto, examples: NUMERIC_FIELDS_EXAMPLES },
  DateTime: { body: CreateDateTimeFieldsDto, examples: DATE_TIME_FIELDS_EXAMPLES },
  SelectList: { body: CreateSelectListFieldsDto, examples: SELECT_LIST_FIELDS_EXAMPLES },
};

/** POST /{clientId}/CustomFields/<type>: the same documentation for each type. */
const CreateOfType = (type: CustomFieldType): MethodDecorator =>
  ConfigCreate({
    summary: `Create ${type} custom fields`,
    description: `${CREATE} ${FIELDS}`,
    ...CREATE_OF_TYPE[type],
    created: CustomFieldListDto,
    links: {
      GetCustomField: linkTo('CustomFieldsController_list', {
        Id: `$response.body#/${LIST_KEY[type]}/0/Id`,
      }),
      UpdateCustomField: linkTo('CustomFieldsController_update[1]', {
        fieldType: type,
        Id: `$response.body#/${LIST_KEY[type]}/0/Id`,
      }),
    },
  });

@ConfigController(':clientId', {
  notFound: 'Unknown client or custom field, or no names for the locale',
})
export class CustomFieldsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('CustomFields')
  @ConfigList({
    summary: 'Retrieve custom field definitions',
    description:
      `${FIELDS} With locale, LocalizedDisplayNames holds only the names selected for the ` +
      'locale (a region falls back to its language and back); 404 when no definition of the ' +
      'answer has one. Query names match case-insensitively.',
    ok: CustomFieldListDto,
  })
  list(
    @CurrentCaller() caller: Caller,
    @ListQueryParam() query: ListQuery,
  ): Promise<CustomFieldListDto> {
    return this.queries.execute(new GetCustomFieldsQuery(caller.clientId, query.id, query.locale));
  }

  @Get('CustomFields/UpdateRules')
  @ConfigRead({
    summary: 'The custom field update rules',
    description:
      'The sources disagree on the enumeration: an older page lists Always=1, ' +
      'IfCurrentValueIsBlank=2, IfNewValueIsBlank=3, IfNewValueIsNotBlank=4; the v4 pages name ' +
      'Always, If Current Value Is Blank, If New Value Is Not Blank and Never, and the v4 ' +
      'text-field page uses the ids 1, 2, 4 and 5. We keep those v4 ids (3 is unused): ' +
      '1 Always, 2 IfCurrentValueIsBlank, 4 IfNewValueIsNotBlank, 5 Never.',
    ok: UpdateRuleListDto,
  })
  updateRules(): Promise<UpdateRuleListDto> {
    return this.queries.execute(new GetUpdateRulesQuery());
  }

  @Post('CustomFields')
  @ConfigCreate({
    summary: 'Create custom field definitions of any types (extension)',
    description: `${CREATE} ${FIELDS}`,
    body: CreateCustomFieldsDto,
    examples: CUSTOM_FIELDS_EXAMPLES,
    created: CustomFieldListDto,
  })
  createAny(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateCustomFieldsDto,
  ): Promise<CustomFieldListDto> {
    const inputs = CUSTOM_FIELD_TYPES.flatMap((type) => inputsOf(type, body[LIST_KEY[type]]));
    return this.commands.execute(
      new CreateCustomFieldsCommand(caller.clientId, caller.userId, inputs),
    );
  }

  @Post('CustomFields/Text')
  @CreateOfType('Text')
  createText(@CurrentCaller() caller: Caller, @Body() body: CreateTextFieldsDto) {
    return this.create(caller, 'Text', body.TextFields);
  }

  @Post('CustomFields/Numeric')
  @CreateOfType('Numeric')
  createNumeric(@CurrentCaller() caller: Caller, @Body() body: CreateNumericFieldsDto) {
    return this.create(caller, 'Numeric', body.NumericFields);
  }

  @Post('CustomFields/DateTime')
  @CreateOfType('DateTime')
  createDateTime(@CurrentCaller() caller: Caller, @Body() body: CreateDateTimeFieldsDto) {
    return this.create(caller, 'DateTime', body.DateTimeFields);
  }

  @Post('CustomFields/SelectList')
  @CreateOfType('SelectList')
  createSelectList(@CurrentCaller() caller: Caller, @Body() body: CreateSelectListFieldsDto) {
    return this.create(caller, 'SelectList', body.SelectListFields);
  }

  @Patch(['CustomField/:fieldType/:Id', 'CustomFields/:fieldType/:Id'])
  @ConfigPatch({
    summary: 'Update a custom field definition with PATCH operations',
    description:
      `${FIELDS} The operations (add, remove, replace, test) apply to the definition as GET ` +
      'returns it (without locale); the result is validated like a create of its type. Id ' +
      'and Edited are read-only; the type cannot change (an id of another type is 404). ' +
      'Served at /{clientId}/CustomField/{type}/{Id} (older route) and ' +
      '/{clientId}/CustomFields/{type}/{Id}. The answer holds the four lists, the updated ' +
      'definition in its own.',
    id: 'Id',
    ok: CustomFieldListDto,
    conflict: 'The new name belongs to another custom field',
    examples: CUSTOM_FIELD_PATCH_EXAMPLES,
  })
  @ApiParam({
    name: 'fieldType',
    schema: { type: 'string', enum: [...CUSTOM_FIELD_TYPES], example: 'Text' },
    description:
      "The definition's type: Text, Numeric, DateTime or SelectList (an Id of another type is 404)",
  })
  update(
    @CurrentCaller() caller: Caller,
    @Param('fieldType') fieldType: string,
    @EntryIdParam('Id') fieldId: number,
    @Body(PatchOperationsPipe) operations: CheckedPatchOperation[],
  ): Promise<CustomFieldListDto> {
    const type = CUSTOM_FIELD_TYPES.find((known) => known === fieldType);
    if (!type) {
      throw new NotFoundError(
        `Unknown custom field type ${JSON.stringify(fieldType)} (Text, Numeric, DateTime or SelectList)`,
      );
    }
    return this.commands.execute(
      new UpdateCustomFieldCommand(caller.clientId, caller.userId, type, fieldId, operations),
    );
  }

  private create(
    caller: Caller,
    type: CustomFieldType,
    fields: CustomFieldListDto[keyof CustomFieldListDto],
  ): Promise<CustomFieldListDto> {
    return this.commands.execute(
      new CreateCustomFieldsCommand(caller.clientId, caller.userId, inputsOf(type, fields)),
    );
  }
}

function inputsOf(
  type: CustomFieldType,
  fields: CustomFieldListDto[keyof CustomFieldListDto] | undefined,
): CustomFieldInput[] {
  return (fields ?? []).map((dto, index) => ({ type, dto, path: `${LIST_KEY[type]}[${index}]` }));
}
