use super::*;
use crate::Model;

fn run(config: ZeroCopyConfig, packets: u64) -> ZeroCopy {
    let mut m = ZeroCopy::new(&config);
    for _ in 0..packets * 2 {
        m.apply(&ZeroCopyAction::Step).unwrap();
        m.check().unwrap();
    }
    m
}

fn with(change: impl FnOnce(&mut ZeroCopyConfig)) -> ZeroCopyConfig {
    let mut c = ZeroCopyConfig::default();
    change(&mut c);
    c
}

/// The flow's RSS queue under Microsoft's key and `equal 3`: never the
/// bound queue. The hash is 0x7691998d (checked with an independent
/// transcription of the algorithm): entry 13 of the table, queue 13 mod 3.
#[test]
fn rss_sends_the_flow_off_the_bound_queue() {
    assert!(rss_queue() < BOUND_QUEUE);
    assert_eq!(rss_queue(), 1);
}

/// Copy: every payload copied once; four pages mapped to fill the ring and
/// then only recycled.
#[test]
fn the_copy_path_copies_every_payload_and_recycles_pages() {
    let m = run(with(|c| c.mode = Mode::Copy), 10);
    let c = m.counts;
    assert_eq!(c.delivered, 10);
    assert_eq!(c.bytes_copied, 10 * 1_448);
    assert_eq!(c.kernel_bytes, 10 * (1_448 + 66));
    assert_eq!((c.pages_mapped, c.recycled, c.dropped), (4, 10, 0));
    assert!(m.area.is_empty());
    assert!(!m.split());
}

#[test]
fn header_split_still_copies_but_headers_land_apart() {
    let mut m = ZeroCopy::new(&with(|c| c.mode = Mode::Split));
    m.apply(&ZeroCopyAction::Step).unwrap();
    let last = m.last.unwrap();
    assert!(last.split);
    assert_eq!(last.fate, Fate::Landed(Store::Page(0)));
    m.apply(&ZeroCopyAction::Step).unwrap();
    assert_eq!(m.counts.bytes_copied, 1_448);
}

/// Zero-copy: nothing copied, only headers in kernel memory, and the
/// application holds `hold` buffers between reads.
#[test]
fn zero_copy_copies_nothing_and_holds_buffers() {
    let m = run(ZeroCopyConfig::default(), 10);
    let c = m.counts;
    assert_eq!((c.delivered, c.bytes_copied, c.dropped), (10, 0, 0));
    assert_eq!(c.kernel_bytes, 10 * 66);
    assert_eq!(c.bound_bytes, 10 * 1_448);
    assert_eq!(m.area_count(Owner::App), 2);
    assert_eq!(c.returned, 8);
    assert_eq!(m.area_mapped() + c.pages_mapped, 8);
}

/// A fragment's references: the skb's alone once it lands, the
/// application's alone once read.
#[test]
fn a_fragment_goes_from_the_skb_to_the_application() {
    let mut m = ZeroCopy::new(&ZeroCopyConfig::default());
    m.apply(&ZeroCopyAction::Step).unwrap();
    assert_eq!(m.last.unwrap().fate, Fate::Landed(Store::Area(0)));
    assert_eq!((m.area[0].owner, m.area[0].refs), (Owner::Kernel, 1));
    m.apply(&ZeroCopyAction::Step).unwrap();
    assert_eq!((m.area[0].owner, m.area[0].refs), (Owner::App, 1));
}

/// The safe hold is the area less the ring: at it nothing drops, one more
/// and the pool runs dry, for every area size.
#[test]
fn holding_longer_than_the_area_allows_drops_packets() {
    for buffers in BUFFERS.min..=BUFFERS.max {
        let base = with(|c| c.buffers = buffers);
        let safe = ZeroCopy::new(&base).safe_hold().unwrap();
        assert_eq!(safe, buffers - RING_SLOTS as u32);
        let at = |hold| {
            run(
                ZeroCopyConfig {
                    hold,
                    ..base.clone()
                },
                100,
            )
            .counts
            .dropped
        };
        assert_eq!(at(safe), 0, "{buffers} buffers, hold {safe}");
        if safe < HOLD.max {
            assert!(at(safe + 1) > 0, "{buffers} buffers, hold {}", safe + 1);
        }
    }
}

/// Without the rule a devmem flow is ordinary data: copied, and the bound
/// buffers untouched on their ring.
#[test]
fn without_steering_devmem_data_is_copied() {
    let m = run(with(|c| c.steering = false), 10);
    assert_eq!(m.counts.bytes_copied, 10 * 1_448);
    assert_eq!(m.counts.fragments, 0);
    assert_eq!(m.area_count(Owner::Nic), RING_SLOTS);
    assert_eq!(m.page_ring.as_ref().unwrap().queue, rss_queue());
}

/// Without the rule io_uring copies into its area; held too long, the area
/// runs out, reads fail with ENOMEM, and the window stops the sender.
/// Nothing is dropped.
#[test]
fn without_steering_zcrx_copies_into_its_area_until_it_runs_out() {
    let ok = run(
        with(|c| {
            c.steering = false;
            c.provider = Provider::Zcrx;
        }),
        10,
    );
    assert_eq!(ok.counts.bytes_copied, 10 * 1_448);
    assert_eq!(ok.area_count(Owner::App), 2);
    let dry = run(
        with(|c| {
            c.steering = false;
            c.provider = Provider::Zcrx;
            c.hold = 12;
        }),
        30,
    );
    let c = dry.counts;
    assert!(c.enomem > 0 && c.held_back > 0);
    assert_eq!(c.dropped, 0);
    assert_eq!(dry.pages.len(), RING_SLOTS + WINDOW);
}

#[test]
fn a_nic_without_header_split_cannot_bind() {
    let m = run(with(|c| c.nic_split = false), 3);
    assert!(m.bind_refused() && !m.bound());
    assert!(m.area.is_empty());
    assert_eq!(m.counts.bytes_copied, 3 * 1_448);
    assert_eq!(m.counts.kernel_bytes, 3 * (1_448 + 66));
    assert!(m.setup().contains("tcp-data-split is disabled"));
}

#[test]
fn a_batch_runs_ten_packet_times() {
    let mut m = ZeroCopy::new(&ZeroCopyConfig::default());
    m.apply(&ZeroCopyAction::Step).unwrap();
    m.apply(&ZeroCopyAction::Batch).unwrap();
    assert_eq!((m.tick, m.phase), (11, Phase::Arrive));
    m.check().unwrap();
}

#[test]
fn settings_are_refused_when_unchanged_or_out_of_range() {
    let mut m = ZeroCopy::new(&ZeroCopyConfig::default());
    assert!(m.apply(&ZeroCopyAction::SetMode(Mode::ZeroCopy)).is_err());
    let r = m.apply(&ZeroCopyAction::SetBuffers(2)).unwrap_err();
    assert_eq!(
        r.reason,
        "The bound area is 4 to 16 buffers; 2 buffers is out of range."
    );
    assert!(m.apply(&ZeroCopyAction::SetHold(21)).is_err());
    assert!(m.apply(&ZeroCopyAction::SetPayload(4_031)).is_err());
    m.apply(&ZeroCopyAction::SetPayload(4_030)).unwrap();
}

#[test]
fn the_needs_follow_the_setup() {
    let m = ZeroCopy::new(&ZeroCopyConfig::default());
    assert!(needs(&m).iter().all(|n| n.met == Met::Yes));
    let off = ZeroCopy::new(&with(|c| c.steering = false));
    let steer = needs(&off)
        .into_iter()
        .find(|n| n.key == "need-steer")
        .unwrap();
    assert_eq!(steer.met, Met::No);
    assert_eq!(steer.status, "no rule: RSS picks queue 1");
    let copy = ZeroCopy::new(&with(|c| c.mode = Mode::Copy));
    assert!(needs(&copy).iter().all(|n| n.met == Met::Unused));
}

/// Per packet: the copy path pays its payload in bytes copied, zero-copy a
/// buffer given back; io_uring's fallback pays both.
#[test]
fn each_path_has_its_cost_per_packet() {
    let copy = ZeroCopy::new(&with(|c| c.mode = Mode::Copy)).per_packet();
    assert_eq!(
        (
            copy.copied,
            copy.kernel,
            copy.bound,
            copy.recycled,
            copy.given_back
        ),
        (1_448, 1_514, 0, 1, 0)
    );
    let zero = ZeroCopy::new(&ZeroCopyConfig::default()).per_packet();
    assert_eq!(
        (
            zero.copied,
            zero.kernel,
            zero.bound,
            zero.recycled,
            zero.given_back
        ),
        (0, 66, 1_448, 0, 1)
    );
    let fallback = ZeroCopy::new(&with(|c| {
        c.provider = Provider::Zcrx;
        c.steering = false;
    }))
    .per_packet();
    assert_eq!((fallback.copied, fallback.given_back), (1_448, 1));
    // The rule agrees with the run.
    let m = run(ZeroCopyConfig::default(), 10);
    assert_eq!(m.counts.bound_bytes, 10 * zero.bound);
}
