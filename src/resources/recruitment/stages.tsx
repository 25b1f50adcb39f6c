import { useId } from 'react';
import { Alert, Box, Button, Link as MuiLink, Paper, Stack, Typography } from '@mui/material';
import ViewKanbanIcon from '@mui/icons-material/ViewKanban';
import ViewListIcon from '@mui/icons-material/ViewList';
import { Title, useGetList, useTranslate, type RaRecord } from 'react-admin';
import { Link } from 'react-router';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { isCustomStage, stagesOf, type Stage } from '../../../core/domain/recruitment/stages';
import type { RecruitmentSettings } from '../../../core/contracts/recruitmentSettings';
import { useAgencyRow } from '../../engine/react/agencyRow';
import { EngineList } from '../../engine/react/list';
import { EngineShow } from '../../engine/react/show';
import { RecordActionsMenu, recordName } from '../../engine/react/actions';
import type { ViewOptions } from '../../engine/react/viewOptions';

/** The agency's pipeline stages in its order and names (its recruitment settings), once they are read. */
export function useStages(): Stage[] | undefined {
  const query = useAgencyRow<RecruitmentSettings>('recruitment_settings');
  if (query.isError) return stagesOf(null);
  return query.data ? stagesOf(query.data.data.stages) : undefined;
}

/**
 * The applications' declaration as the agency sees it: the stage's choices are its stages in its order and names,
 * the tabs one per stage in that order, and the move action offers only its own stages. The states themselves are
 * the declaration's (the server's lifecycle), so nothing here changes what may happen, only how it is named.
 */
export function stagedDecl(decl: ResourceDeclaration, stages: readonly Stage[]): ResourceDeclaration {
  const choices = stages.map((s) => ({ id: s.id, name: s.label }));
  const tabOf = new Map((decl.tabs ?? []).map((t) => [t.id, t]));
  return {
    ...decl,
    fields: decl.fields.map((f) => (f.source === decl.lifecycle?.field ? { ...f, choices } : f)),
    tabs: [
      ...(decl.tabs ?? []).filter((t) => t.id === 'all'),
      ...stages.map((s) => ({ ...tabOf.get(s.id)!, label: s.label, labelIsData: true })).filter((t) => t.id),
    ],
    actions: decl.actions?.map((a) =>
      a.name === 'move'
        ? {
            ...a,
            input: a.input?.map((f) =>
              f.source === 'to_stage' ? { ...f, choices: choices.filter((c) => isCustomStage(c.id)) } : f,
            ),
          }
        : a,
    ),
  };
}

/** A link between the pipeline's list and its board. */
function ViewSwitch({ to, board }: { to: string; board: boolean }) {
  const translate = useTranslate();
  return (
    <Button component={Link} to={to} size="small" startIcon={board ? <ViewKanbanIcon /> : <ViewListIcon />}>
      {translate(board ? 'app.pipeline.board' : 'app.pipeline.list')}
    </Button>
  );
}

/** The pipeline's list, its tabs and stage names the agency's; a link to the board beside it. */
export function StagedList(props: ViewOptions & { tabId?: string }) {
  // The product's names until the agency's are read: the list starts at once, as every list does.
  const stages = useStages() ?? stagesOf(null);
  return (
    <EngineList
      {...props}
      decl={stagedDecl(props.decl, stages)}
      listActions={<ViewSwitch to="/recruitment/staffs/board" board />}
    />
  );
}

/** An application, its stage named as the agency names it and its move offering the agency's own stages. */
export function StagedShow(props: ViewOptions) {
  const stages = useStages();
  if (!stages) return null;
  return <EngineShow {...props} decl={stagedDecl(props.decl, stages)} />;
}

/** How many applicants a board column shows before it sends the rest to the stage's list. */
export const BOARD_COLUMN_SIZE = 25;

/** One applicant on the board: their name opening the application, and its actions in a menu. */
function BoardCard({ decl, record, show }: { decl: ResourceDeclaration; record: RaRecord; show: string }) {
  return (
    <Paper component="li" variant="outlined" sx={{ p: 1, display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <MuiLink component={Link} to={show} sx={{ fontWeight: 500 }}>
          {recordName(decl, record)}
        </MuiLink>
        {record.stage_note ? (
          <Typography variant="body2" color="text.secondary" noWrap>
            {String(record.stage_note)}
          </Typography>
        ) : null}
      </Box>
      <RecordActionsMenu decl={decl} record={record} />
    </Paper>
  );
}

/** A stage's column: its applicants, newest first, and a link to the stage's list when there are more. */
function BoardColumn({ decl, stage, options }: { decl: ResourceDeclaration; stage: Stage; options: ViewOptions }) {
  const translate = useTranslate();
  const headingId = useId();
  const { data, total, isPending, error } = useGetList(decl.name, {
    filter: { stage: stage.id },
    sort: { field: 'created_at', order: 'DESC' },
    pagination: { page: 1, perPage: BOARD_COLUMN_SIZE },
  });
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      sx={{ flex: { md: '0 0 240px' }, bgcolor: 'action.hover', borderRadius: 1, p: 1 }}
    >
      <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {total === undefined ? stage.label : `${stage.label} (${total})`}
      </Typography>
      {error ? <Alert severity="error">{translate('app.pipeline.not_loaded')}</Alert> : null}
      {!isPending && !error && !data?.length ? (
        <Typography variant="body2" color="text.secondary">
          {translate('app.pipeline.none_at_stage')}
        </Typography>
      ) : null}
      <Stack component="ul" spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {data?.map((r) => (
          <BoardCard key={r.id} decl={decl} record={r} show={options.paths.show(r.id)} />
        ))}
      </Stack>
      {total !== undefined && total > BOARD_COLUMN_SIZE ? (
        <MuiLink component={Link} to={options.paths.tab(stage.id)} sx={{ display: 'block', mt: 1 }}>
          {translate('app.pipeline.all_at_stage', { total, stage: stage.label })}
        </MuiLink>
      ) : null}
    </Box>
  );
}

/**
 * The pipeline as a board (/recruitment/staffs/board): a column per stage in the agency's order, each applicant's
 * actions (the declared moves, with their notes) in a menu on their card. On a phone the columns stack.
 */
export function PipelineBoard(options: ViewOptions) {
  const translate = useTranslate();
  const stages = useStages();
  const title = translate('app.pipeline.board_title');
  if (!stages) return null;
  const decl = stagedDecl(options.decl, stages);
  return (
    <Box sx={{ my: 2 }}>
      <Title title={title} />
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        <ViewSwitch to={options.paths.list} board={false} />
      </Stack>
      <Box
        role="region"
        aria-label={translate('app.pipeline.stages')}
        tabIndex={0}
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', md: 'row' },
          gap: 1,
          overflowX: { md: 'auto' },
          alignItems: { md: 'flex-start' },
          pb: 1,
        }}
      >
        {stages.map((s) => (
          <BoardColumn key={s.id} decl={decl} stage={s} options={options} />
        ))}
      </Box>
    </Box>
  );
}
