export * from './configuration-api.module';
