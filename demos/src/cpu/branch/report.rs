//! What the page prints: narration of one branch, status figures, "why it
//! matters", the side-by-side comparison, and the invariants.

use super::*;
use crate::text::{fixed, plural, ratio, share_tenths, tenths};

fn word(taken: bool) -> &'static str {
    if taken {
        "taken"
    } else {
        "not taken"
    }
}

/// Focus keys: `elem-<i>` (the array cell), `pht-<k>` (table entry), `ghr`.
pub(super) fn narrate(m: &Branch, r: &BranchRecord) -> Event {
    let cmp = if r.actual { "≥" } else { "<" };
    let mut text = format!(
        "a[{}] = {} {cmp} 128: {}. Predicted {}",
        r.index,
        r.value,
        word(r.actual),
        word(r.predicted)
    );
    if let Some(slot) = r.slot {
        text += &format!(" from entry {slot} ({}", r.before);
        if r.after != r.before {
            text += &format!(" → {}", r.after);
        }
        text.push(')');
    }
    let event = if r.hit() {
        Event::done(text + ".")
    } else {
        Event::warn(format!(
            "{text}: mispredict, {} cycles lost.",
            m.config.penalty
        ))
    };
    let mut event = event.at(format!("elem-{}", r.index));
    if let Some(slot) = r.slot {
        event = event.at(format!("pht-{slot}"));
    }
    if m.config.predictor == PredictorKind::Gshare {
        event = event.at("ghr");
    }
    event
}

impl Branch {
    /// Mispredicts in tenths of a percent of the branches run.
    pub fn mispredict_tenths(&self) -> i64 {
        share_tenths(i64::from(self.mispredicts), self.next as i64)
    }

    /// Instructions per cycle, in hundredths.
    pub fn ipc_hundredths(&self) -> i64 {
        ratio(self.instructions(), self.cycles(), 2)
    }

    /// Cycles per iteration, in hundredths.
    pub fn cpi_hundredths(&self) -> i64 {
        ratio(self.cycles(), self.next as u64, 2)
    }

    /// Mispredicts each predictor makes over the whole array, cold start,
    /// in the order of [`PredictorKind::ALL`]: the bars of the comparison.
    pub fn compare(&self) -> [(PredictorKind, u32); 4] {
        PredictorKind::ALL.map(|kind| {
            let outcomes = self.values.iter().map(|&v| taken(v));
            let n = count_mispredicts(
                kind,
                self.config.index_bits,
                self.config.history_bits,
                outcomes,
            );
            (kind, n)
        })
    }
}

pub(super) fn figures(m: &Branch) -> Vec<Figure> {
    let mut out = vec![
        Figure::new(
            "iteration",
            "iteration",
            format!("{}/{}", m.next, m.values.len()),
        ),
        Figure::new("predictor", "predictor", m.config.predictor.label()),
        Figure::new("mispredicts", "mispredicts", m.mispredicts),
        Figure::new("rate", "mispredict rate", tenths(m.mispredict_tenths())),
        Figure::new("cycles", "cycles", m.cycles()),
        Figure::new("ipc", "IPC", fixed(m.ipc_hundredths(), 2)),
        Figure::new("penalty", "penalty", format!("{} cycles", m.config.penalty)),
    ];
    if m.config.predictor == PredictorKind::Gshare {
        out.push(Figure::new("ghr", "history", m.predictor.history_text()));
    }
    out
}

pub(super) fn why(m: &Branch) -> Vec<String> {
    let mut out = Vec::new();
    if m.next > 0 {
        let lost = u64::from(m.mispredicts) * u64::from(m.config.penalty);
        out.push(format!(
            "{} of {} branch{} mispredicted ({}): {lost} of the {} cycles went to mispredicts (waiting for the branch to resolve, then refetching the right path), and the loop runs at {} cycles per iteration instead of {}.",
            m.mispredicts,
            m.next,
            if m.next == 1 { "" } else { "es" },
            tenths(m.mispredict_tenths()),
            m.cycles(),
            fixed(m.cpi_hundredths(), 2),
            m.config.base_cycles
        ));
    }
    let bars = m.compare();
    out.push(format!(
        "Over all {} elements of this data from cold: always taken {}, 1-bit {}, 2-bit {}, gshare {} mispredicts.",
        m.values.len(),
        bars[0].1,
        bars[1].1,
        bars[2].1,
        bars[3].1
    ));
    out.push(match m.config.data {
        Data::Sorted => "Sorted data gives one long run of not-taken, then one of taken: any predictor with memory misses only around the switch.".into(),
        Data::Shuffled => "Random bytes make the branch a coin toss: no predictor beats about half wrong, which is why hot loops get branch-free code (cmov, masks) or sorted input.".into(),
        Data::Predictable(p) => format!(
            "About {} % of elements are replaced at random, and roughly half of those flip the branch: the mispredict rate follows that noise.",
            100 - u32::from(p)
        ),
        Data::Pattern(p) => pattern_why(p, m.config.predictor, m.config.history_bits),
    });
    if m.config.predictor.counts() {
        out.push(format!(
            "{} Smith's 2-bit saturating counter (J. E. Smith, 1981): each outcome moves it one step, so from a strong state it takes two surprises in a row to change its prediction. The 2-bit diagram in Patterson and Hennessy's Computer Organization and Design is a different machine: there a miss in a weak state jumps to the other side's strong state (hysteresis).",
            if m.config.predictor == PredictorKind::Gshare {
                "Each gshare entry is"
            } else {
                "The 2-bit counter is"
            }
        ));
    }
    out
}

/// What history a repeating pattern needs, for "why it matters": computed
/// from the pattern, since a history as long as the period is enough but
/// often more than needed.
fn pattern_why(p: Pattern, kind: PredictorKind, history_bits: u8) -> String {
    let needed = p.history_needed();
    let head = format!(
        "The pattern {} repeats every {} branch{}: a counter sees only how often each way goes, while gshare tells the positions apart by the last outcomes.",
        p.text(),
        p.len,
        if p.len == 1 { "" } else { "es" },
    );
    if needed == 0 {
        return format!("{head} Here every outcome is the same, so no history is needed.");
    }
    let verdict = if kind != PredictorKind::Gshare {
        format!(
            "gshare with at least {needed} bit{} of history learns it",
            plural(usize::from(needed))
        )
    } else if history_bits >= needed {
        format!(
            "this gshare's {history_bits} bit{} are enough, so it stops missing once its counters are trained",
            plural(usize::from(history_bits))
        )
    } else {
        format!(
            "with {history_bits} bit{} some history is followed by T at one point of the period and by N at another, so gshare keeps missing",
            plural(usize::from(history_bits))
        )
    };
    format!(
        "{head} A history as long as the period is always enough, but not required: here the last {needed} outcome{} fix the next one, and {verdict}.",
        plural(usize::from(needed)),
    )
}

pub(super) fn check(m: &Branch) -> Result<(), String> {
    if m.values.len() != m.config.length || m.next > m.values.len() {
        return Err("the loop index ran past the array".into());
    }
    if m.mispredicts as usize > m.next || m.taken as usize > m.next {
        return Err("more mispredicts or taken branches than branches run".into());
    }
    if m.recent.len() > RECENT_KEPT.min(m.next) {
        return Err("the recent strip holds branches that never ran".into());
    }
    let top = if m.config.predictor == PredictorKind::OneBit {
        1
    } else {
        3
    };
    if m.predictor.pht.iter().any(|&c| c > top) {
        return Err("a table entry left its range".into());
    }
    if u32::from(m.predictor.ghr) >= 1u32 << m.config.history_bits {
        return Err("the history register holds more outcomes than its length".into());
    }
    // Replaying the same branches on a cold predictor gives the same state.
    let mut p = Predictor::new(
        m.config.predictor,
        m.config.index_bits,
        m.config.history_bits,
    );
    let mut missed = 0;
    for &v in &m.values[..m.next] {
        missed += u32::from(p.resolve(taken(v)).predicted != taken(v));
    }
    if missed != m.mispredicts || p != m.predictor {
        return Err("replaying the branches gives a different predictor".into());
    }
    Ok(())
}
