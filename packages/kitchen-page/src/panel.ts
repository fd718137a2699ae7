/**
 * The store panel: pause or resume ordering (PATCH /api/staff/store) and mark dishes unavailable
 * (PATCH /api/staff/products/{id}, "86 a dish"). Read when opened and after each change; neither
 * arrives on the order stream.
 */
import type { Session } from './session.js';
import { el } from './dom.js';

interface Product {
  readonly product_id: string;
  readonly name: string;
  readonly category: string;
  readonly available: boolean;
}

interface Store {
  readonly accepting_orders: boolean;
  readonly open_now: boolean;
}

export class StorePanel {
  constructor(
    private readonly session: Session,
    private readonly elements: {
      readonly state: HTMLElement;
      readonly pause: HTMLButtonElement;
      readonly dishes: HTMLElement;
      readonly message: HTMLElement;
    },
  ) {
    elements.pause.addEventListener('click', () => void this.togglePause());
    elements.dishes.addEventListener('change', (event) => {
      const box = event.target as HTMLInputElement;
      const id = box.dataset['productId'];
      if (id !== undefined) void this.setAvailable(id, box.checked, box);
    });
  }

  async load(): Promise<void> {
    await Promise.all([this.loadStore(), this.loadDishes()]).catch((error: unknown) => this.say(`Could not read the store: ${(error as Error).message}`));
  }

  private async loadStore(): Promise<void> {
    this.showStore(await this.session.call<Store>('/api/store'));
  }

  private showStore(store: Store): void {
    const { state, pause } = this.elements;
    state.textContent = store.accepting_orders ? (store.open_now ? 'Taking orders' : 'Closed (opening hours)') : 'Ordering paused';
    state.classList.toggle('paused', !store.accepting_orders);
    pause.textContent = store.accepting_orders ? 'Pause ordering' : 'Resume ordering';
    pause.dataset['accepting'] = String(store.accepting_orders);
  }

  private async loadDishes(): Promise<void> {
    const { products } = await this.session.call<{ products: Product[] }>('/api/products');
    const rows = products.map((product) => {
      const row = el('li', 'dish');
      const label = el('label');
      const box = el('input');
      box.type = 'checkbox';
      box.checked = product.available;
      box.dataset['productId'] = product.product_id;
      label.append(box, ` ${product.name}`, el('span', 'category', product.category));
      row.append(label);
      return row;
    });
    this.elements.dishes.replaceChildren(...rows);
  }

  private async togglePause(): Promise<void> {
    const accepting = this.elements.pause.dataset['accepting'] !== 'true';
    try {
      this.showStore(await this.session.call<Store>('/api/staff/store', { method: 'PATCH', body: { accepting_orders: accepting } }));
      this.say(accepting ? 'Ordering resumed.' : 'Ordering paused: customers cannot order now.');
    } catch (error) {
      this.say(`Not changed: ${(error as Error).message}`);
    }
  }

  private async setAvailable(productId: string, available: boolean, box: HTMLInputElement): Promise<void> {
    box.disabled = true;
    try {
      const product = await this.session.call<Product>(`/api/staff/products/${encodeURIComponent(productId)}`, { method: 'PATCH', body: { available } });
      box.checked = product.available;
      this.say(`${product.name} is ${product.available ? 'available again' : 'marked unavailable'}.`);
    } catch (error) {
      box.checked = !available;
      this.say(`Not changed: ${(error as Error).message}`);
    } finally {
      box.disabled = false;
    }
  }

  private say(text: string): void {
    this.elements.message.textContent = text;
  }
}
