import { createParamDecorator, ExecutionContext, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { type Caller, CurrentCaller } from '@app/auth';
import {
  type AlternateIdPair,
  AlternateIdParams,
  HISTORY_ENTRY_SHAPE,
  type HistoryTarget,
  profileHistoryQuery,
  ProfileHistoryRoute,
  ProfileHistoryRoutes,
  type ProfileDto,
  ProfileIdParam,
} from '@app/profiles';
import { ApiTextQuery, queryOf, singleQueryValue } from '@app/shared';
import { PREFERENCE_HISTORY_CATEGORY } from '../history/preference-history';

const PREFERENCE_HISTORY_TEXT = {
  summary: 'Historical preferences',
  description: `One entry per preference change (ConsentAssociations and PreferenceAttributes included, implied preferences too): ProfilePreferences holds it, or Emails/PhoneNumbers/Addresses hold the contact element (by EmailAddress + EmailAddressType, PhoneNumber + PhoneType, AddressType + Address1 + PostalCode) with the one preference in its EmailPreferences/PhonePreferences/AddressPreferences. Preferences here also carry IsActive. filterId narrows to one FilterId (trimmed, case-insensitive). Ascending by modified date. ${HISTORY_ENTRY_SHAPE}`,
};

/** The optional `filterId` query parameter, given at most once. */
const FilterIdQuery = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | undefined =>
    singleQueryValue(queryOf(ctx), 'filterId'),
);

const ApiFilterIdQuery = (): MethodDecorator =>
  ApiTextQuery('filterId', {
    description: 'Only preferences of this FilterId (trimmed, case-insensitive)',
  });

/**
 * The history of a profile's preferences, by profile id and by alternate id (a category
 * Preferences records through the rule port; Profiles reads it).
 */
@ProfileHistoryRoutes()
export class PreferenceHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':profileId/History/Preferences')
  @ProfileHistoryRoute(PREFERENCE_HISTORY_TEXT, 'id', 'ProfileHistoryController_preferences')
  @ApiFilterIdQuery()
  preferences(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @FilterIdQuery() filterId?: string,
  ): Promise<ProfileDto[]> {
    return this.history(caller, { profileId }, filterId);
  }

  @Get('AlternateId/History/Preferences')
  @ProfileHistoryRoute(
    PREFERENCE_HISTORY_TEXT,
    'alternate id',
    'ProfileHistoryController_preferencesByAlternateId',
  )
  @ApiFilterIdQuery()
  preferencesByAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
    @FilterIdQuery() filterId?: string,
  ): Promise<ProfileDto[]> {
    return this.history(caller, { pair }, filterId);
  }

  private history(caller: Caller, target: HistoryTarget, filterId?: string): Promise<ProfileDto[]> {
    return this.queries.execute(
      profileHistoryQuery(caller, target, PREFERENCE_HISTORY_CATEGORY, filterId),
    );
  }
}
