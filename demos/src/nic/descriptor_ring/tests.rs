use super::*;
use RingAction::*;

fn ring(direction: Direction) -> DescriptorRing {
    DescriptorRing::new(&RingConfig {
        direction,
        ..RingConfig::default()
    })
}

fn run(m: &mut DescriptorRing, actions: &[RingAction]) {
    for a in actions {
        m.apply(a)
            .unwrap_or_else(|r| panic!("{a:?} refused: {}", r.reason));
        m.check().unwrap();
    }
}

const RX_ROUND: [RingAction; 6] = [Post, Doorbell, FrameArrives, NicFetch, NicDma, NicWriteBack];

#[test]
fn rx_round_trip_delivers_the_frame_with_the_written_back_length() {
    let mut m = ring(Direction::Rx);
    assert_eq!(m.fill_label(), "empty");
    run(&mut m, &RX_ROUND);
    assert_eq!((m.head, m.tail, m.doorbell), (1, 1, 1));
    assert_eq!(m.slot_label(0), "DD");
    assert!(m.memory[0].dd);
    run(&mut m, &[Reap]);
    assert_eq!(m.slot_label(0), "FREE");
    let frame = m.delivered[0];
    assert_eq!(m.memory[0].len, frame.len, "PKT_LEN is the frame's length");
    assert!(m.damage.is_empty());
}

#[test]
fn an_rx_descriptor_carries_only_the_address_the_buffer_size_is_the_queues() {
    // 82599 advanced RX read format: buffer addresses, no length. The driver
    // writes the address and clears the write-back word: two stores.
    let mut m = ring(Direction::Rx);
    run(&mut m, &[Post]);
    let fields: Vec<Field> = m.store_buffer.iter().map(|s| s.field).collect();
    assert_eq!(fields, vec![Field::Addr, Field::Status]);
    assert_eq!(m.slots[0].intended.len, 0);
}

#[test]
fn rx_write_back_overwrites_the_address_with_the_rss_hash() {
    let mut m = ring(Direction::Rx);
    run(&mut m, &RX_ROUND);
    assert_ne!(m.memory[0].addr, m.slots[0].intended.addr);
}

#[test]
fn there_is_no_own_bit_the_indices_say_who_owns_a_slot() {
    let mut m = ring(Direction::Tx);
    run(&mut m, &[Post]);
    assert_eq!(
        m.slot_label(0),
        "POSTED",
        "written, but beyond the NIC's TAIL"
    );
    run(&mut m, &[Doorbell]);
    assert_eq!(m.slot_label(0), "NIC", "between HEAD and the NIC's TAIL");
}

#[test]
fn tx_round_trip_sends_the_posted_frame_and_writes_dd_because_rs_was_set() {
    let mut m = ring(Direction::Tx);
    run(&mut m, &[Post, Doorbell]);
    let frame = m.slots[0].frame.unwrap();
    assert!(m.memory[0].rs);
    run(&mut m, &[NicFetch, NicDma, NicWriteBack]);
    assert!(m.memory[0].dd);
    run(&mut m, &[Reap]);
    assert_eq!(m.delivered, vec![frame]);
}

#[test]
fn without_rs_the_nic_writes_no_dd_and_the_driver_waits_for_a_later_rs() {
    let mut m = DescriptorRing::new(&RingConfig {
        direction: Direction::Tx,
        rs_every: 4,
        ..RingConfig::default()
    });
    run(&mut m, &[Post, Post, Doorbell]);
    for _ in 0..2 {
        run(&mut m, &[NicFetch, NicDma, NicWriteBack]);
    }
    assert!(!m.memory[0].dd && !m.memory[1].dd);
    assert_eq!(m.slot_label(0), "SENT");
    assert!(m.apply(&Reap).unwrap_err().reason.contains("no RS"));
    run(&mut m, &[Post, Post, Doorbell]);
    for _ in 0..2 {
        run(&mut m, &[NicFetch, NicDma, NicWriteBack]);
    }
    assert!(m.memory[3].dd, "the fourth post asked for status");
    run(&mut m, &[Reap]);
    assert_eq!(m.counters.reaped, 4, "one DD frees all four, in order");
}

#[test]
fn writel_orders_the_descriptor_stores_before_the_doorbell() {
    // memory-barriers.txt: writeX() waits for prior writes to memory.
    let mut m = ring(Direction::Rx);
    run(&mut m, &[Post]);
    assert_eq!(m.store_buffer.len(), 2);
    run(&mut m, &[Doorbell]);
    assert!(m.store_buffer.is_empty());
    assert_eq!(m.memory[0].addr, m.slots[0].intended.addr);
}

#[test]
fn nic_ignores_posted_descriptors_until_the_doorbell() {
    let mut m = ring(Direction::Rx);
    run(&mut m, &[Post, Barrier, FrameArrives]);
    assert!(m.apply(&NicFetch).is_err());
    assert!(m.next_auto().is_err());
}

#[test]
fn ring_refuses_the_eighth_post_one_slot_stays_empty() {
    let mut m = ring(Direction::Tx);
    for _ in 0..RING_SIZE - 1 {
        run(&mut m, &[Post]);
    }
    assert_eq!(m.fill_label(), "full (7 of 8)");
    let refusal = m.apply(&Post).unwrap_err();
    assert!(refusal.reason.contains("full"));
    assert_eq!(m.count(SlotState::Free), 1);
}

#[test]
fn reap_without_completion_is_refused() {
    let mut m = ring(Direction::Rx);
    assert!(m.apply(&Reap).is_err());
    run(&mut m, &[Post, Doorbell]);
    assert!(m.apply(&Reap).is_err(), "posted is not done");
}

#[test]
fn driver_sees_its_own_pending_store_not_a_stale_dd_bit() {
    // Round one leaves DD=1 in memory for slot 0. Posting slot 0 again
    // clears it in the store buffer: the driver's own core sees the clear at
    // once, so it cannot reap a stale completion.
    let mut m = ring(Direction::Tx);
    for _ in 0..RING_SIZE {
        run(
            &mut m,
            &[Post, Doorbell, NicFetch, NicDma, NicWriteBack, Reap],
        );
    }
    assert_eq!(m.tail, 0);
    run(&mut m, &[Post]);
    assert!(m.memory[0].dd, "memory still holds round one's DD");
    assert!(!m.driver_view(0).dd);
    assert!(m.apply(&Reap).is_err());
}

/// Posts, rings a relaxed doorbell and lets the NIC fetch: whether the fetch
/// was torn, and whether the DMA was damaged.
fn relaxed_round(direction: Direction, seed: u64) -> (bool, bool) {
    let mut m = DescriptorRing::new(&RingConfig {
        direction,
        seed,
        ..RingConfig::default()
    });
    run(&mut m, &[SetRelaxedDoorbell(true), Post, Doorbell]);
    if direction == Direction::Rx {
        run(&mut m, &[FrameArrives]);
    }
    run(&mut m, &[NicFetch, NicDma]);
    assert_eq!(m.counters.racy_fetches, 1);
    (m.counters.torn_fetches == 1, !m.damage.is_empty())
}

#[test]
fn a_relaxed_doorbell_is_a_race_that_usually_works() {
    // Seeded: over 400 seeds the NIC's read overtakes the stores about one
    // time in RACE_ODDS; most doorbells work, which is why the bug survives.
    let torn = (0..400)
        .filter(|&seed| relaxed_round(Direction::Tx, seed).0)
        .count();
    assert!((60..=140).contains(&torn), "{torn} of 400 torn");
}

#[test]
fn only_torn_fetches_damage_and_rx_damage_needs_a_stale_address() {
    for seed in 0..200 {
        let (torn, damaged) = relaxed_round(Direction::Rx, seed);
        assert!(!damaged || torn, "seed {seed}: damage without a torn fetch");
    }
}

const ROUND: [RingAction; 7] = [
    Post,
    Doorbell,
    FrameArrives,
    NicFetch,
    NicDma,
    NicWriteBack,
    Reap,
];

#[test]
fn default_seed_the_first_relaxed_round_works_the_second_is_torn() {
    // The browser test relies on this exact path with the default seed.
    let mut m = ring(Direction::Rx);
    run(&mut m, &[SetRelaxedDoorbell(true)]);
    run(&mut m, &ROUND);
    assert!(m.damage.is_empty());
    run(&mut m, &ROUND[..5]);
    assert_eq!(m.damage.len(), 1);
    assert_eq!(m.counters.racy_fetches, 2);
    assert_eq!(m.counters.torn_fetches, 1);
}

#[test]
fn default_seed_the_first_read_race_is_won_the_second_is_lost() {
    let mut m = ring(Direction::Rx);
    run(&mut m, &[SetSkipRmb(true)]);
    run(&mut m, &ROUND[..5]);
    run(&mut m, &[Reap]);
    assert_eq!(m.counters.torn_reads, 0);
    run(&mut m, &[NicWriteBack, Reap]);
    run(&mut m, &ROUND[..5]);
    run(&mut m, &[Reap]);
    assert_eq!(m.counters.torn_reads, 1);
    assert_eq!(m.delivered[1].len, 0);
}

#[test]
fn wmb_before_a_relaxed_doorbell_closes_the_race() {
    for seed in 0..50 {
        let mut m = DescriptorRing::new(&RingConfig {
            direction: Direction::Tx,
            seed,
            ..RingConfig::default()
        });
        run(
            &mut m,
            &[
                SetRelaxedDoorbell(true),
                Post,
                Barrier,
                Doorbell,
                NicFetch,
                NicDma,
            ],
        );
        assert_eq!(m.counters.racy_fetches, 0);
        assert!(m.damage.is_empty());
    }
}

/// RX without dma_rmb(): reap while the NIC is writing back descriptor 0.
fn reap_in_write_back(seed: u64) -> DescriptorRing {
    let mut m = DescriptorRing::new(&RingConfig {
        seed,
        ..RingConfig::default()
    });
    run(
        &mut m,
        &[
            SetSkipRmb(true),
            Post,
            Doorbell,
            FrameArrives,
            NicFetch,
            NicDma,
            Reap,
        ],
    );
    m
}

#[test]
fn without_dma_rmb_a_reap_during_write_back_sometimes_reads_a_stale_length() {
    let mut torn = 0;
    for seed in 0..200 {
        let m = reap_in_write_back(seed);
        assert_eq!(m.counters.read_races, 1);
        if m.counters.torn_reads == 1 {
            torn += 1;
            assert_eq!(m.delivered[0].len, 0, "the cleared length, not PKT_LEN");
            assert!(m.damage[0].read_side);
        } else {
            assert!(m.delivered.is_empty(), "loads in order: DD still 0");
        }
    }
    assert!((25..=80).contains(&torn), "{torn} of 200 torn");
}

#[test]
fn with_dma_rmb_a_reap_during_write_back_is_refused() {
    let mut m = ring(Direction::Rx);
    run(&mut m, &[Post, Doorbell, FrameArrives, NicFetch, NicDma]);
    assert!(m.apply(&Reap).unwrap_err().reason.contains("no DD"));
}

#[test]
fn the_read_side_switch_is_refused_in_tx() {
    let mut m = ring(Direction::Tx);
    assert!(m.apply(&SetSkipRmb(true)).is_err());
}

#[test]
fn frames_beyond_the_fifo_are_counted_as_missed() {
    let mut m = ring(Direction::Rx);
    run(&mut m, &[FrameArrives, FrameArrives, FrameArrives]);
    assert_eq!(m.rx_fifo.len(), RX_FIFO_FRAMES);
    assert_eq!(m.counters.rx_missed, 1);
}

#[test]
fn autoplay_walks_the_nic_through_fetch_dma_writeback() {
    let mut m = ring(Direction::Tx);
    run(&mut m, &[Post, Doorbell]);
    let mut steps = Vec::new();
    while let Ok(a) = m.next_auto() {
        m.apply(&a).unwrap();
        steps.push(a);
    }
    assert_eq!(steps, vec![NicFetch, NicDma, NicWriteBack]);
}

#[test]
fn bad_rs_interval_is_rejected() {
    let bad = RingConfig {
        rs_every: 3,
        ..RingConfig::default()
    };
    assert!(DescriptorRing::validate(&bad).is_err());
}

#[test]
fn hex_groups_addresses_in_sixteen_bit_halves() {
    assert_eq!(hex(0x0010_1800), "0x0010_1800");
    assert_eq!(hex(0), "0x0000_0000");
}

#[test]
fn the_x86_note_does_not_say_loads_keep_order_with_stores() {
    // x86-TSO lets a load pass an older store to another address (Intel SDM
    // vol. 3A): the old text said stores and loads keep program order.
    let text = DescriptorRing::leaves_out();
    assert!(!text.contains("stores and loads keep program order"));
    assert!(text.contains("a load may still pass an earlier store"));
}
