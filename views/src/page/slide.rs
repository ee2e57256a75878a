//! The slide API: what a page that frames a demo (a reveal.js deck, an LMS)
//! may ask it with `postMessage`, and what the demo tells it back. Shaped
//! after reveal.js's own postMessage API (reveal.js `js/reveal.js`,
//! `setupPostMessage`: `{"method": …, "args": […]}`, posted as a JSON
//! string), in a namespace of our own:
//!
//! ```text
//! parent → demo  {"namespace":"stack-lab","method":"step","args":[],"id":7}
//! demo → parent  {"namespace":"stack-lab","id":7,"result":{"step":1,…}}
//! demo → parent  {"namespace":"stack-lab","event":"stepped","state":{…}}
//! ```
//!
//! Plain data here: the page reads a message's four fields into a
//! [`Message`] (never running or inserting anything it holds), [`heard`]
//! says what it asks, and [`answer`], [`event`] and [`key_event`] write what
//! the demo posts.

use super::chrome::{speed_value, SPEEDS};
use super::json::Json;

/// Every message of the API carries this `namespace`; others are ignored.
pub const NAMESPACE: &str = "stack-lab";

/// The longest message string the page parses, in bytes. Every request
/// fits in far less (a share link is a few hundred characters); a longer
/// one is ignored without being parsed.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// The longest text the page reads from a message field, in bytes.
pub const MAX_TEXT_BYTES: usize = 8 * 1024;

/// The most arguments the page reads from a message: one more than any
/// method takes, so that too many is still seen.
pub const MAX_ARGS: usize = 2;

/// A message field as the page read it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A finite number.
    Number(f64),
    Text(String),
    /// Anything else: absent, null, a list, an object, a text too long.
    Other,
}

/// A message as the page read it from `MessageEvent.data` (an object, or
/// the JSON text of one).
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub namespace: Value,
    pub method: Value,
    /// `args`, at most [`MAX_ARGS`] + 1 of them; a single [`Value::Other`]
    /// when `args` is there but not a list.
    pub args: Vec<Value>,
    /// `id`: absent is `None`.
    pub id: Option<Value>,
}

/// What a request asks.
#[derive(Clone, Debug, PartialEq)]
pub enum Method {
    Step,
    Back,
    Reset,
    Play,
    Pause,
    /// Autoplay speed, in tenths of a step a second (one of [`SPEEDS`]).
    Speed(u32),
    /// A share link's state value (`v1.…`), to open.
    Open(String),
    /// A lesson stop, counted from 1 (whether the lesson has it is
    /// `lesson::stop_index`'s to say).
    Stop(usize),
    /// Only the state.
    State,
}

/// The id a request is answered with: a whole number (one JavaScript holds
/// exactly) or a text, echoed as sent.
#[derive(Clone, Debug, PartialEq)]
pub enum Id {
    Number(i64),
    Text(String),
}

/// The largest whole number a JavaScript number holds exactly
/// (`Number.MAX_SAFE_INTEGER`, 2^53 − 1).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

impl Id {
    fn json(&self) -> Json {
        match self {
            Id::Number(x) => Json::Number(*x),
            Id::Text(s) => Json::Text(s.clone()),
        }
    }
}

/// What a message is to the demo.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// Not the API's (another namespace, no method, an id that is neither
    /// a whole number nor a text): nothing happens and nothing is answered.
    Ignored,
    /// A request: what it asks, or why it cannot be done; answered when it
    /// has an id.
    Request {
        method: Result<Method, String>,
        id: Option<Id>,
    },
}

/// What `message` asks of the demo.
pub fn heard(message: &Message) -> Heard {
    if message.namespace != Value::Text(NAMESPACE.into()) {
        return Heard::Ignored;
    }
    let Value::Text(name) = &message.method else {
        return Heard::Ignored;
    };
    let id = match &message.id {
        None => None,
        Some(Value::Number(x)) if x.fract() == 0.0 && x.abs() <= MAX_SAFE_INTEGER => {
            Some(Id::Number(*x as i64))
        }
        Some(Value::Text(s)) => Some(Id::Text(s.clone())),
        Some(Value::Number(_) | Value::Other) => return Heard::Ignored,
    };
    Heard::Request {
        method: method(name, &message.args),
        id,
    }
}

/// The method `name` with `args`, or why not.
fn method(name: &str, args: &[Value]) -> Result<Method, String> {
    let none = |m: Method| {
        if args.is_empty() {
            Ok(m)
        } else {
            Err(format!("\"{name}\" takes no arguments"))
        }
    };
    match name {
        "step" => none(Method::Step),
        "back" => none(Method::Back),
        "reset" => none(Method::Reset),
        "play" => none(Method::Play),
        "pause" => none(Method::Pause),
        "state" => none(Method::State),
        "speed" => match args {
            [Value::Number(x)] => speed(*x).map(Method::Speed),
            _ => Err(format!("\"speed\" takes one number: {}", speeds())),
        },
        "open" => match args {
            [Value::Text(link)] => state_value(link).map(|v| Method::Open(v.to_string())),
            _ => Err("\"open\" takes one text: a share link, or its s= value".into()),
        },
        "stop" => match args {
            [Value::Number(x)] if x.fract() == 0.0 && *x >= 1.0 && *x <= u32::MAX as f64 => {
                Ok(Method::Stop(*x as usize))
            }
            _ => Err("\"stop\" takes one whole number: the lesson stop, counted from 1".into()),
        },
        _ => Err(format!(
            "no method \"{}\"; the methods are step, back, reset, play, pause, speed, open, stop and state",
            clipped(name)
        )),
    }
}

/// A name as an error message quotes it: at most 40 characters.
pub(crate) fn clipped(name: &str) -> String {
    const LONGEST: usize = 40;
    match name.char_indices().nth(LONGEST) {
        Some((at, _)) => format!("{}…", &name[..at]),
        None => name.to_string(),
    }
}

/// The autoplay speed `steps` a second stands for, in tenths.
fn speed(steps: f64) -> Result<u32, String> {
    SPEEDS
        .iter()
        .map(|(tenths, _)| *tenths)
        .find(|tenths| f64::from(*tenths) / 10.0 == steps)
        .ok_or_else(|| format!("no such speed: {}", speeds()))
}

fn speeds() -> String {
    let all: Vec<String> = SPEEDS.iter().map(|(t, _)| speed_value(*t)).collect();
    format!("steps a second, one of {}", all.join(", "))
}

/// The state value of a share link (`https://…/nic/napi?s=v1.…`) or the
/// value itself (`v1.…`). Whether it opens is the demo's to say.
pub fn state_value(link: &str) -> Result<&str, String> {
    let value = match link.split_once('?') {
        None => link,
        Some((_, query)) => query
            .split(['&', '#'])
            .find_map(|pair| pair.strip_prefix("s="))
            .ok_or("the link has no s= value")?,
    };
    if value.is_empty() {
        return Err("the link's state is empty".into());
    }
    Ok(value)
}

/// A demo's state as the API reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Steps taken since the start (or the last reset).
    pub step: usize,
    pub playing: bool,
    /// The status line's figures: (key, label, value).
    pub status: Vec<(String, String, String)>,
    /// The share link of this state, whole.
    pub link: String,
}

impl State {
    fn json(&self) -> Json {
        let figure = |(key, label, value): &(String, String, String)| {
            Json::Object(vec![
                ("key", Json::Text(key.clone())),
                ("label", Json::Text(label.clone())),
                ("value", Json::Text(value.clone())),
            ])
        };
        Json::Object(vec![
            ("step", Json::Number(self.step as i64)),
            ("playing", Json::Bool(self.playing)),
            (
                "status",
                Json::List(self.status.iter().map(figure).collect()),
            ),
            ("link", Json::Text(self.link.clone())),
        ])
    }
}

/// The answer to request `id`: the state after it, or why it was refused.
pub fn answer(id: &Id, result: Result<&State, &str>) -> String {
    let outcome = match result {
        Ok(state) => ("result", state.json()),
        Err(why) => ("error", Json::Text(why.to_string())),
    };
    Json::Object(vec![
        ("namespace", Json::Text(NAMESPACE.into())),
        ("id", id.json()),
        outcome,
    ])
    .text()
}

/// Something the demo tells its parent unasked, with its state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// The demo is running and listening.
    Ready,
    /// The step count moved (Step, Back, Play, Reset).
    Stepped,
    /// The state changed at the same step count (a control, an open link).
    Changed,
}

/// The event's message.
pub fn event(event: Event, state: &State) -> String {
    let name = match event {
        Event::Ready => "ready",
        Event::Stepped => "stepped",
        Event::Changed => "changed",
    };
    Json::Object(vec![
        ("namespace", Json::Text(NAMESPACE.into())),
        ("event", Json::Text(name.into())),
        ("state", state.json()),
    ])
    .text()
}

/// A key press the demo left alone.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyPress {
    /// `KeyboardEvent.key`.
    pub key: String,
    /// `KeyboardEvent.code`.
    pub code: String,
    /// `KeyboardEvent.keyCode`: legacy, but what reveal.js's `triggerKey`
    /// takes.
    pub key_code: u32,
    pub shift: bool,
    pub alt: bool,
    pub ctrl: bool,
    pub meta: bool,
}

/// Whether a key press the demo did not handle goes to the parent: not
/// Tab, which moves focus within the demo, and not a modifier pressed
/// alone.
pub fn forwards(key: &str) -> bool {
    !matches!(
        key,
        "Tab"
            | "Shift"
            | "Control"
            | "Alt"
            | "AltGraph"
            | "Meta"
            | "CapsLock"
            | "Fn"
            | "Dead"
            | "Unidentified"
            | "Process"
    )
}

/// The message of a key press the demo left alone.
pub fn key_event(press: &KeyPress) -> String {
    Json::Object(vec![
        ("namespace", Json::Text(NAMESPACE.into())),
        ("event", Json::Text("key".into())),
        ("key", Json::Text(press.key.clone())),
        ("code", Json::Text(press.code.clone())),
        ("keyCode", Json::Number(i64::from(press.key_code))),
        ("shiftKey", Json::Bool(press.shift)),
        ("altKey", Json::Bool(press.alt)),
        ("ctrlKey", Json::Bool(press.ctrl)),
        ("metaKey", Json::Bool(press.meta)),
    ])
    .text()
}

#[cfg(test)]
mod tests;
