export * from './profiles-api.module';
export * from './profiles-worker.module';
export * from './worker/profile-jobs';
