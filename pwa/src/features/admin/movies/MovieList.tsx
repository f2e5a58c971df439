import type { AdminMovie } from '@filamu/shared';
import { useMemo, useState } from 'react';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { DataTable, type Column } from '../components/DataTable.tsx';
import { ListThumbnail } from './ListThumbnail.tsx';
import { RenditionStates } from './RenditionStates.tsx';
import { useAdminMovies, useDeleteMovie, useToggleMovie } from './queries.ts';
import { uploadDate } from './thumbnail.ts';

/** 'Manage Movies (count)': search, then one row per movie with Activate/Deactivate and Delete (SPEC §2). */
export function MovieList() {
  const movies = useAdminMovies();
  const toggle = useToggleMovie();
  const remove = useDeleteMovie();
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<AdminMovie | null>(null);

  const all = movies.data;
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
        <Badge tone={movie.is_active ? 'success' : 'neutral'}>{movie.is_active ? 'Active' : 'Inactive'}</Badge>
      ),
      sortValue: (m) => (m.is_active ? 0 : 1),
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
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="outline"
            loading={toggle.isPending && toggle.variables?.id === movie.id}
            onClick={() => onToggle(movie)}
            aria-label={`${movie.is_active ? 'Deactivate' : 'Activate'} ${movie.title}`}
          >
            {movie.is_active ? 'Deactivate' : 'Activate'}
          </Button>
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
      {movies.isError ? (
        <div
          role="alert"
          className="rounded-2xl border border-red-300 p-4 text-red-800 dark:border-red-800 dark:text-red-300"
        >
          <p>Failed to load movies: {errorMessage(movies.error, 'Unknown error')}</p>
          <Button size="sm" variant="outline" className="mt-3" onClick={() => void movies.refetch()}>
            Try again
          </Button>
        </div>
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
