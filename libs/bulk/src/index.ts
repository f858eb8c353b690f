// Public surface of @app/bulk: other libs and the apps import nothing deeper.
export * from './bulk-api.module';
export { BulkSettings } from './bulk-settings';
