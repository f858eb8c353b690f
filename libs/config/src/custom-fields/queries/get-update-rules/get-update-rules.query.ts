import { Query } from '@nestjs/cqrs';
import type { UpdateRuleListDto } from '../../dto/custom-field.dto';

export class GetUpdateRulesQuery extends Query<UpdateRuleListDto> {}
