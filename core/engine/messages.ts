import type { ResourceDeclaration } from './types';

/** The engine's own English texts (validation and screens), under the `engine` namespace. */
export const engineMessages = {
  // react-admin's fallbacks, for a save of something the catalogue has no name for: never "Element created".
  ra: {
    notification: {
      created: 'Saved',
      updated: 'Saved |||| %{smart_count} records saved',
      deleted: 'Deleted |||| %{smart_count} records deleted',
    },
  },
  engine: {
    validation: {
      text: 'Must be text',
      email: 'Invalid email address',
      phone: 'Enter a phone number of 7 to 20 digits (spaces, +, ( ) and - allowed)',
      integer: 'Must be a whole number',
      boolean: 'Must be yes or no',
      choice: 'Choose one of the listed options',
      reference: 'Choose an existing record',
      referenceMissing: 'This record does not exist any more; choose another',
      date: 'Enter a date as yyyy-MM-dd',
      datetime: 'Enter a date and time',
      dateMin: 'Must be on or after %{min}',
      dateMax: 'Must be on or before %{max}',
      dateDisabled: 'This day cannot be chosen',
      file: 'Upload a file',
      image: 'Upload a PNG, JPEG or WebP image',
      fileType: 'Upload a PDF, PNG, JPEG or WebP file',
      fileSize: 'The file must be at most %{max}',
      address: 'Enter the address in the fields given',
      addressRequired: 'Enter at least the first line and the postcode',
      postcode: 'Enter a valid postcode',
      unique: 'Already used by another record',
      code: 'Use letters, digits, - and _ only',
      vat: 'Enter a VAT number such as GB123456789',
      sortCode: 'Enter a sort code such as 12-34-56',
      accountNumber: 'Enter the 8-digit account number',
      niNumber: 'Enter a National Insurance number such as AB 12 34 56 C',
      key: 'Start with a letter; use lower-case letters, digits and _ only',
      activateUnapproved: 'Approve the staff member before activating them',
      choiceOptions: 'List at least one choice, separated by commas',
      tooMany: 'Choose at most %{max}',
      customFields: 'Must be a set of named values',
      customFieldsTooMany: 'At most %{max} additional details can be sent at once',
      customFieldsTooLarge: 'The additional details must be at most %{max} in all',
      singleValue: 'Must be a single value, not a list or a group of values',
      unknownField: 'Unknown field',
      removedField: 'This field has been removed: its value can be kept or cleared, not changed',
      hiddenCharacters: 'Remove control or invisible characters (such as pasted formatting)',
      oneLine: 'Keep this on one line: remove line breaks and tabs',
      visibleName: 'Enter a name with at least one letter or digit',
      emailCompatibility: 'Type the address in ordinary characters: it holds full-width or other look-alike characters',
      emailMixedScripts:
        'Type the address in one alphabet: it mixes letters of different alphabets (such as Latin and Cyrillic)',
    },
    policy: {
      actionOnly: 'Changed only through its actions (the buttons on the record)',
      createOnly: 'Cannot be changed once the record exists',
      role: 'Your role may not change this field',
    },
    list: {
      empty: 'No %{name} yet.',
      emptyFiltered: 'No %{name} match these filters.',
      create: 'Add the first one',
      search: 'Search',
      totals: 'Totals of the %{smart_count} shown row |||| Totals of the %{smart_count} shown rows',
      row_actions: 'Actions',
    },
    address: {
      line1: 'Address line 1',
      line2: 'Address line 2',
      city: 'Town / city',
      postcode: 'Postcode',
      country: 'Country',
    },
    custom_fields: 'Additional details',
    money_hint: 'Amount in pounds, e.g. 12.50',
    file: {
      open: 'Open the file',
      loading: 'Loading the file…',
      unavailable: 'This file cannot be shown',
    },
  },
};

/**
 * resources.<name>.name, .fields.<source> and the rest, from each declaration's labels. `notifications` are
 * what react-admin's own saves and deletes say (a bulk delete, say), in place of its "Element created".
 */
export function declarationMessages(declarations: ResourceDeclaration[]) {
  const resources: Record<string, unknown> = {};
  for (const d of declarations) {
    const many = d.label.many.toLowerCase();
    resources[d.name] = {
      name: `${d.label.one} |||| ${d.label.many}`,
      notifications: {
        created: `${d.label.one} created`,
        updated: `${d.label.one} updated |||| %{smart_count} ${many} updated`,
        deleted: `${d.label.one} deleted |||| %{smart_count} ${many} deleted`,
      },
      fields: Object.fromEntries([['id', 'ID'], ...d.fields.map((f) => [f.source, f.label])]),
      tabs: Object.fromEntries((d.tabs ?? []).map((t) => [t.id, t.label])),
      choices: Object.fromEntries(
        d.fields
          .filter((f) => f.choices)
          .map((f) => [f.source, Object.fromEntries(f.choices!.map((c) => [c.id, c.name]))]),
      ),
      actions: Object.fromEntries(
        (d.actions ?? []).map((a) => [
          a.name,
          {
            label: a.label,
            success: a.success,
            ...(a.confirm ? { confirm: a.confirm } : {}),
            fields: Object.fromEntries((a.input ?? []).map((f) => [f.source, f.label])),
          },
        ]),
      ),
    };
  }
  return { resources };
}

/** Fills %{name} placeholders the way polyglot does; the server uses it for its 422 messages. */
export function interpolate(text: string, args: Record<string, unknown> = {}) {
  return text.replace(/%\{(\w+)\}/g, (_, k) => (k in args ? String(args[k]) : `%{${k}}`));
}
