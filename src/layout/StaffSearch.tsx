import SearchIcon from '@mui/icons-material/Search';
import CloseIcon from '@mui/icons-material/Close';
import {
  Autocomplete,
  Box,
  IconButton,
  InputAdornment,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  type SxProps,
  type Theme,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { HttpError, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router';
import { api } from '../providers/http';
import { FileAvatar } from '../engine/react/files';

/** Search debounce (spec section 9). */
export const SEARCH_DEBOUNCE_MS = 300;

export interface CandidateHit {
  id: number;
  name: string;
  first_name?: string;
  last_name?: string;
  email?: string | null;
  phone?: string | null;
  status?: string | null;
  activated?: boolean | null;
  profile_photo?: string | null;
}

/** Trimmed, and only after the user stopped typing for 300 ms. */
export function useDebouncedQuery(input: string, delay = SEARCH_DEBOUNCE_MS) {
  const [value, setValue] = useState(input.trim());
  useEffect(() => {
    const handle = setTimeout(() => setValue(input.trim()), delay);
    return () => clearTimeout(handle);
  }, [input, delay]);
  return value;
}

/** A search answer: the matches, or none (404 or 400: nothing matched the criteria). */
export interface SearchAnswer {
  candidate: CandidateHit[];
}

/**
 * GET search_candidate. The API answers 404 (or 400) when nothing matches, as the spec says: that is an empty
 * answer here, not a failure, so no error state and no thrown error reach the screen or the console. Other
 * failures still throw.
 */
export async function searchCandidates(query: string, signal?: AbortSignal): Promise<SearchAnswer> {
  try {
    const r = await api<{ candidate?: CandidateHit[] }>(
      `/search_candidate?candidate_query=${encodeURIComponent(query)}`,
      { signal },
    );
    return { candidate: r.candidate ?? [] };
  } catch (e) {
    if (e instanceof HttpError && (e.status === 404 || e.status === 400)) return { candidate: [] };
    throw e;
  }
}

/**
 * The top bar's staff search: GET search_candidate?candidate_query=, results in a keyboard-navigable list,
 * each opening the staff profile /staffs/{id}. No match (404 or 400): "Not Staff found for the specified
 * criteria"; any other failure: "An unexpected error occurred. Please try again later."
 * Below the tablet breakpoint the top bar has no room for the field: a search button opens it over the bar.
 */
export function StaffSearch() {
  const translate = useTranslate();
  const compact = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const [open, setOpen] = useState(false);
  if (!compact) return <StaffSearchField />;
  return (
    <>
      <Tooltip title={translate('app.topbar.search_label')}>
        <IconButton
          color="inherit"
          aria-label={translate('app.topbar.search_label')}
          aria-expanded={open}
          aria-controls={open ? 'staff-search' : undefined}
          onClick={() => setOpen(true)}
        >
          <SearchIcon />
        </IconButton>
      </Tooltip>
      {open && (
        // Covers the whole top bar (the app bar is the positioned ancestor) while searching; above the badges
        // (z-index 1).
        <Box
          sx={{
            position: 'absolute',
            inset: 0,
            zIndex: 2,
            display: 'flex',
            alignItems: 'center',
            gap: 0.5,
            px: 1,
            bgcolor: 'background.paper',
          }}
        >
          <StaffSearchField autoFocus onDone={() => setOpen(false)} sx={{ flex: 1, mx: 0 }} />
          <IconButton aria-label={translate('ra.action.close')} onClick={() => setOpen(false)}>
            <CloseIcon />
          </IconButton>
        </Box>
      )}
    </>
  );
}

function StaffSearchField({
  autoFocus,
  onDone,
  sx,
}: {
  autoFocus?: boolean;
  onDone?: () => void;
  sx?: SxProps<Theme>;
}) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const query = useDebouncedQuery(input);
  const result = useQuery({
    queryKey: ['shell', 'search_candidate', query],
    enabled: query.length > 0,
    retry: false,
    staleTime: 30_000,
    queryFn: ({ signal }) => searchCandidates(query, signal),
  });
  const waiting = input.trim() !== query || (query.length > 0 && result.isFetching);
  const options = query && !waiting && !result.isError ? (result.data?.candidate ?? []) : [];

  let noOptions = translate('app.topbar.search_hint');
  if (query && result.isError) noOptions = translate('app.topbar.search_error');
  else if (query && result.data && result.data.candidate.length === 0) noOptions = translate('app.topbar.no_staff');

  return (
    <Autocomplete<CandidateHit, false, false, false>
      id="staff-search"
      size="small"
      sx={sx ?? { width: { md: 280, lg: 320 }, mx: 1 }}
      options={options}
      value={null}
      inputValue={input}
      onInputChange={(_, value, reason) => {
        if (reason === 'input' || reason === 'clear') setInput(value);
      }}
      onChange={(_, option) => {
        if (!option) return;
        setInput('');
        onDone?.();
        navigate(`/staffs/${option.id}`);
      }}
      filterOptions={(x) => x}
      getOptionLabel={(o) => o.name ?? ''}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={waiting && input.trim().length > 0}
      loadingText={translate('app.topbar.searching')}
      noOptionsText={noOptions}
      openOnFocus={false}
      forcePopupIcon={false}
      clearOnBlur={false}
      blurOnSelect
      autoHighlight
      handleHomeEndKeys={false}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props} sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
          <FileAvatar value={option.profile_photo} alt="" sx={{ width: 28, height: 28, fontSize: 14 }}>
            {(option.first_name?.[0] ?? option.name?.[0] ?? '?').toUpperCase()}
          </FileAvatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" noWrap>
              {option.name}
            </Typography>
            {(option.email || option.phone) && (
              <Typography variant="caption" color="text.secondary" noWrap component="div">
                {[option.email, option.phone].filter(Boolean).join(' · ')}
              </Typography>
            )}
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          autoFocus={autoFocus}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !input) onDone?.();
          }}
          variant="outlined"
          margin="none"
          placeholder={translate('app.topbar.search_placeholder')}
          slotProps={{
            ...params.slotProps,
            input: {
              ...params.slotProps.input,
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
              sx: { bgcolor: 'background.paper', borderRadius: 1 },
            },
            htmlInput: { ...params.slotProps.htmlInput, 'aria-label': translate('app.topbar.search_label') },
          }}
        />
      )}
    />
  );
}
