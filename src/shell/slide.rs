//! The slide API in the page (its messages: `views::page::slide`). A demo in
//! a frame listens to the page that frames it: a slide deck steps it, plays
//! it, opens a share link or a lesson stop, and asks its state. The demo
//! answers each request that has an id, tells the parent when it steps or
//! changes, and hands it the keys it does not use itself, so a deck's keys
//! keep working while focus is inside the demo.
//!
//! Only the parent is heard (a message's `source` must be `window.parent`),
//! and what it sends is only ever read as data: numbers and texts go to the
//! model's own parsers, never into markup or script.

use crate::shell::keyboard;
use crate::shell::page::{Act, Page};
use js_sys::{Array, JsString, Reflect, JSON};
use leptos::ev;
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use views::page::slide::{
    answer, event, forwards, heard, key_event, Event, Heard, KeyPress, Message, Method, State,
    Value, MAX_ARGS, MAX_MESSAGE_BYTES, MAX_TEXT_BYTES,
};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Window};

/// How the parent writes its messages; the demo writes back the same way
/// (reveal.js posts JSON strings).
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Object,
    Text,
}

/// The API's code is cut into the wasm module `ui_slide`
/// (`scripts/split-wasm.sh`): only a framed page fetches it.
#[wasm_split_helpers::wasm_split(ui_slide, wasm_split_path = wasm_split_helpers, fallible)]
fn slide_code() -> Result<fn(Page, Window), wasm_split_helpers::SplitLoaderError> {
    Ok(listen)
}

/// Connects `page` to the page framing it, once the API's code is here. A
/// failed fetch leaves a demo that works as any other, without the API.
pub fn connect(page: Page, parent: Window) {
    let owner = Owner::current();
    leptos::task::spawn_local(async move {
        let Ok(listen) = slide_code().await else {
            return;
        };
        // The learner may have left the page meanwhile.
        if page.step_count.try_get_untracked().is_none() {
            return;
        }
        match owner {
            Some(owner) => owner.with(|| listen(page, parent)),
            None => listen(page, parent),
        }
    });
}

/// Hears the parent's requests and tells it what happens, for as long as
/// the page lasts.
fn listen(page: Page, parent: Window) {
    let form = Rc::new(Cell::new(Form::Object));
    let post = {
        let (parent, form) = (parent.clone(), form.clone());
        move |text: String| send(&parent, &text, form.get())
    };
    let requests = window_event_listener(ev::message, {
        let (post, form) = (post.clone(), form.clone());
        move |e: MessageEvent| {
            let from_parent = e.source().is_some_and(|s| js_sys::Object::is(&s, &parent));
            let Some((message, written)) = from_parent.then(|| read(&e.data())).flatten() else {
                return;
            };
            let Heard::Request { method, id } = heard(&message) else {
                return;
            };
            form.set(written);
            let result = method.and_then(|m| perform(page, m));
            if let Some(id) = id {
                let state = state(page);
                post(answer(
                    &id,
                    result.as_ref().map(|()| &state).map_err(String::as_str),
                ));
            }
        }
    });
    // Keys the demo left alone (its own handler runs first and marks what it
    // used) go up to the parent, unless they were typed into a field.
    let keys = window_event_listener(ev::keydown, {
        let post = post.clone();
        move |e| {
            if e.default_prevented() || keyboard::typed_into_field(&e) || !forwards(&e.key()) {
                return;
            }
            post(key_event(&KeyPress {
                key: e.key(),
                code: e.code(),
                key_code: e.key_code(),
                shift: e.shift_key(),
                alt: e.alt_key(),
                ctrl: e.ctrl_key(),
                meta: e.meta_key(),
            }));
        }
    });
    on_cleanup(move || {
        requests.remove();
        keys.remove();
    });
    post(event(Event::Ready, &state(page)));
    // A step moves the step count; anything else that changes the state
    // changes its link.
    Effect::new(move |before: Option<(usize, String)>| {
        let now = (page.step_count.get(), page.link.get());
        match before {
            Some((step, _)) if step != now.0 => post(event(Event::Stepped, &state(page))),
            Some((_, link)) if link != now.1 => post(event(Event::Changed, &state(page))),
            _ => {}
        }
        now
    });
}

/// Posts `text` to `parent`, as a string or as the object it is the JSON of.
fn send(parent: &Window, text: &str, form: Form) {
    let message = match form {
        Form::Text => JsValue::from_str(text),
        Form::Object => match JSON::parse(text) {
            Ok(object) => object,
            Err(_) => return,
        },
    };
    let _ = parent.post_message(&message, "*");
}

/// A message's fields, read as data, and the form it came in; `None` for
/// what is neither an object nor the JSON text of one.
fn read(data: &JsValue) -> Option<(Message, Form)> {
    let (object, form) = match data.dyn_ref::<JsString>() {
        Some(text) => {
            if text.length() as usize > MAX_MESSAGE_BYTES {
                return None;
            }
            (JSON::parse(&String::from(text)).ok()?, Form::Text)
        }
        None => (data.clone(), Form::Object),
    };
    if !object.is_object() {
        return None;
    }
    let field =
        |name: &str| Reflect::get(&object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    let args = field("args");
    let args = if args.is_undefined() {
        Vec::new()
    } else if Array::is_array(&args) {
        let args = Array::from(&args);
        (0..args.length().min(MAX_ARGS as u32 + 1))
            .map(|i| value(&args.get(i)))
            .collect()
    } else {
        vec![Value::Other]
    };
    let id = field("id");
    let message = Message {
        namespace: value(&field("namespace")),
        method: value(&field("method")),
        args,
        id: (!id.is_undefined() && !id.is_null()).then(|| value(&id)),
    };
    Some((message, form))
}

/// A field's value: a finite number, a text of bounded length, or other.
fn value(v: &JsValue) -> Value {
    if let Some(x) = v.as_f64() {
        return if x.is_finite() {
            Value::Number(x)
        } else {
            Value::Other
        };
    }
    match v.dyn_ref::<JsString>() {
        Some(text) if text.length() as usize <= MAX_TEXT_BYTES => {
            let text = String::from(text);
            if text.len() <= MAX_TEXT_BYTES {
                Value::Text(text)
            } else {
                Value::Other
            }
        }
        _ => Value::Other,
    }
}

/// Does what `method` asks, or says why it could not.
fn perform(page: Page, method: Method) -> Result<(), String> {
    let step = || page.step_count.get_untracked();
    match method {
        Method::Step => {
            let before = step();
            page.act(Act::Step);
            if step() == before {
                return Err(format!("the demo did not step: {}", latest(page)));
            }
        }
        Method::Back => {
            if !page.can_back.get_untracked() {
                return Err("there is no step to go back to".into());
            }
            page.act(Act::Back);
        }
        Method::Reset => page.act(Act::Reset),
        Method::Play => page.set_playing(true),
        Method::Pause => page.set_playing(false),
        Method::Speed(tenths) => page.set_speed(tenths),
        Method::Open(link) => page.load(&link)?,
        Method::Stop(n) => {
            let n = views::lesson::stop_index(n, page.stops())?;
            if !page.show_stop(n, true) {
                return Err(format!("stop {} does not open", n + 1));
            }
        }
        Method::State => {}
    }
    Ok(())
}

/// The newest narration line, which says why a step was refused.
fn latest(page: Page) -> String {
    page.narration
        .with_untracked(|lines| lines.last().map(|l| l.text.clone()))
        .unwrap_or_default()
}

/// The demo's state as the API reports it.
fn state(page: Page) -> State {
    State {
        step: page.step_count.get_untracked(),
        playing: page.playing.get_untracked(),
        status: page.status.with_untracked(|figures| {
            figures
                .iter()
                .map(|f| (f.key.to_string(), f.label.to_string(), f.value.clone()))
                .collect()
        }),
        link: untrack(|| page.share_url()),
    }
}
