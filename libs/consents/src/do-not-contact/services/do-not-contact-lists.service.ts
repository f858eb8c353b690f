import { Injectable } from '@nestjs/common';
import { DncRepository } from '../dnc.repository';
import type { DncEntry, DncListType } from '../domain/dnc-list.schema';

/**
 * What other modules may ask of the do-not-contact lists (the port the profiles module
 * uses when a write adds contacts, and to propagate list changes to profiles). The
 * collections stay this module's own: nobody outside injects its repository. Lifted into
 * a service of its own, this class is what becomes an HTTP or queue client.
 */
@Injectable()
export class DoNotContactLists {
  constructor(private readonly entries: DncRepository) {}

  /** The listed entries of any of the client's lists of `listType` holding one of `keys`. */
  listedWithKeys(clientId: string, listType: DncListType, keys: string[]): Promise<DncEntry[]> {
    return this.entries.listedWithKeys(clientId, listType, keys);
  }

  /** List changes not yet applied to the profiles (every client), oldest first. */
  pendingPropagationAcrossTenants(limit: number): Promise<DncEntry[]> {
    return this.entries.pendingPropagationAcrossTenants(limit);
  }

  /** Progress of an entry's propagation, kept unless the entry changed meanwhile. */
  saveCursor(entry: DncEntry, cursor: number): Promise<void> {
    return this.entries.saveCursor(entry, cursor);
  }

  /** The entry's change reached every profile, unless it changed meanwhile. */
  markPropagated(entry: DncEntry, at: Date): Promise<void> {
    return this.entries.markPropagated(entry, at);
  }
}
