import { PluginSettingTab, Setting, type App } from 'obsidian';
import type EaselPlugin from './main';
import type { EaselSettings } from './easel/settings';

export class EaselSettingTab extends PluginSettingTab {
  constructor(
    app: App,
    private readonly plugin: EaselPlugin,
  ) {
    super(app, plugin);
  }

  display(): void {
    const { containerEl } = this;
    containerEl.empty();
    const field = (key: keyof EaselSettings, name: string, desc: string, placeholder: string) =>
      new Setting(containerEl)
        .setName(name)
        .setDesc(desc)
        .addText((t) =>
          t
            .setPlaceholder(placeholder)
            .setValue(this.plugin.settings[key])
            .onChange(async (v) => {
              this.plugin.settings[key] = v.trim();
              await this.plugin.saveSettings();
            }),
        );
    field('serverUrl', 'Server', 'The address of an easel serve you started (the URL it printed). Leave empty and the plugin starts easel on this vault itself.', 'http://127.0.0.1:8123/?token=…');
    field('token', 'Token', 'The token of that server, if its address above does not include ?token=.', '');
    field('defaultModel', 'Default model', 'provider:model for Send to LLM (see easel llm list). Empty: the canvas\'s own model:, else the vault\'s configured default.', 'local:smollm2');
    field('binaryPath', 'Easel binary', 'The easel program the plugin starts: a name on PATH or a full path.', 'easel');
  }
}
