//! "Make every demo available offline", on the home page. The service
//! worker (scripts/sw.js) keeps the files; this asks it through
//! `window.stackLabOffline`, which the registration script
//! (scripts/offline.js) defines where service workers can run, and says
//! what it kept (`views::page::offline`).

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
    ask("status", said, busy, false);
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
                .on_click(move |_| ask("saveAll", said, busy, true))
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
    // Native tests render the home page without a browser.
    if cfg!(not(target_arch = "wasm32")) {
        return None;
    }
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
