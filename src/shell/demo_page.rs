//! A demo page, for any demo. Its code arrives first (each demo is a wasm
//! module of its own); the model's type is hidden behind
//! `views::LiveDemo`; the page is one element tree from `views::page`,
//! patched in by the one renderer after every change. Everything the page
//! holds lives in one [`Page`]; every change goes through [`Page::act`] or
//! [`Page::input`] and bumps one version signal, which redraws.

use crate::catalogue::{Demo, Opened};
use crate::platform::{copy_to_clipboard, download, page_url};
use crate::render::events::{self, Sent};
use crate::render::patch::Patcher;
use crate::shell::keyboard;
use gloo_timers::callback::Interval;
use leptos::html::Div;
use leptos::prelude::*;
use views::element::El;
use views::export::{export, file_name};
use views::page::chrome::{page, speed_value, Chrome, SPEEDS};
use views::{Frame, LiveDemo};
use wasm_bindgen::JsCast;

/// The page's own state around the live demo.
struct Page {
    demo: &'static Demo,
    embed: bool,
    notice: Option<String>,
    live: Box<dyn LiveDemo>,
    playing: bool,
    /// Steps per second, in tenths.
    speed: u32,
    help: bool,
    share_shown: bool,
    share_message: String,
    /// What the page last had to say about a control, by control id.
    messages: Vec<(String, String)>,
    clock: Option<Interval>,
    patcher: Option<Patcher>,
    frame: Option<Frame>,
}

type Shared = StoredValue<Page, LocalStorage>;

/// Runs `f` on the page, then redraws.
fn change(page: Shared, version: RwSignal<u32>, f: impl FnOnce(&mut Page)) {
    page.update_value(f);
    version.update(|v| *v = v.wrapping_add(1));
}

impl Page {
    fn say(&mut self, id: &str, message: Option<String>) {
        self.messages.retain(|(k, _)| k != id);
        if let Some(m) = message {
            self.messages.push((id.to_string(), m));
        }
    }

    fn share_url(&self) -> String {
        format!("{}?s={}", page_url(), self.live.link())
    }

    fn draw(&mut self, root: web_sys::Element) {
        let frame = self.live.frame();
        // The last frame drawn is what the page shows: shapes equal to its
        // ones are only stand-ins (see `views::page::scene::figure`). Should
        // the page lack one, draw all.
        let before = self.frame.as_ref().map(|f| &f.scene);
        let tree = self.tree(&frame, before);
        let patcher = self.patcher.get_or_insert_with(|| Patcher::new(root));
        if !patcher.patch(vec![tree]) {
            let tree = self.tree(&frame, None);
            if let Some(patcher) = &mut self.patcher {
                patcher.patch(vec![tree]);
            }
        }
        self.frame = Some(frame);
    }

    /// The whole page for `frame`, built over `before` when there is one.
    fn tree(&self, frame: &Frame, before: Option<&views::Scene>) -> El {
        let status = self.live.status();
        let why = self.live.why();
        let url = self.share_url();
        page(
            &Chrome {
                slug: self.demo.slug,
                title: self.demo.title,
                one_liner: self.demo.one_liner,
                embed: self.embed,
                notice: self.notice.as_deref(),
                playing: self.playing,
                speed: self.speed,
                can_back: self.live.can_back(),
                step_count: self.live.step_count(),
                status: &status,
                narration: self.live.narration(),
                why: &why,
                leaves_out: self.live.leaves_out(),
                share_url: &url,
                share_shown: self.share_shown,
                share_message: &self.share_message,
                help_open: self.help,
                messages: &self.messages,
                before,
            },
            frame,
        )
    }
}

/// A page action: the control bar, keyboard shortcuts, sharing, the figure.
fn act(page: Shared, version: RwSignal<u32>, name: &str) {
    match name {
        "step" => change(page, version, |p| {
            if !p.live.step() {
                p.playing = false;
                p.clock = None;
            }
        }),
        "play" => {
            let playing = page.with_value(|p| !p.playing);
            let period = page.with_value(|p| 10_000 / p.speed.max(1));
            change(page, version, |p| {
                p.playing = playing;
                // The clock only presses Step; the model decides what a step is.
                p.clock =
                    playing.then(|| Interval::new(period, move || act(page, version, "step")));
            });
        }
        "back" | "reset" => change(page, version, |p| {
            p.playing = false;
            p.clock = None;
            if name == "back" {
                p.live.back();
            } else {
                p.live.reset();
                p.messages.clear();
            }
        }),
        "help" => change(page, version, |p| p.help = !p.help),
        "help-close" => change(page, version, |p| p.help = false),
        "download" => page.with_value(|p| {
            if let Some(frame) = &p.frame {
                download(&file_name(p.demo.slug), &export(&frame.scene));
            }
        }),
        "copy" => {
            let url = page.with_value(|p| p.share_url());
            change(page, version, |p| p.share_shown = true);
            copy_to_clipboard(&url, move |copied| {
                change(page, version, |p| {
                    p.share_message = if copied {
                        "Link copied. It reopens this demo exactly as it is now.".into()
                    } else {
                        "The browser blocked the clipboard: copy the link from the box.".into()
                    }
                })
            });
        }
        _ => {}
    }
}

/// A new autoplay speed; a running clock restarts at it.
fn set_speed(page: Shared, version: RwSignal<u32>, value: &str) {
    let Some((tenths, _)) = SPEEDS.iter().find(|(t, _)| speed_value(*t) == value) else {
        return;
    };
    let tenths = *tenths;
    change(page, version, |p| {
        p.speed = tenths;
        if p.playing {
            let period = 10_000 / tenths.max(1);
            p.clock = Some(Interval::new(period, move || act(page, version, "step")));
        }
    });
}

/// What the learner did to a control or a shape.
fn input(page: Shared, version: RwSignal<u32>, sent: Sent) {
    match sent {
        Sent::Send(id, slot, input) => change(page, version, |p| {
            let result = p.live.send(slot, &input);
            p.say(&id, result.err());
        }),
        Sent::Check(id, slot, input) => change(page, version, |p| {
            let result = p.live.check(slot, &input);
            p.say(&id, result.err());
        }),
        Sent::Note(id, text) => change(page, version, |p| p.say(&id, Some(text))),
    }
}

/// Where the demo's code is: being fetched, failed to arrive, or running.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arrival {
    Fetching,
    Failed,
    Running,
}

/// A demo page: fetches the demo's own wasm module (see `split_open!` in
/// `catalogue`), then hands the opened demo to [`LivePage`]. A failed fetch
/// says so and offers to try again; a failure is never cached.
#[component]
pub fn DemoPage(
    demo: &'static Demo,
    embed: bool,
    link: Option<String>,
    panic: bool,
) -> impl IntoView {
    if panic {
        // Test hook: proves a crash shows the recovery panel, not a blank page.
        Effect::new(|| panic!("deliberate panic requested with ?debug=panic"));
    }
    let arrival = RwSignal::new(Arrival::Fetching);
    let opened = StoredValue::new_local(None::<Opened>);
    let fetch = move || {
        arrival.set(Arrival::Fetching);
        let loading = (demo.open.load)(link.clone());
        leptos::task::spawn_local(async move {
            // `try_`: the learner may have left the page meanwhile.
            match loading.await {
                Ok(demo) => {
                    opened.try_set_value(Some(demo));
                    arrival.try_set(Arrival::Running);
                }
                Err(_) => {
                    arrival.try_set(Arrival::Failed);
                }
            }
        });
    };
    fetch();
    move || match arrival.get() {
        Arrival::Fetching => view! {
            <p class="demo-fetching" role="status" data-testid="demo-fetching">
                "Loading the " {demo.title} " model…"
            </p>
        }
        .into_any(),
        Arrival::Failed => {
            let retry = fetch.clone();
            view! {
                <div class="notice demo-failed" role="alert" data-testid="demo-failed">
                    <p>"The code of " {demo.title} " could not be fetched: the network or the server failed."</p>
                    <button class="btn primary" on:click=move |_| retry()>"Try again"</button>
                </div>
            }
            .into_any()
        }
        Arrival::Running => match opened.try_update_value(Option::take).flatten() {
            Some((live, notice)) => view! { <LivePage demo embed live notice /> }.into_any(),
            None => ().into_any(),
        },
    }
}

/// The page of a running demo.
#[component]
fn LivePage(
    demo: &'static Demo,
    embed: bool,
    live: Box<dyn LiveDemo>,
    notice: Option<String>,
) -> impl IntoView {
    let page: Shared = StoredValue::new_local(Page {
        demo,
        embed,
        notice,
        live,
        playing: false,
        speed: 10,
        help: false,
        share_shown: false,
        share_message: String::new(),
        messages: Vec::new(),
        clock: None,
        patcher: None,
        frame: None,
    });
    let version = RwSignal::new(0_u32);
    keyboard::install(
        move |name| act(page, version, name),
        move || page.with_value(|p| p.help),
    );

    let root = NodeRef::<Div>::new();
    Effect::new(move |_| {
        version.track();
        if let Some(root) = root.get() {
            page.update_value(|p| p.draw(root.into()));
        }
    });

    let on_click = move |e: web_sys::MouseEvent| {
        let action = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("button[data-act]").ok().flatten())
            .and_then(|el| el.get_attribute("data-act"));
        match action {
            Some(name) => act(page, version, &name),
            None => events::on_click(&e)
                .into_iter()
                .for_each(|s| input(page, version, s)),
        }
    };
    let on_change = move |e: web_sys::Event| {
        let target = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        if let Some(t) = target.filter(|t| t.get_attribute("data-act").as_deref() == Some("speed"))
        {
            let value = js_sys::Reflect::get(t.as_ref(), &"value".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            set_speed(page, version, &value);
            return;
        }
        events::on_change(&e)
            .into_iter()
            .for_each(|s| input(page, version, s));
    };

    view! {
        <div class="demo-root" node_ref=root
            on:click=on_click
            on:change=on_change
            on:keydown=move |e| events::on_key(&e).into_iter().for_each(|s| input(page, version, s))
            on:input=move |e| events::on_input(&e).into_iter().for_each(|s| input(page, version, s))
            on:submit=move |e: web_sys::SubmitEvent| events::on_submit(&e).into_iter().for_each(|s| input(page, version, s))></div>
    }
}
