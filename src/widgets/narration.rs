//! The narration log: the latest line large, the history below it.

use demos::{NarrationLine, Tone};
use leptos::prelude::*;

/// Tones are told apart by a word as well as a colour.
fn tone_word(tone: Tone) -> (&'static str, &'static str) {
    match tone {
        Tone::Info => ("info", ""),
        Tone::Done => ("done", "Done: "),
        Tone::Warn => ("warn", "Careful: "),
        Tone::Fault => ("fault", "Fault: "),
        Tone::Refused => ("refused", "Refused: "),
    }
}

#[component]
pub fn Narration(lines: Signal<Vec<NarrationLine>>) -> impl IntoView {
    let latest = move || {
        lines.with(|all| {
            all.last().map(|line| {
                let (class, word) = tone_word(line.tone);
                view! {
                    <p class=format!("latest tone-{class}")>
                        <span class="tone-word">{word}</span>
                        {line.text.clone()}
                    </p>
                }
            })
        })
    };
    let latest_tone = move || lines.with(|all| all.last().map(|l| tone_word(l.tone).0));
    let history = move || {
        lines.with(|all| {
            all.iter()
                .rev()
                .skip(1)
                .take(200)
                .map(|line| {
                    let (class, word) = tone_word(line.tone);
                    view! {
                        <li class=format!("tone-{class}")>
                            <span class="step-tag">{line.step}</span>
                            <span class="tone-word">{word}</span>
                            {line.text.clone()}
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <section class="narration" aria-label="Narration">
            <div aria-live="polite" aria-atomic="true" data-testid="narration-latest" data-tone=latest_tone>
                {latest}
            </div>
            <details class="history">
                <summary>"Earlier steps"</summary>
                <ol reversed data-testid="narration-history">{history}</ol>
            </details>
        </section>
    }
}
