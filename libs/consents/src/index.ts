export * from './consent-status';
