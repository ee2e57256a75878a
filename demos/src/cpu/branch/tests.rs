use super::*;
use crate::model::Tone;

fn with(data: Data, predictor: PredictorKind, length: usize) -> Branch {
    Branch::new(&BranchConfig {
        data,
        predictor,
        length,
        ..BranchConfig::default()
    })
}

/// Mispredicts in each period of `pattern`, running `periods` periods.
fn per_period(kind: PredictorKind, pattern: Pattern, history: u8, periods: usize) -> Vec<u32> {
    let len = usize::from(pattern.len);
    let mut p = Predictor::new(kind, 8, history);
    (0..periods)
        .map(|k| {
            (0..len)
                .map(|i| {
                    let t = pattern.taken_at(k * len + i);
                    u32::from(p.resolve(t).predicted != t)
                })
                .sum()
        })
        .collect()
}

#[test]
fn a_warm_two_bit_counter_misses_a_loop_exactly_once_per_exit() {
    for n in [3u8, 5, 8, 16] {
        let misses = per_period(PredictorKind::TwoBit, Pattern::loop_exit(n), 0, 6);
        assert!(misses[2..].iter().all(|&m| m == 1), "n={n}: {misses:?}");
    }
}

#[test]
fn a_one_bit_predictor_misses_a_loop_twice_per_exit() {
    for n in [3u8, 5, 8, 16] {
        let misses = per_period(PredictorKind::OneBit, Pattern::loop_exit(n), 0, 6);
        // The exit, then the first iteration of the next run of the loop.
        assert!(misses[2..].iter().all(|&m| m == 2), "n={n}: {misses:?}");
    }
}

#[test]
fn gshare_with_history_at_least_the_period_learns_any_pattern_to_zero() {
    for len in PATTERN_MIN..=8 {
        for bits in 0..(1u16 << len) {
            let pattern = Pattern { len, bits };
            let misses = per_period(PredictorKind::Gshare, pattern, len, 40);
            // Each history meets its counter at least once per period; two
            // visits warm it, so after a few periods nothing is missed.
            assert!(
                misses[8..].iter().all(|&m| m == 0),
                "{}: {misses:?}",
                pattern.text()
            );
        }
    }
}

#[test]
fn always_taken_on_sorted_data_misses_exactly_the_not_taken_half() {
    let mut m = with(Data::Sorted, PredictorKind::AlwaysTaken, 512);
    let below = m.values.iter().filter(|&&v| v < 128).count() as u32;
    m.apply(&BranchAction::Finish).unwrap();
    assert_eq!(m.mispredicts, below);
    assert_eq!(m.taken, 512 - below);
    assert!(m.values.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn sorted_data_costs_a_two_bit_counter_almost_nothing_and_random_data_half() {
    let mut sorted = with(Data::Sorted, PredictorKind::TwoBit, 1024);
    sorted.apply(&BranchAction::Finish).unwrap();
    // Cold entry is weakly not-taken: the switch to taken costs two.
    assert!(sorted.mispredicts <= 2, "{}", sorted.mispredicts);
    let mut shuffled = with(Data::Shuffled, PredictorKind::TwoBit, 1024);
    shuffled.apply(&BranchAction::Finish).unwrap();
    assert!((350..=650).contains(&shuffled.mispredicts));
    assert!(shuffled.ipc_hundredths() * 3 < sorted.ipc_hundredths());
}

#[test]
fn the_break_it_pattern_beats_the_counter_and_gshare_learns_it() {
    let mut m = Branch::new(&BranchConfig::default());
    m.apply(&BranchAction::BreakIt).unwrap();
    assert_eq!(m.values.len(), 256);
    let [always, one, two, gshare] = m.compare().map(|(_, n)| n);
    // 256 branches of T T N: 85 N's; the counter misses each of them.
    assert_eq!(always, 85);
    assert!((85..=86).contains(&two), "{two}");
    assert!(one > two);
    assert!(gshare <= 8, "{gshare}");
    m.apply(&BranchAction::Finish).unwrap();
    assert_eq!(m.mispredicts, two);
}

#[test]
fn cycles_are_base_per_iteration_plus_penalty_per_mispredict() {
    let mut m = with(Data::Shuffled, PredictorKind::TwoBit, 64);
    m.apply(&BranchAction::Run(40)).unwrap();
    assert_eq!(m.cycles(), 40 * 2 + u64::from(m.mispredicts) * 15);
    assert_eq!(
        m.ipc_hundredths(),
        crate::text::ratio(240, m.cycles(), 2) // 6 instructions per iteration
    );
}

#[test]
fn a_step_narrates_prediction_entry_and_outcome() {
    let mut m = with(Data::Pattern(Pattern::TTN), PredictorKind::TwoBit, 16);
    let events = m.apply(&BranchAction::Step).unwrap();
    // Cold entry 1 (weakly not-taken) meets a taken branch.
    assert_eq!(events[0].tone, Tone::Warn);
    assert!(events[0].text.contains("mispredict"), "{}", events[0].text);
    let slot = BRANCH_PC as usize & 15;
    assert!(events[0].focus.contains(&format!("pht-{slot}")));
    assert_eq!(m.predictor.pht[slot], 2);
    let r = m.last().unwrap();
    assert_eq!((r.before, r.after, r.actual), (1, 2, true));
}

#[test]
fn gshare_shifts_each_outcome_into_the_history() {
    let mut m = with(Data::Pattern(Pattern::TTN), PredictorKind::Gshare, 16);
    for _ in 0..3 {
        m.apply(&BranchAction::Step).unwrap();
    }
    assert_eq!(m.predictor.history_text(), "NTTN");
    assert_eq!(m.predictor.ghr, 0b0110);
}

#[test]
fn impossible_actions_are_refused_and_change_nothing() {
    let mut m = with(Data::Sorted, PredictorKind::TwoBit, 16);
    let fresh = m.clone();
    for action in [
        BranchAction::Run(0),
        BranchAction::Run(17),
        BranchAction::SetLength(8),
        BranchAction::SetLength(2000),
        BranchAction::SetPenalty(0),
        BranchAction::SetHistory(5),
        BranchAction::SetIndexBits(9),
        BranchAction::SetBaseCycles(0),
        BranchAction::SetData(Data::Predictable(101)),
        BranchAction::SetData(Data::Pattern(Pattern { len: 1, bits: 1 })),
        BranchAction::SetData(Data::Pattern(Pattern { len: 3, bits: 8 })),
        BranchAction::SetPredictor(PredictorKind::TwoBit),
    ] {
        assert!(m.apply(&action).is_err(), "{action:?}");
        assert_eq!(m, fresh);
    }
    m.apply(&BranchAction::Finish).unwrap();
    assert!(m.apply(&BranchAction::Step).is_err());
    assert!(m.next_auto().is_err());
}

#[test]
fn predictability_slides_from_sorted_to_random() {
    let sorted = generate(Data::Sorted, 512, 9);
    assert_eq!(generate(Data::Predictable(100), 512, 9), sorted);
    let noisy = generate(Data::Predictable(0), 512, 9);
    let changed = noisy.iter().zip(&sorted).filter(|(a, b)| a != b).count();
    assert!(changed > 480, "{changed}");
}

#[test]
fn a_smaller_table_caps_the_history() {
    let mut m = Branch::new(&BranchConfig::default());
    m.apply(&BranchAction::SetIndexBits(2)).unwrap();
    assert_eq!((m.config.index_bits, m.config.history_bits), (2, 2));
    assert_eq!(m.predictor.pht.len(), 4);
}

#[test]
fn patterns_read_back_what_they_print() {
    assert_eq!(Pattern::parse("TTN"), Ok(Pattern::TTN));
    assert_eq!(Pattern::parse(" t t n "), Ok(Pattern::TTN));
    assert_eq!(Pattern::parse("TTTN"), Ok(Pattern::loop_exit(4)));
    let p = Pattern::parse("NTNNTTTN").unwrap();
    assert_eq!(p.text(), "NTNNTTTN");
    for bad in ["", "T", "TXN", &"T".repeat(17), "TT1"] {
        assert!(Pattern::parse(bad).is_err(), "{bad}");
    }
}

/// Regression (overflow-checked run of `branch_obeys_the_laws`): a link or
/// an action may carry a pattern longer than the 16 bits one holds, or an
/// empty one. Naming it in the refusal shifted a `u16` by 16 or more (a
/// panic under overflow checks, a wrong letter in release); it is refused
/// with the bound, and nothing changes.
#[test]
fn a_pattern_past_sixteen_letters_or_empty_is_refused_without_overflow() {
    let mut m = Branch::new(&BranchConfig::default());
    let fresh = m.clone();
    for len in [0u8, 1, 17, 200, u8::MAX] {
        let p = Pattern {
            len,
            bits: u16::MAX,
        };
        let refusal = m
            .apply(&BranchAction::SetData(Data::Pattern(p)))
            .unwrap_err();
        assert_eq!(refusal.reason, PATTERN_LEN.out_of_range(len), "{len}");
        assert_eq!(m, fresh);
        assert_eq!(p.text().len(), usize::from(len));
    }
    // Positions past bit 15 read as not taken, never as a wrapped shift.
    let long = Pattern {
        len: 17,
        bits: u16::MAX,
    };
    assert!(long.taken_at(15) && !long.taken_at(16));
    assert!(!Pattern { len: 0, bits: 1 }.taken_at(0));
    assert_eq!(Pattern::loop_exit(17).bits, u16::MAX);
    assert_eq!(Pattern::loop_exit(0).bits, 0);
    let stray = Pattern {
        len: 3,
        bits: 0b1011,
    };
    assert!(Branch::validate(&BranchConfig {
        data: Data::Pattern(stray),
        ..BranchConfig::default()
    })
    .is_err_and(|e| e.contains("past its 3 letters")));
}

#[test]
fn a_history_as_long_as_the_period_is_enough_but_often_more_than_needed() {
    assert_eq!(Pattern::TTN.history_needed(), 2);
    assert_eq!(Pattern::loop_exit(4).history_needed(), 3);
    assert_eq!(Pattern::parse("TTTT").unwrap().history_needed(), 0);
    assert_eq!(Pattern::parse("TNTN").unwrap().history_needed(), 1);
    for len in PATTERN_MIN..=8 {
        for bits in 0..(1u16 << len) {
            let pattern = Pattern { len, bits };
            let k = pattern.history_needed();
            assert!(k <= len, "{}", pattern.text());
            // k bits learn the pattern to zero misses...
            let enough = per_period(PredictorKind::Gshare, pattern, k, 40);
            assert!(
                enough[8..].iter().all(|&m| m == 0),
                "{}: {enough:?}",
                pattern.text()
            );
            // ...and one bit fewer keeps missing in every period.
            if k > 0 {
                let short = per_period(PredictorKind::Gshare, pattern, k - 1, 40);
                assert!(
                    short[8..].iter().all(|&m| m > 0),
                    "{}: {short:?}",
                    pattern.text()
                );
            }
        }
    }
}

#[test]
fn why_names_smiths_counter_the_history_ttn_needs_and_the_resolution_time() {
    let mut m = Branch::new(&BranchConfig::default());
    m.apply(&BranchAction::BreakIt).unwrap();
    m.apply(&BranchAction::Run(9)).unwrap();
    let why = m.why().join("\n");
    assert!(why.contains("Smith's 2-bit saturating counter"), "{why}");
    assert!(why.contains("Patterson and Hennessy"), "{why}");
    assert!(why.contains("hysteresis"), "{why}");
    assert!(why.contains("always enough, but not required"), "{why}");
    assert!(
        why.contains("the last 2 outcomes fix the next one"),
        "{why}"
    );
    assert!(
        why.contains("gshare with at least 2 bits of history learns it"),
        "{why}"
    );
    assert!(why.contains("waiting for the branch to resolve"), "{why}");
    assert!(Branch::leaves_out().contains("before it can resolve"));
    m.apply(&BranchAction::SetPredictor(PredictorKind::Gshare))
        .unwrap();
    m.apply(&BranchAction::SetHistory(1)).unwrap();
    let why = m.why().join("\n");
    assert!(why.contains("with 1 bit some history"), "{why}");
    assert!(!m
        .why()
        .iter()
        .any(|w| w.contains("at least as long as the period")));
}
