use super::*;
use proptest::prelude::*;
use serde_json::{json, Value as J};

fn text(s: &str) -> Value {
    Value::Text(s.into())
}

fn ask(method: &str, args: Vec<Value>, id: Option<Value>) -> Heard {
    heard(&Message {
        namespace: text(NAMESPACE),
        method: text(method),
        args,
        id,
    })
}

fn asked(method: &str, args: Vec<Value>) -> Result<Method, String> {
    match ask(method, args, Some(Value::Number(1.0))) {
        Heard::Request { method, .. } => method,
        Heard::Ignored => panic!("{method} was ignored"),
    }
}

fn state() -> State {
    State {
        step: 3,
        playing: false,
        status: vec![("pending".into(), "Pending \"rx\"".into(), "2".into())],
        link: "http://127.0.0.1/nic/napi?s=v1.abc".into(),
    }
}

#[test]
fn every_method_is_read_with_its_arguments() {
    assert_eq!(asked("step", vec![]), Ok(Method::Step));
    assert_eq!(asked("back", vec![]), Ok(Method::Back));
    assert_eq!(asked("reset", vec![]), Ok(Method::Reset));
    assert_eq!(asked("play", vec![]), Ok(Method::Play));
    assert_eq!(asked("pause", vec![]), Ok(Method::Pause));
    assert_eq!(asked("state", vec![]), Ok(Method::State));
    assert_eq!(
        asked("speed", vec![Value::Number(0.5)]),
        Ok(Method::Speed(5))
    );
    assert_eq!(
        asked("speed", vec![Value::Number(4.0)]),
        Ok(Method::Speed(40))
    );
    assert_eq!(
        asked("open", vec![text("v1.abc")]),
        Ok(Method::Open("v1.abc".into()))
    );
    assert_eq!(
        asked(
            "open",
            vec![text("https://x.org/nic/napi?embed=1&s=v1.abc#top")]
        ),
        Ok(Method::Open("v1.abc".into()))
    );
    assert_eq!(asked("stop", vec![Value::Number(2.0)]), Ok(Method::Stop(2)));
}

#[test]
fn wrong_arguments_are_refused_with_what_the_method_takes() {
    assert_eq!(
        asked("step", vec![Value::Number(1.0)]),
        Err("\"step\" takes no arguments".into())
    );
    let speed = asked("speed", vec![Value::Number(3.0)]).unwrap_err();
    assert!(speed.contains("0.5, 1, 2, 4"), "{speed}");
    assert!(asked("speed", vec![text("2")]).is_err());
    assert!(asked("speed", vec![Value::Number(2.0), Value::Number(2.0)]).is_err());
    assert!(asked("stop", vec![Value::Number(0.0)]).is_err());
    assert!(asked("stop", vec![Value::Number(1.5)]).is_err());
    assert!(asked("stop", vec![Value::Number(-1.0)]).is_err());
    assert!(asked("open", vec![text("")]).is_err());
    assert!(asked("open", vec![text("https://x.org/nic/napi?embed=1")]).is_err());
    assert!(asked("open", vec![Value::Other]).is_err());
    let unknown = asked("eval", vec![]).unwrap_err();
    assert!(unknown.starts_with("no method \"eval\""), "{unknown}");
    let long = asked(&"x".repeat(500), vec![]).unwrap_err();
    assert!(long.len() < 200, "an error quotes a clipped name: {long}");
}

#[test]
fn messages_not_of_the_api_are_ignored() {
    let mut m = Message {
        namespace: text("reveal"),
        method: text("step"),
        args: vec![],
        id: None,
    };
    assert_eq!(heard(&m), Heard::Ignored);
    m.namespace = Value::Other;
    assert_eq!(heard(&m), Heard::Ignored);
    m.namespace = text(NAMESPACE);
    m.method = Value::Number(1.0);
    assert_eq!(heard(&m), Heard::Ignored);
    m.method = text("step");
    m.id = Some(Value::Other);
    assert_eq!(heard(&m), Heard::Ignored, "an id it cannot echo");
    m.id = Some(Value::Number(1.5));
    assert_eq!(heard(&m), Heard::Ignored, "an id that is not whole");
    m.id = Some(Value::Number(2f64.powi(60)));
    assert_eq!(
        heard(&m),
        Heard::Ignored,
        "an id JavaScript cannot hold exactly"
    );
    m.id = Some(Value::Number(-9_007_199_254_740_991.0));
    assert_eq!(
        heard(&m),
        Heard::Request {
            method: Ok(Method::Step),
            id: Some(Id::Number(-9_007_199_254_740_991))
        }
    );
    m.id = Some(text("a"));
    assert_eq!(
        heard(&m),
        Heard::Request {
            method: Ok(Method::Step),
            id: Some(Id::Text("a".into()))
        }
    );
}

#[test]
fn answers_and_events_are_the_documented_json() {
    let ok: J = serde_json::from_str(&answer(&Id::Number(7), Ok(&state()))).unwrap();
    assert_eq!(
        ok,
        json!({"namespace": "stack-lab", "id": 7, "result": {
            "step": 3, "playing": false,
            "status": [{"key": "pending", "label": "Pending \"rx\"", "value": "2"}],
            "link": "http://127.0.0.1/nic/napi?s=v1.abc"}})
    );
    let refused: J = serde_json::from_str(&answer(&Id::Text("q".into()), Err("no"))).unwrap();
    assert_eq!(
        refused,
        json!({"namespace": "stack-lab", "id": "q", "error": "no"})
    );
    let stepped: J = serde_json::from_str(&event(Event::Stepped, &state())).unwrap();
    assert_eq!(stepped["event"], "stepped");
    assert_eq!(stepped["state"]["step"], 3);
    let key = KeyPress {
        key: "PageDown".into(),
        code: "PageDown".into(),
        key_code: 34,
        shift: true,
        alt: false,
        ctrl: false,
        meta: false,
    };
    let key: J = serde_json::from_str(&key_event(&key)).unwrap();
    assert_eq!(
        key,
        json!({"namespace": "stack-lab", "event": "key", "key": "PageDown", "code": "PageDown",
               "keyCode": 34, "shiftKey": true, "altKey": false, "ctrlKey": false, "metaKey": false})
    );
}

#[test]
fn tab_and_lone_modifiers_stay_in_the_demo() {
    assert!(forwards("PageDown"));
    assert!(forwards("n"));
    assert!(forwards("Escape"));
    assert!(!forwards("Tab"));
    assert!(!forwards("Shift"));
}

fn any_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<f64>().prop_map(Value::Number),
        any::<String>().prop_map(Value::Text),
        prop_oneof![
            Just("step"),
            Just("speed"),
            Just("open"),
            Just("stop"),
            Just("stack-lab"),
            Just("v1.")
        ]
        .prop_map(|s| Value::Text(s.into())),
        Just(Value::Other),
    ]
}

proptest! {
    /// Whatever a parent sends, reading it never panics, and an answer is
    /// always JSON with the request's id.
    #[test]
    fn any_message_is_read_and_answered_in_json(
        namespace in any_value(),
        method in any_value(),
        args in prop::collection::vec(any_value(), 0..=MAX_ARGS + 1),
        id in prop::option::of(any_value()),
    ) {
        let message = Message { namespace, method, args, id };
        if let Heard::Request { method, id: Some(id) } = heard(&message) {
            let said = match &method {
                Ok(_) => answer(&id, Ok(&state())),
                Err(why) => answer(&id, Err(why)),
            };
            let back: J = serde_json::from_str(&said).unwrap();
            prop_assert_eq!(&back["namespace"], "stack-lab");
            prop_assert!(back.get("result").is_some() != back.get("error").is_some());
            if let Id::Text(s) = &id {
                prop_assert_eq!(back["id"].as_str(), Some(s.as_str()));
            }
        }
    }
}
