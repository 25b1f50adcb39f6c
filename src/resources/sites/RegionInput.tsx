import { useEffect } from 'react';
import { useRecordContext } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { InputFor } from '../../engine/react/inputs';
import { api } from '../../providers/http';
import { regionOfPostcode } from '../../../core/domain/sites/postcodeRegion';
import { sites } from '../../../core/resources/sites/resource';
import type { AgencySettings } from '../../../core/contracts/agencySettings';

const regionField = sites.fields.find((f) => f.source === 'region')!;

/**
 * The site's bank-holiday region: on a new site it follows the postcode's area (an IV postcode is Scotland), else
 * the agency's default region for new sites (its agency settings), until the user chooses a region themselves; an
 * existing site keeps the region it has.
 */
export function RegionInput() {
  const record = useRecordContext();
  const { setValue, getFieldState } = useFormContext();
  const postcode = useWatch({ name: 'address.postcode' });
  const isNew = record?.id == null;
  const agency = useQuery({
    queryKey: ['agency_settings'],
    enabled: isNew,
    retry: false,
    queryFn: ({ signal }) => api<{ data: AgencySettings }>('/agency_settings', { signal }),
  });
  const fallback = agency.data?.data.default_region;
  useEffect(() => {
    const region = regionOfPostcode(postcode) ?? fallback;
    if (isNew && region && !getFieldState('region').isDirty) setValue('region', region);
  }, [postcode, fallback, isNew, setValue, getFieldState]);
  return <InputFor of={regionField} />;
}
