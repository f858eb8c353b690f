import { Injectable } from '@nestjs/common';
import { isDuplicateKeyError, TenantScopedModel, InjectTenantScoped } from '@app/shared';
import { TypeDefault } from '../domain/type-entry.schema';
import { TYPE_KINDS, type TypeKind } from '../domain/type-kind';
import { typeDefaultKey } from '../../keys';

const NO_DEFAULT = 0;

/**
 * The `config_types_defaults` collection: which entry is the default of a client's kind
 * (the latest record, see TypeDefault). Changes insert the next record, so concurrent
 * changes apply one after the other and at most one entry is ever the default.
 */
@Injectable()
export class TypeDefaultRepository {
  constructor(
    @InjectTenantScoped(TypeDefault) private readonly defaults: TenantScopedModel<TypeDefault>,
  ) {}

  /** The type id of the default entry, or null when the kind has none. */
  async get(clientId: string, kind: TypeKind): Promise<number | null> {
    const latest = await this.latest(clientId, kind);
    return latest && latest.typeId !== NO_DEFAULT ? latest.typeId : null;
  }

  /** The default of every kind (null where none): one query, as TypeEntryRepository.listEveryKind. */
  async getEveryKind(clientId: string): Promise<Record<TypeKind, number | null>> {
    const records = await this.defaults.find({ clientId }).lean<TypeDefault[]>().exec();
    const latest = new Map<string, TypeDefault>();
    for (const record of records) {
      const known = latest.get(record.kind);
      if (!known || record.seq > known.seq) latest.set(record.kind, record);
    }
    return Object.fromEntries(
      TYPE_KINDS.map((kind) => {
        const typeId = latest.get(kind)?.typeId ?? NO_DEFAULT;
        return [kind, typeId === NO_DEFAULT ? null : typeId];
      }),
    ) as Record<TypeKind, number | null>;
  }

  /** Makes `typeId` the default, which takes the flag from whichever entry had it. */
  set(clientId: string, kind: TypeKind, typeId: number): Promise<void> {
    return this.change(clientId, kind, () => typeId);
  }

  /** Clears the default if it is still `typeId` (another entry may have taken it since). */
  clearIf(clientId: string, kind: TypeKind, typeId: number): Promise<void> {
    return this.change(clientId, kind, (current) => (current === typeId ? NO_DEFAULT : current));
  }

  private async change(
    clientId: string,
    kind: TypeKind,
    next: (current: number) => number,
  ): Promise<void> {
    for (;;) {
      const latest = await this.latest(clientId, kind);
      const current = latest?.typeId ?? NO_DEFAULT;
      const typeId = next(current);
      if (typeId === current) return;
      const seq = (latest?.seq ?? 0) + 1;
      try {
        await this.defaults.create({
          _id: typeDefaultKey(clientId, kind, seq),
          clientId,
          kind,
          seq,
          typeId,
        });
      } catch (error) {
        // Another change took this seq first: decide again on top of it.
        if (isDuplicateKeyError(error)) continue;
        throw error;
      }
      return;
    }
  }

  private async latest(clientId: string, kind: TypeKind): Promise<TypeDefault | null> {
    const [latest] = await this.defaults
      .find({ clientId, kind })
      .sort({ seq: -1 })
      .limit(1)
      .lean<TypeDefault[]>()
      .exec();
    return latest ?? null;
  }
}
