//! The one mapping from scenes and controls to markup, as plain data: an
//! element tree that the app patches into the live page (by key) and the
//! figure export writes out as text. Both outputs come from the same tree, so
//! the downloaded figure is the picture on screen.

/// An element: HTML or SVG, with a key unique among its siblings.
#[derive(Clone, Debug, PartialEq)]
pub struct El {
    pub tag: &'static str,
    pub svg: bool,
    /// Identity among siblings across renders; the patcher reuses the DOM
    /// node with the same key and tag.
    pub key: String,
    /// Attributes in order. Names starting with `.` are live properties of
    /// form controls (`.value`, `.checked`): the patcher keeps the control in
    /// step with the model; markup writes them as plain attributes.
    pub attrs: Vec<(&'static str, String)>,
    /// Text content (elements with text have no children).
    pub text: Option<String>,
    pub children: Vec<El>,
    /// A stand-in for the element drawn at this key by the previous render,
    /// unchanged since: the patcher keeps that node without comparing it
    /// (see [`El::unchanged`]).
    pub unchanged: bool,
}

impl El {
    pub fn html(tag: &'static str, key: impl Into<String>) -> Self {
        El {
            tag,
            svg: false,
            key: key.into(),
            attrs: Vec::new(),
            text: None,
            children: Vec::new(),
            unchanged: false,
        }
    }

    pub fn svg(tag: &'static str, key: impl Into<String>) -> Self {
        El {
            svg: true,
            ..El::html(tag, key)
        }
    }

    /// Stands for the element the previous render put at `key`, which the
    /// builder knows to be equal to what it would build now (a big picture
    /// rebuilds only what changed). Only for a patch over that render: if
    /// the patcher finds nothing at `key`, it draws an empty group and says
    /// so (`Patcher::patch` in the app), and the caller renders in full.
    pub fn unchanged(key: impl Into<String>) -> Self {
        El {
            unchanged: true,
            ..El::svg("g", key)
        }
    }

    pub fn attr(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.attrs.push((name, value.into()));
        self
    }

    /// Adds the attribute only when there is a value.
    pub fn attr_opt(self, name: &'static str, value: Option<impl Into<String>>) -> Self {
        match value {
            Some(v) => self.attr(name, v),
            None => self,
        }
    }

    /// Adds the attribute only when `on` holds (boolean attributes).
    pub fn flag(self, name: &'static str, on: bool) -> Self {
        if on {
            self.attr(name, "")
        } else {
            self
        }
    }

    /// Adds classes (space-separated) to the class attribute; empty adds nothing.
    pub fn class(mut self, class: &str) -> Self {
        // Usually already one space between names: then no copy to tidy it.
        let tidy = !class.starts_with(' ')
            && !class.ends_with(' ')
            && !class.contains("  ")
            && !class.contains(['\t', '\n', '\r']);
        let class = if tidy {
            class.to_string()
        } else {
            class.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        if class.is_empty() {
            return self;
        }
        match self.attrs.iter_mut().find(|(n, _)| *n == "class") {
            Some((_, existing)) => {
                existing.push(' ');
                existing.push_str(&class);
            }
            None => self.attrs.push(("class", class)),
        }
        self
    }

    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.text = Some(text.into());
        self
    }

    pub fn child(mut self, child: El) -> Self {
        self.children.push(child);
        self
    }

    pub fn children(mut self, children: impl IntoIterator<Item = El>) -> Self {
        self.children.extend(children);
        self
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every element below and including this one, depth first.
    pub fn walk(&self) -> Vec<&El> {
        let mut out = vec![self];
        for child in &self.children {
            out.extend(child.walk());
        }
        out
    }

    /// The element whose `data-testid` is `id`.
    pub fn by_testid(&self, id: &str) -> Option<&El> {
        self.walk()
            .into_iter()
            .find(|e| e.get("data-testid") == Some(id))
    }

    /// All text below this element, in order, separated by spaces.
    pub fn all_text(&self) -> String {
        let mut parts = Vec::new();
        for el in self.walk() {
            if let Some(t) = &el.text {
                parts.push(t.as_str());
            }
        }
        parts.join(" ")
    }

    /// The element as markup (XML-escaped; properties written as attributes).
    ///
    /// Parsed, the markup already holds every live property's value, so the
    /// renderer adopts parsed nodes without setting any: `.checked` is the
    /// `checked` attribute (absent when false: the default checkedness), an
    /// input's `.value` its `value` attribute (which sets the value while the
    /// control is not dirty; HTML Standard, input.html#attr-input-value), and
    /// a select's `.value`, which no attribute of the select holds, is the
    /// `selected` attribute of its option of that value (the option's default
    /// selectedness; form-elements.html#attr-option-selected).
    pub fn markup(&self, out: &mut String) {
        self.markup_within(out, None);
    }

    /// `chosen`: the `.value` of the select this element is an option of.
    fn markup_within(&self, out: &mut String, chosen: Option<&str>) {
        out.push('<');
        out.push_str(self.tag);
        for (name, value) in &self.attrs {
            let name = name.trim_start_matches('.');
            if name == "checked" && value == "false" {
                continue;
            }
            out.push(' ');
            out.push_str(name);
            out.push_str("=\"");
            escape_into(value, out);
            out.push('"');
        }
        if self.tag == "option" && chosen.is_some() && self.get("value") == chosen {
            out.push_str(" selected");
        }
        if self.text.is_none() && self.children.is_empty() && self.svg {
            out.push_str("/>");
            return;
        }
        out.push('>');
        // HTML's void elements take no end tag (the parser ignores a stray
        // `</img>`, but a page should not need that forgiveness).
        if !self.svg && VOID.contains(&self.tag) {
            return;
        }
        if let Some(text) = &self.text {
            escape_into(text, out);
        }
        let chosen = if self.tag == "select" {
            self.get(".value")
        } else {
            None
        };
        for child in &self.children {
            child.markup_within(out, chosen);
        }
        out.push_str("</");
        out.push_str(self.tag);
        out.push('>');
    }
}

/// HTML elements that cannot have content (HTML Standard, 13.1.2 "Elements").
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// Copies `text` in runs between the characters markup must escape: a page's
/// first render escapes some 20–80 KB, in baseline-compiled wasm, where a
/// push per character cost a measurable part of start-up.
fn escape_into(text: &str, out: &mut String) {
    let mut run = 0;
    for (i, b) in text.bytes().enumerate() {
        let escaped = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => continue,
        };
        // `i` is at an ASCII byte, so both slices end on character boundaries.
        out.push_str(&text[run..i]);
        out.push_str(escaped);
        run = i + 1;
    }
    out.push_str(&text[run..]);
}

/// A coordinate as SVG wants it, to one decimal, without Rust's float
/// formatter (which would add ~20 KiB to the wasm for nothing).
pub fn num(v: f32) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    // Written digit by digit: a big picture writes thousands of these per
    // step, and `format!` costs several times as much.
    let tenths = (v * 10.0).round() as i64;
    let t = tenths.unsigned_abs();
    let mut out = String::with_capacity(8);
    if tenths < 0 {
        out.push('-');
    }
    let mut digits = [0_u8; 20];
    let mut at = digits.len();
    let mut whole = t / 10;
    loop {
        at -= 1;
        digits[at] = b'0' + (whole % 10) as u8;
        whole /= 10;
        if whole == 0 {
            break;
        }
    }
    digits[at..].iter().for_each(|&d| out.push(char::from(d)));
    if !t.is_multiple_of(10) {
        out.push('.');
        out.push(char::from(b'0' + (t % 10) as u8));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_joined_by_single_spaces() {
        let el = El::svg("g", "k")
            .class("done focus")
            .class("  hit \t miss ")
            .class(" ");
        assert_eq!(el.get("class"), Some("done focus hit miss"));
    }

    #[test]
    fn numbers_are_written_to_one_decimal() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(-3.25), "-3.3");
        assert_eq!(num(0.04), "0");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(171.55), "171.6");
        assert_eq!(num(f32::NAN), "0");
        assert_eq!(num(-12.0), "-12");
        assert_eq!(num(1_234_567.0), "1234567");
        assert_eq!(num(0.96), "1");
    }

    #[test]
    fn escaping_keeps_every_other_character_around_the_escaped_ones() {
        let mut out = String::new();
        escape_into("\"µs\" <→> a&&b ≤ 2 \"", &mut out);
        assert_eq!(out, "&quot;µs&quot; &lt;→&gt; a&amp;&amp;b ≤ 2 &quot;");
        out.clear();
        escape_into("", &mut out);
        escape_into("plain", &mut out);
        assert_eq!(out, "plain");
    }

    #[test]
    fn markup_escapes_text_and_attributes() {
        let el = El::svg("text", "t")
            .attr("aria-label", "a \"b\" <c>")
            .text("x & y");
        let mut out = String::new();
        el.markup(&mut out);
        assert_eq!(
            out,
            "<text aria-label=\"a &quot;b&quot; &lt;c&gt;\">x &amp; y</text>"
        );
    }

    #[test]
    fn a_select_value_is_its_chosen_option_selected() {
        let mut out = String::new();
        El::html("select", "s")
            .attr(".value", "b")
            .children(["a", "b"].map(|v| El::html("option", v).attr("value", v).text(v)))
            .markup(&mut out);
        assert_eq!(
            out,
            "<select value=\"b\"><option value=\"a\">a</option>\
             <option value=\"b\" selected>b</option></select>"
        );
    }

    #[test]
    fn void_html_elements_have_no_end_tag_and_empty_svg_ones_close_themselves() {
        let mut out = String::new();
        El::html("p", "p")
            .child(El::html("img", "i").attr("alt", ""))
            .child(El::html("input", "n").attr("type", "number"))
            .child(El::svg("circle", "c"))
            .markup(&mut out);
        assert_eq!(out, "<p><img alt=\"\"><input type=\"number\"><circle/></p>");
    }
}
