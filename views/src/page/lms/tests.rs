use super::*;
use proptest::prelude::*;

fn lesson(stops: usize, asked: u32, done: u32, right: u32) -> Progress {
    Progress {
        done,
        right,
        ..Progress::new(stops, asked)
    }
}

#[test]
fn a_section_is_completed_when_every_lesson_is_done() {
    let done = lesson(3, 0b011, 0b111, 0b001);
    let half = lesson(4, 0b1100, 0b0011, 0);
    let report = Report::of(&[Some(done), Some(half), None]);
    assert!(!report.completed);
    assert_eq!(report.status(), "incomplete");
    assert_eq!((report.lessons_done, report.lessons), (1, 3));
    // 1 right of the 4 predictions of the two lessons begun.
    assert_eq!(report.score, Some(25));
    assert_eq!(
        report.sentence("CPU"),
        "Your course records your progress in CPU: 1 of 3 lessons done · predictions 25% right."
    );

    let report = Report::of(&[Some(done), Some(lesson(4, 0b1100, 0b1111, 0b1100))]);
    assert!(report.completed);
    assert_eq!(report.status(), "completed");
    assert_eq!(report.score, Some(75));
}

#[test]
fn no_prediction_asked_means_no_score_and_nothing_begun_is_not_complete() {
    assert_eq!(Report::of(&[None, None]).score, None);
    assert_eq!(Report::of(&[Some(lesson(2, 0, 0b01, 0))]).score, None);
    assert!(!Report::of(&[]).completed);
    assert!(!Report::of(&[None]).completed);
    // A right mark outside the asked mask (a v1 record) is not counted.
    assert_eq!(Report::of(&[Some(lesson(2, 0b01, 0, 0b10))]).score, Some(0));
}

#[test]
fn suspend_data_keeps_every_record_and_skips_what_does_not_read() {
    let a = lesson(5, 0b10110, 0b00011, 0b00010);
    let b = lesson(3, 0, 0b111, 0);
    let text = encode_suspend_data(&[("mesi", a), ("descriptor-ring", b)]);
    assert_eq!(text, "mesi=2.5.22.3.2;descriptor-ring=2.3.0.7.0");
    assert_eq!(
        decode_suspend_data(&text),
        vec![("mesi".to_string(), a), ("descriptor-ring".to_string(), b)]
    );
    let odd = "=2.3.0.7.0;Mesi=2.3.0.7.0;tlb=9.9;x<y=2.3.0.7.0;tlb=2.3.0.7.0;;garbage";
    assert_eq!(decode_suspend_data(odd), vec![("tlb".to_string(), b)]);
    assert_eq!(decode_suspend_data(""), vec![]);
    assert_eq!(
        decode_suspend_data(&"a".repeat(SUSPEND_DATA_MAX + 1)),
        vec![]
    );
}

#[test]
fn records_that_would_overflow_the_course_field_are_left_out_whole() {
    let p = lesson(32, u32::MAX, u32::MAX, u32::MAX);
    let slug = "s".repeat(60);
    let many: Vec<(&str, Progress)> = (0..200).map(|_| (slug.as_str(), p)).collect();
    let text = encode_suspend_data(&many);
    assert!(text.len() <= SUSPEND_DATA_MAX);
    let back = decode_suspend_data(&text);
    assert!(back.len() > 10 && back.iter().all(|(s, q)| *s == slug && *q == p));
}

#[test]
fn what_either_side_did_counts() {
    let here = lesson(4, 0b0110, 0b0011, 0b0010);
    let course = lesson(4, 0b0110, 0b1001, 0b0100);
    assert_eq!(
        merged(Some(here), Some(course)),
        Some(lesson(4, 0b0110, 0b1011, 0b0110))
    );
    assert_eq!(merged(None, Some(course)), Some(course));
    assert_eq!(merged(Some(here), None), Some(here));
    assert_eq!(merged(None, None), None);
    // Another shape of the lesson: this browser's record stands.
    assert_eq!(
        merged(Some(here), Some(lesson(5, 0, 0b11111, 0))),
        Some(here)
    );
}

#[test]
fn session_time_is_a_cmi_timespan() {
    assert_eq!(session_time(0), "00:00:00");
    assert_eq!(session_time(59), "00:00:59");
    assert_eq!(session_time(3_723), "01:02:03");
    assert_eq!(session_time(36_000_000), "9999:59:59");
    assert_eq!(session_time(u64::MAX), "9999:59:59");
}

fn any_progress() -> impl Strategy<Value = Progress> {
    (1usize..=32, any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(stops, a, d, r)| {
        let mut p = Progress::new(stops, a);
        for n in 0..stops {
            if d & (1 << n) != 0 {
                p.mark_done(n);
            }
            if r & (1 << n) != 0 {
                p.mark_right(n);
            }
        }
        p
    })
}

proptest! {
    #[test]
    fn any_course_text_reads_without_panicking(text in ".{0,300}") {
        for (slug, _) in decode_suspend_data(&text) {
            prop_assert!(!slug.is_empty() && !slug.contains([';', '=']));
        }
    }

    #[test]
    fn records_survive_the_course(records in proptest::collection::vec(("[a-z][a-z0-9-]{0,20}", any_progress()), 0..12)) {
        let borrowed: Vec<(&str, Progress)> = records.iter().map(|(s, p)| (s.as_str(), *p)).collect();
        let text = encode_suspend_data(&borrowed);
        prop_assert!(text.len() <= SUSPEND_DATA_MAX);
        let back = decode_suspend_data(&text);
        prop_assert_eq!(back.len(), records.len());
        for ((s, p), (t, q)) in records.iter().zip(&back) {
            prop_assert_eq!(s, t);
            prop_assert_eq!(p, q);
        }
    }

    #[test]
    fn a_merge_never_loses_what_was_done(a in any_progress(), b in any_progress()) {
        let m = merged(Some(a), Some(b)).unwrap();
        prop_assert_eq!(m.done & a.done, a.done);
        prop_assert_eq!(m.right & a.right, a.right);
        if a.stops == b.stops {
            prop_assert_eq!(m.done & b.done, b.done);
        }
        let score = Report::of(&[Some(m)]).score;
        prop_assert!(score.is_none_or(|s| s <= 100));
    }
}
