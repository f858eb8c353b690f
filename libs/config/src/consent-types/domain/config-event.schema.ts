import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

export const CONSENT_VERSION_PUBLISHED = 'consent-version-published';
/** A consent type renamed (`consentType` is the name it had before the rename). */
export const CONSENT_TYPE_RENAMED = 'consent-type-renamed';

/**
 * Outbox of configuration events for the worker (a later issue reacts to them): written
 * by the api right after the change is saved, read and marked by the worker. `_id` makes
 * each event idempotent (`<client>|consent-version|<typeId>|<version>`,
 * `<client>|consent-type-renamed|<typeId>|<revision>`).
 */
@Schema({ collection: 'config_events', versionKey: false })
export class ConfigEvent {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ type: String, required: true }) clientId: string;
  @Prop({ type: String, required: true }) type: string;
  /** TypeName of the consent type when the version was published; for a rename, the former name. */
  @Prop({ type: String, required: true }) consentType: string;
  /** TypeId of the consent type (the name may change later). */
  @Prop({ type: Number, required: true }) typeId: number;
  /** The version published (consent-version-published only). */
  @Prop({ type: String }) consentVersion?: string;
  @Prop({ type: Date, required: true }) at: Date;
  @Prop({ type: Date, default: null }) processedAt: Date | null;
  /**
   * How far the worker got with the event (the last profile id it handled), so a worker
   * stopped halfway resumes after it; absent: not started.
   */
  @Prop({ type: Number }) cursor?: number;
}
export const ConfigEventSchema = SchemaFactory.createForClass(ConfigEvent);
// Serves: ConfigEventOutbox.pendingAcrossTenants (unprocessed events of every client, oldest first).
ConfigEventSchema.index({ processedAt: 1, at: 1 });
