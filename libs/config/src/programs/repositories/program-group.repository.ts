import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { StoredProgramGroup, programGroupRevisionKey } from '../domain/program-group.schema';
import { ProgramAreaRepository } from './program-area.repository';

/** The `config_program_groups` collection of group revisions; scoped by client. */
@Injectable()
export class ProgramGroupRepository extends ProgramAreaRepository<'groupId', StoredProgramGroup> {
  constructor(@InjectModel(StoredProgramGroup.name) groups: Model<StoredProgramGroup>) {
    super(groups, {
      idField: 'groupId',
      label: 'Program group',
      revisionKey: programGroupRevisionKey,
    });
  }
}
