import type { ConfirmationTemplate } from './confirmation-template';

/** Problems of a settings body the DTO cannot express: one message each, naming the field. */
export function confirmationSettingsProblems(templates: readonly ConfirmationTemplate[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  templates.forEach((template, i) => {
    const locale = template.Locale.toLowerCase();
    if (seen.has(locale))
      problems.push(
        `Templates[${i}].Locale (value ${JSON.stringify(template.Locale)}) is given twice`,
      );
    seen.add(locale);
    // A message without the link would ask for a confirmation the person cannot give.
    for (const field of ['Text', 'Html'] as const)
      if (!template[field].includes('{{Link}}'))
        problems.push(`Templates[${i}].${field} must contain {{Link}}`);
  });
  return problems;
}
