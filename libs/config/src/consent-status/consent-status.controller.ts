import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth } from '@app/auth';
import { ConsentStatus } from './consent-status';
import { ConsentStatusListDto } from './consent-status.dto';

@ApiTags('Configuration')
@Controller(':clientId/ConsentStatus')
export class ConsentStatusController {
  @Get()
  @ApiAuth('configuration', 'read')
  @ApiOperation({ summary: 'The consent statuses and their values' })
  @ApiOkResponse({ type: ConsentStatusListDto })
  list(): ConsentStatusListDto {
    return {
      ConsentStatus: Object.entries(ConsentStatus)
        .filter(([, value]) => typeof value === 'number')
        .map(([name, value]) => ({ Name: name, Value: value as number })),
    };
  }
}
