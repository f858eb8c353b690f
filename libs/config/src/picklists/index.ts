// The public surface of the picklists area (for libs/config/src/index.ts to re-export).
export { PicklistCatalog } from './services/picklist-catalog.service';
