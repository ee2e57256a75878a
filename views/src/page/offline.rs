//! What the home page says about keeping the lab offline (its service
//! worker: scripts/sw.js), from the worker's answer.

/// The worker's answer to "status" or "save-all".
#[derive(Clone, Debug, PartialEq)]
pub enum Kept {
    /// `saved` of the build's `total` module files are in its cache;
    /// `every_demo`: the learner asked for all of them.
    Files {
        saved: u32,
        total: u32,
        every_demo: bool,
    },
    /// The worker could not be registered or could not save, and why.
    Failed(String),
    /// This browser has no service workers here (an http:// address other
    /// than this machine's, or a browser without them).
    Unsupported,
}

/// The sentence under the button; `asked`: the answer to the learner's
/// press, not the page's first look.
pub fn kept_sentence(kept: &Kept, asked: bool) -> String {
    match kept {
        Kept::Files {
            saved,
            total,
            every_demo,
        } if *every_demo && saved == total => {
            if asked {
                format!("Every demo is available offline: {total} files kept in this browser.")
            } else {
                "Every demo is available offline in this browser.".into()
            }
        }
        Kept::Files { saved: 0, .. } if !asked => String::new(),
        Kept::Files { saved, total, .. } => {
            format!("{saved} of {total} demo files are kept in this browser so far.")
        }
        Kept::Failed(why) => format!(
            "The demos could not be kept offline: {}.",
            why.trim_end_matches('.')
        ),
        Kept::Unsupported => {
            "This browser cannot keep the lab offline here: it needs an https:// address.".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_says_what_the_worker_kept() {
        let all = Kept::Files {
            saved: 34,
            total: 34,
            every_demo: true,
        };
        assert_eq!(
            kept_sentence(&all, true),
            "Every demo is available offline: 34 files kept in this browser."
        );
        assert_eq!(
            kept_sentence(&all, false),
            "Every demo is available offline in this browser."
        );
        let some = Kept::Files {
            saved: 3,
            total: 34,
            every_demo: false,
        };
        assert_eq!(
            kept_sentence(&some, false),
            "3 of 34 demo files are kept in this browser so far."
        );
        let none = Kept::Files {
            saved: 0,
            total: 34,
            every_demo: false,
        };
        assert_eq!(kept_sentence(&none, false), "");
        assert_eq!(
            kept_sentence(&Kept::Failed("QuotaExceededError.".into()), true),
            "The demos could not be kept offline: QuotaExceededError."
        );
    }
}
