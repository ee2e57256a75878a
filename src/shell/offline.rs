//! "Make every demo available offline", on the home page. The service
//! worker (scripts/sw.js) keeps the files; this asks it through
//! `window.stackLabOffline`, which the registration script
//! (scripts/offline-head.js) defines where service workers can run, and says
//! what it kept (`views::page::offline`). The asking is cut into the wasm
//! module `ui_offline`, which only the home page fetches: a demo page does
//! not pay for a panel it never shows.

use crate::dom::{flag, h, words, El};
use js_sys::{Function, Promise, Reflect};
use leptos::prelude::*;
use views::page::offline::{kept_sentence, Kept};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The home page's panel: the button, and what the worker kept.
pub fn offline_panel() -> El {
    let said = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    asked("status", said, busy, false);
    h("section")
        .class("offline")
        .testid("offline")
        .child(h("h2").text("Use it offline"))
        .child(h("p").text(
            "A demo you open stays in this browser. Keep them all now, and every demo opens \
             without a network: in a lecture hall, on a train.",
        ))
        .child(
            h("button")
                .set("type", "button")
                .class("btn")
                .testid("offline-all")
                .toggle("disabled", flag(move || busy.get()))
                .on_click(move |_| asked("saveAll", said, busy, true))
                .text("Make every demo available offline"),
        )
        .child(
            h("p")
                .class("offline-status")
                .set("role", "status")
                .testid("offline-status")
                .words(words(move || said.get())),
        )
}

/// The asking, from its module.
#[wasm_split_helpers::wasm_split(ui_offline, wasm_split_path = wasm_split_helpers, fallible)]
fn offline_code() -> Result<Ask, wasm_split_helpers::SplitLoaderError> {
    Ok(ask)
}

type Ask = fn(&'static str, RwSignal<String>, RwSignal<bool>, bool);

/// Fetches the asking's module, then asks; a module that cannot be fetched
/// is said when the learner pressed the button.
fn asked(method: &'static str, said: RwSignal<String>, busy: RwSignal<bool>, pressed: bool) {
    // Native tests render the home page without a browser.
    if cfg!(not(target_arch = "wasm32")) {
        return;
    }
    leptos::task::spawn_local(async move {
        match offline_code().await {
            Ok(ask) => ask(method, said, busy, pressed),
            Err(_) if pressed => {
                said.try_set(kept_sentence(
                    &Kept::Failed("this page's code could not be fetched".into()),
                    true,
                ));
            }
            Err(_) => {}
        }
    });
}

/// Asks the worker `method` (`status` or `saveAll`) and says its answer.
fn ask(method: &'static str, said: RwSignal<String>, busy: RwSignal<bool>, asked: bool) {
    let Some(call) = offline_method(method) else {
        if asked {
            said.set(kept_sentence(&Kept::Unsupported, true));
        }
        return;
    };
    busy.set(asked);
    if asked {
        said.set("Keeping every demo…".into());
    }
    leptos::task::spawn_local(async move {
        let kept = match call.await {
            Ok(reply) => read(&reply),
            Err(e) => Kept::Failed(e.as_string().unwrap_or_else(|| "no answer".into())),
        };
        said.try_set(kept_sentence(&kept, asked));
        busy.try_set(false);
    });
}

/// `window.stackLabOffline[method]()`, as a future; `None` where the
/// registration script did not define it.
fn offline_method(method: &str) -> Option<JsFuture> {
    let window: JsValue = web_sys::window()?.into();
    let api = Reflect::get(&window, &"stackLabOffline".into()).ok()?;
    let f = Reflect::get(&api, &method.into())
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    let promise = f.call0(&api).ok()?.dyn_into::<Promise>().ok()?;
    Some(JsFuture::from(promise))
}

/// The worker's answer: `{saved, total, everyDemo}` or `{error}`.
fn read(reply: &JsValue) -> Kept {
    let field = |name: &str| Reflect::get(reply, &name.into()).unwrap_or(JsValue::UNDEFINED);
    if let Some(error) = field("error").as_string() {
        return Kept::Failed(error);
    }
    let count = |name: &str| field(name).as_f64().map_or(0, |x| x as u32);
    Kept::Files {
        saved: count("saved"),
        total: count("total"),
        every_demo: field("everyDemo").is_truthy(),
    }
}
