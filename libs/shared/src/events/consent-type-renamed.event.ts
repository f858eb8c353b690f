/**
 * Published (in process, on the CQRS EventBus) by the configuration's consent-types area
 * when a consent type is renamed: other modules that keep the type's name (program filters,
 * user-group data scopes) replace `formerNames` by `typeName`. Lives here, not in either
 * module, so that auth can react without depending on configuration.
 */
export class ConsentTypeRenamedEvent {
  constructor(
    readonly clientId: string,
    readonly formerNames: string[],
    readonly typeName: string,
  ) {}
}
