// Public surface of @app/bulk: other libs and the apps import nothing deeper.
export * from './bulk-api.module';
export * from './bulk-worker.module';
export { BULK_SETTINGS, BulkSettings } from './bulk-settings';
export { BULK_EXPORT_EXPIRY, BULK_IMPORT_CLEANUP, BULK_JOBS } from './worker/bulk.job-definitions';
