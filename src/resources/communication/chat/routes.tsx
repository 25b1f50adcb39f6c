import { lazy } from 'react';
import { Route } from 'react-router';

// The chat screen loads as a chunk of its own when first opened.
const ChatPage = lazy(() => import('./ChatPage').then((m) => ({ default: m.ChatPage })));

/** The agency panel's chat screen: the top bar's chat button and the sidebar's Message lead here. */
export const chatRoutes = [<Route key="chat" path="/chat" element={<ChatPage />} />];
