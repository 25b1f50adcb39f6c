import { useEffect, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { TextInput, required, useRecordContext } from 'react-admin';
import { staffDetailFields } from '../../../core/resources/settings/resources';

/** "Shoe size (UK)" → "shoe_size_uk": lower-case letters, digits and _, starting with a letter, at most 40 long. */
export const keyFromLabel = (label: string) =>
  label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 40)
    .replace(/_+$/, '');

const keyField = staffDetailFields.fields.find((f) => f.source === 'key')!;

/**
 * The custom field's key: on a new field it follows the label (in snake_case) until the user types a key of
 * their own. A saved key never changes with the label (it names stored values and export columns).
 */
export function KeyFromLabelInput() {
  const record = useRecordContext();
  const isNew = record?.id == null;
  const { setValue } = useFormContext();
  const label = useWatch({ name: 'label' });
  const ownKey = useRef(false);
  useEffect(() => {
    if (!isNew || ownKey.current || typeof label !== 'string') return;
    setValue('key', keyFromLabel(label), { shouldDirty: true });
  }, [isNew, label, setValue]);
  return (
    <TextInput
      source="key"
      label={keyField.label}
      helperText={keyField.helperText}
      validate={required()}
      readOnly={!isNew && keyField.createOnly}
      onChange={() => (ownKey.current = true)}
    />
  );
}
