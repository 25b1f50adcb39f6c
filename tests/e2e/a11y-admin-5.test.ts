// @run-first: a shard of the agency panel's accessibility sweep, a long file (tests/sequencer.ts)
import { describeAdminSweep } from './axe';

describeAdminSweep(5, 6);
