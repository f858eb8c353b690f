import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { UPDATE_RULES } from '../../domain/update-rules';
import type { UpdateRuleListDto } from '../../dto/custom-field.dto';
import { GetUpdateRulesQuery } from './get-update-rules.query';

@QueryHandler(GetUpdateRulesQuery)
export class GetUpdateRulesHandler implements IQueryHandler<GetUpdateRulesQuery> {
  execute(): Promise<UpdateRuleListDto> {
    return Promise.resolve({
      UpdateRules: UPDATE_RULES.map((rule) => ({
        Id: rule.Id,
        Name: rule.Name,
        Description: rule.Description,
      })),
    });
  }
}
