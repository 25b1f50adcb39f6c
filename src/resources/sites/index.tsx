import PlaceIcon from '@mui/icons-material/Place';
import { buildResource } from '../../engine/react/buildResource';
import { sites } from './resource';

export default buildResource(sites, { icon: PlaceIcon });
