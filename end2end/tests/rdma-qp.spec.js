import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { RdmaQpPage } from '../pages/rdma-qp-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('a send: post, the NIC fetches, DMAs and completes, the app polls; no syscall, no copy', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  await expectNoSeriousViolations(page);
  await qp.postSend();
  await qp.expectSq(0, 'posted');
  await qp.expectFigure('sq', '1/4');
  await expect(qp.latest).toContainText('No system call');

  await qp.step();
  await qp.expectSq(0, 'fetched');
  await qp.expectFigure('in-flight', 1);
  await expect(qp.engine).toContainText('holds WR #1');
  await qp.step();
  await expect(page.getByTestId('wire')).toContainText('WR #1, 1024 B');
  await expect(qp.latest).toContainText('zero copies');
  await qp.step();
  await qp.expectCq(0, 'IBV_WC_SUCCESS');
  await qp.expectFigure('cq', '1/4');
  await qp.expectFigure('sq', '0/4');
  await qp.expectFigure('in-flight', 0);

  await qp.poll();
  // byte_len means nothing for a Send completion: the opcode is shown instead.
  await expect(qp.polled).toContainText('WR #1 · IBV_WC_SUCCESS · IBV_WC_SEND');
  await expect(qp.polled).not.toContainText('1024 B');
  await qp.expectFigure('peer-rq', 1);
  await qp.expectFigure('cq', '0/4');
  await qp.expectFigure('rdma-syscalls', 0);
  await qp.expectFigure('rdma-copies', 0);
  await expect(page.getByTestId('kernel-syscalls')).toHaveText('0 syscalls on the data path');
});

test('the same sends through sockets cost a syscall and a copy each', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  for (let i = 1; i <= 3; i += 1) {
    await qp.socketSend();
    await qp.expectCell('sock-syscalls', i);
  }
  await qp.expectCell('sock-copies', 3);
  await qp.expectCell('sock-bytes', 3072);
  await qp.expectFigure('sock-syscalls', 3);
  await qp.postSend();
  await qp.expectCell('rdma-sends', 1);
  await qp.expectCell('rdma-syscalls', 0);
  await qp.expectCell('rdma-copies', 0);
  await expect(page.getByTestId('why')).toContainText('3 socket sends took 3 system calls');
});

test('break it: a buffer outside the region errors the QP and flushes the rest until reset', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  await qp.postOutside();
  await qp.postSend();
  await qp.steps(2);
  await expect(qp.latest).toHaveAttribute('data-tone', 'fault');
  await expect(qp.latest).toContainText('not inside the region');
  await qp.expectFigure('qp', 'ERR');
  await expect(qp.qpState).toContainText('QP ERR');

  await qp.resetQp();
  await expect(qp.latest).toHaveAttribute('data-tone', 'refused');
  await expect(qp.latest).toContainText('still wait');

  await qp.step();
  await qp.expectCq(0, 'IBV_WC_LOC_PROT_ERR');
  await qp.step();
  await qp.expectCq(1, 'IBV_WC_WR_FLUSH_ERR');
  await expectNoSeriousViolations(page);

  await qp.postSend();
  await expect(qp.latest).toContainText('will be flushed');
  await qp.step();
  await qp.expectCq(2, 'IBV_WC_WR_FLUSH_ERR');
  await qp.poll();
  await expect(qp.polled).toContainText('IBV_WC_LOC_PROT_ERR · no valid opcode: look up wr_id');
  await expect(qp.polled).toContainText('IBV_WC_WR_FLUSH_ERR · no valid opcode: look up wr_id');
  await expect(qp.polled).not.toContainText('IBV_WC_SEND');
  await expect(qp.latest).toContainText('through wr_id');
  await expect(page.getByTestId('wire')).toContainText('0 B sent in total');

  await qp.resetQp();
  await qp.expectFigure('qp', 'RTS');
  await expect(qp.latest).toContainText('RESET → INIT → RTR → RTS');
  await qp.postSend();
  await qp.steps(3);
  await qp.expectCq(0, 'IBV_WC_SUCCESS');
});

test('a wrong lkey is a local protection error too', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  await qp.postBadKey();
  await qp.steps(3);
  await qp.expectCq(0, 'IBV_WC_LOC_PROT_ERR');
  await qp.expectFigure('qp', 'ERR');
  await expect(page.getByTestId('narration-history')).toContainText('names no registered region');
});

test('posting is refused when the SQ is full or the CQ could overflow', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  for (let i = 0; i < 4; i += 1) await qp.postSend();
  await qp.expectFigure('sq', '4/4');
  await qp.postSend();
  await expect(qp.latest).toContainText('ENOMEM');
  await page.getByTestId('speed').selectOption('4');
  await qp.play();
  await qp.expectFigure('cq', '4/4');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  await qp.postSend();
  await expect(qp.latest).toContainText('Poll the CQ first');
  await qp.poll();
  await qp.expectFigure('cq', '0/4');
  await qp.expectFigure('posted', 4);
});

test('Back undoes a step and Reset starts over', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  await qp.postSend();
  await qp.step();
  await qp.expectSq(0, 'fetched');
  await qp.back();
  await qp.expectSq(0, 'posted');
  await expect(qp.latest).toContainText('Stepped back');
  await qp.reset();
  await qp.expectStep(0);
  await qp.expectSq(0, 'empty');
});

test('a copied link reopens the same queue pair state', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  await qp.socketSend();
  await qp.postSend();
  await qp.postBadKey();
  await qp.steps(5);
  const link = await qp.copyLink();
  await page.goto(link);
  await qp.expectStep(8);
  await qp.expectFigure('qp', 'ERR');
  await qp.expectCq(0, 'IBV_WC_SUCCESS');
  await qp.expectCell('sock-syscalls', 1);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('the queue pair controls work from the keyboard', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  const post = page.getByTestId('post-send');
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press('Tab');
    if (await post.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(post).toBeFocused();
  await page.keyboard.press('Enter');
  await qp.expectSq(0, 'posted');
  await page.keyboard.press('ArrowRight');
  await qp.expectSq(0, 'fetched');
  for (const id of ['post-write', 'post-read', 'signaled']) {
    await page.keyboard.press('Tab');
    await expect(page.getByTestId(id)).toBeFocused();
  }
  await page.keyboard.press(' ');
  await expect(page.getByTestId('signaled')).not.toBeChecked();
  for (const id of ['poll-cq', 'peer-recv', 'socket-send']) {
    await page.keyboard.press('Tab');
    await expect(page.getByTestId(id)).toBeFocused();
  }
  await page.keyboard.press(' ');
  await qp.expectCell('sock-syscalls', 1);
});

test('a Send needs a receive at the peer: RNR NAKs, a late receive, then retries exhausted', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  for (let i = 0; i < 3; i += 1) await qp.postSend();
  await qp.steps(6);
  await qp.expectFigure('peer-rq', 0);
  await qp.steps(2);
  await expect(qp.latest).toContainText('RNR NAK');
  await qp.expectFigure('rnr', 1);
  await qp.expectSq(0, 'RNR wait');
  await qp.peerRecv();
  await qp.steps(2);
  await qp.expectCq(2, 'IBV_WC_SUCCESS');
  await qp.poll();

  await qp.postSend();
  await qp.steps(4);
  await expect(qp.latest).toContainText('IBV_WC_RNR_RETRY_EXC_ERR');
  await qp.step();
  await qp.expectCq(0, 'IBV_WC_RNR_RETRY_EXC_ERR');
  await qp.expectFigure('qp', 'ERR');
  await qp.expectFigure('rnr', 4);
});

test("one-sided RDMA WRITE and READ move bytes without the peer's receives or CPU", async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  await qp.postWrite();
  await qp.postRead();
  await qp.steps(6);
  await qp.expectFigure('remote-bytes', '1024 / 1024');
  await qp.expectFigure('peer-rq', 2);
  await expect(page.getByTestId('peer-mr')).toContainText('written 1024 B');
  await qp.poll();
  await expect(qp.polled).toContainText('WR #1 · IBV_WC_SUCCESS · IBV_WC_RDMA_WRITE');
  await expect(qp.polled).toContainText('WR #2 · IBV_WC_SUCCESS · IBV_WC_RDMA_READ · 1024 B');
  await expect(page.getByTestId('why')).toContainText("the peer's CPU ran no instruction");
});

test('break it: a wrong rkey is NAKed with a remote access error', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  await qp.postBadRkey();
  await qp.steps(2);
  await expect(qp.latest).toContainText('remote access error');
  await qp.step();
  await qp.expectCq(0, 'IBV_WC_REM_ACCESS_ERR');
  await qp.expectFigure('qp', 'ERR');
  await qp.expectFigure('remote-bytes', '0 / 0');
  await expectNoSeriousViolations(page);
});

test('selective signalling: unsignaled WRs write no CQE and hold their slots', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  await qp.twoSilentWrites();
  await qp.expectFigure('cq', '0/4');
  await qp.expectFigure('sq', '2/4');
  await qp.expectSq(0, 'done, no CQE');
  await qp.signaled(true);
  await qp.postWrite();
  await qp.steps(3);
  await expect(qp.latest).toContainText('unsignaled WRs before it finished');
  await qp.expectFigure('cq', '1/4');
  await qp.expectFigure('sq', '0/4');
});

test('break it: never signalling fills the SQ for good', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  await qp.signaled(false);
  for (let i = 0; i < 4; i += 1) await qp.postWrite();
  await page.getByTestId('speed').selectOption('4');
  await qp.play();
  await qp.expectFigure('silent', 4);
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  await qp.postWrite();
  await expect(qp.latest).toHaveAttribute('data-tone', 'refused');
  await expect(qp.latest).toContainText('ENOMEM');
  await expect(qp.latest).toContainText('unsignaled');
});

test('a copied link reopens one-sided work: unsignaled WRITEs, a READ and its bytes', async ({ page }) => {
  const qp = new RdmaQpPage(page);
  await qp.open();
  await qp.twoSilentWrites();
  await qp.signaled(true);
  await qp.postRead();
  await qp.steps(2);
  const at = await qp.stepCount.textContent();
  const link = await qp.copyLink();
  await page.goto(link);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
  await expect(qp.stepCount).toHaveText(at);
  await qp.expectFigure('silent', 2);
  await qp.expectFigure('sq', '3/4');
  await expect(page.getByTestId('signaled')).toBeChecked();
  // The reopened run carries on exactly as the original would have.
  await qp.steps(1);
  await qp.expectFigure('sq', '0/4');
  await qp.poll();
  await expect(qp.polled).toContainText('IBV_WC_RDMA_READ');
  await expect(page.getByTestId('peer-mr')).toContainText(/written 2048 B.*read 1024 B/);
});
