//! A demo page, for any demo. Its state is one [`Page`]; every change goes
//! through one function that changes it and then redraws it, at once; the
//! one renderer patches the element tree from `views::page` into the page's
//! container. The demo's code arrives first (each demo is a wasm module of
//! its own); meanwhile the same renderer draws "loading", or what failed and
//! a Try again button.

use crate::catalogue::Demo;
use crate::platform::{copy_to_clipboard, download, mark, page_url};
use crate::render::events::{self, Sent};
use crate::render::patch::Patcher;
use crate::shell::{focus, keyboard};
use gloo_timers::callback::{Interval, Timeout};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use views::element::El;
use views::export::{export, file_name};
use views::page::arrival;
use views::page::chrome::{page, speed_value, Chrome, SPEEDS};
use views::{Frame, Layout, LiveDemo};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, EventTarget};

/// Where the demo's code is: being fetched, failed to arrive, or running.
enum Arrival {
    Fetching,
    Failed,
    Running(Box<Running>),
}

/// The page's own state around the running demo.
struct Running {
    notice: Option<String>,
    live: Box<dyn LiveDemo>,
    /// Steps per second, in tenths.
    speed: u32,
    help: bool,
    share_shown: bool,
    share_message: String,
    /// What the page last had to say about a control, by control id.
    messages: Vec<(String, String)>,
    /// The autoplay clock: playing while there is one.
    clock: Option<Interval>,
    /// The last frame drawn: what the page shows.
    frame: Option<Frame>,
    /// What had focus when the shortcuts list opened: it gets it back.
    help_return: Option<Element>,
}

struct Page {
    demo: &'static Demo,
    embed: bool,
    link: Option<String>,
    arrival: Arrival,
    patcher: Patcher,
    /// Draws "Loading…" if the code is still on its way one task later.
    notice_timer: Option<Timeout>,
}

type Shared = Rc<RefCell<Page>>;

/// An event listener the page added, to remove when it stops.
type Listener = (EventTarget, &'static str, Closure<dyn FnMut(Event)>);

/// The running demo page in `root`; dropping it stops the page (its clock,
/// its listeners), as leaving the page does.
pub struct DemoPage {
    page: Shared,
    listeners: Vec<Listener>,
}

impl Drop for DemoPage {
    fn drop(&mut self) {
        for (target, name, listener) in &self.listeners {
            let _ =
                target.remove_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
        }
        if let Ok(mut page) = self.page.try_borrow_mut() {
            if let Arrival::Running(run) = &mut page.arrival {
                run.clock = None;
            }
        }
    }
}

impl DemoPage {
    /// Fetches `demo`'s code and runs it in `root`, opened from the share
    /// link value `link`.
    pub fn start(root: Element, demo: &'static Demo, embed: bool, link: Option<String>) -> Self {
        let page = Rc::new(RefCell::new(Page {
            demo,
            embed,
            link,
            arrival: Arrival::Fetching,
            patcher: Patcher::new(root.clone()),
            notice_timer: None,
        }));
        let weak = Rc::downgrade(&page);
        let on = |target: &EventTarget, name: &'static str, f: fn(&Shared, &Event)| {
            let weak = weak.clone();
            let listener = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
                if let Some(page) = weak.upgrade() {
                    f(&page, &e);
                }
            });
            let _ =
                target.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
            (target.clone(), name, listener)
        };
        let root: &EventTarget = root.as_ref();
        let mut listeners = vec![
            on(root, "click", on_click),
            on(root, "change", on_change),
            on(root, "keydown", |p, e| {
                let Some(key) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                if !events::rove(key) {
                    forward(p, events::on_key(key))
                }
            }),
            on(root, "input", |p, e| forward(p, events::on_input(e))),
            on(root, "submit", |p, e| forward(p, events::on_submit(e))),
        ];
        if let Some(window) = web_sys::window() {
            listeners.push(on(window.as_ref(), "keydown", on_shortcut));
            listeners.push(on(window.as_ref(), "resize", on_resize));
        }
        fetch(&page);
        DemoPage { page, listeners }
    }
}

/// Fetches the demo's module (again, after a failure: a failure is never
/// cached), then opens the demo.
///
/// "Loading…" waits one task: on a first visit the module is compiled before
/// the main one starts (scripts/split-head.js), so it opens in this task and
/// the demo is the page's first and only parse into its container, with no
/// notice drawn and removed on the way. Try again says at once that it is on it.
fn fetch(page: &Shared) {
    let (loading, retrying) = {
        let mut p = page.borrow_mut();
        let retrying = matches!(p.arrival, Arrival::Failed);
        p.arrival = Arrival::Fetching;
        ((p.demo.open.load)(p.link.clone()), retrying)
    };
    if retrying {
        redraw(page);
    } else {
        let weak = Rc::downgrade(page);
        let timer = Timeout::new(0, move || {
            if let Some(page) = weak.upgrade() {
                if matches!(page.borrow().arrival, Arrival::Fetching) {
                    redraw(&page);
                }
            }
        });
        page.borrow_mut().notice_timer = Some(timer);
    }
    let weak = Rc::downgrade(page);
    wasm_bindgen_futures::spawn_local(async move {
        let arrived = loading.await;
        // The learner may have left the page meanwhile.
        let Some(page) = weak.upgrade() else { return };
        page.borrow_mut().arrival = match arrived {
            Ok((live, notice)) => {
                mark("stack-lab:demo-open");
                Arrival::Running(Box::new(Running::new(live, notice)))
            }
            Err(_) => Arrival::Failed,
        };
        redraw(&page);
    });
}

impl Running {
    fn new(live: Box<dyn LiveDemo>, notice: Option<String>) -> Self {
        Running {
            notice,
            live,
            speed: 10,
            help: false,
            share_shown: false,
            share_message: String::new(),
            messages: Vec::new(),
            clock: None,
            frame: None,
            help_return: None,
        }
    }

    fn say(&mut self, id: &str, message: Option<String>) {
        self.messages.retain(|(k, _)| k != id);
        if let Some(m) = message {
            self.messages.push((id.to_string(), m));
        }
    }

    fn share_url(&self) -> String {
        format!("{}?s={}", page_url(), self.live.link())
    }

    /// The whole page for `frame`, built over `before` when there is one.
    fn tree(&self, demo: &Demo, embed: bool, frame: &Frame, before: Option<&views::Scene>) -> El {
        let status = self.live.status();
        let why = self.live.why();
        let url = self.share_url();
        page(
            &Chrome {
                slug: demo.slug,
                title: demo.title,
                one_liner: demo.one_liner,
                embed,
                notice: self.notice.as_deref(),
                playing: self.clock.is_some(),
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
                layout: self.live.layout(),
            },
            frame,
        )
    }
}

/// Draws the page as it is now.
fn redraw(page: &Shared) {
    let Ok(mut guard) = page.try_borrow_mut() else {
        return;
    };
    let Page {
        demo,
        embed,
        arrival,
        patcher,
        ..
    } = &mut *guard;
    match arrival {
        Arrival::Fetching => {
            patcher.patch(vec![arrival::fetching(demo.title)]);
        }
        Arrival::Failed => {
            patcher.patch(vec![arrival::failed(demo.title)]);
        }
        Arrival::Running(run) => {
            let first = run.frame.is_none();
            // A phone turned sideways (or a window narrowed) rearranges the
            // figures: their shapes move between layouts, so draw them anew.
            let layout = screen_layout();
            if layout != run.live.layout() {
                run.live.set_layout(layout);
                run.frame = None;
            }
            let frame = run.live.frame();
            if first {
                mark("stack-lab:demo-frame");
            }
            // The last frame drawn is what the page shows: shapes equal to
            // its ones are only stand-ins (see `views::page::scene::figure`).
            // Should the page lack one, draw all.
            let before = run.frame.as_ref().map(|f| &f.scene);
            if !patcher.patch(vec![run.tree(demo, *embed, &frame, before)]) {
                patcher.patch(vec![run.tree(demo, *embed, &frame, None)]);
            }
            run.frame = Some(frame);
            if first {
                mark("stack-lab:demo-drawn");
            }
        }
    }
}

/// The layout for the window the page is in (an embed's is its frame).
fn screen_layout() -> Layout {
    let width = web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64());
    width.map_or(Layout::Wide, Layout::for_screen)
}

/// Redraws when the window crosses into the other layout.
fn on_resize(page: &Shared, _: &Event) {
    let stale = read(page, |run| run.live.layout() != screen_layout()).unwrap_or(false);
    if stale {
        redraw(page);
    }
}

/// Runs `f` on the running demo, then redraws. Focus stays usable: a
/// control that became disabled while it had focus hands it to its
/// neighbour (Back at step 0 → Step), instead of dropping it to the page.
fn change(page: &Shared, f: impl FnOnce(&mut Running)) {
    let focused = focus::active();
    {
        let Ok(mut p) = page.try_borrow_mut() else {
            return;
        };
        let Arrival::Running(run) = &mut p.arrival else {
            return;
        };
        f(run);
    }
    redraw(page);
    if let Some(el) = focused {
        focus::keep(&el);
    }
}

/// Reads the running demo, if the demo is running.
fn read<T>(page: &Shared, f: impl FnOnce(&Running) -> T) -> Option<T> {
    match &page.try_borrow().ok()?.arrival {
        Arrival::Running(run) => Some(f(run)),
        _ => None,
    }
}

/// A clock that presses Step `tenths / 10` times a second; the model
/// decides what a step is.
fn clock(page: &Shared, tenths: u32) -> Interval {
    let weak: Weak<RefCell<Page>> = Rc::downgrade(page);
    Interval::new(10_000 / tenths.max(1), move || {
        if let Some(page) = weak.upgrade() {
            act(&page, "step");
        }
    })
}

/// A page action: the control bar, keyboard shortcuts, sharing, the figure.
fn act(page: &Shared, name: &str) {
    match name {
        "retry" => {
            if matches!(page.borrow().arrival, Arrival::Failed) {
                fetch(page);
            }
        }
        "step" => change(page, |run| {
            if !run.live.step() {
                run.clock = None;
            }
        }),
        "play" => {
            let Some((playing, speed)) = read(page, |run| (run.clock.is_some(), run.speed)) else {
                return;
            };
            let clock = (!playing).then(|| clock(page, speed));
            change(page, |run| run.clock = clock);
        }
        "back" | "reset" => change(page, |run| {
            run.clock = None;
            if name == "back" {
                run.live.back();
            } else {
                run.live.reset();
                run.messages.clear();
            }
        }),
        "help" | "help-close" => {
            let Some(open) = read(page, |run| run.help) else {
                return;
            };
            let opening = name == "help" && !open;
            if !open && !opening {
                return;
            }
            // Opening, the list takes focus; closing, it gives it back.
            let back = if opening { focus::active() } else { None };
            change(page, |run| {
                run.help = opening;
                if opening {
                    run.help_return = back;
                }
            });
            if opening {
                focus::to_testid("shortcuts");
            } else {
                let back = read(page, |run| run.help_return.clone()).flatten();
                change(page, |run| run.help_return = None);
                match back {
                    Some(el) if el.is_connected() => focus::keep(&el),
                    _ => {
                        focus::to_testid("step");
                    }
                }
            }
        }
        "download" => {
            let slug = page.borrow().demo.slug;
            if let Some(Some(svg)) = read(page, |run| run.frame.as_ref().map(|f| export(&f.scene)))
            {
                download(&file_name(slug), &svg);
            }
        }
        "copy" => {
            let Some(url) = read(page, Running::share_url) else {
                return;
            };
            change(page, |run| run.share_shown = true);
            let weak = Rc::downgrade(page);
            copy_to_clipboard(&url, move |copied| {
                let Some(page) = weak.upgrade() else { return };
                change(&page, |run| {
                    run.share_message = if copied {
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
fn set_speed(page: &Shared, value: &str) {
    let Some((tenths, _)) = SPEEDS.iter().find(|(t, _)| speed_value(*t) == value) else {
        return;
    };
    let Some(playing) = read(page, |run| run.clock.is_some()) else {
        return;
    };
    let clock = playing.then(|| clock(page, *tenths));
    change(page, |run| {
        run.speed = *tenths;
        if clock.is_some() {
            run.clock = clock;
        }
    });
}

/// What the learner did to a control or a shape.
fn forward(page: &Shared, sent: Option<Sent>) {
    let Some(sent) = sent else { return };
    change(page, |run| match sent {
        Sent::Send(id, slot, input) => {
            let result = run.live.send(slot, &input);
            run.say(&id, result.err());
        }
        Sent::Check(id, slot, input) => {
            let result = run.live.check(slot, &input);
            run.say(&id, result.err());
        }
        Sent::Note(id, text) => run.say(&id, Some(text)),
    });
}

fn on_click(page: &Shared, e: &Event) {
    let action = e
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|el| el.closest("button[data-act]").ok().flatten())
        .and_then(|el| el.get_attribute("data-act"));
    match action {
        Some(name) => act(page, &name),
        None => forward(page, e.dyn_ref().and_then(events::on_click)),
    }
}

fn on_change(page: &Shared, e: &Event) {
    let target = e.target().and_then(|t| t.dyn_into::<Element>().ok());
    if let Some(t) = target.filter(|t| t.get_attribute("data-act").as_deref() == Some("speed")) {
        let value = events::property(&t, "value")
            .as_string()
            .unwrap_or_default();
        set_speed(page, &value);
        return;
    }
    forward(page, events::on_change(e));
}

fn on_shortcut(page: &Shared, e: &Event) {
    let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
        return;
    };
    let Some(help_open) = read(page, |run| run.help) else {
        return;
    };
    if let Some(name) = keyboard::shortcut(e, help_open) {
        e.prevent_default();
        act(page, name);
    }
}
