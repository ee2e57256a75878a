//! What a course (an LMS) is told of a learner's lessons, as plain data.
//!
//! The SCORM 1.2 package (`make scorm`, scripts/scorm.py) has one SCO per
//! section of the catalogue. While it runs, the page reports through the
//! LMS's SCORM 1.2 API (the data model of ADL's SCORM 1.2 Run-Time
//! Environment; read here in the element tables of Skillsoft's "SCORM 1.2
//! data model support" and Moodle's mod/scorm/datamodels/scorm_12.js.php):
//! - `cmi.core.lesson_status`: `completed` once every lesson of the section
//!   is done, `incomplete` before;
//! - `cmi.core.score.raw`: the share of the section's predictions answered
//!   right, 0 to 100 (with `score.min` 0 and `score.max` 100), over the
//!   predictions of every lesson the learner has begun — one not reached yet
//!   counts as not right, so the score only grows;
//! - `cmi.suspend_data` (at most 4,096 characters, `CMIString4096`): the
//!   lessons' progress records, so a learner who comes back on another
//!   computer finds what they did.
//!
//! The page draws and calls; these rules are tested here.

use super::lesson::Progress;

/// The most `cmi.suspend_data` may hold (SCORM 1.2 RTE, `CMIString4096`).
pub const SUSPEND_DATA_MAX: usize = 4096;

/// What the course is told: the SCO's status and, once a prediction has
/// been asked, its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    pub completed: bool,
    /// Percent of predictions right, rounded down; `None` while no lesson
    /// begun asks one.
    pub score: Option<u32>,
    /// Lessons of the section done, of how many.
    pub lessons_done: usize,
    pub lessons: usize,
}

impl Report {
    /// The report of a section whose demos' lessons stand at `records`
    /// (`None`: a lesson never begun).
    pub fn of(records: &[Option<Progress>]) -> Report {
        let begun = records.iter().flatten();
        let asked: u32 = begun.clone().map(|p| p.asked.count_ones()).sum();
        let right: u32 = begun
            .clone()
            .map(|p| (p.right & p.asked).count_ones())
            .sum();
        let lessons_done = begun.filter(|p| p.is_complete()).count();
        Report {
            completed: !records.is_empty() && lessons_done == records.len(),
            score: (asked > 0).then(|| right * 100 / asked),
            lessons_done,
            lessons: records.len(),
        }
    }

    /// `cmi.core.lesson_status`.
    pub fn status(&self) -> &'static str {
        if self.completed {
            "completed"
        } else {
            "incomplete"
        }
    }

    /// What the home page says the course was told.
    pub fn sentence(&self, section: &str) -> String {
        let score = self
            .score
            .map_or(String::new(), |s| format!(" · predictions {s}% right"));
        format!(
            "Your course records your progress in {section}: {} of {} lessons done{score}.",
            self.lessons_done, self.lessons
        )
    }
}

/// The sentence when the page was opened as a course activity but no LMS
/// answered (opened from the package's files, say): it is the plain lab.
pub fn no_course_sentence(section: &str) -> String {
    format!(
        "Opened as the course activity for {section}, but no course answered: \
         your progress stays in this browser."
    )
}

/// The sentence when the activity's link names no section of the lab
/// (`?sco=` mistyped in a hand-made package): the lab opens as usual.
pub fn unknown_section_sentence(id: &str) -> String {
    format!(
        "This course activity names a section the lab does not have (\"{}\"), so nothing \
         is reported to the course; the lab opened as usual.",
        super::slide::clipped(id)
    )
}

/// `cmi.suspend_data`: `slug=<progress>` records joined by `;`, as many as
/// fit in [`SUSPEND_DATA_MAX`] (a section's records take a few hundred).
pub fn encode_suspend_data(records: &[(&str, Progress)]) -> String {
    let mut text = String::new();
    for (slug, progress) in records {
        let record = format!("{slug}={}", progress.encode());
        let sep = usize::from(!text.is_empty());
        if text.len() + sep + record.len() > SUSPEND_DATA_MAX {
            break;
        }
        if sep == 1 {
            text.push(';');
        }
        text.push_str(&record);
    }
    text
}

/// Read back from the course; a record that does not read (another
/// version, a slug with odd characters, garbage) is skipped.
pub fn decode_suspend_data(text: &str) -> Vec<(String, Progress)> {
    if text.len() > SUSPEND_DATA_MAX {
        return Vec::new();
    }
    text.split(';')
        .filter_map(|record| {
            let (slug, progress) = record.split_once('=')?;
            let slug_ok = !slug.is_empty()
                && slug.len() <= 64
                && slug
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            Some((slug.to_string(), Progress::decode(progress)?)).filter(|_| slug_ok)
        })
        .collect()
}

/// Two records of one lesson, as kept in this browser and as the course
/// kept it: what either has done counts. Two records that disagree on the
/// lesson's stops (it changed between versions of the lab) are not mixed:
/// this browser's is kept.
pub fn merged(here: Option<Progress>, course: Option<Progress>) -> Option<Progress> {
    match (here, course) {
        (Some(a), Some(b)) if a.stops == b.stops => Some(Progress {
            stops: a.stops,
            asked: a.asked | b.asked,
            done: a.done | b.done,
            right: a.right | b.right,
        }),
        (Some(a), _) => Some(a),
        (None, b) => b,
    }
}

/// `cmi.core.session_time`, a `CMITimespan`: `HHHH:MM:SS`, hours at least
/// two digits and at most four (longer sessions say 9999 hours).
pub fn session_time(seconds: u64) -> String {
    let hours = (seconds / 3600).min(9999);
    let (minutes, secs) = if seconds / 3600 > 9999 {
        (59, 59)
    } else {
        ((seconds / 60) % 60, seconds % 60)
    };
    format!("{hours:02}:{minutes:02}:{secs:02}")
}

#[cfg(test)]
mod tests;
