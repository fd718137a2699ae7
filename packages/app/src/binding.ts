/**
 * Typed binding helpers over Inversify: the identifier decides the type of what is bound and of
 * what a factory receives, so a module cannot bind a hasher where a repository is expected.
 */
import type { Bind, BindWhenOnFluentSyntax, Container } from 'inversify';
import type { ServiceId, Services } from './identifiers.js';

type Resolved<Ids extends readonly ServiceId[]> = { -readonly [I in keyof Ids]: Services[Ids[I]] };

/** Binds `id` to a constant. */
export function bindValue<K extends ServiceId>(bind: Bind, id: K, value: Services[K]): void {
  bind<Services[K]>(id).toConstantValue(value);
}

/**
 * Binds `id` to what `factory` makes from the services `deps`, once (singleton). The factory is a
 * plain function, so the classes it builds need no decorators. Returns the binding (`onDeactivation`).
 */
export function bindFactory<K extends ServiceId, const Ids extends readonly ServiceId[]>(
  bind: Bind,
  id: K,
  deps: Ids,
  factory: (...args: Resolved<Ids>) => Services[K],
): BindWhenOnFluentSyntax<Services[K]> {
  return bind<Services[K]>(id)
    .toResolvedValue(factory as (...args: unknown[]) => Services[K], [...deps])
    .inSingletonScope();
}

/** Resolves `id`, typed by the identifier. */
export function resolve<K extends ServiceId>(container: Container, id: K): Services[K] {
  return container.get<Services[K]>(id);
}
