/**
 * Code loaded when first asked for (a dynamic import kept out of the first script): one load
 * however many ask, another after a failed one, and what it gave once it has.
 */
export interface OnDemand<T> {
  /** loads it (once; again after a failed load) */
  load(): Promise<T>;
  /** resolves once a load has settled, whether or not it failed */
  settled(): Promise<void>;
  /** what the load gave, once it has resolved; undefined before */
  loaded(): T | undefined;
}

export function onDemand<T>(importIt: () => Promise<T>): OnDemand<T> {
  let loading: Promise<T> | undefined;
  let value: T | undefined;
  const load = (): Promise<T> =>
    (loading ??= importIt().then(
      (v) => (value = v),
      (e: unknown) => {
        loading = undefined;
        throw e;
      },
    ));
  return {
    load,
    settled: () =>
      load().then(
        () => undefined,
        () => undefined,
      ),
    loaded: () => value,
  };
}
