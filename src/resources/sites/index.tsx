import PlaceIcon from '@mui/icons-material/Place';
import { buildResource } from '../../engine/react/buildResource';
import { RegionInput } from './RegionInput';
import { sites } from '../../../core/resources/sites/resource';

export default buildResource(sites, { icon: PlaceIcon, fields: { region: { input: <RegionInput /> } } });
