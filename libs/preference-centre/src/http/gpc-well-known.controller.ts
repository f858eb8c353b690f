import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { GPC_WELL_KNOWN_PATH } from '../domain/centre-paths';
import { PreferenceCentreSettings } from '../preference-centre-settings';

/** The GPC support resource (Global Privacy Control specification). */
export class GpcSupportDto {
  @ApiProperty({
    description: 'The origin intends to honour Global Privacy Control signals: always true',
    example: true,
  })
  gpc: boolean;

  @ApiProperty({
    description:
      'When the statement of support was made (GPC_LAST_UPDATE), an ISO 8601 date: YYYY-MM-DD',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    example: '2026-11-28',
  })
  lastUpdate: string;
}

/**
 * `/.well-known/gpc.json` (docs/preference-centre.md, "Global Privacy Control"): the origin
 * says it honours the Sec-GPC signal, as the GPC specification describes the resource
 * (application/json, `gpc` and `lastUpdate`). Public, outside the API prefix and any client:
 * the preference centre honours the signal for every client that marked programs
 * SaleOrShare.
 */
@ApiTags('Preference centre')
@Controller()
export class GpcWellKnownController {
  constructor(private readonly settings: PreferenceCentreSettings) {}

  @Get(GPC_WELL_KNOWN_PATH)
  @Header('cache-control', 'max-age=86400')
  @ApiOperation({
    summary: 'The Global Privacy Control support resource',
    description:
      'Public, outside /Profiles/v4 (and not under /Profiles/v2). {"gpc": true, "lastUpdate": "YYYY-MM-DD"} as application/json: this origin honours Sec-GPC: 1 (the preference centre opts the person out of the programs their client marked SaleOrShare); lastUpdate is GPC_LAST_UPDATE.',
  })
  @ApiOkResponse({
    type: GpcSupportDto,
    description: 'The support resource: {"gpc": true, "lastUpdate": "YYYY-MM-DD"}',
  })
  support(): GpcSupportDto {
    return { gpc: true, lastUpdate: this.settings.gpcLastUpdate };
  }
}
