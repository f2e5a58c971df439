import type { AdminMovie } from '@filamu/shared';
import { useMemo, useState } from 'react';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { DataTable, type Column } from '../components/DataTable.tsx';
import { RatingBadge } from '../../../components/ui/RatingBadge.tsx';
import { EditMovieDialog } from './EditMovieDialog.tsx';
import { ListThumbnail } from './ListThumbnail.tsx';
import { RenditionStates } from './RenditionStates.tsx';
import { TakeDownDialog } from './TakeDownDialog.tsx';
import { useAdminMovies, useDeleteMovie, useToggleMovie, useUpdateMovie } from './queries.ts';
import { uploadDate } from './thumbnail.ts';

/**
 * 'Manage Movies (count)': search, then one row per movie with Activate/Deactivate and Delete (product §2), and Take
 * down for rights (decision 0231).
 */
export function MovieList() {
  const movies = useAdminMovies();
  const all = movies.data;
  const toggle = useToggleMovie();
  const remove = useDeleteMovie();
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<AdminMovie | null>(null);
  const [editing, setEditing] = useState<AdminMovie | null>(null);
  const [takingDown, setTakingDown] = useState<AdminMovie | null>(null);
  const confirm = useUpdateMovie();
  const unconfirmed = (all ?? []).filter((m) => !m.rating_confirmed).length;

  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    if (!all || !needle) return all ?? [];
    return all.filter((movie) =>
      [movie.title, movie.vj, movie.category].some((field) => field.toLowerCase().includes(needle)),
    );
  }, [all, search]);

  const onToggle = (movie: AdminMovie) =>
    toggle.mutate(movie, {
      onSuccess: ({ movie: saved }) =>
        toast.success(`Movie ${saved.is_active ? 'activated' : 'deactivated'} successfully.`),
      onError: (error) =>
        toast.error(
          'Failed to toggle movie status',
          `Failed to update movie status: ${errorMessage(error, 'Unknown error')}`,
        ),
    });

  /** One click: the rating shown is the right one (decision 0166). */
  const onConfirmRating = (movie: AdminMovie) =>
    confirm.mutate(
      { id: movie.id, body: { rating: movie.rating } },
      {
        onSuccess: () => toast.success(`Rating of "${movie.title}" confirmed.`),
        onError: (error) => toast.error('Failed to confirm the rating.', errorMessage(error, 'Please try again.')),
      },
    );

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting, {
      onSuccess: () => {
        toast.success(`"${deleting.title}" was deleted.`);
        setDeleting(null);
      },
      onError: (error) => {
        toast.error('Failed to delete movie.', errorMessage(error, 'Please try again.'));
        setDeleting(null);
      },
    });
  };

  const columns: Column<AdminMovie>[] = [
    {
      id: 'thumbnail',
      header: 'Thumbnail',
      cell: (movie) => <ListThumbnail value={movie.thumbnail_url} />,
    },
    {
      id: 'title',
      header: 'Title',
      cell: (movie) => <span className="font-semibold">{movie.title}</span>,
      sortValue: (m) => m.title,
    },
    {
      id: 'status',
      header: 'Status',
      cell: (movie) => (
        <div className="flex flex-wrap gap-1">
          {movie.taken_down_at ? (
            <Badge tone="danger" className="whitespace-nowrap">
              Taken down
            </Badge>
          ) : (
            <Badge tone={movie.is_active ? 'success' : 'neutral'}>{movie.is_active ? 'Active' : 'Inactive'}</Badge>
          )}
          {movie.plan_ids.length === 0 && <Badge tone="danger">In no plan</Badge>}
        </div>
      ),
      sortValue: (m) => (m.is_active ? 0 : 1),
    },
    {
      id: 'rating',
      header: 'Rating',
      cell: (movie) =>
        movie.rating_confirmed ? (
          <RatingBadge rating={movie.rating} />
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            <RatingBadge rating={movie.rating} />
            <span className="text-xs font-semibold text-amber-800 dark:text-amber-300">Not confirmed</span>
            <Button
              size="sm"
              variant="outline"
              loading={confirm.isPending && confirm.variables?.id === movie.id}
              onClick={() => onConfirmRating(movie)}
              aria-label={`Confirm rating of ${movie.title}`}
            >
              Confirm
            </Button>
          </div>
        ),
      sortValue: (m) => (m.rating_confirmed ? 1 : 0),
    },
    { id: 'sizes', header: 'Sizes', cell: (movie) => <RenditionStates movie={movie} /> },
    { id: 'vj', header: 'VJ', cell: (movie) => movie.vj, sortValue: (m) => m.vj, hideOnNarrow: true },
    { id: 'category', header: 'Category', cell: (movie) => movie.category, sortValue: (m) => m.category },
    {
      id: 'uploaded',
      header: 'Uploaded',
      cell: (movie) => uploadDate(movie.created_at),
      sortValue: (m) => m.created_at,
      hideOnNarrow: true,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (movie) => (
        // Stacked: three buttons side by side spilled out of the column at 1280 px.
        <div className="flex min-w-28 flex-col items-stretch gap-2">
          <Button size="sm" variant="outline" onClick={() => setEditing(movie)} aria-label={`Edit ${movie.title}`}>
            Edit
          </Button>
          <Button
            size="sm"
            variant="outline"
            loading={toggle.isPending && toggle.variables?.id === movie.id}
            onClick={() => onToggle(movie)}
            aria-label={`${movie.is_active ? 'Deactivate' : 'Activate'} ${movie.title}`}
          >
            {movie.is_active ? 'Deactivate' : 'Activate'}
          </Button>
          {!movie.taken_down_at && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => setTakingDown(movie)}
              aria-label={`Take down ${movie.title} for rights`}
            >
              Take down
            </Button>
          )}
          <Button size="sm" variant="outline" onClick={() => setDeleting(movie)} aria-label={`Delete ${movie.title}`}>
            Delete
          </Button>
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="manage-movies" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="manage-movies" className="text-xl font-bold">
          Manage Movies ({all?.length ?? 0})
        </h2>
        <Input
          label="Search movies"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Title, VJ or category"
          className="w-full sm:w-72"
        />
      </div>
      {unconfirmed > 0 && (
        <p
          role="status"
          className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          {unconfirmed === 1 ? '1 movie has' : `${unconfirmed} movies have`} a rating set by default (18+). Check it and
          confirm, or edit it.
        </p>
      )}
      {movies.isError ? (
        <LoadFailure
          what="movies"
          error={movies.error}
          fallback="Unknown error"
          onRetry={() => void movies.refetch()}
          retryLabel="Try again"
        />
      ) : (
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(movie) => movie.id}
          caption="Movies in the library"
          loading={movies.isPending}
          empty={search.trim() ? 'No movies match your search.' : 'No movies yet. Upload the first one above.'}
        />
      )}
      <EditMovieDialog movie={editing} onClose={() => setEditing(null)} />
      <TakeDownDialog movie={takingDown} onClose={() => setTakingDown(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete movie"
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={onDelete}
        onClose={() => (remove.isPending ? undefined : setDeleting(null))}
      >
        <p>Are you sure you want to delete "{deleting?.title}"? This action cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
