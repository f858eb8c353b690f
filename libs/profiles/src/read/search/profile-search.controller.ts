import { applyDecorators, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { ApiTextQuery } from '@app/shared';
import { ApiAuth, type Caller, CurrentCaller } from '@app/auth';
import { ProfileDto } from '../../wire/profile.dto';
import type { SearchCriteria } from './search-profiles/profile-search.criteria';
import { ProfileSearchRoutes, SEARCH_RESULT, searchProfilesQuery } from './profile-search.api';
import {
  PHONE_NUMBER,
  SearchFlagParams,
  type SearchFlags,
  SearchParams,
} from './profile-search.params';

const ApiNameQueries = (description: string): MethodDecorator =>
  applyDecorators(
    ApiTextQuery('firstName', { description }),
    ApiTextQuery('middleName', { description }),
    ApiTextQuery('lastName', { description }),
  );

@ProfileSearchRoutes()
export class ProfileSearchController {
  constructor(private readonly queries: QueryBus) {}

  private search(
    caller: Caller,
    criteria: SearchCriteria,
    flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    return this.queries.execute(searchProfilesQuery(caller, criteria, flags));
  }

  @Get('Phone')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Profiles by phone number (compared by its digits)',
    description: `Matches an active phone whose digits (PhoneNumberNumeric) equal those of phoneNumber (punctuation ignored), and whose PhoneType equals phoneType when given. ${SEARCH_RESULT}`,
  })
  @ApiTextQuery('phoneNumber', { required: true, ...PHONE_NUMBER })
  @ApiTextQuery('phoneType', { description: 'Case-insensitive' })
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  byPhone(
    @CurrentCaller() caller: Caller,
    @SearchParams('phone') criteria: SearchCriteria,
    @SearchFlagParams() flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    return this.search(caller, criteria, flags);
  }

  @Get('Email')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Profiles by email address',
    description: `Matches an active email with that address and, when given, EmailAddressType. ${SEARCH_RESULT}`,
  })
  @ApiTextQuery('emailAddress', { required: true, description: 'Case-insensitive' })
  @ApiTextQuery('emailType', { description: 'Case-insensitive' })
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  byEmail(
    @CurrentCaller() caller: Caller,
    @SearchParams('email') criteria: SearchCriteria,
    @SearchFlagParams() flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    return this.search(caller, criteria, flags);
  }

  @Get('Name')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Profiles by exact name',
    description: `Each supplied name part must equal the CustomerName part; at least one is required. ${SEARCH_RESULT}`,
  })
  @ApiNameQueries('Exact, case-insensitive')
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  byName(
    @CurrentCaller() caller: Caller,
    @SearchParams('name') criteria: SearchCriteria,
    @SearchFlagParams() flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    return this.search(caller, criteria, flags);
  }

  @Get('PartialName')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Profiles by partial name',
    description: `Each supplied name part must occur in the CustomerName part (substring); at least one is required. ${SEARCH_RESULT}`,
  })
  @ApiNameQueries('Substring, case-insensitive')
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  byPartialName(
    @CurrentCaller() caller: Caller,
    @SearchParams('partialName') criteria: SearchCriteria,
    @SearchFlagParams() flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    return this.search(caller, criteria, flags);
  }

  @Get('Address')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Profiles by address',
    description: `One active address must match every supplied address field, and the CustomerName every supplied name part, exactly; partialAddress1Match=true makes address1, partialNameMatch=true the name parts, substring matches. ${SEARCH_RESULT}`,
  })
  @ApiTextQuery('address1')
  @ApiTextQuery('address2')
  @ApiTextQuery('city', { required: true })
  @ApiTextQuery('stateProvince', { required: true })
  @ApiTextQuery('postalCode')
  @ApiTextQuery('addressType')
  @ApiNameQueries('Exact unless partialNameMatch=true')
  @ApiQuery({ name: 'partialAddress1Match', required: false, type: Boolean })
  @ApiQuery({ name: 'partialNameMatch', required: false, type: Boolean })
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  byAddress(
    @CurrentCaller() caller: Caller,
    @SearchParams('address') criteria: SearchCriteria,
    @SearchFlagParams() flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    return this.search(caller, criteria, flags);
  }

  @Get('Tags')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Profiles carrying all listed tags',
    description: `Query parameters tags[0], tags[1], ... (indices from 0 without gaps; a malformed key is a 400). Tag names compare case-insensitively. ${SEARCH_RESULT}`,
  })
  @ApiTextQuery('tags[0]', { required: true, description: 'Then tags[1], tags[2], ...' })
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  byTags(
    @CurrentCaller() caller: Caller,
    @SearchParams('tags') criteria: SearchCriteria,
    @SearchFlagParams() flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    return this.search(caller, criteria, flags);
  }

  @Get('CustomFields')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Profiles by custom field values',
    description: `Query parameters customFields[i].Name and customFields[i].Value, i from 0 without gaps. Every listed field must be an active custom field of the profile with that value (name and value case-insensitive). ${SEARCH_RESULT}`,
  })
  @ApiTextQuery('customFields[0].Name', { required: true })
  @ApiTextQuery('customFields[0].Value', { required: true })
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  byCustomFields(
    @CurrentCaller() caller: Caller,
    @SearchParams('customFields') criteria: SearchCriteria,
    @SearchFlagParams() flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    return this.search(caller, criteria, flags);
  }

  @Get('CustomFields/SelectList')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Profiles by select-list custom field values',
    description: `Query parameters customFields[i].OperatorId, .Name and .Value, i from 0 without gaps; several values are joined with a colon (a:b). Operators: 1 Equals (the stored values are exactly the given set), 2 All of (the stored values include every given value), 3 Any of (they include at least one). Stored multi-select values are joined with "::". Every listed field must match on an active custom field. ${SEARCH_RESULT}`,
  })
  @ApiQuery({
    name: 'customFields[0].OperatorId',
    required: true,
    schema: { type: 'integer', enum: [1, 2, 3] },
    description: '1 Equals, 2 All of, 3 Any of',
  })
  @ApiTextQuery('customFields[0].Name', { required: true })
  @ApiTextQuery('customFields[0].Value', { required: true, description: 'Values joined by :' })
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  bySelectList(
    @CurrentCaller() caller: Caller,
    @SearchParams('selectList') criteria: SearchCriteria,
    @SearchFlagParams() flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    return this.search(caller, criteria, flags);
  }
}
