import {
  BooleanField, ChipField, EmailField, FunctionField, NumberField, ReferenceArrayField,
  ReferenceField, SelectField, SingleFieldList, TextField, type FieldProps,
} from 'react-admin';
import { format, parseISO } from 'date-fns';
import type { FieldDeclaration } from '../types';
import { isFileId } from '../files';
import { FileLink, StoredImage } from './files';

export const formatAddress = (a: any) =>
  a && typeof a === 'object' ? [a.line1, a.line2, a.city, a.postcode, a.country].filter(Boolean).join(', ') : '';

/** The react-admin field that shows one declared field. */
export function FieldFor({ of: field, ...props }: { of: FieldDeclaration } & Partial<FieldProps>) {
  const common = { source: field.source, label: field.label, ...props } as any;
  switch (field.type) {
    case 'text':
      return <TextField {...common} />;
    case 'phone':
      return <TextField {...common} sx={{ whiteSpace: 'nowrap' }} />;
    case 'longtext':
      return <TextField {...common} sx={{ whiteSpace: 'pre-wrap' }} />;
    case 'email':
      return <EmailField {...common} />;
    case 'number':
      return <NumberField {...common} />;
    case 'money':
      return <FunctionField {...common} render={(r: any) => (r?.[field.source] == null ? '' : new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(r[field.source] / 100))} />;
    case 'boolean':
      return <BooleanField {...common} looseValue />;
    case 'choice':
      return <SelectField {...common} choices={field.choices ?? []} />;
    case 'reference':
      return <ReferenceField {...common} reference={field.reference!} link="show" emptyText="—" />;
    case 'references':
      return (
        <ReferenceArrayField {...common} reference={field.reference!}>
          <SingleFieldList linkType={false}>
            <ChipField source="name" size="small" />
          </SingleFieldList>
        </ReferenceArrayField>
      );
    case 'date':
      // A date has no time zone: parse it as a local date so it never shows as the day before.
      return <FunctionField {...common} render={(r: any) => (r?.[field.source] ? format(parseISO(r[field.source]), 'd MMM yyyy') : '')} />;
    case 'datetime':
      return <FunctionField {...common} render={(r: any) => (r?.[field.source] ? format(parseISO(r[field.source]), 'd MMM yyyy, HH:mm') : '')} />;
    // Stored files are fetched with the bearer token (an <img> or a link could not send it).
    case 'image':
      return <FunctionField {...common} render={(r: any) => <StoredImage value={r?.[field.source]} alt={field.label} sx={{ maxWidth: 120, maxHeight: 120, objectFit: 'contain' }} />} />;
    case 'file':
      return <FunctionField {...common} render={(r: any) => (isFileId(r?.[field.source]) ? <FileLink id={r[field.source]} title={field.label} /> : null)} />;
    case 'address':
      return <FunctionField {...common} render={(r: any) => formatAddress(r?.[field.source])} />;
  }
}
