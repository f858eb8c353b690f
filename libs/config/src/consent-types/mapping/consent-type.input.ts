import { textKey } from '@app/shared';
import {
  editedOnCreate,
  editedOnUpdate,
  orUndefined,
  type StoredEdited,
} from '../../common/entry-request';
import { versionKeyOf } from '../domain/consent-type.rules';
import { type StoredConsentType, type StoredConsentVersion } from '../domain/consent-type.schema';
import type { ConsentTypeDto, ConsentVersionDto } from '../dto/consent-type.dto';
import { consentTypeKey } from '../../keys';

/**
 * A validated consent type body → the stored document. Versions already stored (matched
 * by ConsentVersion) keep their PublishedDate and creation stamp, and get a new modification
 * stamp only when their content changed; the others are new: published now (`publishedAt`,
 * now or just after the latest earlier publication). `published` lists their names.
 */
export function toStoredConsentType(
  dto: ConsentTypeDto,
  context: {
    clientId: string;
    typeId: number;
    revision: number;
    edited: StoredEdited;
    userId: string;
    now: Date;
    previous?: StoredConsentType;
  },
): { stored: StoredConsentType; published: string[]; publishedAt: Date } {
  const { versions, published, publishedAt } = mergeVersions(
    context.previous?.Versions ?? [],
    dto.Versions ?? [],
    context.userId,
    context.now,
  );
  const name = dto.TypeName.trim();
  const stored: StoredConsentType = {
    _id: consentTypeKey(context.clientId, context.typeId, context.revision),
    clientId: context.clientId,
    typeId: context.typeId,
    revision: context.revision,
    current: true,
    TypeName: name,
    nameKey: textKey(name),
    ...formerNames(context.previous, name),
    LocalizedFields: (dto.LocalizedFields ?? []).map((field) => ({
      Locale: field.Locale,
      Name: field.Name,
      Description: orUndefined(field.Description),
    })),
    IsActive: dto.IsActive ?? true,
    IsDefault: dto.IsDefault ?? false,
    ChannelId: orUndefined(dto.ChannelId),
    ...(dto.RequiresConfirmation ? { RequiresConfirmation: true } : {}),
    Attributes: (dto.Attributes ?? []).map((attribute) => ({
      Key: attribute.Key.trim(),
      Value: orUndefined(attribute.Value),
    })),
    Versions: versions,
    Edited: context.edited,
  };
  return { stored, published, publishedAt };
}

export function mergeVersions(
  previous: StoredConsentVersion[],
  next: ConsentVersionDto[],
  userId: string,
  now: Date,
): { versions: StoredConsentVersion[]; published: string[]; publishedAt: Date } {
  const stored = new Map(
    previous.map((version) => [versionKeyOf(version.ConsentVersion), version]),
  );
  const published: string[] = [];
  // Strictly after every version published before, so "the last published" never ties
  // with an earlier request (clocks of several api processes may differ slightly).
  const latest = Math.max(0, ...previous.map((version) => Date.parse(version.PublishedDate) || 0));
  const publishedAt = new Date(Math.max(now.getTime(), latest + 1));
  const versions = next.map((dto) => {
    const content = versionContent(dto);
    const before = stored.get(versionKeyOf(content.ConsentVersion));
    if (!before) {
      published.push(content.ConsentVersion);
      return {
        ...content,
        PublishedDate: publishedAt.toISOString(),
        Edited: editedOnCreate(userId, now),
      };
    }
    const changed = JSON.stringify(versionContent(before)) !== JSON.stringify(content);
    return {
      ...content,
      PublishedDate: before.PublishedDate,
      Edited: changed ? editedOnUpdate(before.Edited, userId, now) : before.Edited,
    };
  });
  return { versions, published, publishedAt };
}

/** The fields of a version a client sets, in a fixed order (for comparison and storage). */
function versionContent(
  version: ConsentVersionDto | StoredConsentVersion,
): Omit<StoredConsentVersion, 'PublishedDate' | 'Edited'> {
  return {
    ConsentVersion: version.ConsentVersion.trim(),
    LocalizedFields: version.LocalizedFields.map((field) => ({
      ConsentLanguage: orUndefined(field.ConsentLanguage),
      Locale: field.Locale,
      Name: field.Name,
      Description: orUndefined(field.Description),
    })),
    ExpirationInDays: orUndefined(version.ExpirationInDays),
    IsActive: version.IsActive ?? true,
    IsAssociatedWithProfiles: version.IsAssociatedWithProfiles ?? false,
  };
}

/** The former names after a save named `name`: the previous ones, plus the previous name when it changed. */
function formerNames(
  previous: StoredConsentType | undefined,
  name: string,
): Pick<StoredConsentType, 'FormerNames'> {
  if (!previous) return {};
  const names = [...(previous.FormerNames ?? []), previous.TypeName];
  const seen = new Set([textKey(name)]);
  const former = names.filter((former) => {
    const key = textKey(former);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return former.length ? { FormerNames: former } : {};
}
