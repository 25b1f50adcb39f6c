import { Route } from 'react-router';
import BusinessIcon from '@mui/icons-material/Business';
import { buildResource } from '../../engine/react/buildResource';
import { clients } from '../../../core/resources/clients/resource';
import { ClientProfileRoute } from './ClientProfile';

export default buildResource(clients, {
  icon: BusinessIcon,
  // The client profile (/client/client/{id}) shows the client with its sites and contacts.
  extraRoutes: (options) => [
    <Route key="profile" path="/client/client/:id" element={<ClientProfileRoute {...options} />} />,
  ],
});
