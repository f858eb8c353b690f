// Public surface of @app/profiles: its ports (ports/index.ts). Other libs and apps import
// nothing deeper; other libs' unit tests may use the fixtures of @app/profiles/testing.
export * from './ports';
