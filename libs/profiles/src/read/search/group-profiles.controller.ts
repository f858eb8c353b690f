import { applyDecorators, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { ApiTextQuery } from '@app/shared';
import { ProfileDto } from '../../wire/profile.dto';
import { IMPLIED_FLAG, viewOf } from '../../domain/profile-view';
import {
  type GroupProfilesCriteria,
  type PrimaryProfile,
  SearchGroupProfilesQuery,
} from './search-group-profiles/search-group-profiles.query';
import type { AlternateIdPair } from '../../persistence/alternate-id-claims.service';
import {
  AlternateIdParams,
  ApiAlternateIdQuery,
  BooleanQuery,
} from '../../wire/alternate-id.params';
import { ContactParams, GroupParams, type GroupParts } from './group-profiles.params';
import { PHONE_NUMBER } from './profile-search.params';
import { ApiProfileIdParam, ProfileIdParam } from '../../wire/profile-id.param';

const RESULT =
  'Answers a JSON array of Profile objects (the content of GET profile: active elements only, UpdateStatus as there, the caller\'s data scope and `implied` applied), in profile id order. Only active profiles with an active membership count; group type and name compare case-insensitively. At most 50 profiles: when more are members, 403 {"Message": ...}.';

const PRIMARY =
  'Takes the groups of type groupType in which the primary profile is an active member with IsPrimary true (only groupName when given), and answers every active profile that is an active member of one of them, the primary included.';

/** The query parameters every primary-profile search shares. */
const ApiGroupQueries = (): MethodDecorator =>
  applyDecorators(
    ApiTextQuery('groupType', {
      required: true,
      description: "The group type of the primary profile's groups",
    }),
    ApiTextQuery('groupName', { description: 'Only this group' }),
    ApiQuery({ name: 'implied', required: false, type: Boolean, description: IMPLIED_FLAG }),
    ApiQuery({
      name: 'includeConsentHistory',
      required: false,
      type: Boolean,
      description:
        'Accepted and validated; a profile holds one consent per consent type and container, so both values give the same answer',
    }),
  );

@TenantController(':clientId/Profile/GroupProfiles', {
  tag: 'Profile search',
  badRequest: 'A missing or malformed query parameter; the Message names it and its value',
})
@ApiForbiddenResponse({ description: 'More than 50 profiles are members' })
export class GroupProfilesController {
  constructor(private readonly queries: QueryBus) {}

  private search(
    caller: Caller,
    criteria: GroupProfilesCriteria,
    implied: boolean,
  ): Promise<ProfileDto[]> {
    return this.queries.execute(
      new SearchGroupProfilesQuery(caller.clientId, criteria, viewOf(caller, { implied })),
    );
  }

  private byPrimary(
    caller: Caller,
    primary: PrimaryProfile,
    group: GroupParts,
    implied: boolean,
  ): Promise<ProfileDto[]> {
    return this.search(caller, { by: 'primary', primary, ...group }, implied);
  }

  @Get('AlternateId')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "Group profiles by the primary profile's alternate id",
    description: `The primary profile is the one holding the alternate id (type and value case-insensitive). ${PRIMARY} ${RESULT}`,
  })
  @ApiAlternateIdQuery()
  @ApiGroupQueries()
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  @ApiNotFoundResponse({ description: 'Unknown client, or no profile holds the alternate id' })
  byAlternateId(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
    @GroupParams(false) group: GroupParts,
    @BooleanQuery('implied') implied: boolean,
    @BooleanQuery('includeConsentHistory') _includeConsentHistory: boolean,
  ): Promise<ProfileDto[]> {
    return this.byPrimary(caller, { pair }, group, implied);
  }

  @Get('Phone')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "Group profiles by the primary profile's phone number",
    description: `Every active profile with an active phone whose digits equal those of phoneNumber (and PhoneType equal to phoneType when given) is a primary profile; none gives an empty array. ${PRIMARY} ${RESULT}`,
  })
  @ApiTextQuery('phoneNumber', { required: true, ...PHONE_NUMBER })
  @ApiTextQuery('phoneType', { description: 'Case-insensitive' })
  @ApiGroupQueries()
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  @ApiNotFoundResponse({ description: 'Unknown client' })
  byPhone(
    @CurrentCaller() caller: Caller,
    @ContactParams('phone') primary: PrimaryProfile,
    @GroupParams(false) group: GroupParts,
    @BooleanQuery('implied') implied: boolean,
    @BooleanQuery('includeConsentHistory') _includeConsentHistory: boolean,
  ): Promise<ProfileDto[]> {
    return this.byPrimary(caller, primary, group, implied);
  }

  @Get('Email')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "Group profiles by the primary profile's email address",
    description: `Every active profile with an active email of that address (and EmailAddressType equal to emailType when given) is a primary profile; none gives an empty array. ${PRIMARY} ${RESULT}`,
  })
  @ApiTextQuery('emailAddress', { required: true, description: 'Case-insensitive' })
  @ApiTextQuery('emailType', { description: 'Case-insensitive' })
  @ApiGroupQueries()
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  @ApiNotFoundResponse({ description: 'Unknown client' })
  byEmail(
    @CurrentCaller() caller: Caller,
    @ContactParams('email') primary: PrimaryProfile,
    @GroupParams(false) group: GroupParts,
    @BooleanQuery('implied') implied: boolean,
    @BooleanQuery('includeConsentHistory') _includeConsentHistory: boolean,
  ): Promise<ProfileDto[]> {
    return this.byPrimary(caller, primary, group, implied);
  }

  @Get('Group')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Group profiles by group type and group name',
    description: `Every active profile that is an active member of the group (primary or not). ${RESULT}`,
  })
  @ApiTextQuery('groupType', { required: true, description: 'Case-insensitive' })
  @ApiTextQuery('groupName', { required: true, description: 'Case-insensitive' })
  @ApiQuery({ name: 'implied', required: false, type: Boolean, description: IMPLIED_FLAG })
  @ApiQuery({
    name: 'includeConsentHistory',
    required: false,
    type: Boolean,
    description: 'Accepted and validated; both values give the same answer',
  })
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  @ApiNotFoundResponse({ description: 'Unknown client' })
  byGroup(
    @CurrentCaller() caller: Caller,
    @GroupParams(true) group: GroupParts,
    @BooleanQuery('implied') implied: boolean,
    @BooleanQuery('includeConsentHistory') _includeConsentHistory: boolean,
  ): Promise<ProfileDto[]> {
    return this.search(
      caller,
      { by: 'group', groupType: group.groupType, groupName: group.groupName! },
      implied,
    );
  }

  // Declared after the static paths above, so AlternateId, Phone, Email and Group are
  // never read as a profile id.
  @Get(':profileId')
  @ApiProfileIdParam()
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "Group profiles by the primary profile's id",
    description: `${PRIMARY} ${RESULT}`,
  })
  @ApiGroupQueries()
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  @ApiNotFoundResponse({ description: 'Unknown client, or no such profile' })
  byProfileId(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @GroupParams(false) group: GroupParts,
    @BooleanQuery('implied') implied: boolean,
    @BooleanQuery('includeConsentHistory') _includeConsentHistory: boolean,
  ): Promise<ProfileDto[]> {
    return this.byPrimary(caller, { profileId }, group, implied);
  }
}
