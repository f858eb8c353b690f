import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInputError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnUpdate, patchedEntry } from '../../../common/entry-request';
import { saveWithRetry } from '../../../common/save-with-retry';
import { PicklistDto, type PicklistListDto } from '../../dto/picklist.dto';
import { toStoredPicklist } from '../../mapping/picklist.input';
import { toPicklistDto } from '../../mapping/picklist.mapper';
import { PicklistRepository } from '../../repositories/picklist.repository';
import { picklistProblems } from '../../domain/picklist.rules';
import { UpdatePicklistCommand } from './update-picklist.command';

/**
 * Applies JSON Patch operations to the picklist's wire shape, validates the result like a
 * create, and stores it as the next revision (saveWithRetry).
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
    const { after } = await saveWithRetry({
      ...this.repository.revisionsOf(clientId, picklistId),
      names: this.bookkeeping.renameClaims(clientId, this.repository, picklistId),
      change: async (stored) => {
        const dto = patchedEntry(PicklistDto, toPicklistDto(stored), operations);
        const problems = picklistProblems(dto, '');
        if (problems.length) throw new InvalidInputError(problems.join('; '));
        return toStoredPicklist(
          dto,
          clientId,
          picklistId,
          stored.revision + 1,
          editedOnUpdate(stored.Edited, userId, new Date()),
        );
      },
    });
    await this.bookkeeping.touch(clientId);
    return { Picklists: [toPicklistDto(after)] };
  }
}
