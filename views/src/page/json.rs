//! JSON text for the messages a demo posts to the page that embeds it
//! (`slide`). Written here rather than with a JSON library: the messages
//! are a handful of flat objects, and a library would add its code to every
//! framed page. The grammar is RFC 8259's: strings escape `"`, `\` and the
//! control characters below U+0020 (section 7). Numbers are whole (section
//! 6): every number the messages carry is a count or an id, and writing a
//! fraction would link Rust's float formatter, about 14 KB of wasm.

use std::fmt::Write;

/// One JSON value, as the messages need them.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A whole number.
    Number(i64),
    Text(String),
    List(Vec<Json>),
    /// Members in the order written.
    Object(Vec<(&'static str, Json)>),
}

impl Json {
    /// The value as JSON text.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(x) => {
                let _ = write!(out, "{x}");
            }
            Json::Text(s) => string(s, out),
            Json::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (name, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    string(name, out);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The value as serde_json reads it back: an independent parser.
    fn read(json: &Json) -> serde_json::Value {
        serde_json::from_str(&json.text()).expect("valid JSON")
    }

    #[test]
    fn objects_keep_their_order_and_nest() {
        let json = Json::Object(vec![
            (
                "b",
                Json::List(vec![Json::Null, Json::Bool(true), Json::Number(-15)]),
            ),
            ("a", Json::Text("x".into())),
        ]);
        assert_eq!(json.text(), r#"{"b":[null,true,-15],"a":"x"}"#);
    }

    proptest! {
        #[test]
        fn any_text_reads_back_as_itself(s in any::<String>()) {
            prop_assert_eq!(read(&Json::Text(s.clone())), serde_json::Value::String(s));
        }

        #[test]
        fn any_whole_number_reads_back_as_itself(x in any::<i64>()) {
            prop_assert_eq!(read(&Json::Number(x)).as_i64(), Some(x));
        }
    }
}
