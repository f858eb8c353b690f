// Public surface of @app/decisions: other code imports nothing deeper.
export { DecisionsApiModule } from './decisions-api.module';
