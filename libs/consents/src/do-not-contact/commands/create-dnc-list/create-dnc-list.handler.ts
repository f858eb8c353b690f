import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { DncListDto } from '../../dto/do-not-contact.dto';
import { toDncListDto } from '../../dnc.mapper';
import { DncRepository } from '../../dnc.repository';
import { CreateDncListCommand } from './create-dnc-list.command';

/** Lists are not unique by name: a client may keep several lists of one kind (per source). */
@CommandHandler(CreateDncListCommand)
export class CreateDncListHandler implements ICommandHandler<CreateDncListCommand> {
  constructor(private readonly repository: DncRepository) {}

  async execute({ clientId, userId, body }: CreateDncListCommand): Promise<DncListDto> {
    const list = await this.repository.createList({
      clientId,
      Name: body.Name.trim(),
      ...(body.Description ? { Description: body.Description } : {}),
      ListType: body.ListType,
      createdAt: new Date(),
      createdBy: userId,
    });
    return toDncListDto(list);
  }
}
