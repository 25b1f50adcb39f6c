/** English texts of this area's screens (merged into the catalogue by src/i18n/i18nProvider.ts). */
export const messages = {
  app: {
    notes: {
      title: 'Diary notes',
      whose: 'Whose notes',
      everyone: 'Everyone’s',
      mine: 'Mine',
      count: '%{smart_count} note today |||| %{smart_count} notes today',
      about: 'Diary notes about them',
    },
    support: {
      title: 'Support',
      intro: 'Short how-tos for the main jobs. Still stuck? Ask your agency’s administrators.',
      how_tos: 'How-tos',
      requests: 'Support requests',
      requests_intro: 'Questions to your agency’s administrators: they are notified, and you are when they reply.',
      new_request: 'Ask for help',
      my_requests: 'See requests',
      steps: 'Steps',
      open_screen: 'Open the screen',
      back: 'All how-tos',
      help: 'Help',
      help_on: 'Help: %{topic}',
      replies: 'Conversation',
      not_found: 'There is no how-to with that name.',
    },
  },
};
