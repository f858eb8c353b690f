import { Get } from '@nestjs/common';
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
import { CONSENT_HISTORY_CATEGORY } from '../history/consent-history';

const CONSENT_HISTORY_TEXT = {
  summary: 'Historical consents',
  description: `One entry per consent change: Consents holds it (profile level), or Emails/PhoneNumbers/Addresses hold the contact element with the one consent in its Consents. Basic profile information and consents only. Ascending by ConsentType, then ConsentVersion, then modified date. ${HISTORY_ENTRY_SHAPE}`,
};

/**
 * The history of a profile's consents, by profile id and by alternate id (a category
 * Consents records through the rule port; Profiles reads it).
 */
@ProfileHistoryRoutes()
export class ConsentHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':profileId/History/Consents')
  @ProfileHistoryRoute(CONSENT_HISTORY_TEXT, 'id', 'ProfileHistoryController_consents')
  consents(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
  ): Promise<ProfileDto[]> {
    return this.history(caller, { profileId });
  }

  @Get('AlternateId/History/Consents')
  @ProfileHistoryRoute(
    CONSENT_HISTORY_TEXT,
    'alternate id',
    'ProfileHistoryController_consentsByAlternateId',
  )
  consentsByAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
  ): Promise<ProfileDto[]> {
    return this.history(caller, { pair });
  }

  private history(caller: Caller, target: HistoryTarget): Promise<ProfileDto[]> {
    return this.queries.execute(profileHistoryQuery(caller, target, CONSENT_HISTORY_CATEGORY));
  }
}
