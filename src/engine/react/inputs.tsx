import { Box, Typography } from '@mui/material';
import { useFormState } from 'react-hook-form';
import { getPath } from '../../../core/engine/validate';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  CheckboxGroupInput,
  ImageInput,
  FileInput,
  NumberInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  ValidationError,
  required,
  useRecordContext,
  useTranslate,
  type InputProps,
} from 'react-admin';
import type { FieldDeclaration } from '../../../core/engine/types';
import { PickerInput } from './DatePickerInput';
import { UploadPreview } from './files';
import { FILE_ACCEPT } from '../../../core/engine/files';
import { declarations } from '../../../core/resources/declarations';
import { penceToPounds, poundsToPence } from '../../../core/engine/money';

// The input shows a value as { src, title } (and a newly chosen file as { src, title, rawFile }); the record
// keeps only the stored file's id (or a shipped path), which the preview shows through the file store.
/** A stored file's id as react-admin's upload inputs hold it: { src, title }, the title its stored name when known. */
const formatUpload = (v: unknown, name?: unknown) =>
  typeof v === 'string' && v ? { src: v, title: typeof name === 'string' ? name : '' } : v;

// What the browser's file picker offers. The dropzone itself refuses nothing: a refused file would silently
// clear the current one, so type and size are reported next to the field by the form's validation instead.
const pickerAccept = (kind: 'image' | 'document') => ({ accept: Object.entries(FILE_ACCEPT[kind]).flat(2).join(',') });

/** Money is kept in minor units (pence) and typed in major units (pounds): 12.50 ⇄ 1250, never a float on the wire. */
export const moneyToInput = (v: unknown) => (typeof v === 'number' ? penceToPounds(v) : v == null ? '' : v);
export const moneyFromInput = (v: unknown) => {
  if (v === '' || v == null) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? poundsToPence(n) : v;
};

/**
 * Dropdowns of references are alphabetical: by the first field of the target's name (its recordRepresentation)
 * when the API sorts by it, by the target's default order otherwise.
 */
export function referenceSort(reference: string): { field: string; order: 'ASC' | 'DESC' } | undefined {
  const target = declarations.find((d) => d.name === reference);
  if (!target) return undefined;
  const first = /%\{(\w+)\}/.exec(target.recordRepresentation)?.[1];
  return target.fields.some((f) => f.source === first && f.sortable)
    ? { field: first!, order: 'ASC' }
    : target.defaultSort;
}

const refLabel = (reference: string) => ({ reference, sort: referenceSort(reference) });

/** The react-admin input for one declared field. */
export function InputFor({
  of: field,
  referenceFilter,
  ...props
}: {
  of: FieldDeclaration;
  /** For a reference: narrows its choices (a timesheet's line to its client's sites). */
  referenceFilter?: Record<string, unknown>;
} & Partial<InputProps>) {
  const translate = useTranslate();
  const record = useRecordContext();
  // The form validates whole records (validateRecord); `required()` here adds the asterisk to the label.
  const validate = field.required && field.type !== 'boolean' && field.type !== 'address' ? required() : undefined;
  const common = {
    source: field.source,
    label: field.label,
    helperText: field.helperText ?? false,
    validate,
    ...props,
  } as any;
  switch (field.type) {
    case 'text':
    case 'email':
      return <TextInput {...common} type={field.type === 'email' ? 'email' : 'text'} />;
    case 'phone':
      return <TextInput {...common} type="tel" />;
    case 'longtext':
      return <TextInput {...common} multiline minRows={3} fullWidth />;
    case 'number':
      return <NumberInput {...common} step={field.integer ? 1 : 'any'} min={field.min} max={field.max} />;
    case 'money':
      return (
        <NumberInput
          {...common}
          step={0.01}
          min={field.min}
          max={field.max}
          format={moneyToInput}
          parse={moneyFromInput}
          helperText={field.helperText ?? 'engine.money_hint'}
        />
      );
    case 'boolean':
      return <BooleanInput {...common} />;
    case 'choice':
      return <SelectInput {...common} choices={field.choices ?? []} emptyText=" " />;
    case 'choices':
      // Several of a few named values (a client's signing methods): a box each, in a group named by the label.
      return <CheckboxGroupInput {...common} choices={field.choices ?? []} />;
    case 'reference':
      return (
        <ReferenceInput
          {...refLabel(field.reference!)}
          source={field.source}
          perPage={20}
          filter={referenceFilter ?? field.referenceWhere?.values}
        >
          <AutocompleteInput
            label={field.label}
            helperText={field.helperText ?? false}
            validate={validate}
            filterToQuery={(q: string) => (q ? { q } : {})}
            {...props}
          />
        </ReferenceInput>
      );
    case 'references':
      return (
        <ReferenceArrayInput {...refLabel(field.reference!)} source={field.source} perPage={20}>
          <AutocompleteArrayInput
            label={field.label}
            helperText={field.helperText ?? false}
            validate={validate}
            filterToQuery={(q: string) => (q ? { q } : {})}
            {...props}
          />
        </ReferenceArrayInput>
      );
    case 'date':
      return <PickerInput {...common} limits={field.date} />;
    case 'datetime':
      return <PickerInput {...common} withTime limits={field.date} />;
    case 'image':
      return (
        // The file input itself is hidden behind the drop zone; it still needs the field's name for screen readers.
        <ImageInput
          {...common}
          inputProps={{ ...pickerAccept('image'), 'aria-label': translate(String(common.label)) }}
          format={formatUpload}
        >
          <UploadPreview kind="image" />
        </ImageInput>
      );
    case 'file':
      return (
        <FileInput
          {...common}
          inputProps={{ ...pickerAccept('document'), 'aria-label': translate(String(common.label)) }}
          format={(v: unknown) => formatUpload(v, field.file?.nameField && record?.[field.file.nameField])}
        >
          <UploadPreview kind="document" />
        </FileInput>
      );
    case 'address':
      return <AddressInput field={field} />;
  }
}

/**
 * The parts of an address, each with its own errors. The form's validator puts them on the parts
 * (address.line1, address.postcode); an error on the address as a whole (a server's 422) is shown under it.
 */
function AddressInput({ field }: { field: FieldDeclaration }) {
  const translate = useTranslate();
  const { errors } = useFormState({ name: field.source });
  const whole: any = getPath(errors as Record<string, any>, field.source);
  // react-hook-form keeps a whole-value error as { message }; the parts' errors as { line1: { message } }.
  const wholeMessage = whole && whole.message && typeof whole.type === 'string' ? whole.message : undefined;
  const part = (key: 'line1' | 'line2' | 'city' | 'postcode' | 'country', needed = false) => (
    <TextInput
      source={`${field.source}.${key}`}
      label={translate(`engine.address.${key}`)}
      helperText={false}
      validate={needed && field.required ? required() : undefined}
    />
  );
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, width: '100%' }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        {translate(`resources.${field.source}`, { _: field.label })}
      </Typography>
      {wholeMessage && (
        <Typography role="alert" color="error" variant="caption" component="p" sx={{ mb: 1 }}>
          <ValidationError error={wholeMessage} />
        </Typography>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        {part('line1', true)}
        {part('line2')}
        {part('city')}
        {part('postcode', true)}
        {part('country')}
      </Box>
    </Box>
  );
}
