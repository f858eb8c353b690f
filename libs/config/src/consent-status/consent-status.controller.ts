import { Get } from '@nestjs/common';
import { TenantController } from '@app/auth';
import { ConfigRead } from '../common/config-route.decorators';
import { ConsentStatus } from './consent-status';
import { ConsentStatusListDto } from './consent-status.dto';

@TenantController(':clientId/ConsentStatus', { tag: 'Configuration', badRequest: false })
export class ConsentStatusController {
  @Get()
  @ConfigRead({
    summary: 'The consent statuses and their values',
    description:
      'Answers { "ConsentStatus": [{ "Name", "Value" }] }: each status a consent can have and the number that stands for it.',
    ok: ConsentStatusListDto,
  })
  list(): ConsentStatusListDto {
    return {
      ConsentStatus: Object.entries(ConsentStatus)
        .filter(([, value]) => typeof value === 'number')
        .map(([name, value]) => ({ Name: name, Value: value as number })),
    };
  }
}
