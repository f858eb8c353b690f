// Public surface of @app/preference-centre: other code imports nothing deeper.
export { PreferenceCentreApiModule } from './preference-centre-api.module';
export { PREFERENCE_CENTRE_SETTINGS, PreferenceCentreSettings } from './preference-centre-settings';
export { CENTRE_ROUTE, GPC_WELL_KNOWN_PATH, UNSUBSCRIBE_ROUTE } from './domain/centre-paths';
export { CENTRE_LINK_SECURITY_SCHEMES } from './http/link-security';
