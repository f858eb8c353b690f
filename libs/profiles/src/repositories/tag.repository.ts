import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import { TagEntry } from '../domain/tag.schema';

/** The `tags` collection: a client's tag names and their ProfileTagLink numbers. */
@Injectable()
export class TagRepository {
  constructor(@InjectModel(TagEntry.name) private readonly tags: Model<TagEntry>) {}

  list(clientId: string): Promise<TagEntry[]> {
    return this.tags
      .find({ clientId, type: 'tag' })
      .sort({ ProfileTagLink: 1 })
      .lean<TagEntry[]>()
      .exec();
  }

  findByKey(clientId: string, key: string): Promise<TagEntry | null> {
    return this.tags
      .findOne({ _id: `${clientId}|name:${key}`, clientId })
      .lean<TagEntry>()
      .exec();
  }

  /** Registers the tag if the client does not have it yet (concurrent callers agree). */
  async ensure(clientId: string, name: string, key: string): Promise<void> {
    if (await this.findByKey(clientId, key)) return;
    const link = await this.claimLink(clientId);
    try {
      await this.tags.create({
        _id: `${clientId}|name:${key}`,
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
    await this.tags.deleteOne({ _id: `${clientId}|name:${key}`, clientId });
  }

  private async claimLink(clientId: string): Promise<number> {
    const last = await this.tags
      .find({ clientId, type: 'link' })
      .sort({ ProfileTagLink: -1 })
      .limit(1)
      .lean<TagEntry[]>()
      .exec();
    for (let link = (last[0]?.ProfileTagLink ?? 0) + 1; ; link++) {
      try {
        await this.tags.create({
          _id: `${clientId}|link:${link}`,
          clientId,
          type: 'link',
          ProfileTagLink: link,
        });
        return link;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
  }
}
