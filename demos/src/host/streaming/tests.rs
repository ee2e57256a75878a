use super::enso::{self, PIPE_BYTES};
use super::ethernet::{line_rate, FRAME};
use super::figures::Tally;
use super::layout::{classic_reads, enso_reads, Reads};
use super::{Streaming, StreamingAction, StreamingConfig, RUN};
use crate::host::pcie::link::Link;
use crate::host::pcie::nic::{per_packet, per_packet_polled, Path};
use crate::Model;

fn demo(change: impl FnOnce(&mut StreamingConfig)) -> Streaming {
    let mut config = StreamingConfig::default();
    change(&mut config);
    Streaming::build(&config).expect("valid settings")
}

/// The headline's rate: 100 Gb/s ÷ ((64 + 20) × 8 bits) = 148.8 M frames
/// a second.
#[test]
fn minimum_frames_come_at_148_8_million_a_second() {
    let pps = line_rate(FRAME.min);
    assert!((pps - 148.809_5e6).abs() < 1e3, "{pps}");
}

/// Polling drops the simple NIC's interrupt and head-pointer read, and
/// nothing else.
#[test]
fn a_polling_driver_drops_the_interrupt_and_the_head_pointer_read() {
    let all = per_packet(Path::Receive, 60);
    let polled = per_packet_polled(Path::Receive, 60);
    assert_eq!(polled[..], all[..all.len() - 2]);
    let dropped: Vec<&str> = all[all.len() - 2..].iter().map(|t| t.what).collect();
    assert_eq!(dropped, ["interrupt (MSI)", "head pointer read"]);
}

/// A 64-byte frame is 60 bytes to the host. Classic, polling, up the link:
/// the descriptor-fetch request (24), the packet (24 + 60), the write-back
/// (24 + 16) = 148 bytes. With interrupts, the MSI (24 + 4) and the head
/// pointer's completion (20 + 4) too: 200, as the pcie demo's table has.
#[test]
fn a_classic_packet_costs_148_bytes_up_or_200_with_interrupts() {
    let m = demo(|_| {});
    let link = m.link();
    let polled = Tally::of(&link, &m.classic_transactions());
    assert_eq!((polled.transactions, polled.up), (4, 148));
    let irq = demo(|c| c.interrupts = true);
    assert_eq!(Tally::of(&link, &irq.classic_transactions()).up, 200);
}

/// Ensō's batch of 32: 32 packet writes of one 64-byte flit (24 + 64
/// each) and one notification (24 + 64) up; two 4-byte head writes
/// (24 + 4 each) down. 2,904 bytes up, 90.75 a packet.
#[test]
fn an_enso_batch_of_32_costs_90_75_bytes_a_packet() {
    let m = demo(|_| {});
    let batch = Tally::of(&m.link(), &m.enso_batch());
    assert_eq!(
        batch,
        Tally {
            transactions: 35,
            tlps: 35,
            up: 2_904,
            down: 56
        }
    );
    assert!((m.enso_per_packet().up - 90.75).abs() < 1e-9);
}

/// The headline's shape: on Gen3 ×16 only Ensō carries 148.8 M minimum
/// frames a second; at 1,518 bytes both do.
#[test]
fn only_enso_keeps_up_with_minimum_frames() {
    let m = demo(|_| {});
    assert!(m.enso_rate() >= m.line_rate(), "{}", m.enso_rate());
    assert!(m.classic_rate() < m.line_rate(), "{}", m.classic_rate());
    let big = demo(|c| c.frame = FRAME.max);
    assert!(big.enso_rate() >= big.line_rate());
    assert!(big.classic_rate() >= big.line_rate());
}

/// A notification per packet is a 64-byte write per packet: more than the
/// classic write-back's 16, so Ensō then trails a polling classic NIC.
#[test]
fn a_batch_of_one_loses_to_the_classic_nic() {
    let m = demo(|c| c.batch = 1);
    assert!(m.enso_rate() < m.classic_rate());
    assert!((m.enso_per_packet().up - 176.0).abs() < 1e-9);
}

/// 64 packets of 64 bytes: the classic core reads 64 packet lines in 64
/// buffers (63 jumps) and 16 descriptor lines; Ensō's reads 64 packet
/// lines in a row and one line per notification, and never jumps.
#[test]
fn classic_reads_jump_every_packet_and_enso_reads_never_do() {
    assert_eq!(
        classic_reads(64, 60),
        Reads {
            lines: 80,
            jumps: 63
        }
    );
    assert_eq!(
        enso_reads(64, 2, 60),
        Reads {
            lines: 66,
            jumps: 0
        }
    );
    // 1,514 bytes take 24 lines either way.
    assert_eq!(
        classic_reads(2, 1_514),
        Reads {
            lines: 49,
            jumps: 1
        }
    );
    assert_eq!(
        enso_reads(2, 1, 1_514),
        Reads {
            lines: 49,
            jumps: 0
        }
    );
    let m = demo(|_| {});
    assert_eq!(m.classic_per_packet().jumps, 1.0);
    assert_eq!(m.enso_per_packet().jumps, 0.0);
}

/// 3.5 GHz ÷ 148.8 M packets a second = 23.5 cycles a packet.
#[test]
fn one_core_has_23_5_cycles_a_minimum_packet() {
    assert!((demo(|_| {}).budget() - 23.52).abs() < 0.01);
}

/// Holding packet 1 pins one 2 KiB buffer in the classic ring, but every
/// flit after it in Ensō's pipe: 64 × 64 bytes after the run. The 2 MiB
/// pipe fills in 32,768 ÷ 148.8 M = 220 µs.
#[test]
fn holding_a_packet_pins_the_pipe_behind_it() {
    let mut m = demo(|c| c.hold = true);
    while m.apply(&StreamingAction::Deliver).is_ok() {}
    assert_eq!((m.classic_pinned(), m.enso_pinned()), (2_048, 64 * 64));
    assert!(
        (m.pipe_full_us() - 220.2).abs() < 0.1,
        "{}",
        m.pipe_full_us()
    );
    assert_eq!(PIPE_BYTES, 2 << 20);
    // Nothing is freed, so no pipe-head write closes a batch.
    assert_eq!(enso::batch_end(false).len(), 2);
    assert_eq!(m.enso_so_far().transactions, 64 + 2 * 2);
}

#[test]
fn a_batch_is_delivered_up_to_its_notification() {
    let mut m = demo(|c| c.batch = 12);
    let events = m.apply(&StreamingAction::DeliverBatch).unwrap();
    assert_eq!(m.delivered, 12);
    assert!(events.last().unwrap().text.contains("batch of 12"));
    assert_eq!(m.batches(), 1);
    // The last batch of the run is cut short by its end: 64 = 5 × 12 + 4.
    while m.apply(&StreamingAction::DeliverBatch).is_ok() {}
    assert_eq!((m.delivered, m.batches()), (RUN, 6));
    assert!(m.apply(&StreamingAction::Deliver).is_err());
}

#[test]
fn settings_are_checked_and_restart_the_run() {
    let mut m = demo(|_| {});
    m.apply(&StreamingAction::Deliver).unwrap();
    assert!(m.apply(&StreamingAction::SetBatch(32)).is_err());
    assert!(m.apply(&StreamingAction::SetBatch(0)).is_err());
    assert!(m.apply(&StreamingAction::SetLanes(12)).is_err());
    assert!(m.apply(&StreamingAction::SetFrame(63)).is_err());
    m.apply(&StreamingAction::SetBatch(8)).unwrap();
    assert_eq!(m.delivered, 0);
    assert!(Streaming::validate(&StreamingConfig {
        generation: 6,
        ..StreamingConfig::default()
    })
    .is_err());
}

/// The link's rules are the pcie demo's: a wider link doubles both rates.
#[test]
fn both_sides_scale_with_the_link() {
    let (x16, x8) = (demo(|_| {}), demo(|c| c.lanes = 8));
    assert_eq!(
        x16.link(),
        Link {
            lanes: 16,
            ..Link::default()
        }
    );
    assert!(x8.enso_rate() < x16.enso_rate() && x8.classic_rate() < x16.classic_rate());
}
