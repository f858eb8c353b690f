import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { StoredEdited, StoredEditedSchema } from '../../common/entry-request';

import { StoredKeyValue, StoredKeyValueSchema } from './program.schema';
import { revisionKey } from '../../keys';

/**
 * A program group (`config_program_groups`): programs and nested groups it contains. Stored
 * as revisions like programs (see StoredProgram): the highest revision is the group.
 */
@Schema({ collection: 'config_program_groups', versionKey: false })
export class StoredProgramGroup {
  /** `<clientId>|programGroup|<groupId>|<revision>` */
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) groupId: number;
  @Prop({ required: true, default: 0 }) revision: number;
  /** False once a later revision exists. */
  @Prop({ required: true, default: true }) current: boolean;
  @Prop({ required: true }) Name: string;
  @Prop() Description?: string;
  @Prop({ default: true }) IsActive: boolean;
  @Prop({ type: [StoredKeyValueSchema], default: [] }) CustomProperties: StoredKeyValue[];
  @Prop({ type: [Number], default: [] }) ProgramIds: number[];
  @Prop({ type: [Number], default: [] }) ProgramGroupIds: number[];
  @Prop({ type: StoredEditedSchema }) Edited: StoredEdited;
}

export const StoredProgramGroupSchema = SchemaFactory.createForClass(StoredProgramGroup);
// Serves: a client's current groups in id order (GET, matching, cycle checks) and the
// latest revision of one group (every change).
StoredProgramGroupSchema.index({ clientId: 1, groupId: 1, revision: -1 });

export const PROGRAM_GROUP_KIND = 'programGroup';

export function programGroupRevisionKey(
  clientId: string,
  groupId: number,
  revision: number,
): TenantKey {
  return revisionKey(clientId, PROGRAM_GROUP_KIND, groupId, revision);
}
