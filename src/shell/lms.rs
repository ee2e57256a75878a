//! The lab as a course activity: one section of the SCORM 1.2 package
//! (`make scorm`, scripts/scorm.py), which an LMS launches as
//! `index.html?sco=<section>`.
//!
//! The page finds the LMS's API as the SCORM run-time's discovery
//! algorithm does (an object named `API` in this window or one of its
//! ancestors, then in its opener's chain: Rustici, "SCORM API Discovery
//! Algorithms", scorm.com, which reprints ADL's), starts the
//! session, takes in what the course kept of the learner's lessons, and
//! after each lesson stop tells the course the section's status and score
//! (the rules: `views::page::lms`). The talking is cut into the wasm module
//! `ui_lms`, which only a course activity fetches. Without an LMS the page
//! is the plain lab, and says so on the home page.

use crate::catalogue::{demos_in, section, Section};
use crate::dom::{h, words, El};
use crate::platform::{tab_store, tab_stored};
use crate::router::Location;
use crate::shell::progress;
use js_sys::{Function, Reflect};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use views::page::lesson::Progress;
use views::page::lms::{
    decode_suspend_data, encode_suspend_data, merged, no_course_sentence, session_time,
    unknown_section_sentence, Report,
};
use wasm_bindgen::{JsCast, JsValue};

/// Where a tab remembers that it is a course activity, so a reload of a
/// demo's page (which has no `?sco=`) still reports.
const TAB_KEY: &str = "stack-lab.sco";

/// How many ancestors of a window are searched for the API. The
/// algorithm bounds the walk so a deep or cyclic chain ends; the bound is
/// ours (SCORM 2004's sample uses 500): LMS players nest a SCO a few
/// frames deep, and ten is plenty.
const MAX_PARENTS: usize = 10;

thread_local! {
    /// The section this activity reports on.
    static SECTION: Cell<Option<&'static Section>> = const { Cell::new(None) };
    /// What the home page says of the course.
    static SAID: Cell<Option<RwSignal<String>>> = const { Cell::new(None) };
    /// The course, once it answered.
    static COURSE: RefCell<Option<Course>> = const { RefCell::new(None) };
}

struct Course {
    api: JsValue,
    /// The records the course holds: never lose one this browser forgot.
    kept: Vec<(String, Progress)>,
    /// When the session started (ms since the epoch).
    since: f64,
    finished: bool,
}

/// Starts the course activity `here` names (`?sco=<section>`), or the one
/// this tab already is; `refresh` redraws the page once the course's
/// records are in this browser.
pub fn start(here: &Location, refresh: impl Fn() + 'static) {
    let asked = here.param("sco");
    let id = asked.map(str::to_string).or_else(|| tab_stored(TAB_KEY));
    let Some(id) = id else {
        return;
    };
    let said = RwSignal::new(String::new());
    SAID.set(Some(said));
    let Some(found) = section(&id) else {
        said.set(unknown_section_sentence(&id));
        return;
    };
    tab_store(TAB_KEY, found.id);
    SECTION.set(Some(found));
    run(Act::Begin(Rc::new(refresh)));
}

/// The home page's line about the course, in a course activity.
pub fn note() -> Option<El> {
    let said = SAID.get()?;
    Some(
        h("p")
            .class("lms-note")
            .set("role", "status")
            .testid("lms-note")
            .words(words(move || said.get())),
    )
}

/// A lesson's progress changed in this browser: tell the course.
pub fn progress_changed() {
    if SECTION.get().is_some() {
        run(Act::Report);
    }
}

enum Act {
    Begin(Rc<dyn Fn()>),
    Report,
}

#[wasm_split_helpers::wasm_split(ui_lms, wasm_split_path = wasm_split_helpers, fallible)]
fn course_code() -> Result<fn(Act), wasm_split_helpers::SplitLoaderError> {
    Ok(act)
}

fn run(what: Act) {
    if cfg!(not(target_arch = "wasm32")) {
        return;
    }
    leptos::task::spawn_local(async move {
        match course_code().await {
            Ok(act) => act(what),
            Err(_) => {
                say("The course could not be reached: this page's code could not be fetched.")
            }
        }
    });
}

fn say(text: impl Into<String>) {
    if let Some(said) = SAID.get() {
        said.try_set(text.into());
    }
}

fn act(what: Act) {
    let Some(section) = SECTION.get() else {
        return;
    };
    match what {
        Act::Begin(refresh) => begin(section, refresh),
        Act::Report => report(section),
    }
}

/// Finds the course and starts the session; takes the course's records in.
fn begin(section: &'static Section, refresh: Rc<dyn Fn()>) {
    let started = find_api().filter(|api| call(api, "LMSInitialize", &[""]) == "true");
    let Some(api) = started else {
        say(no_course_sentence(section.title));
        return;
    };
    let kept = decode_suspend_data(&call(&api, "LMSGetValue", &["cmi.suspend_data"]));
    let mut changed = false;
    for demo in demos_in(section.id) {
        let here = progress::kept(demo.slug);
        let course = kept.iter().find(|(s, _)| s == demo.slug).map(|(_, p)| *p);
        if let Some(both) = merged(here, course).filter(|both| Some(*both) != here) {
            progress::keep(demo.slug, Some(&both));
            changed = true;
        }
    }
    COURSE.set(Some(Course {
        api,
        kept,
        since: js_sys::Date::now(),
        finished: false,
    }));
    finish_on_leaving();
    report(section);
    if changed {
        refresh();
    }
}

/// Tells the course the section's status, score and records.
fn report(section: &'static Section) {
    let told = COURSE.with_borrow_mut(|course| {
        let course = course.as_mut().filter(|c| !c.finished)?;
        let records: Vec<(&str, Option<Progress>)> = demos_in(section.id)
            .map(|d| {
                let kept = course
                    .kept
                    .iter()
                    .find(|(s, _)| s == d.slug)
                    .map(|(_, p)| *p);
                (d.slug, merged(progress::kept(d.slug), kept))
            })
            .collect();
        let report = Report::of(&records.iter().map(|(_, p)| *p).collect::<Vec<_>>());
        let begun: Vec<(&str, Progress)> = records
            .iter()
            .filter_map(|(s, p)| Some((*s, (*p)?)))
            .collect();
        let api = &course.api;
        set(api, "cmi.core.lesson_status", report.status());
        if let Some(score) = report.score {
            set(api, "cmi.core.score.raw", &score.to_string());
            set(api, "cmi.core.score.min", "0");
            set(api, "cmi.core.score.max", "100");
        }
        set(api, "cmi.suspend_data", &encode_suspend_data(&begun));
        // "suspend": the learner means to come back, so the LMS keeps the
        // suspend data for the next session (cmi.core.exit, CMIVocabulary
        // "time-out", "suspend", "logout" or "").
        set(
            api,
            "cmi.core.exit",
            if report.completed { "" } else { "suspend" },
        );
        set(api, "cmi.core.session_time", &course.session_time());
        call(api, "LMSCommit", &[""]);
        course.kept = begun.iter().map(|(s, p)| (s.to_string(), *p)).collect();
        Some(report)
    });
    if let Some(report) = told {
        say(report.sentence(section.title));
    }
}

impl Course {
    fn session_time(&self) -> String {
        let seconds = ((js_sys::Date::now() - self.since) / 1000.0).max(0.0);
        session_time(seconds as u64)
    }
}

/// The session ends when the page goes (the LMS closes the activity, or
/// the learner leaves): LMSFinish, once.
fn finish_on_leaving() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let finish = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(|| {
        COURSE.with_borrow_mut(|course| {
            if let Some(course) = course.as_mut().filter(|c| !c.finished) {
                set(&course.api, "cmi.core.session_time", &course.session_time());
                call(&course.api, "LMSFinish", &[""]);
                course.finished = true;
            }
        })
    });
    let _ = window.add_event_listener_with_callback("pagehide", finish.as_ref().unchecked_ref());
    // The page's lifetime.
    finish.forget();
}

/// The LMS's SCORM 1.2 API object (`API`), searched for as the discovery
/// algorithm does: this window and its ancestors, then its opener's.
fn find_api() -> Option<JsValue> {
    let window: JsValue = web_sys::window()?.into();
    api_above(&window).or_else(|| {
        let opener = Reflect::get(&window, &"opener".into()).ok()?;
        (!opener.is_null() && !opener.is_undefined())
            .then(|| api_above(&opener))
            .flatten()
    })
}

/// `API` on `window` or one of its first [`MAX_PARENTS`] ancestors. A
/// window of another origin refuses to be read; its parent may still be
/// asked.
fn api_above(window: &JsValue) -> Option<JsValue> {
    let mut at = window.clone();
    for _ in 0..=MAX_PARENTS {
        if let Ok(api) = Reflect::get(&at, &"API".into()) {
            if api.is_object() {
                return Some(api);
            }
        }
        let parent = Reflect::get(&at, &"parent".into()).ok()?;
        if parent.is_null() || parent.is_undefined() || js_sys::Object::is(&parent, &at) {
            return None;
        }
        at = parent;
    }
    None
}

/// `api.<method>(args…)`, its answer as text ("" when it has none or
/// throws: an LMS's fault never breaks the page).
fn call(api: &JsValue, method: &str, args: &[&str]) -> String {
    let Some(f) = Reflect::get(api, &method.into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
    else {
        return String::new();
    };
    let args: js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    f.apply(api, &args)
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

fn set(api: &JsValue, element: &str, value: &str) {
    call(api, "LMSSetValue", &[element, value]);
}
