import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { Settings } from '../settings/settings';

/**
 * The one MongoDB connection of a process. Code written against it must run unchanged
 * on MongoDB 7 and on the embedded FerretDB: no transactions, no positional updates,
 * uniqueness only through `_id` claims (duplicate = error code 11000).
 */
@Module({
  imports: [
    MongooseModule.forRootAsync({
      inject: [Settings],
      useFactory: (settings: Settings) => ({
        uri: settings.mongodbUri,
        // Indexes are declared in the schemas; build them at start (MongoDB uses them,
        // the embedded engine accepts and mostly ignores them).
        autoIndex: true,
        serverSelectionTimeoutMS: 10000,
        monitorCommands: settings.monitorEngineCommands,
      }),
    }),
  ],
})
export class DatabaseModule {}
