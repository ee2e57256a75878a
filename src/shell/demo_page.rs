//! Everything a demo page has besides its own picture and controls: state
//! from the link, the control bar and autoplay clock, keyboard, narration,
//! status line, "why it matters", what the model leaves out, and sharing.

use crate::catalogue::Demo;
use crate::platform::page_url;
use crate::shell::embed::{is_embed, OpenInLab};
use crate::shell::keyboard::{self, Keys, ShortcutsHelp};
use crate::shell::share::SharePanel;
use crate::widgets::control_bar::ControlBar;
use crate::widgets::narration::Narration;
use crate::widgets::status_line::StatusLine;
use crate::widgets::why_panel::WhyPanel;
use demos::{Figure, Model, NarrationLine, Scenario, Timeline, Tone};
use gloo_timers::callback::Interval;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// A handle on a demo's live state, handed to its view. Copy, like a signal.
pub struct Lab<M: Model + 'static> {
    pub timeline: RwSignal<Timeline<M>>,
}

impl<M: Model + 'static> Clone for Lab<M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M: Model + 'static> Copy for Lab<M> {}

impl<M: Model + 'static> Lab<M> {
    /// Sends a learner action; a refusal is narrated by the timeline.
    pub fn act(self, action: M::Action) {
        self.timeline.update(|t| {
            let _ = t.apply(action);
        });
    }

    /// Reads the current model (reactively).
    pub fn with<R>(self, f: impl FnOnce(&M) -> R) -> R {
        self.timeline.with(|t| f(t.model()))
    }

    pub fn config(self) -> M::Config {
        self.timeline.with(|t| t.config().clone())
    }

    /// Starts over with a new configuration (e.g. RX → TX).
    pub fn reconfigure(self, config: M::Config) {
        self.timeline.set(Timeline::new(config));
    }

    /// Whether the latest step's narration points at `key`.
    pub fn in_focus(self, key: &str) -> bool {
        self.timeline.with(|t| {
            let step = t.step_count();
            t.narration()
                .iter()
                .rev()
                .take_while(|l| l.step == step)
                .any(|l| l.tone != Tone::Refused && l.focus.iter().any(|f| f == key))
        })
    }
}

/// A demo's own parts; the host supplies the rest.
pub struct DemoParts<M: Model + 'static> {
    pub visual: fn(Lab<M>) -> AnyView,
    pub controls: fn(Lab<M>) -> AnyView,
}

/// Builds the timeline from `?s=`; a bad link yields the defaults and a notice.
fn initial_timeline<M: Model>(link: Option<String>) -> (Timeline<M>, Option<String>) {
    let Some(text) = link else {
        return (Timeline::new(M::Config::default()), None);
    };
    match Scenario::<M>::decode(&text).and_then(|s| Timeline::from_scenario(&s)) {
        Ok(timeline) => (timeline, None),
        Err(error) => (
            Timeline::new(M::Config::default()),
            Some(format!(
                "This link could not be restored: {error}. The demo opened with its defaults."
            )),
        ),
    }
}

pub fn demo_host<M: Model + 'static>(demo: &'static Demo, parts: DemoParts<M>) -> AnyView {
    let query = use_query_map().get_untracked();
    let embed = is_embed(&query);
    if query.get("debug").as_deref() == Some("panic") {
        // Test hook: proves a crash shows the recovery panel, not a blank page.
        Effect::new(|| panic!("deliberate panic requested with ?debug=panic"));
    }
    let (timeline, notice) = initial_timeline::<M>(query.get("s"));
    let lab = Lab {
        timeline: RwSignal::new(timeline),
    };
    // Only this wiring is generic over the model; the page itself is built once
    // for all demos (see `page`), so the wasm does not hold a copy of
    // the whole page per demo (measured: 9 KiB of 1,060).
    page(Wiring {
        demo,
        embed,
        notice,
        visual: (parts.visual)(lab),
        controls: (parts.controls)(lab),
        leaves_out: M::leaves_out(),
        try_step: Callback::new(move |()| {
            let mut stepped = false;
            lab.timeline.update(|t| stepped = t.step().is_ok());
            stepped
        }),
        back: Callback::new(move |()| {
            lab.timeline.update(|t| {
                t.back();
            })
        }),
        reset: Callback::new(move |()| lab.timeline.update(|t| t.reset())),
        share_url: Signal::derive(move || {
            let encoded = lab.timeline.with(|t| t.scenario().encode());
            format!("{}?s={encoded}", page_url())
        }),
        can_back: Signal::derive(move || lab.timeline.with(|t| t.can_back())),
        step_count: Signal::derive(move || lab.timeline.with(|t| t.step_count())),
        figures: Signal::derive(move || lab.with(|m| m.status())),
        why: Signal::derive(move || lab.with(|m| m.why())),
        lines: Signal::derive(move || lab.timeline.with(|t| t.narration().to_vec())),
    })
}

/// What the page needs from a demo, with the model's type erased.
struct Wiring {
    demo: &'static Demo,
    embed: bool,
    notice: Option<String>,
    visual: AnyView,
    controls: AnyView,
    leaves_out: &'static str,
    /// One automatic step; false when the model is idle (and said why).
    try_step: Callback<(), bool>,
    back: Callback<()>,
    reset: Callback<()>,
    share_url: Signal<String>,
    can_back: Signal<bool>,
    step_count: Signal<usize>,
    figures: Signal<Vec<Figure>>,
    why: Signal<Vec<String>>,
    lines: Signal<Vec<NarrationLine>>,
}

fn page(w: Wiring) -> AnyView {
    let Wiring {
        demo,
        embed,
        notice,
        visual,
        controls,
        leaves_out,
        try_step,
        back,
        reset,
        share_url,
        can_back,
        step_count,
        figures,
        why,
        lines,
    } = w;
    let playing = RwSignal::new(false);
    let speed = RwSignal::new(1.0_f64);
    let help = RwSignal::new(false);

    let step = Callback::new(move |()| {
        if !try_step.run(()) {
            playing.set(false);
        }
    });
    let back = Callback::new(move |()| {
        playing.set(false);
        back.run(());
    });
    let reset = Callback::new(move |()| {
        playing.set(false);
        reset.run(());
    });
    let toggle_play = Callback::new(move |()| playing.update(|p| *p = !*p));

    // The autoplay clock only presses Step; the model decides what a step is.
    let clock = StoredValue::new_local(None::<Interval>);
    Effect::new(move |_| {
        let on = playing.get();
        let period = (1000.0 / speed.get()).round() as u32;
        clock.set_value(None);
        if on {
            clock.set_value(Some(Interval::new(period, move || step.run(()))));
        }
    });

    keyboard::install(Keys {
        toggle_play,
        step,
        back,
        reset,
        help,
    });

    view! {
        <article class="demo" data-testid="demo" data-demo=demo.slug>
            <header class="demo-head">
                <h1>{demo.title}</h1>
                <p class="one-liner">{demo.one_liner}</p>
                {embed.then(|| view! { <OpenInLab href=share_url /> })}
            </header>
            {notice.map(|text| view! { <p class="notice" role="status" data-testid="link-notice">{text}</p> })}
            <div class="demo-body">
                <div class="visual" data-testid="visual">{visual}</div>
                <div class="side">
                    <ControlBar playing speed can_back step_count step back reset toggle_play />
                    <section class="controls" aria-label="Demo controls">{controls}</section>
                </div>
            </div>
            <StatusLine figures />
            <Narration lines />
            <div class="explain">
                <WhyPanel sentences=why />
                <p class="leaves-out" data-testid="leaves-out">{leaves_out}</p>
            </div>
            {(!embed).then(|| view! { <SharePanel url=share_url /> })}
            <ShortcutsHelp open=help />
        </article>
    }
    .into_any()
}
