import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import { StoredProgram, programRevisionKey, withDerivedFields } from '../domain/program.schema';
import { latestRevisions } from './latest-revisions';

/**
 * The `config_programs` collection of program revisions (see StoredProgram); every method
 * is scoped by client and answers with the latest revision of each program.
 */
@Injectable()
export class ProgramRepository {
  constructor(@InjectModel(StoredProgram.name) private readonly programs: Model<StoredProgram>) {}

  async listAll(clientId: string): Promise<StoredProgram[]> {
    const revisions = await this.programs
      .find({ clientId, current: true })
      .sort({ programId: 1, revision: -1 })
      .lean<StoredProgram[]>()
      .exec();
    return latestRevisions(revisions, (program) => program.programId);
  }

  async findById(clientId: string, programId: number): Promise<StoredProgram | null> {
    const [latest] = await this.programs
      .find({ clientId, programId })
      .sort({ revision: -1 })
      .limit(1)
      .lean<StoredProgram[]>()
      .exec();
    return latest ?? null;
  }

  async findByFilterId(clientId: string, filterId: number): Promise<StoredProgram | null> {
    const programs = await this.latestOf(clientId, { filterIds: filterId });
    return programs.find((program) => program.Filters.some((f) => f.ID === filterId)) ?? null;
  }

  /** Programs with a filter requiring the consent type (`typeName` compared lower-case). */
  async findRequiring(clientId: string, typeName: string): Promise<StoredProgram[]> {
    const key = typeName.toLowerCase();
    const programs = await this.latestOf(clientId, { requiredConsentTypes: key });
    return programs.filter((program) => program.requiredConsentTypes.includes(key));
  }

  async anyRequires(clientId: string, typeName: string): Promise<boolean> {
    return (await this.findRequiring(clientId, typeName)).length > 0;
  }

  /** Stores the first revision of new programs. */
  async insertAll(programs: StoredProgram[]): Promise<void> {
    await this.programs.insertMany(
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
  async removeUnanswered(clientId: string, programIds: number[]): Promise<void> {
    if (programIds.length) {
      await this.programs.deleteMany({ clientId, programId: { $in: programIds } });
    }
  }

  /**
   * Stores `program` as the revision after `expectedRevision`; false when that revision
   * exists already (another writer saved the program since it was read).
   */
  async saveNextRevision(program: StoredProgram, expectedRevision: number): Promise<boolean> {
    const revision = expectedRevision + 1;
    try {
      await this.programs.create(
        withDerivedFields({
          ...program,
          _id: programRevisionKey(program.clientId, program.programId, revision),
          revision,
          current: true,
        }),
      );
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
    await this.programs.updateMany(
      {
        clientId: program.clientId,
        programId: program.programId,
        revision: { $lt: revision },
        current: true,
      },
      { $set: { current: false } },
    );
    return true;
  }

  /**
   * The latest revisions of the programs having a current revision that matches `filter`
   * (a revision just superseded may match while the latest does not: callers re-check).
   */
  private async latestOf(
    clientId: string,
    filter: Record<string, unknown>,
  ): Promise<StoredProgram[]> {
    const candidates = await this.programs
      .find({ clientId, current: true, ...filter }, { programId: 1 })
      .lean<Pick<StoredProgram, 'programId'>[]>()
      .exec();
    if (!candidates.length) return [];
    const programIds = [...new Set(candidates.map((candidate) => candidate.programId))];
    const revisions = await this.programs
      .find({ clientId, current: true, programId: { $in: programIds } })
      .sort({ programId: 1, revision: -1 })
      .lean<StoredProgram[]>()
      .exec();
    return latestRevisions(revisions, (program) => program.programId);
  }
}
