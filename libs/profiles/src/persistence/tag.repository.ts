import { Injectable } from '@nestjs/common';
import { isDuplicateKeyError, TenantScopedModel, InjectTenantScoped } from '@app/shared';
import { TagEntry } from '../domain/tag.schema';
import { tagLinkHintKey, tagLinkKey, tagNameKey } from '../keys';

/** The `tags` collection: a client's tag names and their ProfileTagLink numbers. */
@Injectable()
export class TagRepository {
  constructor(@InjectTenantScoped(TagEntry) private readonly tags: TenantScopedModel<TagEntry>) {}

  list(clientId: string): Promise<TagEntry[]> {
    return this.tags
      .find({ clientId, type: 'tag' })
      .sort({ ProfileTagLink: 1 })
      .lean<TagEntry[]>()
      .exec();
  }

  findByKey(clientId: string, key: string): Promise<TagEntry | null> {
    return this.tags
      .findById(tagNameKey(clientId, key))
      .lean<TagEntry>()
      .exec()
      .then((tag) => (tag?.clientId === clientId ? tag : null));
  }

  /** Registers the tag if the client does not have it yet (concurrent callers agree). */
  async ensure(clientId: string, name: string, key: string): Promise<void> {
    if (await this.findByKey(clientId, key)) return;
    const link = await this.claimLink(clientId);
    try {
      await this.tags.create({
        _id: tagNameKey(clientId, key),
        clientId,
        type: 'tag',
        Name: name,
        Key: key,
        ProfileTagLink: link,
      });
    } catch (error) {
      // Registered meanwhile by another writer: its number stands, ours stays unused.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async remove(clientId: string, key: string): Promise<void> {
    await this.tags.deleteOne({ _id: tagNameKey(clientId, key) });
  }

  /**
   * The next ProfileTagLink number: the insert of `<client>|link:<n>` decides; the hint
   * document (`<client>|link-hint`, by `_id`) only says where to start probing.
   */
  private async claimLink(clientId: string): Promise<number> {
    const hintId = tagLinkHintKey(clientId);
    const hint = await this.tags.findById(hintId).lean<TagEntry>().exec();
    for (let link = (hint?.ProfileTagLink ?? 0) + 1; ; link++) {
      try {
        await this.tags.create({
          _id: tagLinkKey(clientId, link),
          clientId,
          type: 'link',
          ProfileTagLink: link,
        });
        // A lost or late hint update only makes a later claim probe further.
        await this.tags
          .replaceOne(
            { _id: hintId },
            { _id: hintId, clientId, type: 'link-hint', ProfileTagLink: link },
            { upsert: true },
          )
          .catch(() => undefined);
        return link;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
  }
}
