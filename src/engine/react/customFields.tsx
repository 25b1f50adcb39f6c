import { Box, Typography } from '@mui/material';
import { useGetList, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { customFieldAsDeclaration, type CustomFieldDefinition } from '../../../core/engine/validate';
import { InputFor } from './inputs';

/** The agency's own extra fields for a resource (staff detail fields), loaded once and cached by react-admin. */
export function useCustomFields(decl: ResourceDeclaration): { defs: CustomFieldDefinition[]; isPending: boolean } {
  const { data, isPending } = useGetList<CustomFieldDefinition & { id: number }>(
    decl.customFields ?? 'none',
    {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'position', order: 'ASC' },
      filter: decl.customFieldsAsked ? { [decl.customFieldsAsked]: true } : {},
    },
    { enabled: !!decl.customFields, staleTime: 60_000 },
  );
  return { defs: data ?? [], isPending: !!decl.customFields && isPending };
}

export function CustomFieldInputs({ defs }: { defs: CustomFieldDefinition[] }) {
  const translate = useTranslate();
  if (defs.length === 0) return null;
  return (
    <Box sx={{ width: '100%' }}>
      <Typography variant="subtitle1" sx={{ mt: 2, mb: 1 }}>
        {translate('engine.custom_fields')}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        {defs.map((d) => (
          <InputFor key={d.key} of={customFieldAsDeclaration(d)} />
        ))}
      </Box>
    </Box>
  );
}
