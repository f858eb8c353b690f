import { Injectable } from '@nestjs/common';
import { InvalidInputError } from '@app/shared';
import {
  PicklistCatalog,
  type PicklistSummary,
} from '../../picklists/services/picklist-catalog.service';
import { customFieldDefinitionProblems } from '../domain/custom-field-definition.rules';
import type { CustomFieldType } from '../domain/custom-field-value';
import { toDefinitionShape } from '../mapping/custom-field.input';
import type { AnyCustomFieldDto } from '../mapping/custom-field.mapper';
import type { SelectListCustomFieldDto } from '../dto/custom-field.dto';

export interface CustomFieldInput {
  type: CustomFieldType;
  dto: AnyCustomFieldDto;
  /** Names the definition in messages (`TextFields[0]`; empty for a PATCH). */
  path: string;
}

/** The definition rules of a create or a PATCH result, including the picklist reference. */
@Injectable()
export class CustomFieldChecks {
  constructor(private readonly picklists: PicklistCatalog) {}

  /** Throws InvalidInputError naming every problem of the definitions. */
  async refuseInvalid(clientId: string, inputs: CustomFieldInput[]): Promise<void> {
    const problems = await this.problems(clientId, inputs);
    if (problems.length) throw new InvalidInputError(problems.join('; '));
  }

  private async problems(clientId: string, inputs: CustomFieldInput[]): Promise<string[]> {
    const problems: string[] = [];
    const picklists = new Map<number, Promise<PicklistSummary | null>>();
    for (const { type, dto, path } of inputs) {
      problems.push(...customFieldDefinitionProblems(toDefinitionShape(type, dto), path));
      if (type !== 'SelectList') continue;
      const id = (dto as SelectListCustomFieldDto).PicklistId;
      if (!picklists.has(id)) picklists.set(id, this.picklists.findById(clientId, id));
      if (!(await picklists.get(id))) {
        problems.push(
          `Invalid ${path ? `${path}.` : ''}PicklistId (value ${id}): no picklist of this client has this id`,
        );
      }
    }
    return problems;
  }
}
