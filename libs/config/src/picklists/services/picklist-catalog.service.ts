import { Injectable } from '@nestjs/common';
import { PicklistRepository } from '../repositories/picklist.repository';
import type { StoredPicklist } from '../domain/picklist.schema';

/** What other areas (custom fields, the profile validation) may know of a picklist. */
export interface PicklistSummary {
  Id: number;
  Name: string;
  IsActive: boolean;
  /**
   * The values a profile may newly store: those of the active options, in DisplayOrder
   * (then list) order; none at all while the picklist itself is inactive.
   */
  Values: string[];
}

/** Read access to a client's picklists for other areas. */
@Injectable()
export class PicklistCatalog {
  constructor(private readonly picklists: PicklistRepository) {}

  async findById(clientId: string, picklistId: number): Promise<PicklistSummary | null> {
    const picklist = await this.picklists.findOne(clientId, picklistId);
    return picklist ? summarize(picklist) : null;
  }

  async list(clientId: string): Promise<PicklistSummary[]> {
    return (await this.picklists.list(clientId)).map(summarize);
  }
}

function summarize(picklist: StoredPicklist): PicklistSummary {
  const active = picklist.IsActive !== false;
  const options = picklist.FieldSelectOptions.map((option, index) => ({ option, index }))
    .filter(({ option }) => option.IsActive !== false)
    .sort(
      (a, b) =>
        (a.option.DisplayOrder ?? Number.MAX_SAFE_INTEGER) -
          (b.option.DisplayOrder ?? Number.MAX_SAFE_INTEGER) || a.index - b.index,
    );
  return {
    Id: picklist.picklistId,
    Name: picklist.Name,
    IsActive: active,
    Values: active ? options.map(({ option }) => option.Value) : [],
  };
}
