// The contract run alone (`npm run contract`, the soak script): the `contract` project of
// jest.config.js (schemathesis against the OpenAPI document, test/contract); `npm test` runs it
// beside the other projects. See docs/operations.md, "Contract testing".
const base = require('./jest.config');

module.exports = {
  testTimeout: base.testTimeout,
  forceExit: true,
  maxWorkers: base.maxWorkers,
  projects: [base.projects.find((project) => project.displayName === 'contract')],
};
