import { useEffect } from 'react';
import { useRecordContext } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { InputFor } from '../../engine/react/inputs';
import { regionOfPostcode } from '../../../core/domain/sites/postcodeRegion';
import { sites } from '../../../core/resources/sites/resource';

const regionField = sites.fields.find((f) => f.source === 'region')!;

/**
 * The site's bank-holiday region: on a new site it follows the postcode's area (an IV postcode is Scotland) until
 * the user chooses a region themselves; an existing site keeps the region it has.
 */
export function RegionInput() {
  const record = useRecordContext();
  const { setValue, getFieldState } = useFormContext();
  const postcode = useWatch({ name: 'address.postcode' });
  const isNew = record?.id == null;
  useEffect(() => {
    const region = regionOfPostcode(postcode);
    if (isNew && region && !getFieldState('region').isDirty) setValue('region', region);
  }, [postcode, isNew, setValue, getFieldState]);
  return <InputFor of={regionField} />;
}
