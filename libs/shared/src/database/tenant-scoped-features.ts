import { type DynamicModule, Inject, type Type } from '@nestjs/common';
import { getModelToken } from '@nestjs/mongoose';
import type { Model, Schema } from 'mongoose';
import { mongooseFeatures } from './mongoose-features';
import { TenantScopedModel } from './tenant-scope';

/** The provider token of a document class's TenantScopedModel. */
function tenantScopedModelToken(type: Type<unknown>): string {
  return `${type.name}TenantScopedModel`;
}

/**
 * `mongooseFeatures`, each document class's model also provided as the TenantScopedModel its
 * repository works through (`@InjectTenantScoped(Class)`), so no repository wraps its models
 * itself.
 */
export function tenantScopedFeatures(...features: [Type<unknown>, Schema][]): DynamicModule {
  const models = mongooseFeatures(...features);
  const scoped = features.map(([type]) => ({
    provide: tenantScopedModelToken(type),
    useFactory: (model: Model<unknown>) => new TenantScopedModel(model),
    inject: [getModelToken(type.name)],
  }));
  return {
    ...models,
    providers: [...(models.providers ?? []), ...scoped],
    exports: [...(models.exports ?? []), ...scoped.map(({ provide }) => provide)],
  };
}

/** Injects the TenantScopedModel of a document class registered with `tenantScopedFeatures`. */
export function InjectTenantScoped(type: Type<unknown>): ParameterDecorator {
  return Inject(tenantScopedModelToken(type));
}
