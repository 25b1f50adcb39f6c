/** One how-to of the Support page: a main job, in a few steps, and the screen where it is done. */
export interface HowTo {
  topic: string;
  title: string;
  summary: string;
  steps: string[];
  /** The screen the how-to describes. */
  screen: string;
}

/** The how-tos, as data: the Support page lists them and each screen's Help link opens its own. */
export const HOW_TOS: HowTo[] = [
  {
    topic: 'clients',
    title: 'Add a client and its sites',
    summary: 'A client is a care home or trust you supply; its sites are the places where shifts happen.',
    screen: '/client/client-list',
    steps: [
      'Open Client › Client List and choose Create.',
      'Enter the client’s name, billing e-mail and address, then Save.',
      'On the client’s page, add each site under Sites with its address.',
      'Invite the client’s manager so they can request shifts and sign timesheets.',
    ],
  },
  {
    topic: 'staff',
    title: 'Add staff and their documents',
    summary: 'A staff member works your shifts once approved, active and compliant for their job role.',
    screen: '/staff/staff-list',
    steps: [
      'Open Staff › Staff List and choose Create; enter their details and job role.',
      'On their profile, open Documents and add each document (DBS, right to work…) with its expiry date.',
      'Verify each document once you have checked it.',
      'Approve the staff member, then Activate them.',
    ],
  },
  {
    topic: 'rates',
    title: 'Set rates and rules',
    summary: 'Rates say what a client is charged and what staff are paid, per job role and kind of shift.',
    screen: '/rates_and_rules',
    steps: [
      'Open Client › Rates & Rules and choose the client.',
      'Enter the charge and pay rates per job role for days, nights, weekends and bank holidays.',
      'Save: new shifts are priced with these rates.',
    ],
  },
  {
    topic: 'shifts',
    title: 'Create and assign shifts',
    summary: 'A shift is requested for a site and a job role, then filled with a staff member.',
    screen: '/shifts',
    steps: [
      'Open Shifts and choose Create; pick the client, site, job role, date and times.',
      'Open the shift and choose Assign to pick an available, compliant staff member.',
      'The client and the staff member are notified when the shift is filled.',
    ],
  },
  {
    topic: 'schedule',
    title: 'Use the schedule',
    summary: 'The schedule shows every shift on a calendar, by day, week or month.',
    screen: '/schedule',
    steps: [
      'Open Schedule.',
      'Switch between day, week and month; filter by client or site.',
      'Open a shift from the calendar to assign or change it.',
    ],
  },
  {
    topic: 'chat',
    title: 'Chat with staff',
    summary: 'Messages with staff members, who answer from their phone.',
    screen: '/chat',
    steps: [
      'Open Message in the sidebar, or Chat on a staff member’s profile.',
      'Choose the conversation and type your message.',
      'New messages appear without reloading; unread ones are counted in the list.',
    ],
  },
  {
    topic: 'notifications',
    title: 'Notifications and diary reminders',
    summary: 'Notifications tell you what happened; diary notes remind you of what to do.',
    screen: '/notification',
    steps: [
      'The bell in the top bar shows how many notifications are unread; open it to read them.',
      'Choose Mark all read once you have seen them.',
      'Add a diary note (profile menu › Diary Notes) with “Remind me at” to be notified at that time.',
    ],
  },
];

export const howToOf = (topic: string | undefined) => HOW_TOS.find((h) => h.topic === topic);
