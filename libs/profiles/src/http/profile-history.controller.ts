import {
  applyDecorators,
  Controller,
  createParamDecorator,
  ExecutionContext,
  Get,
} from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller } from '@app/auth';
import { queryOf, singleQueryValue } from '@app/shared';
import type { HistoryCategory } from '../domain/profile-history.schema';
import { ProfileDto } from '../dto/profile.dto';
import { viewOf } from '../domain/profile-view';
import {
  GetProfileHistoryQuery,
  type HistoryTarget,
} from '../queries/get-profile-history/get-profile-history.query';
import type { AlternateIdPair } from '../services/alternate-id-claims.service';
import { AlternateIdParams, ApiAlternateIdQuery } from './alternate-id.query';
import { ApiProfileIdParam, ProfileIdParam } from './profile-id.param';

const ENTRY_SHAPE =
  "Each entry is a Profile-shaped object with ProfileId, the profile's current active AlternateIds and one changed item as it was after that write; inactive states are included (IsActive false: deactivated or removed). Only changes the caller's user group may see are listed. A deleted profile has no history (404).";

const HISTORY = {
  standard: {
    summary: 'Historical standard fields',
    description: `One entry per write that changed a standard field (IsActive, RegistrationConfirmed, CustomerType, PreserveConsents, PreservePreferences, CustomerName, DefaultLocale, ReasonCode), with all of them and Edited as after that write; ascending by Edited.ModifiedDate. ${ENTRY_SHAPE}`,
  },
  customField: {
    summary: 'Historical custom fields',
    description: `One entry per custom field change: CustomFields holds the one field (Name, Value, IsActive, Edited); ascending by modified date. ${ENTRY_SHAPE}`,
  },
  contact: {
    summary: 'Historical contact elements',
    description: `One entry per email, phone or address change: Emails, PhoneNumbers or Addresses holds the one element, without its preferences and consents; ascending by modified date. ${ENTRY_SHAPE}`,
  },
  preference: {
    summary: 'Historical preferences',
    description: `One entry per preference change (ConsentAssociations and PreferenceAttributes included, implied preferences too): ProfilePreferences holds it, or Emails/PhoneNumbers/Addresses hold the contact element (by EmailAddress + EmailAddressType, PhoneNumber + PhoneType, AddressType + Address1 + PostalCode) with the one preference in its EmailPreferences/PhonePreferences/AddressPreferences. Preferences here also carry IsActive. filterId narrows to one FilterId (trimmed, case-insensitive). Ascending by modified date. ${ENTRY_SHAPE}`,
  },
  consent: {
    summary: 'Historical consents',
    description: `One entry per consent change: Consents holds it (profile level), or Emails/PhoneNumbers/Addresses hold the contact element with the one consent in its Consents. Basic profile information and consents only. Ascending by ConsentType, then ConsentVersion, then modified date. ${ENTRY_SHAPE}`,
  },
} satisfies Record<HistoryCategory, { summary: string; description: string }>;

/** Documents one history route: its permission, operation text and answers. */
const HistoryRoute = (category: HistoryCategory, by: 'id' | 'alternate id'): MethodDecorator =>
  applyDecorators(
    ApiAuth('history', 'read'),
    ApiOperation({
      summary: `${HISTORY[category].summary} (by ${by})`,
      description: HISTORY[category].description,
    }),
    by === 'id' ? ApiProfileIdParam() : ApiAlternateIdQuery(),
    ApiOkResponse({ type: ProfileDto, isArray: true }),
  );

/** The optional `filterId` query parameter, given at most once. */
const FilterIdQuery = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | undefined =>
    singleQueryValue(queryOf(ctx), 'filterId'),
);

const ApiFilterIdQuery = (): MethodDecorator =>
  ApiQuery({
    name: 'filterId',
    required: false,
    description: 'Only preferences of this FilterId (trimmed, case-insensitive)',
  });

/**
 * Historical retrieval by profile id and by alternate id. `Profile/AlternateId/History/...`
 * is a static path, so the router prefers it to `Profile/{profileId}/History/...`.
 */
@ApiTags('History')
@ApiBadRequestResponse({
  description:
    'Invalid profileId, missing alternateIdType/alternateId, or filterId given twice; the Message names it',
})
@ApiNotFoundResponse({
  description: 'Unknown client, unknown or deleted profile, or no profile holds the pair',
})
@Controller(':clientId/Profile')
export class ProfileHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':profileId/History/StandardFields')
  @HistoryRoute('standard', 'id')
  standardFields(@CurrentCaller() caller: Caller, @ProfileIdParam() profileId: number) {
    return this.history(caller, { profileId }, 'standard');
  }

  @Get(':profileId/History/CustomFields')
  @HistoryRoute('customField', 'id')
  customFields(@CurrentCaller() caller: Caller, @ProfileIdParam() profileId: number) {
    return this.history(caller, { profileId }, 'customField');
  }

  @Get(':profileId/History/ContactElements')
  @HistoryRoute('contact', 'id')
  contactElements(@CurrentCaller() caller: Caller, @ProfileIdParam() profileId: number) {
    return this.history(caller, { profileId }, 'contact');
  }

  @Get(':profileId/History/Preferences')
  @HistoryRoute('preference', 'id')
  @ApiFilterIdQuery()
  preferences(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @FilterIdQuery() filterId?: string,
  ) {
    return this.history(caller, { profileId }, 'preference', filterId);
  }

  @Get(':profileId/History/Consents')
  @HistoryRoute('consent', 'id')
  consents(@CurrentCaller() caller: Caller, @ProfileIdParam() profileId: number) {
    return this.history(caller, { profileId }, 'consent');
  }

  @Get('AlternateId/History/StandardFields')
  @HistoryRoute('standard', 'alternate id')
  standardFieldsByAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
  ) {
    return this.history(caller, { pair }, 'standard');
  }

  @Get('AlternateId/History/CustomFields')
  @HistoryRoute('customField', 'alternate id')
  customFieldsByAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
  ) {
    return this.history(caller, { pair }, 'customField');
  }

  @Get('AlternateId/History/ContactElements')
  @HistoryRoute('contact', 'alternate id')
  contactElementsByAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
  ) {
    return this.history(caller, { pair }, 'contact');
  }

  @Get('AlternateId/History/Preferences')
  @HistoryRoute('preference', 'alternate id')
  @ApiFilterIdQuery()
  preferencesByAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
    @FilterIdQuery() filterId?: string,
  ) {
    return this.history(caller, { pair }, 'preference', filterId);
  }

  @Get('AlternateId/History/Consents')
  @HistoryRoute('consent', 'alternate id')
  consentsByAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
  ) {
    return this.history(caller, { pair }, 'consent');
  }

  private history(
    caller: Caller,
    target: HistoryTarget,
    category: HistoryCategory,
    filterId?: string,
  ): Promise<ProfileDto[]> {
    return this.queries.execute(
      new GetProfileHistoryQuery(caller.clientId, target, category, viewOf(caller), filterId),
    );
  }
}
