import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { StoredProgram, programRevisionKey, withDerivedFields } from '../domain/program.schema';
import { ProgramAreaRepository } from './program-area.repository';

/**
 * The `config_programs` collection of program revisions (see StoredProgram); every method
 * is scoped by client and answers with the latest revision of each program.
 */
@Injectable()
export class ProgramRepository extends ProgramAreaRepository<'programId', StoredProgram> {
  constructor(@InjectModel(StoredProgram.name) programs: Model<StoredProgram>) {
    super(programs, {
      idField: 'programId',
      label: 'Program',
      revisionKey: programRevisionKey,
      toStored: withDerivedFields,
    });
  }

  async findByFilterId(clientId: string, filterId: number): Promise<StoredProgram | null> {
    const programs = await this.store.findLatestWhere(clientId, { filterIds: filterId });
    return programs.find((program) => program.Filters.some((f) => f.ID === filterId)) ?? null;
  }

  /** Programs with a filter requiring the consent type (`typeName` compared lower-case). */
  async findRequiring(clientId: string, typeName: string): Promise<StoredProgram[]> {
    const key = typeName.toLowerCase();
    const programs = await this.store.findLatestWhere(clientId, { requiredConsentTypes: key });
    return programs.filter((program) => program.requiredConsentTypes.includes(key));
  }

  async anyRequires(clientId: string, typeName: string): Promise<boolean> {
    return (await this.findRequiring(clientId, typeName)).length > 0;
  }
}
