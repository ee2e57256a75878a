//! The lesson panel's rules that are plain data: what the learner's
//! progress is and how it is kept (a short text in the browser's own
//! storage, never sent anywhere), how a typed number is read, and the
//! panel's sentences. The page draws them; the lesson itself (what is
//! right, what is done) is the demo's, through `LiveDemo`.

use crate::lesson::{Outline, Verdict};

/// The storage key of a demo's progress.
pub fn progress_key(slug: &str) -> String {
    format!("stack-lab.lesson.{slug}")
}

/// A learner's progress through one demo's lesson: which stops ask a
/// prediction, which are done and which predictions were right, as bit
/// masks (a lesson has at most 32 stops). The asked mask is the lesson's,
/// kept with the record so a course can score a lesson whose demo is not
/// open (`views::page::lms`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub stops: u32,
    pub asked: u32,
    pub done: u32,
    pub right: u32,
}

impl Progress {
    /// No stop done of a lesson of `stops` stops, of which those in
    /// `asked` ask a prediction.
    pub fn new(stops: usize, asked: u32) -> Progress {
        let mut progress = Progress {
            stops: stops.min(32) as u32,
            ..Progress::default()
        };
        progress.asked = asked & progress.mask();
        progress
    }

    /// No stop done of `outline`'s lesson.
    pub fn of_lesson(outline: &Outline) -> Progress {
        let asked = (0..outline.stops.len())
            .filter(|&n| outline.stops[n].question.is_some())
            .fold(0, |mask, n| mask | Self::bit(n));
        Progress::new(outline.stops.len(), asked)
    }

    /// Every stop done.
    pub fn is_complete(&self) -> bool {
        self.done == self.mask()
    }

    fn bit(n: usize) -> u32 {
        1u32.checked_shl(n as u32).unwrap_or(0)
    }

    pub fn is_done(&self, n: usize) -> bool {
        self.done & Self::bit(n) != 0
    }

    pub fn mark_done(&mut self, n: usize) {
        self.done |= Self::bit(n) & self.mask();
    }

    pub fn mark_right(&mut self, n: usize) {
        self.right |= Self::bit(n) & self.mask();
    }

    fn mask(&self) -> u32 {
        if self.stops >= 32 {
            u32::MAX
        } else {
            (1 << self.stops) - 1
        }
    }

    /// The first stop not done yet (the first stop when all are).
    pub fn resume(&self) -> usize {
        (0..self.stops as usize)
            .find(|&n| !self.is_done(n))
            .unwrap_or(0)
    }

    /// As kept in storage: `2.<stops>.<asked>.<done>.<right>`.
    pub fn encode(&self) -> String {
        format!(
            "2.{}.{}.{}.{}",
            self.stops, self.asked, self.done, self.right
        )
    }

    /// Read back from storage; anything else (an unknown version, a mask
    /// naming stops the lesson does not have, garbage) reads as nothing.
    /// Version 1, `1.<stops>.<done>.<right>`, had no asked mask: it reads
    /// with none, and the demo's page fills it in from its lesson.
    pub fn decode(text: &str) -> Option<Progress> {
        if text.len() > 50 {
            return None;
        }
        let mut parts = text.split('.');
        let version = parts.next()?;
        let mut number = || parts.next()?.parse::<u32>().ok();
        let (stops, asked, done, right) = match version {
            "1" => (number()?, 0, number()?, number()?),
            "2" => (number()?, number()?, number()?, number()?),
            _ => return None,
        };
        if parts.next().is_some() || !(1..=32).contains(&stops) {
            return None;
        }
        let progress = Progress {
            stops,
            asked,
            done,
            right,
        };
        let mask = progress.mask();
        (asked & !mask == 0 && done & !mask == 0 && right & !mask == 0).then_some(progress)
    }

    /// What the panel says of it: "2 of 5 stops done · 1 of 4 predictions
    /// right" (the predictions are the record's asked mask, as a course
    /// counts them: `views::page::lms`).
    pub fn summary(&self) -> String {
        format!(
            "{} of {} stops done · {} of {} predictions right",
            self.done.count_ones(),
            self.stops,
            (self.right & self.asked).count_ones(),
            self.asked.count_ones()
        )
    }

    /// What a home card says: "3/6 stops".
    pub fn card(&self) -> String {
        format!("{}/{} stops", self.done.count_ones(), self.stops)
    }
}

/// A number as typed: an optional minus, digits, an optional point (or
/// comma) and digits; at most 15 characters. No float parser is linked
/// for it.
pub fn read_number(text: &str) -> Option<f64> {
    let text = text.trim();
    if text.is_empty() || text.len() > 15 {
        return None;
    }
    let (negative, digits) = match text.strip_prefix(['-', '−']) {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, frac) = match digits.split_once(['.', ',']) {
        Some((w, f)) => (w, f),
        None => (digits, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !all_digits(whole) || !all_digits(frac) {
        return None;
    }
    let mut value = 0.0;
    for b in whole.bytes() {
        value = value * 10.0 + f64::from(b - b'0');
    }
    let mut scale = 1.0;
    for b in frac.bytes() {
        scale /= 10.0;
        value += f64::from(b - b'0') * scale;
    }
    Some(if negative { -value } else { value })
}

/// "Stop 2 of 5".
pub fn stop_of(n: usize, stops: usize) -> String {
    format!("Stop {} of {stops}", n + 1)
}

/// What the live region says when a stop opens.
pub fn stop_opened(n: usize, outline: &Outline) -> String {
    let title = outline.stops.get(n).map_or("", |s| s.title);
    format!("{}: {title}.", stop_of(n, outline.stops.len()))
}

/// The verdict's first words; `None` when nothing was replied (the
/// presenter revealed the answer in class mode).
pub fn verdict_word(verdict: &Verdict, replied: bool) -> &'static str {
    match (replied, verdict.right) {
        (false, _) => "The answer",
        (true, true) => "Right.",
        (true, false) => "Not quite.",
    }
}

/// "The right answer: E." or "Right answers: a, b."
pub fn right_answers(verdict: &Verdict) -> String {
    let label = if verdict.answers.len() == 1 {
        "The right answer"
    } else {
        "Right answers"
    };
    format!("{label}: {}.", verdict.answers.join("; "))
}

/// What the live region says of a verdict.
pub fn verdict_said(verdict: &Verdict, replied: bool) -> String {
    if replied {
        format!("{} {}", verdict_word(verdict, true), right_answers(verdict))
    } else {
        right_answers(verdict)
    }
}

/// The task's state, as the panel words it.
pub fn task_word(done: bool) -> &'static str {
    if done {
        "Done ✓"
    } else {
        "Not yet"
    }
}

/// "The picture as text" at a stop: the stop's question, or its task.
pub fn as_text(outline: &Outline, n: usize) -> Option<String> {
    let stop = outline.stops.get(n)?;
    let head = stop_of(n, outline.stops.len());
    match (&stop.question, stop.task) {
        (Some(q), _) => Some(format!("{head}, question: {}", q.ask)),
        (None, Some(task)) => Some(format!("{head}, try: {task}")),
        (None, None) => Some(format!("{head}: {}", stop.title)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::View;
    use demos::cpu::mesi::Mesi;

    #[test]
    fn progress_survives_its_storage_and_refuses_garbage() {
        let mut p = Progress::new(5, 0b10110);
        p.mark_done(0);
        p.mark_done(3);
        p.mark_right(3);
        p.mark_done(7); // no such stop
        assert_eq!(Progress::decode(&p.encode()), Some(p));
        assert_eq!(p.card(), "2/5 stops");
        assert_eq!(p.resume(), 1);
        for bad in [
            "",
            "1",
            "2.5.0.0",
            "3.5.0.0.0",
            "2.5.32.0.0",
            "2.5.0.0.32",
            "1.5.32.0",
            "1.0.0.0",
            "1.33.0.0",
            "1.5.1.1.1",
            "1.5.x.0",
            "1.5.-1.0",
        ] {
            assert_eq!(Progress::decode(bad), None, "{bad}");
        }
        let outline = Mesi::lesson().unwrap().outline();
        let mut p = Progress::of_lesson(&outline);
        assert_eq!(p.asked.count_ones(), 4);
        p.mark_done(0);
        p.mark_right(0);
        p.mark_right(1);
        assert_eq!(p.summary(), "1 of 5 stops done · 2 of 4 predictions right");
        let all = Progress {
            done: 0b11111,
            ..Progress::new(5, 0)
        };
        assert_eq!(all.resume(), 0);
        assert!(all.is_complete() && !p.is_complete());
        // A record from before the asked mask was kept reads with none.
        let old = Progress::decode("1.5.3.1").unwrap();
        assert_eq!((old.stops, old.asked, old.done, old.right), (5, 0, 3, 1));
    }

    #[test]
    fn numbers_are_read_as_typed() {
        assert_eq!(read_number("42"), Some(42.0));
        assert_eq!(read_number(" -3 "), Some(-3.0));
        assert_eq!(read_number("0.5"), Some(0.5));
        assert_eq!(read_number("2,25"), Some(2.25));
        assert_eq!(read_number(".5"), Some(0.5));
        for bad in [
            "",
            "-",
            ".",
            "1e3",
            "1.2.3",
            "abc",
            "1 2",
            "NaN",
            "inf",
            "9999999999999999",
        ] {
            assert_eq!(read_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn verdicts_read_as_sentences() {
        let v = Verdict {
            right: false,
            answers: vec!["E".into()],
            explain: "x".into(),
        };
        assert_eq!(verdict_said(&v, true), "Not quite. The right answer: E.");
        assert_eq!(verdict_said(&v, false), "The right answer: E.");
        let outline = Mesi::lesson().unwrap().outline();
        assert_eq!(stop_opened(0, &outline), "Stop 1 of 5: A cold line.");
        assert!(as_text(&outline, 0).unwrap().contains("In which state"));
        assert!(as_text(&outline, 4).unwrap().contains("try: Switch"));
    }
}
