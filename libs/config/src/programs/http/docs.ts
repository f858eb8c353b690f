/* OpenAPI descriptions of the decisions this area makes where the spec is silent. */

export const IDS_AS_STRINGS =
  'Program ids (`Id`) and filter ids (`ID`) are int32 numbers, filter ids unique per client. ' +
  'Profile preferences refer to them as the decimal strings `ProgramId` and `FilterId` ("3", "7"), ' +
  'with `ChannelId` the filter channel (Phone, Text/SMS (also "Text" or "SMS"), Email, Mail, Solicit).';

export const MATCHING_RULES =
  'Every query parameter is a custom property criterion and all must hold: `?Key=Value` wants the ' +
  'property with that value, `?Key` or `?Key=` the property with any value; a key given twice makes two ' +
  'criteria. Keys and values compare trimmed and case-insensitively. Properties are inherited downwards ' +
  "(a filter has its program's properties, a program listed in a group the group's, a nested group its " +
  "parent's), an entry's own value for a key winning. An entry matches when its own plus inherited " +
  'properties satisfy every criterion; it is returned when it matches or contains, at any depth, an entry ' +
  'that matches. No criterion matches everything; no match answers 200 with an empty list. Inactive ' +
  'entries are included, with IsActive false.';

export const PROGRAM_MATCHING =
  'Programs are evaluated on their own (no group properties). ' + MATCHING_RULES;

export const GROUP_MATCHING =
  'The answer lists the root groups (groups no other group contains) that are returned, each as a tree: ' +
  'ProgramGroups (nested groups) and Programs (with their Filters). ' +
  MATCHING_RULES;

export const PATCH_RULES =
  'The body is a JSON array of PATCH operations (add, remove, replace, test; move and copy are refused) ' +
  'applied to the entry as GET returns it, where an optional field the entry lacks reads as null (so `replace` ' +
  'works on it; null means absent); the result is validated like a create (unknown fields 400, ' +
  'read-only fields such as ids and Edited may not be targeted). A failed test changes nothing.';

export const LOCALE_RULE =
  "Limits the text tags (`Locales` of programs and filters) and the filters' `FrequencyLocales` to one " +
  'locale: the exact locale (case-insensitive), else for a regional locale its language, else for a ' +
  'language any of its regions. When programs are found but none of them or their filters has an entry ' +
  'for the locale, the answer is 404.';
