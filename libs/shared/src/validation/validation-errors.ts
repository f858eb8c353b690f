import type { ValidationError } from 'class-validator';

/**
 * Flattens class-validator errors into one message per problem, each naming the field
 * by its path in the request body (`Emails[0].EmailAddress`) and the value it had.
 */
export function describeValidationErrors(errors: ValidationError[], parent = ''): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const path = joinPath(parent, error.property);
    for (const [rule, text] of Object.entries(error.constraints ?? {})) {
      if (rule === 'whitelistValidation') {
        messages.push(`Unknown field ${path}`);
      } else {
        messages.push(`Invalid ${path} (value ${show(error.value)}): ${text}`);
      }
    }
    if (error.children?.length) {
      messages.push(...describeValidationErrors(error.children, path));
    }
  }
  return messages;
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

function show(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
