//! The downloaded figure's SVG elements, written out as text.

/// An SVG element: tag, attributes in order, text, children.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub tag: &'static str,
    pub attrs: Vec<(&'static str, String)>,
    pub text: Option<String>,
    pub children: Vec<Node>,
}

impl Node {
    pub fn new(tag: &'static str) -> Self {
        Node {
            tag,
            attrs: Vec::new(),
            text: None,
            children: Vec::new(),
        }
    }

    pub fn attr(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.attrs.push((name, value.into()));
        self
    }

    pub fn attr_opt(self, name: &'static str, value: Option<impl Into<String>>) -> Self {
        match value {
            Some(v) => self.attr(name, v),
            None => self,
        }
    }

    /// Adds classes (space-separated) to the class attribute; empty adds nothing.
    pub fn class(mut self, class: &str) -> Self {
        let class = class.split_whitespace().collect::<Vec<_>>().join(" ");
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

    pub fn child(mut self, child: Node) -> Self {
        self.children.push(child);
        self
    }

    pub fn children(mut self, children: impl IntoIterator<Item = Node>) -> Self {
        self.children.extend(children);
        self
    }

    /// The element as XML, every text and attribute value escaped.
    pub fn markup(&self, out: &mut String) {
        out.push('<');
        out.push_str(self.tag);
        for (name, value) in &self.attrs {
            out.push(' ');
            out.push_str(name);
            out.push_str("=\"");
            escape_into(value, out);
            out.push('"');
        }
        if self.text.is_none() && self.children.is_empty() {
            out.push_str("/>");
            return;
        }
        out.push('>');
        if let Some(text) = &self.text {
            escape_into(text, out);
        }
        for child in &self.children {
            child.markup(out);
        }
        out.push_str("</");
        out.push_str(self.tag);
        out.push('>');
    }
}

/// Copies `text` in runs between the characters markup must escape.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_escapes_text_and_attributes_and_closes_empty_elements() {
        let mut out = String::new();
        Node::new("g")
            .class(" done  focus ")
            .child(
                Node::new("text")
                    .attr("aria-label", "a \"b\" <c>")
                    .text("x & y ≤ 2"),
            )
            .child(Node::new("circle"))
            .markup(&mut out);
        assert_eq!(
            out,
            "<g class=\"done focus\"><text aria-label=\"a &quot;b&quot; &lt;c&gt;\">\
             x &amp; y ≤ 2</text><circle/></g>"
        );
    }
}
