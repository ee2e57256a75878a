use super::flows::{flows, ELEPHANTS, ELEPHANT_WEIGHT};
use super::steering::{reciprocal_scale, Topology};
use super::*;
use crate::model::Model;

fn demo(change: impl FnOnce(&mut RssConfig)) -> Rss {
    let mut c = RssConfig::default();
    change(&mut c);
    Rss::validate(&c).unwrap();
    Rss::new(&c)
}

#[test]
fn local_spread_counts_the_given_nodes_cores_first_and_wraps() {
    let t = Topology { per_node: 4 };
    let from_0: Vec<u32> = (0..10).map(|i| t.local_spread(i, 0)).collect();
    assert_eq!(from_0, (0..8).chain(0..2).collect::<Vec<_>>());
    let from_1: Vec<u32> = (0..10).map(|i| t.local_spread(i, 1)).collect();
    assert_eq!(from_1, (4..8).chain(0..6).collect::<Vec<_>>());
}

#[test]
fn reciprocal_scale_reads_the_high_bits() {
    assert_eq!(reciprocal_scale(0xffff_ffff, 4), 3);
    assert_eq!(reciprocal_scale(0x4000_0000, 4), 1);
    assert_eq!(reciprocal_scale(0x3fff_ffff, 4), 0);
    // The low bits, which pick the table entry, do not matter to it.
    assert_eq!(
        reciprocal_scale(0x8000_007f, 4),
        reciprocal_scale(0x8000_0000, 4)
    );
}

#[test]
fn the_table_starts_as_the_driver_fills_it() {
    let m = demo(|_| {});
    assert_eq!(m.table.len(), TABLE_ENTRIES);
    assert!(m
        .table
        .iter()
        .enumerate()
        .all(|(i, &q)| usize::from(q) == i % 4));
}

#[test]
fn a_packet_goes_hash_entry_queue_core() {
    let mut m = demo(|_| {});
    let flow = m.next_flow();
    let f = m.flows()[flow];
    let events = m.apply(&RssAction::Receive).unwrap();
    let entry = f.hash as usize & 0x7f;
    let queue = entry % 4;
    assert_eq!(events[0].focus, [format!("entry-{entry}")]);
    assert!(
        events[0]
            .text
            .contains(&format!("entry {entry}, which holds queue {queue}")),
        "{}",
        events[0].text
    );
    // Queue q's interrupt is on core q: four queues fit node 0's four cores.
    assert!(events[0]
        .text
        .contains(&format!("goes to core {queue} on node 0")));
    assert_eq!(m.per_queue()[queue], 1);
    assert_eq!(m.stack_work()[queue], 1);
    m.check().unwrap();
}

#[test]
fn a_round_sends_every_flow_its_weight() {
    let mut m = demo(|c| c.elephants = true);
    m.apply(&RssAction::ReceiveRound).unwrap();
    let flows = m.flows();
    assert_eq!(flows.len(), 16 + ELEPHANTS as usize);
    for (i, f) in flows.iter().enumerate() {
        assert_eq!(m.per_flow[i], u64::from(f.weight()));
    }
    assert_eq!(m.sent, u64::from(16 + ELEPHANTS * ELEPHANT_WEIGHT));
    assert_eq!(m.stack_work(), m.stack_load());
    m.check().unwrap();
}

#[test]
fn the_elephants_share_one_host_and_differ_in_ports() {
    let f = flows(1, 3, true);
    let e: Vec<_> = f.iter().filter(|f| f.elephant).collect();
    assert_eq!(e.len(), ELEPHANTS as usize);
    assert!(e.iter().all(|x| x.src == e[0].src));
    assert!(e.windows(2).all(|w| w[1].src_port == w[0].src_port + 1));
}

#[test]
fn rfs_processes_every_packet_where_its_reader_runs() {
    let m = demo(|c| c.rfs = true);
    assert_eq!(m.handover_share(), 0.0);
    let without = demo(|_| {});
    assert!(without.handover_share() > 0.0);
}

#[test]
fn xps_sends_replies_from_the_senders_own_queue_when_it_has_one() {
    // Eight queues for eight cores: each core has its queue.
    let m = demo(|c| {
        c.queues = 8;
        c.xps = true;
    });
    assert_eq!(m.tx_elsewhere_share(), 0.0);
}

#[test]
fn interrupts_pinned_to_node_1_make_every_packet_remote() {
    let m = demo(|c| c.remote_irqs = true);
    assert_eq!(m.remote_share(), 100.0);
    assert_eq!(demo(|_| {}).remote_share(), 0.0);
}

#[test]
fn more_queues_than_the_nics_node_has_cores_spill_to_the_far_node() {
    let m = demo(|c| c.queues = 8);
    // Queues 4–7 interrupt cores 4–7, on node 1: their share of the round.
    let far: u64 = m
        .flows()
        .iter()
        .filter(|f| m.table[f.hash as usize & 0x7f] >= 4)
        .map(|f| u64::from(f.weight()))
        .sum();
    assert_eq!(m.remote_share(), 100.0 * far as f64 / m.round() as f64);
    assert!(m.remote_share() > 0.0);
}

#[test]
fn more_queues_than_cores_are_refused() {
    let mut m = demo(|c| c.per_node = 2);
    let refusal = m.apply(&RssAction::SetQueues(5)).unwrap_err();
    assert!(
        refusal
            .reason
            .contains("5 queues need 5 cores, and this host has 4"),
        "{}",
        refusal.reason
    );
    let mut four = demo(|_| {});
    assert!(four.apply(&RssAction::SetPerNode(1)).is_err());
}

#[test]
fn an_entry_moves_to_the_next_queue_and_counting_restarts() {
    let mut m = demo(|_| {});
    m.apply(&RssAction::Receive).unwrap();
    let events = m.apply(&RssAction::CycleEntry(3)).unwrap();
    assert_eq!(m.table[3], 0);
    assert_eq!(m.sent, 0);
    assert!(events[0]
        .text
        .starts_with("Entry 3 now holds queue 0 instead of 3."));
    m.apply(&RssAction::SpreadEvenly).unwrap();
    assert_eq!(m.table[3], 3);
    assert!(m.apply(&RssAction::SpreadEvenly).is_err());
    let mut one = demo(|c| c.queues = 1);
    assert!(one.apply(&RssAction::CycleEntry(0)).is_err());
    assert!(m.apply(&RssAction::CycleEntry(200)).is_err());
}

#[test]
fn a_setting_already_held_is_refused() {
    let mut m = demo(|_| {});
    assert!(m.apply(&RssAction::SetQueues(4)).is_err());
    assert!(m.apply(&RssAction::SetRps(false)).is_err());
    m.apply(&RssAction::SetRps(true)).unwrap();
    m.check().unwrap();
}
