// The contract run (`npm run contract`, and the last step of `npm test`): the api against its
// OpenAPI document with schemathesis (test/contract); see docs/operations.md, "Contract
// testing". The e2e project's setup starts the engine.
const base = require('./jest.config');
const e2e = base.projects.find((project) => project.displayName === 'e2e');

module.exports = {
  testTimeout: 60000,
  forceExit: true,
  projects: [
    { ...e2e, displayName: 'contract', testMatch: ['<rootDir>/test/contract/*.contract-spec.ts'] },
  ],
};
