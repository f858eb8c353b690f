/**
 * The user a preference centre write is recorded under: the history's Edited.ModifiedBy
 * (and CreatedBy of what it adds) and the write's userId in .../Updates.
 */
export const PREFERENCE_CENTRE_USER = 'PreferenceCentre';
