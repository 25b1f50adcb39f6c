import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { howToOf } from './howTos';

/** The path of a how-to on the Support page. */
export const helpPath = (topic: string) => `/support/help/${topic}`;

/**
 * A small "Help" link to the how-to of the screen it sits on (topics: clients, staff, rates, shifts, schedule,
 * chat, notifications). Its accessible name says which how-to it opens.
 */
export function HelpLink({ topic }: { topic: string }) {
  const translate = useTranslate();
  const howTo = howToOf(topic);
  if (!howTo) return null;
  return (
    <Button
      component={Link}
      to={helpPath(topic)}
      size="small"
      startIcon={<HelpOutlineIcon />}
      aria-label={translate('app.support.help_on', { topic: howTo.title })}
    >
      {translate('app.support.help')}
    </Button>
  );
}
