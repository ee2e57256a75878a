import { PathPage } from './send-path-page.js';

// Offered by the rate slider, a 1-2-5 series from 1 k to 10 M packets/s.
export const RATE_INDEX = { '1k': 0, '100k': 6, '2M': 10, '10M': 12 };

export class BusyPollPage extends PathPage {
  constructor(page) {
    super(page, '/nic/busy-poll');
  }

  get busyToggle() { return this.page.getByTestId('use-busy-poll'); }
  async busyPoll(on = true) { await this.busyToggle.setChecked(on); }
  async prefer(on = true) { await this.page.getByTestId('use-prefer').setChecked(on); }
  async pmd(on = true) { await this.page.getByTestId('use-pmd').setChecked(on); }
  async setRate(name) { await this.page.getByTestId('rate').fill(String(RATE_INDEX[name])); }
  cpu(testid) { return this.page.getByTestId(testid); }
}
