use super::cost::{SlowLink, Straggler};
use super::schedule::Algorithm;
use super::*;

fn config(gpus: usize, algorithm: Algorithm) -> AllReduceConfig {
    AllReduceConfig {
        gpus,
        algorithm,
        ..AllReduceConfig::default()
    }
}

fn finish(m: &mut AllReduce) -> Vec<Event> {
    let mut events = Vec::new();
    while m.next_auto().is_ok() {
        events.extend(m.apply(&AllReduceAction::Step).unwrap());
        m.check().unwrap();
    }
    events
}

#[test]
fn ring_of_four_finishes_in_six_steps_with_identical_sums() {
    let mut m = AllReduce::new(&AllReduceConfig::default());
    assert_eq!(m.total_steps, 6);
    let events = finish(&mut m);
    assert_eq!(m.step, 6);
    // 1 + 2 + 3 + 4 in every element of every GPU.
    assert!(m.values.iter().all(|v| v.iter().all(|&x| x == 10)));
    assert!(m.identical());
    assert_eq!(events.last().unwrap().tone, crate::model::Tone::Done);
}

#[test]
fn ring_reduce_scatter_leaves_each_gpu_owning_one_full_chunk() {
    let mut m = AllReduce::new(&AllReduceConfig::default());
    for _ in 0..3 {
        m.apply(&AllReduceAction::Step).unwrap();
    }
    assert_eq!(m.phase(), "all-gather");
    // After N − 1 steps GPU i holds the complete sum of chunk (i + 1) mod N.
    for g in 0..4 {
        let (start, end) = schedule::chunk((g + 1) % 4, 4, 8);
        assert!((start..end).all(|e| m.values[g][e] == 10 && m.included[g][e] == 0b1111));
    }
}

#[test]
fn each_ring_gpu_sends_two_n_minus_one_over_n_of_the_data() {
    let mut m = AllReduce::new(&AllReduceConfig {
        elements: 16,
        ..config(8, Algorithm::Ring)
    });
    finish(&mut m);
    // 2(N−1)/N × 16 = 28 elements each.
    assert!(m.sent.iter().all(|&s| s == 28));
    assert_eq!(m.sent_share_tenths(0), 1750);
}

#[test]
fn trees_take_twice_log_n_steps_and_agree() {
    for n in [2, 3, 5, 8, 13, 64] {
        for a in [Algorithm::Tree, Algorithm::DoubleTree] {
            let mut m = AllReduce::new(&AllReduceConfig {
                fill: Fill::Seeded(n as u64),
                ..config(n, a)
            });
            let log = n.next_power_of_two().trailing_zeros() as usize;
            assert_eq!(m.total_steps, 2 * log, "{a:?} on {n}");
            finish(&mut m);
            assert!(m.identical());
            assert_eq!(m.values[0], m.expected());
        }
    }
}

#[test]
fn the_double_tree_splits_the_vector_between_its_trees() {
    let mut m = AllReduce::new(&config(8, Algorithm::DoubleTree));
    m.apply(&AllReduceAction::Step).unwrap();
    let trees: Vec<u8> = m.last.iter().map(|t| t.tree).collect();
    assert!(trees.contains(&0) && trees.contains(&1));
    assert!(m.last.iter().all(|t| (t.tree == 0) == (t.end <= 4)));
}

#[test]
fn every_ring_step_waits_for_a_slow_link() {
    let mut healthy = AllReduce::new(&config(8, Algorithm::Ring));
    let mut slow = healthy.clone();
    let events = slow
        .apply(&AllReduceAction::SetSlowLink(Some(SlowLink {
            gpu: 3,
            factor: 4,
        })))
        .unwrap();
    assert!(events[0].text.contains("Restarted"));
    finish(&mut healthy);
    let warned = finish(&mut slow)
        .iter()
        .filter(|e| e.text.contains("waited for GPU 3's link (4× slower)"))
        .count();
    assert_eq!(warned, 14, "all 2(N−1) steps");
    assert!(slow
        .step_ns
        .iter()
        .zip(&healthy.step_ns)
        .all(|(s, h)| s > h));
    assert!(slow.elapsed_ns > 3 * healthy.elapsed_ns);
    assert_eq!(slow.values, healthy.values, "slower, still right");
}

#[test]
fn a_straggler_delays_the_steps_it_sends_in() {
    let mut m = AllReduce::new(&config(4, Algorithm::Ring));
    let before = m.predicted_ns();
    m.apply(&AllReduceAction::SetStraggler(Some(Straggler {
        gpu: 1,
        delay_ns: 50_000,
    })))
    .unwrap();
    assert_eq!(m.predicted_ns(), before + 6 * 50_000);
}

#[test]
fn refusals_leave_the_state_alone() {
    let mut m = AllReduce::new(&AllReduceConfig::default());
    let before = m.clone();
    for bad in [
        AllReduceAction::Restart,
        AllReduceAction::SetAlgorithm(Algorithm::Ring),
        AllReduceAction::SetSlowLink(Some(SlowLink { gpu: 4, factor: 2 })),
        AllReduceAction::SetSlowLink(Some(SlowLink { gpu: 0, factor: 1 })),
        AllReduceAction::SetSlowLink(None),
        AllReduceAction::SetStraggler(Some(Straggler {
            gpu: 0,
            delay_ns: 0,
        })),
    ] {
        assert!(m.apply(&bad).is_err(), "{bad:?}");
        assert_eq!(m, before);
    }
    finish(&mut m);
    assert!(m.apply(&AllReduceAction::Step).is_err());
}

#[test]
fn seeded_inputs_are_digits_and_reproducible() {
    let c = AllReduceConfig {
        fill: Fill::Seeded(7),
        ..AllReduceConfig::default()
    };
    let (a, b) = (AllReduce::new(&c), AllReduce::new(&c));
    assert_eq!(a.inputs, b.inputs);
    assert!(a.inputs.iter().flatten().all(|&x| (0..=9).contains(&x)));
}

#[test]
fn status_reports_nccl_tests_bandwidths() {
    let m = AllReduce::new(&AllReduceConfig::default());
    let fig = |k: &str| m.status().into_iter().find(|f| f.key == k).unwrap().value;
    // 64 MiB in 4 GPUs' ring: t = 6·10 µs + 1.5·64 MiB / 25 GB/s.
    let t = 60_000 + (3 * (64u64 << 20)).div_ceil(2 * 25);
    assert_eq!(m.predicted_ns(), t);
    let alg = (64u64 << 20) * 100 / t;
    assert_eq!(fig("algbw"), format!("{} GB/s", fixed(alg as i64, 2)));
    assert_eq!(
        fig("busbw"),
        format!("{} GB/s", fixed((alg * 3 / 2) as i64, 2))
    );
}

#[test]
fn formats() {
    assert_eq!(bytes_text(64 << 20), "64 MiB");
    assert_eq!(bytes_text(1536 << 10), "1.5 MiB");
    assert_eq!(bytes_text(700), "700 B");
}

#[test]
fn invalid_configs_are_rejected() {
    let ok = AllReduceConfig::default();
    assert!(AllReduce::validate(&ok).is_ok());
    for bad in [
        AllReduceConfig {
            gpus: 1,
            ..ok.clone()
        },
        AllReduceConfig {
            gpus: 65,
            ..ok.clone()
        },
        AllReduceConfig {
            elements: 0,
            ..ok.clone()
        },
        AllReduceConfig {
            gbps: 0,
            ..ok.clone()
        },
        AllReduceConfig {
            alpha_ns: 0,
            ..ok.clone()
        },
        AllReduceConfig {
            message_bytes: 0,
            ..ok.clone()
        },
    ] {
        assert!(AllReduce::validate(&bad).is_err(), "{bad:?}");
    }
}

#[test]
fn the_why_names_nccls_pipelined_crossover_beside_the_unpipelined_one() {
    let m = AllReduce::new(&AllReduceConfig::default());
    let why = m.why().join(" ");
    // 4 GPUs, α = 10 µs, β = 25 GB/s: the ring beats NCCL's pipelined tree
    // from N·β·α·(N − 1 − ⌊log₂N⌋) = 1,000,000 bytes.
    assert!(
        why.contains("so NCCL's ring–tree crossover is at 976.5 KiB"),
        "{why}"
    );
    assert!(
        why.contains("this unpipelined tree is faster below"),
        "{why}"
    );
    assert!(AllReduce::leaves_out().contains("pipelining in the steps shown"));
    let two = AllReduce::new(&config(2, Algorithm::Ring));
    assert!(two
        .why()
        .join(" ")
        .contains("with 2 GPUs the ring is never slower"));
}

#[test]
fn busbw_is_explained_as_the_least_traffic_of_any_algorithm_not_the_rings_extra() {
    let why = AllReduce::new(&AllReduceConfig::default()).why().join(" ");
    assert!(!why.contains("undoes the ring's extra traffic"), "{why}");
    assert!(
        why.contains("Any all-reduce must move at least 2(N−1)/N of the message"),
        "{why}"
    );
}

#[test]
fn every_bound_refuses_with_its_own_range() {
    let bad = AllReduceConfig {
        gpus: 65,
        ..AllReduceConfig::default()
    };
    assert_eq!(
        AllReduce::validate(&bad),
        Err("The number of GPUs is 2 to 64; 65 is out of range.".into())
    );
    let bad = AllReduceConfig {
        alpha_ns: 50,
        ..AllReduceConfig::default()
    };
    assert_eq!(AllReduce::validate(&bad), Err(ALPHA_NS.out_of_range(50)));
    let mut m = AllReduce::new(&AllReduceConfig::default());
    let slow = SlowLink { gpu: 1, factor: 65 };
    let refusal = m
        .apply(&AllReduceAction::SetSlowLink(Some(slow)))
        .unwrap_err();
    assert_eq!(refusal.reason, SLOW_FACTOR.out_of_range(65));
    let late = Straggler {
        gpu: 1,
        delay_ns: 0,
    };
    let refusal = m
        .apply(&AllReduceAction::SetStraggler(Some(late)))
        .unwrap_err();
    assert_eq!(refusal.reason, DELAY_NS.out_of_range(0));
}
