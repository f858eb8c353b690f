import { Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { type Caller, CurrentCaller } from '@app/auth';
import type { ProfileHistoryCategory } from '../../domain/profile-history.schema';
import type { ProfileDto } from '../../wire/profile.dto';
import type { HistoryTarget } from './get-profile-history/get-profile-history.query';
import type { AlternateIdPair } from '../../persistence/alternate-id-claims.service';
import { AlternateIdParams } from '../../wire/alternate-id.params';
import {
  HISTORY_ENTRY_SHAPE,
  type HistoryRouteText,
  profileHistoryQuery,
  ProfileHistoryRoute,
  ProfileHistoryRoutes,
} from './profile-history.api';
import { ProfileIdParam } from '../../wire/profile-id.param';

const HISTORY = {
  standard: {
    summary: 'Historical standard fields',
    description: `One entry per write that changed a standard field (IsActive, RegistrationConfirmed, CustomerType, PreserveConsents, PreservePreferences, CustomerName, DefaultLocale, ReasonCode), with all of them and Edited as after that write; ascending by Edited.ModifiedDate. ${HISTORY_ENTRY_SHAPE}`,
  },
  customField: {
    summary: 'Historical custom fields',
    description: `One entry per custom field change: CustomFields holds the one field (Name, Value, IsActive, Edited); ascending by modified date. ${HISTORY_ENTRY_SHAPE}`,
  },
  contact: {
    summary: 'Historical contact elements',
    description: `One entry per email, phone or address change: Emails, PhoneNumbers or Addresses holds the one element, without its preferences and consents; ascending by modified date. ${HISTORY_ENTRY_SHAPE}`,
  },
} satisfies Record<ProfileHistoryCategory, HistoryRouteText>;

/**
 * Historical retrieval of the profile's own categories (standard fields, custom fields,
 * contact elements), by profile id and by alternate id. Preferences and consents have
 * their history routes in their modules.
 */
@ProfileHistoryRoutes()
export class ProfileHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':profileId/History/StandardFields')
  @ProfileHistoryRoute(HISTORY.standard, 'id')
  standardFields(@CurrentCaller() caller: Caller, @ProfileIdParam() profileId: number) {
    return this.history(caller, { profileId }, 'standard');
  }

  @Get(':profileId/History/CustomFields')
  @ProfileHistoryRoute(HISTORY.customField, 'id')
  customFields(@CurrentCaller() caller: Caller, @ProfileIdParam() profileId: number) {
    return this.history(caller, { profileId }, 'customField');
  }

  @Get(':profileId/History/ContactElements')
  @ProfileHistoryRoute(HISTORY.contact, 'id')
  contactElements(@CurrentCaller() caller: Caller, @ProfileIdParam() profileId: number) {
    return this.history(caller, { profileId }, 'contact');
  }

  @Get('AlternateId/History/StandardFields')
  @ProfileHistoryRoute(HISTORY.standard, 'alternate id')
  standardFieldsByAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
  ) {
    return this.history(caller, { pair }, 'standard');
  }

  @Get('AlternateId/History/CustomFields')
  @ProfileHistoryRoute(HISTORY.customField, 'alternate id')
  customFieldsByAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
  ) {
    return this.history(caller, { pair }, 'customField');
  }

  @Get('AlternateId/History/ContactElements')
  @ProfileHistoryRoute(HISTORY.contact, 'alternate id')
  contactElementsByAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
  ) {
    return this.history(caller, { pair }, 'contact');
  }

  private history(
    caller: Caller,
    target: HistoryTarget,
    category: ProfileHistoryCategory,
  ): Promise<ProfileDto[]> {
    return this.queries.execute(profileHistoryQuery(caller, target, category));
  }
}
