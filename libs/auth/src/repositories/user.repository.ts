import { Injectable } from '@nestjs/common';
import { TenantScopedModel, InjectTenantScoped } from '@app/shared';
import { userKey } from '../keys';
import type { TenantUser } from '../domain/tenant';
import { UserAccount } from '../schemas/user.schema';

/** The `users` collection, keyed by `<clientId>|<userId>`. */
@Injectable()
export class UserRepository {
  constructor(
    @InjectTenantScoped(UserAccount) private readonly model: TenantScopedModel<UserAccount>,
  ) {}

  async find(clientId: string, userId: string): Promise<TenantUser | null> {
    const doc = await this.model.findById(userKey(clientId, userId)).lean<UserAccount>().exec();
    return doc
      ? { clientId: doc.clientId, userId: doc.userId, group: doc.group, isActive: doc.isActive }
      : null;
  }

  /** Throws the engine's duplicate-key error (11000) when the user exists. */
  async insert(user: TenantUser): Promise<void> {
    await this.model.create({ _id: userKey(user.clientId, user.userId), ...user });
  }

  /** False when the user does not exist. */
  async update(
    clientId: string,
    userId: string,
    changes: Partial<Pick<TenantUser, 'group' | 'isActive'>>,
  ): Promise<boolean> {
    const result = await this.model
      .updateOne({ _id: userKey(clientId, userId) }, { $set: changes })
      .exec();
    return result.matchedCount === 1;
  }
}
