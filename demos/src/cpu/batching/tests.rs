use super::*;
use crate::model::Tone;

fn with(edit: impl FnOnce(&mut BatchConfig)) -> Batching {
    let mut c = BatchConfig::default();
    edit(&mut c);
    Batching::new(&c)
}

#[test]
fn throughput_is_b_over_fixed_plus_b_per_item() {
    // 1 / 750 ns = 1,333 k/s; 256 / (700 + 256 × 50) ns = 18,962 k/s.
    assert_eq!(throughput_kps(1, 700, 50), 1_333);
    assert_eq!(throughput_kps(32, 700, 50), 32_000_000 / 2_300);
    assert_eq!(throughput_kps(256, 700, 50), 18_962);
    // The plateau is 1 / per_item = 20,000 k/s.
    assert!(throughput_kps(256, 700, 50) < 20_000);
}

#[test]
fn overhead_share_is_fixed_over_fixed_plus_b_per_item() {
    assert_eq!(overhead_tenths(1, 700, 50), 933);
    assert_eq!(overhead_tenths(14, 700, 50), 500);
    assert_eq!(overhead_tenths(256, 700, 50), 52);
    let curve = with(|_| {}).curve();
    assert_eq!(curve.len(), CURVE_SIZES.len());
    assert!(curve
        .windows(2)
        .all(|w| w[0].throughput_kps < w[1].throughput_kps
            && w[0].overhead_tenths > w[1].overhead_tenths
            && w[0].fill_wait_ns < w[1].fill_wait_ns));
}

#[test]
fn without_a_timer_the_mean_fill_wait_is_b_minus_1_over_2_lambda() {
    let mut m = with(|c| {
        c.batch = 8;
        c.timeout_ns = 0;
        c.poisson = false;
        c.gap_ns = 1_000;
        c.items = 64;
    });
    m.apply(&BatchAction::Finish).unwrap();
    assert_eq!(mean_fill_wait_ns(8, 1_000), 3_500);
    assert_eq!(m.mean_fill_wait_measured_ns(), 3_500);
    assert_eq!(m.max_fill_wait, 7_000, "the first item waits for 7 more");
    assert_eq!((m.batches_left, m.full_batches), (8, 8));
    // Each batch costs 700 + 8 × 50 = 1,100 ns, done before the next fills:
    // latency = fill wait + 1,100 ns.
    assert_eq!(m.mean_latency_ns(), 4_600);
    assert_eq!(m.p99_latency_ns(), 8_100);
}

#[test]
fn the_timer_caps_the_wait_and_flushes_a_partial_batch() {
    let mut m = with(|c| {
        c.batch = 32;
        c.timeout_ns = 5_000;
        c.poisson = false;
        c.gap_ns = 1_000;
        c.items = 20;
    });
    m.apply(&BatchAction::Finish).unwrap();
    // Arrivals at 1, 2, … µs: the timer from 1 µs fires at 6 µs with 6 items.
    assert_eq!(m.history[0].size, 6);
    assert_eq!(m.history[0].reason, Flush::Timeout);
    assert_eq!(m.max_fill_wait, 5_000);
    assert_eq!(m.latencies.len(), 20);
    assert_eq!(m.full_batches, 0);
}

#[test]
fn default_run_finishes_every_item_within_the_timer_and_one_batch() {
    let mut m = with(|_| {});
    m.apply(&BatchAction::Finish).unwrap();
    assert_eq!(m.latencies.len(), 256);
    assert!(m.max_fill_wait <= 16_000);
    // Fill wait ≤ 16 µs, plus at most 32 items' service and a little queueing.
    assert!(
        m.p99_latency_ns() < 16_000 + 2 * 2_300,
        "{}",
        m.p99_latency_ns()
    );
    assert!(m.next_auto().is_err());
}

#[test]
fn break_it_maximises_throughput_and_wrecks_latency_at_low_load() {
    let mut calm = with(|c| c.gap_ns = 10_000);
    calm.apply(&BatchAction::Finish).unwrap();
    let mut broken = with(|_| {});
    broken.apply(&BatchAction::BreakIt).unwrap();
    assert_eq!(
        (
            broken.config.batch,
            broken.config.timeout_ns,
            broken.config.gap_ns
        ),
        (256, 0, 10_000)
    );
    broken.apply(&BatchAction::Finish).unwrap();
    assert_eq!(broken.batches_left, 1);
    // The first item waits for 255 more arrivals, about 2.55 ms.
    assert!(broken.max_fill_wait > 2_000_000, "{}", broken.max_fill_wait);
    assert!(broken.mean_latency_ns() > 1_000_000);
    assert!(calm.p99_latency_ns() < 20_000, "{}", calm.p99_latency_ns());
    assert!(broken.p99_latency_ns() > 100 * calm.p99_latency_ns());
    assert!(
        throughput_kps(256, 700, 50) > 10 * throughput_kps(1, 700, 50),
        "the broken batch size has by far the best throughput"
    );
}

#[test]
fn items_left_in_an_unfilled_batch_without_a_timer_wait_forever() {
    let mut m = with(|c| {
        c.timeout_ns = 0;
        c.items = 40;
    });
    m.apply(&BatchAction::Finish).unwrap();
    assert_eq!((m.latencies.len(), m.open.len()), (32, 8));
    let refusal = m.next_auto().unwrap_err();
    assert!(
        refusal.reason.contains("flush timeout"),
        "{}",
        refusal.reason
    );
    assert!(m.apply(&BatchAction::Finish).is_err());
}

#[test]
fn arrivals_faster_than_one_per_operation_build_a_queue() {
    let mut m = with(|c| {
        c.batch = 1;
        c.gap_ns = 500;
        c.poisson = false;
        c.items = 200;
    });
    m.apply(&BatchAction::Finish).unwrap();
    // Service 750 ns per item against an arrival every 500 ns: the last
    // item waits behind about 200 × 250 ns of backlog.
    let last = *m.latencies.last().unwrap();
    assert!(last > 40_000, "{last}");
    assert!(m.why().iter().any(|s| s.contains("without bound")));
    assert_eq!(m.overhead_measured_tenths(), 933);
}

#[test]
fn a_timer_flush_is_a_warning_and_a_full_batch_is_not() {
    let mut m = with(|c| {
        c.batch = 2;
        c.timeout_ns = 1_500;
        c.poisson = false;
        c.gap_ns = 1_000;
        c.items = 3;
    });
    let mut tones = Vec::new();
    while let Ok(events) = m.apply(&BatchAction::Step) {
        tones.extend(
            events
                .into_iter()
                .filter(|e| e.text.contains("leave"))
                .map(|e| e.tone),
        );
    }
    assert_eq!(tones, vec![Tone::Info, Tone::Warn]);
}

#[test]
fn impossible_actions_are_refused_and_change_nothing() {
    let mut m = with(|_| {});
    let fresh = m.clone();
    for action in [
        BatchAction::SetBatch(0),
        BatchAction::SetBatch(257),
        BatchAction::SetTimeout(1_000_001),
        BatchAction::SetFixed(0),
        BatchAction::SetPerItem(10_001),
        BatchAction::SetGap(0),
        BatchAction::SetGap(100_001),
        BatchAction::SetItems(0),
        BatchAction::SetItems(1025),
        BatchAction::SetBatch(32),
        BatchAction::SetPoisson(true),
    ] {
        assert!(m.apply(&action).is_err(), "{action:?}");
        assert_eq!(m, fresh);
    }
}

#[test]
fn the_same_seed_gives_the_same_arrivals() {
    let mut a = with(|_| {});
    let mut b = with(|_| {});
    a.apply(&BatchAction::Finish).unwrap();
    b.apply(&BatchAction::Finish).unwrap();
    assert_eq!(a, b);
    let mut c = with(|c| c.seed = 1);
    c.apply(&BatchAction::Finish).unwrap();
    assert_ne!(a.latencies, c.latencies);
}

#[test]
fn the_replayed_arrivals_are_the_ones_the_run_saw() {
    let mut m = with(|_| {});
    for _ in 0..50 {
        m.apply(&BatchAction::Step).unwrap();
    }
    let times = arrival_times(&m.config, m.arrived as usize);
    assert_eq!(times.len(), m.arrived as usize);
    assert_eq!(&times[times.len() - m.open.len()..], &m.open[..]);
    assert_eq!(m.history[0].first_arrival, times[0]);
    assert!(times.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn the_sweep_reruns_the_same_arrivals_at_each_batch_size() {
    let m = with(|_| {});
    let sweep = m.sweep();
    assert_eq!(
        sweep.iter().map(|p| p.batch).collect::<Vec<_>>(),
        CURVE_SIZES.to_vec()
    );
    let mut run = m.clone();
    run.apply(&BatchAction::Finish).unwrap();
    let here = sweep.iter().find(|p| p.batch == 32).unwrap();
    assert_eq!(
        (here.done, here.mean_ns, here.p99_ns),
        (256, run.mean_latency_ns(), run.p99_latency_ns())
    );
    // With the 16 µs timer every item finishes at every batch size, and
    // from 32 up every batch leaves on the timer: its first item waits 16 µs.
    assert!(sweep.iter().all(|p| p.done == 256));
    assert!(sweep.iter().all(|p| p.first_wait_ns <= 16_000));
    assert_eq!(sweep[8].first_wait_ns, 16_000);
    assert_eq!(sweep[0].first_wait_ns, 0, "a batch of one leaves at once");
}

#[test]
fn at_low_load_latency_only_grows_with_the_batch() {
    let mut m = with(|_| {});
    m.apply(&BatchAction::BreakIt).unwrap();
    let sweep = m.sweep();
    assert!(sweep.windows(2).all(|w| w[0].mean_ns <= w[1].mean_ns));
    // One item every 10 µs on average is served alone in 750 ns, rarely
    // queueing behind the one before; batches of 256 wait for 255 more.
    assert_eq!(sweep[0].mean_ns.min(750), 750);
    assert!(sweep[0].p99_ns < 1_500, "{}", sweep[0].p99_ns);
    assert!(sweep[8].mean_ns > 1_000_000, "{}", sweep[8].mean_ns);
}

#[test]
fn under_overload_a_batch_too_small_queues_and_a_batch_too_big_waits() {
    // 2 M items/s offered; one operation per item serves only 1.33 M/s.
    let m = with(|c| {
        c.gap_ns = 500;
        c.poisson = false;
        c.items = 512;
    });
    let sweep = m.sweep();
    let mean = |b: u32| sweep.iter().find(|p| p.batch == b).unwrap().mean_ns;
    assert!(mean(1) > 10 * mean(8), "{} vs {}", mean(1), mean(8));
    assert!(mean(256) > mean(8));
}

#[test]
fn without_a_timer_the_sweep_counts_the_items_left_waiting() {
    let m = with(|c| {
        c.timeout_ns = 0;
        c.items = 100;
    });
    let sweep = m.sweep();
    let done: Vec<u32> = sweep.iter().map(|p| p.done).collect();
    assert_eq!(done, vec![100, 100, 100, 96, 96, 96, 64, 0, 0]);
}

#[test]
fn a_quiet_run_ends_in_the_same_state_as_a_narrated_one() {
    for edit in [
        |_: &mut BatchConfig| {},
        |c: &mut BatchConfig| c.timeout_ns = 0,
        |c: &mut BatchConfig| c.batch = 1,
    ] {
        let m = with(edit);
        let mut narrated = m.clone();
        while narrated.apply(&BatchAction::Step).is_ok() {}
        assert_eq!(m.finished(), narrated);
        let mut at_once = m.clone();
        at_once.apply(&BatchAction::Finish).unwrap();
        assert_eq!(at_once, narrated);
    }
}

/// One `Bound` per setting: validation, the refusal and the slider read it,
/// and the sentence carries the unit (the old local `in_range` put it in the
/// noun: "flush timeout (ns, 0 = none) is 0 to 1000000; …").
#[test]
fn each_setting_is_refused_with_its_bound() {
    let bad = |edit: fn(&mut BatchConfig)| {
        let mut c = BatchConfig::default();
        edit(&mut c);
        Batching::validate(&c).unwrap_err()
    };
    assert_eq!(
        bad(|c| c.timeout_ns = 1_000_001),
        "The flush timer (0 = none) is 0 to 1000000 ns; 1000001 ns is out of range."
    );
    assert_eq!(bad(|c| c.batch = 0), BATCH.out_of_range(0));
    assert_eq!(bad(|c| c.fixed_ns = 0), FIXED.out_of_range(0));
    assert_eq!(
        bad(|c| c.per_item_ns = 10_001),
        PER_ITEM.out_of_range(10_001)
    );
    assert_eq!(bad(|c| c.gap_ns = 0), GAP.out_of_range(0));
    assert_eq!(bad(|c| c.items = 1025), ITEMS.out_of_range(1025));
    let mut m = Batching::new(&BatchConfig::default());
    let refusal = m.apply(&BatchAction::SetBatch(257)).unwrap_err();
    assert_eq!(refusal.reason, BATCH.out_of_range(257));
}
