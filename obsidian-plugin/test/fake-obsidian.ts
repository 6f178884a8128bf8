// A fake of the few Obsidian API pieces the plugin uses, mapped over `obsidian` in the test
// build. It keeps what a test needs to look at (commands, menu items, notices, view actions, a
// small element tree) and does nothing else. Names and signatures follow obsidian.d.ts.

type Listener = (ev: any) => void;
type ElInfo = { text?: string; cls?: string; attr?: Record<string, string | number | boolean>; value?: string; type?: string; placeholder?: string; title?: string };

/** An element with the DOM helpers Obsidian adds (createEl, createDiv, empty, setText…). */
export class FakeEl {
  tagName: string;
  classes = new Set<string>();
  attrs = new Map<string, string>();
  children: FakeEl[] = [];
  parent: FakeEl | null = null;
  ownText = '';
  disabled = false;
  private _value = '';
  private listeners = new Map<string, Listener[]>();

  constructor(tag: string) {
    this.tagName = tag.toUpperCase();
  }

  get value(): string {
    if (this.tagName === 'SELECT' && !this._value) return this.children.find((c) => c.tagName === 'OPTION')?.value ?? '';
    return this._value;
  }
  set value(v: string) {
    this._value = v;
  }

  createEl(tag: string, o: ElInfo | string = {}): FakeEl {
    const el = new FakeEl(tag);
    const info: ElInfo = typeof o === 'string' ? { cls: o } : o;
    if (info.cls) for (const c of info.cls.split(/\s+/).filter(Boolean)) el.classes.add(c);
    if (info.text !== undefined) el.ownText = info.text;
    if (info.value !== undefined) el._value = info.value;
    for (const [k, v] of Object.entries(info.attr ?? {})) el.attrs.set(k, String(v));
    if (info.placeholder) el.attrs.set('placeholder', info.placeholder);
    if (info.title) el.attrs.set('title', info.title);
    el.parent = this;
    this.children.push(el);
    return el;
  }
  createDiv(o: ElInfo | string = {}): FakeEl {
    return this.createEl('div', o);
  }
  createSpan(o: ElInfo | string = {}): FakeEl {
    return this.createEl('span', o);
  }
  empty(): void {
    for (const c of this.children) c.parent = null;
    this.children = [];
    this.ownText = '';
  }
  setText(t: string): void {
    this.children = [];
    this.ownText = t;
  }
  remove(): void {
    if (this.parent) this.parent.children = this.parent.children.filter((c) => c !== this);
    this.parent = null;
  }
  addClass(...c: string[]): void {
    for (const x of c) this.classes.add(x);
  }
  removeClass(...c: string[]): void {
    for (const x of c) this.classes.delete(x);
  }
  hasClass(c: string): boolean {
    return this.classes.has(c);
  }
  setAttr(k: string, v: string): void {
    this.attrs.set(k, v);
  }
  getAttr(k: string): string | null {
    return this.attrs.get(k) ?? null;
  }
  get textContent(): string {
    return this.ownText + this.children.map((c) => c.textContent).join('');
  }
  addEventListener(type: string, fn: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  dispatch(type: string, ev: any = {}): void {
    for (const fn of this.listeners.get(type) ?? []) fn(ev);
  }
  click(): void {
    if (!this.disabled) this.dispatch('click', {});
  }
  /** Every element below this one (depth first) that matches. */
  findAll(pred: (e: FakeEl) => boolean): FakeEl[] {
    const out: FakeEl[] = [];
    for (const c of this.children) {
      if (pred(c)) out.push(c);
      out.push(...c.findAll(pred));
    }
    return out;
  }
  /** The button (or element) with this accessible text. */
  button(name: string): FakeEl | undefined {
    return this.findAll((e) => e.tagName === 'BUTTON' && e.textContent === name)[0];
  }
}

export interface EventRef {
  name: string;
  fn: (...a: any[]) => any;
  owner: Events;
}

export class Events {
  private handlers = new Map<string, EventRef[]>();
  on(name: string, fn: (...a: any[]) => any): EventRef {
    const ref = { name, fn, owner: this };
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), ref]);
    return ref;
  }
  offref(ref: EventRef): void {
    this.handlers.set(ref.name, (this.handlers.get(ref.name) ?? []).filter((r) => r !== ref));
  }
  trigger(name: string, ...args: any[]): void {
    for (const r of this.handlers.get(name) ?? []) r.fn(...args);
  }
  listenerCount(name: string): number {
    return (this.handlers.get(name) ?? []).length;
  }
}

export class Component {
  private cleanups: (() => void)[] = [];
  register(cb: () => void): void {
    this.cleanups.push(cb);
  }
  registerEvent(ref: EventRef): void {
    this.register(() => ref.owner.offref(ref));
  }
  onload(): void | Promise<void> {}
  onunload(): void {}
  unload(): void {
    for (const c of this.cleanups.splice(0)) c();
    this.onunload();
  }
}

export class View extends Component {
  app: App;
  leaf: WorkspaceLeaf;
  containerEl = new FakeEl('div');
  constructor(leaf: WorkspaceLeaf) {
    super();
    this.leaf = leaf;
    this.app = leaf.app;
  }
  getViewType(): string {
    return '';
  }
  getDisplayText(): string {
    return '';
  }
  async onOpen(): Promise<void> {}
  async onClose(): Promise<void> {}
}

export class ItemView extends View {
  contentEl = this.containerEl.createDiv({ cls: 'view-content' });
  actions: { icon: string; title: string; callback: (evt: any) => any; el: FakeEl }[] = [];
  addAction(icon: string, title: string, callback: (evt: any) => any): FakeEl {
    const el = this.containerEl.createEl('button', { attr: { 'aria-label': title } });
    el.addEventListener('click', callback);
    this.actions.push({ icon, title, callback, el });
    return el;
  }
}

export class WorkspaceLeaf {
  view: any = null;
  constructor(public app: App) {}
  async setViewState(state: { type: string; active?: boolean }): Promise<void> {
    const make = this.app.viewRegistry.get(state.type);
    if (!make) throw new Error(`no view type ${state.type}`);
    this.view = make(this);
    await this.view.onOpen();
  }
}

export class Workspace extends Events {
  leaves: WorkspaceLeaf[] = [];
  active: WorkspaceLeaf | null = null;
  revealed: WorkspaceLeaf[] = [];
  constructor(private app: App) {
    super();
  }
  /** Test helper: opens `view` (a fake canvas view or another) in a new leaf and makes it active. */
  openView(make: (leaf: WorkspaceLeaf) => any): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app);
    leaf.view = make(leaf);
    this.leaves.push(leaf);
    this.active = leaf;
    this.trigger('active-leaf-change', leaf);
    return leaf;
  }
  getMostRecentLeaf(): WorkspaceLeaf | null {
    return this.active;
  }
  getLeavesOfType(type: string): WorkspaceLeaf[] {
    return this.leaves.filter((l) => l.view?.getViewType?.() === type);
  }
  getRightLeaf(_split: boolean): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app);
    this.leaves.push(leaf);
    return leaf;
  }
  async revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
    this.revealed.push(leaf);
  }
  onLayoutReady(cb: () => void): void {
    cb();
  }
  iterateAllLeaves(cb: (leaf: WorkspaceLeaf) => void): void {
    for (const l of this.leaves) cb(l);
  }
}

export class FileSystemAdapter {
  constructor(private base: string) {}
  getBasePath(): string {
    return this.base;
  }
}

export class App {
  workspace: Workspace;
  vault: { adapter: unknown };
  viewRegistry = new Map<string, (leaf: WorkspaceLeaf) => any>();
  commands = new Map<string, Command>();
  settingTabs: PluginSettingTab[] = [];
  ribbon: { icon: string; title: string; callback: (evt: any) => any }[] = [];
  constructor(vaultPath: string | null) {
    this.workspace = new Workspace(this);
    this.vault = { adapter: vaultPath ? new FileSystemAdapter(vaultPath) : {} };
  }
}

export interface Command {
  id: string;
  name: string;
  callback?: () => any;
  checkCallback?: (checking: boolean) => boolean | void;
}

export class Plugin extends Component {
  data: unknown = null;
  constructor(
    public app: App,
    public manifest: { id: string; [k: string]: unknown },
  ) {
    super();
  }
  addCommand(c: Command): Command {
    this.app.commands.set(c.id, c);
    return c;
  }
  addRibbonIcon(icon: string, title: string, callback: (evt: any) => any): FakeEl {
    this.app.ribbon.push({ icon, title, callback });
    return new FakeEl('div');
  }
  addSettingTab(tab: PluginSettingTab): void {
    this.app.settingTabs.push(tab);
  }
  registerView(type: string, make: (leaf: WorkspaceLeaf) => any): void {
    this.app.viewRegistry.set(type, make);
  }
  async loadData(): Promise<unknown> {
    return this.data;
  }
  async saveData(d: unknown): Promise<void> {
    this.data = JSON.parse(JSON.stringify(d));
  }
}

export class PluginSettingTab {
  containerEl = new FakeEl('div');
  constructor(
    public app: App,
    public plugin: Plugin,
  ) {}
  display(): void {}
}

export class TextComponent {
  inputEl = new FakeEl('input');
  private changed: ((v: string) => any) | null = null;
  setPlaceholder(p: string): this {
    this.inputEl.setAttr('placeholder', p);
    return this;
  }
  setValue(v: string): this {
    this.inputEl.value = v;
    return this;
  }
  getValue(): string {
    return this.inputEl.value;
  }
  onChange(cb: (v: string) => any): this {
    this.changed = cb;
    return this;
  }
  /** Test helper: the user types `v`. */
  async type(v: string): Promise<void> {
    this.inputEl.value = v;
    await this.changed?.(v);
  }
}

export class Setting {
  static all: Setting[] = [];
  settingEl: FakeEl;
  name = '';
  desc = '';
  text: TextComponent | null = null;
  constructor(containerEl: FakeEl) {
    this.settingEl = containerEl.createDiv({ cls: 'setting-item' });
    Setting.all.push(this);
  }
  setName(n: string): this {
    this.name = n;
    return this;
  }
  setDesc(d: string): this {
    this.desc = d;
    return this;
  }
  addText(cb: (t: TextComponent) => any): this {
    this.text = new TextComponent();
    cb(this.text);
    return this;
  }
}

export class MenuItem {
  title = '';
  icon = '';
  private handler: (() => any) | null = null;
  setTitle(t: string): this {
    this.title = t;
    return this;
  }
  setIcon(i: string): this {
    this.icon = i;
    return this;
  }
  onClick(cb: () => any): this {
    this.handler = cb;
    return this;
  }
  click(): void {
    this.handler?.();
  }
}

export class Menu {
  items: MenuItem[] = [];
  addItem(cb: (item: MenuItem) => any): this {
    const item = new MenuItem();
    cb(item);
    this.items.push(item);
    return this;
  }
}

export class Notice {
  static all: Notice[] = [];
  messageEl = new FakeEl('div');
  hidden = false;
  constructor(
    message: string,
    public duration?: number,
  ) {
    this.messageEl.setText(message);
    Notice.all.push(this);
  }
  setMessage(m: string): this {
    this.messageEl.setText(m);
    return this;
  }
  hide(): void {
    this.hidden = true;
  }
  get text(): string {
    return this.messageEl.textContent;
  }
}
