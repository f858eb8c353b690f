import { Injectable } from '@nestjs/common';
import { textKey } from '@app/shared';
import { PicklistCatalog } from '../../picklists/services/picklist-catalog.service';
import { toDefinitionView, type CustomFieldDefinitionView } from '../mapping/custom-field.mapper';
import { CustomFieldRepository } from '../repositories/custom-field.repository';
import type { StoredCustomField } from '../domain/custom-field.schema';

/** A custom field definition with what `checkCustomFieldValue` needs besides it. */
export interface ResolvedCustomField {
  definition: CustomFieldDefinitionView;
  /**
   * For a SelectList field: the values a profile may newly store (the active options of
   * its picklist; none while the picklist is inactive), or null when the picklist is
   * missing. Always null for the other types.
   */
  picklistValues: string[] | null;
}

/**
 * Read access to a client's custom field definitions, for the profile validation:
 * `checkCustomFieldValue(found.definition, found.picklistValues, newValue, currentValue)`.
 */
@Injectable()
export class CustomFieldCatalog {
  constructor(
    private readonly fields: CustomFieldRepository,
    private readonly picklists: PicklistCatalog,
  ) {}

  /** The definition named `name` (trimmed, spaces folded, case-insensitive), or null. */
  async findByName(clientId: string, name: string): Promise<ResolvedCustomField | null> {
    const field = await this.fields.findByNameKey(clientId, textKey(name));
    return field ? this.resolve(clientId, field) : null;
  }

  async findById(clientId: string, fieldId: number): Promise<ResolvedCustomField | null> {
    const field = await this.fields.findOne(clientId, fieldId);
    return field ? this.resolve(clientId, field) : null;
  }

  /** Every definition of the client (active or not), in id order. */
  async list(clientId: string): Promise<ResolvedCustomField[]> {
    const fields = await this.fields.list(clientId);
    return Promise.all(fields.map((field) => this.resolve(clientId, field)));
  }

  private async resolve(clientId: string, field: StoredCustomField): Promise<ResolvedCustomField> {
    let picklistValues: string[] | null = null;
    if (field.fieldType === 'SelectList' && field.PicklistId !== undefined) {
      const picklist = await this.picklists.findById(clientId, field.PicklistId);
      picklistValues = picklist ? picklist.Values : null;
    }
    return { definition: toDefinitionView(field), picklistValues };
  }
}
