import type { DynamicModule, Type } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import type { Schema } from 'mongoose';

/**
 * `MongooseModule.forFeature` of document classes, each with its schema and registered under
 * its class name (the name `@InjectModel(Class.name)` asks for).
 */
export function mongooseFeatures(...features: [Type<unknown>, Schema][]): DynamicModule {
  return MongooseModule.forFeature(features.map(([type, schema]) => ({ name: type.name, schema })));
}
