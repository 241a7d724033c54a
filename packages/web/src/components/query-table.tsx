import { Empty, Table, type TableProps } from 'antd';
import { DEFAULT_LIST_PAGE_SIZE } from '@arca/contracts';
import { ListEmpty } from './list-empty';

/** The part of a query the table shows the state of. */
interface TableQuery {
  isPending: boolean;
  isLoading: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface QueryTableProps<T> extends Omit<TableProps<T>, 'dataSource' | 'loading' | 'pagination' | 'locale'> {
  /** The query the rows come from: its loading and its failure (with a retry) take the empty area. */
  query: TableQuery;
  /** The rows to show, filtered already. */
  rows: readonly T[] | undefined;
  /** What a row is, singular and plural: `['group', 'groups']`. */
  noun: readonly [string, string];
  /** The filter the rows answer, if any: an empty list then says nothing matches it. */
  filter?: string;
  /** What an empty list says when nothing is filtered: that there is none yet, and what to do next. */
  emptyText: string;
}

/**
 * A list page's table of what a query answers: a page of the console's size with the count
 * below it, and an empty area that says it is loading, what failed (with a retry), that nothing
 * matches the filter, or that there is none yet and what to do next — in that order.
 */
export function QueryTable<T extends object>({ query, rows, noun, filter, emptyText, ...table }: QueryTableProps<T>) {
  const [one, many] = noun;
  const filtered = filter?.trim();
  return (
    <Table<T>
      {...table}
      loading={query.isPending}
      // an array even before the answer: antd then shows the empty area too, which says it is loading
      dataSource={(rows ?? []) as T[]}
      pagination={{
        pageSize: DEFAULT_LIST_PAGE_SIZE,
        hideOnSinglePage: true,
        showTotal: (n) => `${n} ${n === 1 ? one : many}`,
      }}
      locale={{
        emptyText: (
          <ListEmpty query={query} what={`The ${many}`}>
            <Empty description={filtered ? `No ${one} matches “${filtered}”.` : emptyText} />
          </ListEmpty>
        ),
      }}
    />
  );
}
