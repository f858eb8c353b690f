import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { RevisionStore } from '../../common/revision-store';
import { StoredProgram, programRevisionKey, withDerivedFields } from '../domain/program.schema';

/**
 * The `config_programs` collection of program revisions (see StoredProgram); every method
 * is scoped by client and answers with the latest revision of each program.
 */
@Injectable()
export class ProgramRepository {
  private readonly store: RevisionStore<StoredProgram>;

  constructor(@InjectModel(StoredProgram.name) programs: Model<StoredProgram>) {
    this.store = new RevisionStore(programs, 'programId');
  }

  listAll(clientId: string): Promise<StoredProgram[]> {
    return this.store.list(clientId);
  }

  findById(clientId: string, programId: number): Promise<StoredProgram | null> {
    return this.store.findOne(clientId, programId);
  }

  /** The name of program `programId`, or null (what a name claim asks of its holder). */
  async nameHeldBy(clientId: string, programId: number): Promise<string | null> {
    return (await this.findById(clientId, programId))?.Name ?? null;
  }

  /** The program `programId` (404 when unknown) or, without one, every program. */
  listOrOne(clientId: string, programId: number | undefined): Promise<StoredProgram[]> {
    return this.store.listOrOne(clientId, programId, 'Program');
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

  /** Stores the first revision of new programs. */
  insertAll(programs: StoredProgram[]): Promise<void> {
    return this.store.insertAll(
      programs.map((program) =>
        withDerivedFields({
          ...program,
          _id: programRevisionKey(program.clientId, program.programId, 0),
          revision: 0,
          current: true,
        }),
      ),
    );
  }

  /** Removes programs whose create failed half-way (never called on an answered create). */
  removeUnanswered(clientId: string, programIds: number[]): Promise<void> {
    return this.store.removeUnanswered(clientId, programIds);
  }

  /**
   * Stores `program` as the revision after `expectedRevision`; false when that revision
   * exists already (another writer saved the program since it was read).
   */
  saveNextRevision(program: StoredProgram, expectedRevision: number): Promise<boolean> {
    const revision = expectedRevision + 1;
    return this.store.saveRevision(
      withDerivedFields({
        ...program,
        _id: programRevisionKey(program.clientId, program.programId, revision),
        revision,
        current: true,
      }),
    );
  }
}
