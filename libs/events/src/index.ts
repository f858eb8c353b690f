// Public surface of @app/events: other libs and the apps import nothing deeper.
export * from './events-api.module';
export * from './events-worker.module';
export { EVENTS_SETTINGS, EventsSettings } from './events-settings';
export { EventDeliveryTrigger } from './services/event-delivery-trigger.service';
export { EventErasureCleanup } from './services/event-erasure-cleanup.service';
export { EVENT_JOBS, EVENTS_QUEUE } from './worker/event.job-definitions';
