export * from './configuration-api.module';
export * from './types';
