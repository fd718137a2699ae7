/** The page's fixed elements (static/index.html), found by id; a missing one is a broken page, said at once. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the kitchen page has no #${id}`);
  return element as T;
}

/** A new element with a class and a text (textContent: never parsed as HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className !== undefined) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}
