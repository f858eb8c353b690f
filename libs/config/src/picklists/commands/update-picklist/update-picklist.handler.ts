import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApiError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.service';
import { applyPatchOperations } from '../../../common/json-patch';
import { editedOnUpdate, nameKeyOf, SAVE_ATTEMPTS, validateEntry } from '../../entry-request';
import { PicklistDto, type PicklistListDto } from '../../picklist.dto';
import { toStoredPicklist } from '../../picklist.input';
import { toPicklistDto } from '../../picklist.mapper';
import { PicklistRepository } from '../../picklist.repository';
import { picklistProblems } from '../../picklist.rules';
import { PICKLIST_KIND } from '../../picklist.schema';
import { UpdatePicklistCommand } from './update-picklist.command';

/**
 * Applies JSON Patch operations to the picklist's wire shape, validates the result like a
 * create, and stores it as the next revision unless another writer stored that revision
 * first (then starts over on the fresh revision).
 */
@CommandHandler(UpdatePicklistCommand)
export class UpdatePicklistHandler implements ICommandHandler<UpdatePicklistCommand> {
  constructor(
    private readonly repository: PicklistRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute({
    clientId,
    userId,
    picklistId,
    operations,
  }: UpdatePicklistCommand): Promise<PicklistListDto> {
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
      const stored = await this.repository.findOne(clientId, picklistId);
      if (!stored) throw ApiError.notFound(`Picklist ${picklistId} was not found`);

      const patched = applyPatchOperations(toPicklistDto(stored), operations, ['Id', 'Edited']);
      const dto = await validateEntry(PicklistDto, patched);
      const problems = picklistProblems(dto, '');
      if (problems.length) throw ApiError.badRequest(problems.join('; '));

      const name = dto.Name.trim();
      const renamed = nameKeyOf(name) !== stored.nameKey;
      if (
        renamed &&
        !(await this.bookkeeping.claimName(clientId, PICKLIST_KIND, name, picklistId))
      ) {
        throw ApiError.conflict(`Picklist "${name}" already exists`);
      }
      const next = toStoredPicklist(
        dto,
        clientId,
        picklistId,
        stored.revision + 1,
        editedOnUpdate(stored.Edited, userId, new Date()),
      );
      if (await this.repository.saveRevision(next)) {
        if (renamed) {
          await this.bookkeeping.releaseName(clientId, PICKLIST_KIND, stored.Name, picklistId);
        }
        await this.bookkeeping.touch(clientId);
        return { Picklists: [toPicklistDto(next)] };
      }
      // Another writer saved first: give up the new name unless that writer took it too.
      const now = await this.repository.findOne(clientId, picklistId);
      if (renamed && now?.nameKey !== nameKeyOf(name)) {
        await this.bookkeeping.releaseName(clientId, PICKLIST_KIND, name, picklistId);
      }
    }
    throw ApiError.conflict(`Picklist ${picklistId} is being changed by others; retry`);
  }
}
