import type React from 'react';
import {
  BooleanField,
  ChipField,
  EmailField,
  FunctionField,
  NumberField,
  ReferenceArrayField,
  ReferenceField,
  SelectField,
  SingleFieldList,
  TextField,
  type FieldProps,
} from 'react-admin';
import { format, parseISO } from 'date-fns';
import type { FieldDeclaration } from '../../../core/engine/types';
import { isFileId } from '../../../core/engine/files';
import { getPath } from '../../../core/engine/validate';
import { FileLink, StoredImage } from './files';
import { formatAddress } from '../../../core/engine/exportFormat';
import { formatPounds } from '../../../core/engine/money';

export { formatAddress };

/** What an empty value reads as, on every screen. */
export const EMPTY = '—';
const orEmpty = (v: unknown, shown: () => React.ReactNode) =>
  v === undefined || v === null || v === '' ? EMPTY : shown();

/**
 * The react-admin field that shows one declared field; empty values read "—". `plain`: a reference is text, not a
 * link (a list row opens its record itself; settings are not a place to jump to from a row).
 */
export function FieldFor({
  of: field,
  plain = false,
  ...props
}: { of: FieldDeclaration; plain?: boolean; component?: string } & Partial<FieldProps>) {
  const common = { source: field.source, label: field.label, emptyText: EMPTY, ...props } as any;
  // Custom fields live under custom_fields.<key>: read by path, as react-admin's own fields do.
  // The screens' values stay untyped (src/ is outside the no-explicit-any folders: docs/decisions.md, Issue 31.7).
  const val = (r: any): any => getPath(r ?? {}, field.source);
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
      return <FunctionField {...common} render={(r: any) => (val(r) == null ? EMPTY : formatPounds(val(r)))} />;
    case 'boolean':
      return <BooleanField {...common} looseValue />;
    case 'choice':
      return <SelectField {...common} choices={field.choices ?? []} />;
    case 'choices':
      return (
        <FunctionField
          {...common}
          render={(r: any) => {
            const v = val(r);
            if (!Array.isArray(v) || v.length === 0) return EMPTY;
            return v.map((id) => field.choices?.find((c) => c.id === id)?.name ?? String(id)).join(', ');
          }}
        />
      );
    case 'reference':
      return <ReferenceField {...common} reference={field.reference!} link={plain ? false : 'show'} />;
    case 'references':
      return (
        <ReferenceArrayField {...common} reference={field.reference!}>
          <SingleFieldList linkType={false} empty={<span>{EMPTY}</span>}>
            <ChipField source="name" size="small" />
          </SingleFieldList>
        </ReferenceArrayField>
      );
    case 'date':
      // A date has no time zone: parse it as a local date so it never shows as the day before.
      return (
        <FunctionField {...common} render={(r: any) => orEmpty(val(r), () => format(parseISO(val(r)), 'd MMM yyyy'))} />
      );
    case 'datetime':
      return (
        <FunctionField
          {...common}
          render={(r: any) => orEmpty(val(r), () => format(parseISO(val(r)), 'd MMM yyyy, HH:mm'))}
        />
      );
    // Stored files are fetched with the bearer token (an <img> or a link could not send it).
    case 'image':
      return (
        <FunctionField
          {...common}
          render={(r: any) =>
            orEmpty(val(r), () => (
              <StoredImage
                value={val(r)}
                alt={field.label}
                sx={{ maxWidth: 120, maxHeight: 120, objectFit: 'contain' }}
              />
            ))
          }
        />
      );
    case 'file':
      return (
        <FunctionField
          {...common}
          render={(r: any) =>
            isFileId(val(r)) ? (
              <FileLink id={val(r)} title={(field.file?.nameField && r[field.file.nameField]) || field.label} />
            ) : (
              EMPTY
            )
          }
        />
      );
    case 'address':
      return <FunctionField {...common} render={(r: any) => formatAddress(val(r)) || EMPTY} />;
  }
}
